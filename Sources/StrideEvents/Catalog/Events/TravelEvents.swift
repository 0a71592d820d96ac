import Foundation

/// The runner said where they lived for a while: from a local date (and until one, or for
/// good) their days are cut in this zone. The runner's word beats what a file implies.
public struct TravelPeriodSet: EventPayload {
    public static let eventType = EventType.travelPeriodSet
    public static let schemaVersion: UInt16 = 1

    /// The zone's identifier (`Asia/Bangkok`).
    public var zone: String
    /// The first date lived there.
    public var from: CivilDate
    /// The first date no longer lived there; nil for good.
    public var to: CivilDate?

    /// Creates the payload.
    public init(zone: String, from: CivilDate, to: CivilDate?) {
        self.zone = zone
        self.from = from
        self.to = to
    }

    /// The period, when this Stride knows the zone.
    public var period: ZonePeriod? {
        TimeZone(identifier: zone).map { ZonePeriod($0, from: from, to: to) }
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(zone)
        writer.write(signedVarint: from.daysSince1970)
        writer.write(optional: to) { $0.write(signedVarint: $1.daysSince1970) }
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        zone = try reader.readString()
        from = CivilDate(daysSince1970: try reader.readSignedVarint())
        to = try reader.readOptional { CivilDate(daysSince1970: try $0.readSignedVarint()) }
    }

    public var json: JSONValue {
        .object(["zone": .string(zone), "from": .string(from.description), "to": to.map { .string($0.description) } ?? .null])
    }
}

/// The runner took back a period they had set (the sequence of its `travel.periodSet`).
public struct TravelPeriodRemoved: EventPayload {
    public static let eventType = EventType.travelPeriodRemoved
    public static let schemaVersion: UInt16 = 1

    /// The sequence of the `travel.periodSet` event taken back.
    public var period: UInt64

    /// Creates the payload.
    public init(period: UInt64) {
        self.period = period
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(varint: period)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        period = try reader.readVarint()
    }

    public var json: JSONValue { .object(["period": .number(Double(period))]) }
}

/// What the clocks of a file's inputs showed (`HKTimeZone`, a FIT file's local time, Garmin's
/// local times, a pushed date's offset): evidence of where the runner lived, from which the
/// zone timeline learns periods away from home. Appended once a file is read, holding only
/// what the ledger did not know.
public struct ZonesObserved: EventPayload {
    public static let eventType = EventType.zonesObserved
    public static let schemaVersion: UInt16 = 1

    /// The file they were read from, as named to the ingest.
    public var file: String
    /// What the clocks showed, in time order.
    public var observations: [ZoneObservation]

    /// Creates the payload.
    public init(file: String, observations: [ZoneObservation]) {
        self.file = file
        self.observations = observations
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(file)
        writer.write(varint: UInt64(observations.count))
        for observation in observations {
            writer.write(observation.instant)
            writer.write(UInt8(ZoneObservation.Source.allCases.firstIndex(of: observation.source) ?? 0))
            switch observation.reading {
            case .zone(let zone):
                writer.write(UInt8(0))
                writer.write(zone.identifier)
            case .offset(let seconds):
                writer.write(UInt8(1))
                writer.write(signedVarint: Int64(seconds))
            }
        }
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        file = try reader.readString()
        var observations: [ZoneObservation] = []
        for _ in 0..<(try reader.readCount()) {
            let instant = try reader.readTimestamp()
            let sourceIndex = Int(try reader.readByte())
            let sources = ZoneObservation.Source.allCases
            guard sourceIndex < sources.count else { throw DecodingFailure("an observation's source \(sourceIndex) is unknown") }
            let reading: ZoneObservation.Reading
            switch try reader.readByte() {
            case 0:
                let identifier = try reader.readString()
                // A zone this machine's database lacks is no evidence here, but stays in the log.
                guard let zone = TimeZone(identifier: identifier) else { continue }
                reading = .zone(zone)
            case 1: reading = .offset(seconds: Int(try reader.readSignedVarint()))
            case let kind: throw DecodingFailure("an observation's reading kind \(kind) is unknown")
            }
            observations.append(ZoneObservation(reading, at: instant, source: sources[sourceIndex]))
        }
        self.observations = observations
    }

    public var json: JSONValue {
        .object([
            "file": .string(file),
            "observations": .array(
                observations.map {
                    .object([
                        "at": .string(ISO8601.format($0.instant, offsetSeconds: 0)), "reading": .string($0.reading.description),
                        "source": .string($0.source.rawValue),
                    ])
                }),
        ])
    }
}
