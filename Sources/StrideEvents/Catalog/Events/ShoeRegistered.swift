/// A running shoe joined the rack.
///
/// Schema history: version 1 (Run Mile's shoe) had a name and starting kilometres only;
/// version 2 added the shoe's id, the brand and the goal; version 3 adds the device that sent
/// it (``sentBy``, see ``SentThroughServer``); version 4 the archive it came from (``source``, see
/// ``ArchiveSourced``). Version 1 events are upcast on read with an id
/// derived from the name, no brand and no goal; versions 1 and 2 with no sender.
public struct ShoeRegistered: ArchiveSourced {
    public static let eventType = EventType.shoeRegistered
    public static let schemaVersion: UInt16 = 4

    /// The shoe's id.
    public var shoe: UInt128
    /// The name the runner gave the shoe.
    public var name: String
    /// The maker, when given.
    public var brand: String?
    /// Kilometres the shoe had run before it joined the ledger.
    public var startKilometers: Double
    /// The kilometres after which the shoe should be replaced, when given.
    public var goalKilometers: Double?
    /// The device that sent it through the server; nil when registered on the machine.
    public var sentBy: String?
    /// The archive whose shoe it is; nil when the runner registered it.
    public var source: String?

    /// Creates the payload.
    public init(
        shoe: UInt128, name: String, brand: String?, startKilometers: Double, goalKilometers: Double?, sentBy: String? = nil,
        source: String? = nil
    ) {
        self.shoe = shoe
        self.name = name
        self.brand = brand
        self.startKilometers = startKilometers
        self.goalKilometers = goalKilometers
        self.sentBy = sentBy
        self.source = source
    }

    /// The version 1 shape, kept to read old events and to write them in tests.
    public struct Version1: Hashable, Sendable {
        /// The shoe's name.
        public var name: String
        /// Kilometres before it joined the ledger.
        public var startKilometers: Double

        /// Creates a version 1 payload.
        public init(name: String, startKilometers: Double) {
            self.name = name
            self.startKilometers = startKilometers
        }

        /// The bytes version 1 wrote.
        public var encoded: EncodedPayload {
            var writer = BinaryWriter()
            writer.write(name)
            writer.write(startKilometers)
            return EncodedPayload(typeCode: ShoeRegistered.eventType.code, schemaVersion: 1, bytes: writer.bytes)
        }

        /// Version 1 upcast to the current version: an id derived from the name, no brand, no goal.
        public var upcast: ShoeRegistered {
            let derived = UInt128(truncatingIfNeeded: Digest128.of(Array("shoe:\(name)".utf8)) >> 64) | 1
            return ShoeRegistered(shoe: derived, name: name, brand: nil, startKilometers: startKilometers, goalKilometers: nil)
        }
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(fixed: shoe)
        writer.write(name)
        writer.write(optional: brand) { $0.write($1) }
        writer.write(startKilometers)
        writer.write(optional: goalKilometers) { $0.write($1) }
        writer.write(sender: sentBy, source: source)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        switch schemaVersion {
        case 1:
            let old = Version1(name: try reader.readString(), startKilometers: try reader.readDouble())
            self = old.upcast
        case 2, 3, 4:
            shoe = try reader.read(fixed: UInt128.self)
            name = try reader.readString()
            brand = try reader.readOptional { try $0.readString() }
            startKilometers = try reader.readDouble()
            goalKilometers = try reader.readOptional { try $0.readDouble() }
            sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 3)
            source = try reader.readSource(schemaVersion: schemaVersion, since: 4)
        default:
            throw Self.unknownVersion(schemaVersion)
        }
    }

    public var json: JSONValue {
        .object(
            [
                "shoe": .string(ShoeID.text(shoe)), "name": .string(name), "brand": .string(brand),
                "startKilometers": .number(startKilometers), "goalKilometers": .number(goalKilometers),
            ], sentBy: sentBy, source: source)
    }
}
