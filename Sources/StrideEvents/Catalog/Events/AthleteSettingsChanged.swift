/// The runner set their heart-rate settings: the maximum and the resting heart rate that the
/// training log's zones and load are computed with.
///
/// A change holds from its day (``from``) until the next dated change; one without a day holds
/// for all time before any dated change. So a change dated 2023 leaves the 2021 runs as they
/// were. Each figure is set on its own: a change that gives only one leaves the other as it was.
///
/// Schema history: version 2 adds the device that sent it (``sentBy``); see
/// ``SentThroughServer``.
public struct AthleteSettingsChanged: SentThroughServer {
    public static let eventType = EventType.athleteSettingsChanged
    public static let schemaVersion: UInt16 = 2

    /// The maximum heart rate, in beats per minute, when set.
    public var maximumHeartRate: Double?
    /// The resting heart rate, in beats per minute, when set.
    public var restingHeartRate: Double?
    /// The first local day it holds for; nil for all time.
    public var from: CivilDate?
    /// The device that sent it through the server; nil when set on the machine.
    public var sentBy: String?

    /// Creates the payload.
    public init(maximumHeartRate: Double?, restingHeartRate: Double?, from: CivilDate?, sentBy: String? = nil) {
        self.maximumHeartRate = maximumHeartRate
        self.restingHeartRate = restingHeartRate
        self.from = from
        self.sentBy = sentBy
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(optional: maximumHeartRate) { $0.write($1) }
        writer.write(optional: restingHeartRate) { $0.write($1) }
        writer.write(optional: from) { $0.write(signedVarint: $1.daysSince1970) }
        writer.write(sender: sentBy)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        maximumHeartRate = try reader.readOptional { try $0.readDouble() }
        restingHeartRate = try reader.readOptional { try $0.readDouble() }
        from = try reader.readOptional { CivilDate(daysSince1970: try $0.readSignedVarint()) }
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
    }

    public var json: JSONValue {
        .object(
            [
                "maximumHeartRate": maximumHeartRate.map(JSONValue.number) ?? .null,
                "restingHeartRate": restingHeartRate.map(JSONValue.number) ?? .null,
                "from": from.map { .string($0.description) } ?? .null,
            ], sentBy: sentBy)
    }
}
