/// The device that recorded a file: the `device_info` message of device index 0 (the
/// creator), else the `file_id`'s manufacturer and product.
public struct FITDevice: Hashable, Sendable {
    /// The manufacturer's number.
    public var manufacturer: UInt16?
    /// The product's number.
    public var product: UInt16?
    /// The product's name as the device writes it, when it does.
    public var productName: String?
    /// The software version (e.g. 4.2).
    public var softwareVersion: Double?
    /// The serial number.
    public var serialNumber: UInt32?

    /// Creates a device from its values.
    public init(
        manufacturer: UInt16?, product: UInt16?, productName: String? = nil, softwareVersion: Double? = nil, serialNumber: UInt32? = nil
    ) {
        self.manufacturer = manufacturer
        self.product = product
        self.productName = productName
        self.softwareVersion = softwareVersion
        self.serialNumber = serialNumber
    }

    /// Reads a `device_info` message (global number 23).
    init(deviceInfo message: FITMessage) {
        manufacturer = message.unsigned(2).map { UInt16(truncatingIfNeeded: $0) }
        product = message.unsigned(4).map { UInt16(truncatingIfNeeded: $0) }
        productName = message.string(27)
        softwareVersion = message.scaled(5, scale: 100)
        serialNumber = message.unsigned(3).map { UInt32(truncatingIfNeeded: $0) }
    }

    /// "Garmin Forerunner 965", "Wahoo Fitness product 28": the manufacturer's name and the
    /// product's, as a person would say them.
    public var name: String {
        let maker = FITNames.manufacturerDisplayName(manufacturer)
        if let productName, !productName.isEmpty { return productName.hasPrefix(maker) ? productName : "\(maker) \(productName)" }
        if let product, let known = FITNames.productDisplayName(manufacturer: manufacturer, product: product) { return "\(maker) \(known)" }
        return product.map { "\(maker) product \($0)" } ?? maker
    }
}
