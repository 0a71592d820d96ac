import StrideEvents

/// Which class of device wrote a sample: `watch` when the device says `model:Watch`,
/// `phone` for `model:iPhone`; with no device, a source name containing "Watch" or "iPhone"
/// decides; otherwise `other`.
enum DeviceClassifier {
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
