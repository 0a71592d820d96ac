/// A FIT file's `file_id` message: what the file is and which device wrote it when. The
/// serial number and creation time together name the file whatever it is called on disk.
public struct FITFileID: Hashable, Sendable {
    /// The file type (4 is an activity).
    public var type: UInt8?
    /// The manufacturer's number (1 Garmin, 32 Wahoo Fitness…), see ``FITNames``.
    public var manufacturer: UInt16?
    /// The manufacturer's product number.
    public var product: UInt16?
    /// The device's serial number.
    public var serialNumber: UInt32?
    /// When the file was created.
    public var timeCreated: FITDateTime?
    /// The file's number, for files that are not unique by their time.
    public var number: UInt16?
    /// The product's name, when the writer gives one.
    public var productName: String?

    /// Reads a `file_id` message (global number 0).
    init(_ message: FITMessage) {
        type = message.unsigned(0).map { UInt8(truncatingIfNeeded: $0) }
        manufacturer = message.unsigned(1).map { UInt16(truncatingIfNeeded: $0) }
        product = message.unsigned(2).map { UInt16(truncatingIfNeeded: $0) }
        serialNumber = message.unsigned(3).map { UInt32(truncatingIfNeeded: $0) }
        timeCreated = message.dateTime(4)
        number = message.unsigned(5).map { UInt16(truncatingIfNeeded: $0) }
        productName = message.string(8)
    }

    /// Creates a file id from its values.
    public init(
        type: UInt8? = 4, manufacturer: UInt16?, product: UInt16?, serialNumber: UInt32?, timeCreated: FITDateTime?,
        number: UInt16? = nil, productName: String? = nil
    ) {
        self.type = type
        self.manufacturer = manufacturer
        self.product = product
        self.serialNumber = serialNumber
        self.timeCreated = timeCreated
        self.number = number
        self.productName = productName
    }
}
