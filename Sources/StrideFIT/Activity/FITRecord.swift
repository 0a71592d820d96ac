/// A FIT `record` message (global number 20): one reading of the activity, about a second
/// apart — time, position, altitude, heart rate, cadence, distance.
public struct FITRecord: Hashable, Sendable {
    public var timestamp: FITDateTime?
    /// Degrees.
    public var latitude: Double?
    /// Degrees.
    public var longitude: Double?
    /// Metres: `enhanced_altitude` where the file has it, else `altitude`.
    public var altitude: Double?
    /// Beats per minute.
    public var heartRate: Int?
    /// Steps (or revolutions) per minute, as written: a running watch writes strides, half
    /// the steps.
    public var cadence: Int?
    /// Metres from the start.
    public var distance: Double?

    /// Reads a `record` message.
    init(_ message: FITMessage) {
        timestamp = message.timestamp
        let semicircles = 180.0 / 2_147_483_648
        latitude = message.signed(0).flatMap { $0 == Int64(Int32.max) ? nil : Double($0) * semicircles }
        longitude = message.signed(1).flatMap { $0 == Int64(Int32.max) ? nil : Double($0) * semicircles }
        altitude = message.scaled(78, scale: 5, offset: 500) ?? message.scaled(2, scale: 5, offset: 500)
        heartRate = message.unsigned(3).map { Int($0) }
        cadence = message.unsigned(4).map { Int($0) }
        distance = message.scaled(5, scale: 100)
    }
}
