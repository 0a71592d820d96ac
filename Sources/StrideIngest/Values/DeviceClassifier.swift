import StrideEvents

/// Which class of device wrote a sample: `watch` when the device says `model:Watch`,
/// `phone` for `model:iPhone`; with no device, a source name containing "Watch" or "iPhone"
/// decides; otherwise `other`.
enum DeviceClassifier {
    static func classify(device: String?, sourceName: String) -> DeviceClass {
        if let device {
            if device.contains("model:Watch") { return .watch }
            if device.contains("model:iPhone") { return .phone }
            return .other
        }
        if sourceName.contains("Watch") { return .watch }
        if sourceName.contains("iPhone") { return .phone }
        return .other
    }
}
