import StrideEvents

/// Which class of device wrote a sample: `watch` when the device says `model:Watch`,
/// `phone` for `model:iPhone`; with no device, a source name containing "Watch" or "iPhone"
/// decides; otherwise `other`.
struct DeviceClassifier {
    /// The last few devices and source names classified, with their classes: an export
    /// repeats a handful of them (the very same strings, from the reader's table) in every
    /// record, and a 140-byte device description need not be searched each time.
    private var recent: [(device: String?, sourceName: String, deviceClass: DeviceClass)] = []

    /// ``classify(device:sourceName:)``, remembering the last few answers.
    mutating func classifyRemembering(device: String?, sourceName: String) -> DeviceClass {
        if let known = recent.firstIndex(where: { $0.device.hasSameBytes(as: device) && $0.sourceName.hasSameBytes(as: sourceName) }) {
            // The very strings from now on (each batch's string table makes new ones): the next
            // records compare addresses, not bytes.
            if !recent[known].sourceName.isSameString(as: sourceName) || !(recent[known].device?.isSameString(as: device ?? "") ?? true) {
                recent[known].device = device
                recent[known].sourceName = sourceName
            }
            return recent[known].deviceClass
        }
        let deviceClass = Self.classify(device: device, sourceName: sourceName)
        if recent.count == 4 { recent.removeLast() }
        recent.insert((device, sourceName, deviceClass), at: 0)
        return deviceClass
    }

    static func classify(device: String?, sourceName: String) -> DeviceClass {
        if let device {
            if contains(device, "model:Watch") { return .watch }
            if contains(device, "model:iPhone") { return .phone }
            return .other
        }
        if contains(sourceName, "Watch") { return .watch }
        if contains(sourceName, "iPhone") { return .phone }
        return .other
    }

    /// A byte search: Foundation's `contains` goes through NSString and costs more than the
    /// rest of reading a record.
    private static func contains(_ text: String, _ needle: StaticString) -> Bool {
        var text = text
        return text.withUTF8 { XMLScanner.find(needle, in: UnsafeRawBufferPointer($0), from: 0) != nil }
    }
}
