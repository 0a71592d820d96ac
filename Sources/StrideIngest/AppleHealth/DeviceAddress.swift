/// The memory address an export prints at the head of a `device` description
/// (`<<HKDevice: 0x2837545f0>, name:iPhone, …>`): the address of the `HKDevice` object in the
/// phone's memory while it wrote the export, new in every export. It names nothing about the
/// device, so a record's identity leaves it out and keeps the rest of the description (name,
/// manufacturer, model, hardware, software, local identifier).
enum DeviceAddress {
    private static let head = Array("<<HKDevice: 0x".utf8)

    /// The description without its address's hexadecimal digits
    /// (`<<HKDevice: 0x>, name:iPhone, …>`), or nil when it prints no address (no `device`
    /// at all, a description of another form, or one already printed as `0x,`).
    static func removed(from device: String) -> String? {
        var device = device
        return device.withUTF8 { bytes -> String? in
            let digits = addressDigits(in: UnsafeRawBufferPointer(bytes))
            guard !digits.isEmpty else { return nil }
            var kept = [UInt8](bytes[..<digits.lowerBound])
            kept.append(contentsOf: bytes[digits.upperBound...])
            return String(decoding: kept, as: UTF8.self)
        }
    }

    /// Whether the description prints an address.
    static func isPrinted(in device: String?) -> Bool {
        guard var device else { return false }
        return device.withUTF8 { !addressDigits(in: UnsafeRawBufferPointer($0)).isEmpty }
    }

    /// The range of the address's hexadecimal digits after `<<HKDevice: 0x` (empty when none).
    private static func addressDigits(in bytes: UnsafeRawBufferPointer) -> Range<Int> {
        guard bytes.count > head.count, bytes.starts(with: head) else { return 0..<0 }
        var end = head.count
        while end < bytes.count, isHexDigit(bytes[end]) { end += 1 }
        return head.count..<end
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (97...102).contains(byte) || (65...70).contains(byte)
    }
}
