import StrideEvents
import StrideProjection

extension ShoeMileageProjection {
    /// Key prefixes: every key of one kind shares its first byte, so a kind is a key range.
    enum Prefix: UInt8 {
        case rack = 1, shoe, workout, audit, notification, runOnShoe
    }

    public func encode(key: Key) -> [UInt8] {
        var writer = BinaryWriter(capacity: 26)
        switch key {
        case .rack: writer.write(Prefix.rack.rawValue)
        case .shoe(let id):
            writer.write(Prefix.shoe.rawValue)
            writer.write(fixed: id.bigEndian)
        case .workout(let id):
            writer.write(Prefix.workout.rawValue)
            writer.write(fixed: id.bigEndian)
        case .audit(let shoe, let sequence):
            writer.write(Prefix.audit.rawValue)
            writer.write(fixed: shoe.bigEndian)
            writer.write(fixed: sequence.bigEndian)
        case .notification(let sequence):
            writer.write(Prefix.notification.rawValue)
            writer.write(fixed: sequence.bigEndian)
        case .runOnShoe(let shoe, let start, let record):
            writer.write(Prefix.runOnShoe.rawValue)
            writer.write(fixed: shoe.bigEndian)
            // The sign flipped: instants before 1970 sort first too.
            writer.write(fixed: (UInt64(bitPattern: start.millisecondsSince1970) ^ (1 << 63)).bigEndian)
            writer.write(fixed: record.bigEndian)
        }
        return writer.bytes
    }

    public func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> Key {
        var reader = BinaryReader(bytes)
        switch Prefix(rawValue: try reader.readByte()) {
        case .rack: return .rack
        case .shoe: return .shoe(UInt128(bigEndian: try reader.read(fixed: UInt128.self)))
        case .workout: return .workout(UInt128(bigEndian: try reader.read(fixed: UInt128.self)))
        case .audit:
            let shoe = UInt128(bigEndian: try reader.read(fixed: UInt128.self))
            return .audit(shoe: shoe, sequence: UInt64(bigEndian: try reader.read(fixed: UInt64.self)))
        case .notification: return .notification(sequence: UInt64(bigEndian: try reader.read(fixed: UInt64.self)))
        case .runOnShoe:
            let shoe = UInt128(bigEndian: try reader.read(fixed: UInt128.self))
            let start = Int64(bitPattern: UInt64(bigEndian: try reader.read(fixed: UInt64.self)) ^ (1 << 63))
            return .runOnShoe(
                shoe: shoe, start: Timestamp(millisecondsSince1970: start), record: UInt128(bigEndian: try reader.read(fixed: UInt128.self)))
        case nil: throw DecodingFailure("unknown mileage key kind")
        }
    }

    public func encode(row: Row, into writer: inout BinaryWriter) {
        switch row {
        case .rack(let rack):
            writer.write(Prefix.rack.rawValue)
            writer.write(optional: rack.defaultShoe) { $0.write(fixed: $1) }
            writer.write(optional: rack.since) { $0.write($1) }
        case .shoe(let shoe):
            writer.write(Prefix.shoe.rawValue)
            writer.write(fixed: shoe.id)
            writer.write(shoe.name)
            writer.write(optional: shoe.brand) { $0.write($1) }
            writer.write(shoe.startKilometers)
            writer.write(optional: shoe.goalKilometers) { $0.write($1) }
            writer.write(shoe.isRetired)
            writer.write(signedVarint: shoe.runMicrometres)
            writer.write(signedVarint: Int64(shoe.runs))
            writer.write(shoe.isGoalAnnounced)
        case .workout(let workout):
            writer.write(Prefix.workout.rawValue)
            writer.write(fixed: workout.id)
            writer.write(workout.activity)
            writer.write(workout.start)
            writer.write(workout.end)
            writer.write(optional: workout.distanceMeters) { $0.write($1) }
            writer.write(workout.distanceSource.rawValue)
            writer.write(optional: workout.distanceAsWritten) { $0.write($1) }
            writer.write(workout.sourceName)
            writer.write(varint: workout.recordedSequence)
            writer.write(workout.recording.rawValue)
            writer.write(workout.source)
            writer.write(optional: workout.placement) { writer, placement in
                writer.write(optional: placement.shoe) { $0.write(fixed: $1) }
                writer.write(placement.origin.rawValue)
                writer.write(varint: placement.sequence)
                writer.write(optional: placement.sentBy) { $0.write($1) }
                writer.write(optional: placement.source) { $0.write($1) }
            }
            writer.write(workout.isExcluded)
            Self.write(workout.sameAs, into: &writer)
            Self.write(workout.differentFrom, into: &writer)
            writer.write(optional: workout.runOf) { $0.write(fixed: $1) }
            Self.write(workout.copies, into: &writer)
            writer.write(optional: workout.shoe) { $0.write(fixed: $1) }
            writer.write(optional: workout.origin) { $0.write($1.rawValue) }
            writer.write(workout.isRunExcluded)
            writer.write(optional: workout.startLeftOut) { $0.write($1) }
        case .audit(let entry):
            writer.write(Prefix.audit.rawValue)
            writer.write(varint: entry.sequence)
            writer.write(entry.recordedAt)
            writer.write(entry.kind.rawValue)
            writer.write(optional: entry.workout) { $0.write(fixed: $1) }
            writer.write(optional: entry.origin) { $0.write($1.rawValue) }
            writer.write(entry.kilometers)
            writer.write(entry.detail)
            // Last and only when there is one: a line with no sender is stored as before, so
            // a ledger that never used the server keeps its digest.
            if let sentBy = entry.sentBy { writer.write(sentBy) }
        case .notification(let note):
            writer.write(Prefix.notification.rawValue)
            writer.write(varint: note.sequence)
            writer.write(note.at)
            writer.write(note.kind.rawValue)
            writer.write(optional: note.workout) { $0.write(fixed: $1) }
            writer.write(optional: note.shoe) { $0.write(fixed: $1) }
            writer.write(note.text)
        case .runOnShoe:
            writer.write(Prefix.runOnShoe.rawValue)
        }
    }

    public func decodeRow(_ bytes: UnsafeRawBufferPointer) throws -> Row {
        var reader = BinaryReader(bytes)
        func origin(_ reader: inout BinaryReader) throws -> AssignmentOrigin {
            guard let origin = AssignmentOrigin(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown origin") }
            return origin
        }
        let row: Row
        switch Prefix(rawValue: try reader.readByte()) {
        case .rack:
            row = .rack(
                Rack(
                    defaultShoe: try reader.readOptional { try $0.read(fixed: UInt128.self) },
                    since: try reader.readOptional { try $0.readTimestamp() }))
        case .shoe:
            var shoe = Shoe(
                id: try reader.read(fixed: UInt128.self), name: try reader.readString(),
                brand: try reader.readOptional { try $0.readString() }, startKilometers: try reader.readDouble(),
                goalKilometers: try reader.readOptional { try $0.readDouble() }, kilometers: 0)
            shoe.isRetired = try reader.readBool()
            shoe.runMicrometres = try reader.readSignedVarint()
            shoe.kilometers = shoe.startKilometers + Double(shoe.runMicrometres) / 1e9
            shoe.runs = Int(try reader.readSignedVarint())
            shoe.isGoalAnnounced = try reader.readBool()
            row = .shoe(shoe)
        case .workout:
            let id = try reader.read(fixed: UInt128.self)
            let activity = try reader.readString()
            let start = try reader.readTimestamp()
            let end = try reader.readTimestamp()
            let distance = try reader.readOptional { try $0.readDouble() }
            guard let source = DistanceSource(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown distance source") }
            var workout = Workout(
                id: id, activity: activity, start: start, end: end, distanceMeters: distance, distanceSource: source,
                distanceAsWritten: try reader.readOptional { try $0.readString() }, sourceName: try reader.readString(),
                recordedSequence: try reader.readVarint())
            guard let recording = WorkoutRecording(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown workout recording") }
            workout.recording = recording
            workout.source = try reader.readString()
            workout.placement = try reader.readOptional { reader in
                let shoe = try reader.readOptional { try $0.read(fixed: UInt128.self) }
                return Placement(
                    shoe: shoe, origin: try origin(&reader), sequence: try reader.readVarint(),
                    sentBy: try reader.readOptional { try $0.readString() },
                    source: try reader.readOptional { try $0.readString() })
            }
            workout.isExcluded = try reader.readBool()
            workout.sameAs = try Self.readIDs(&reader)
            workout.differentFrom = try Self.readIDs(&reader)
            workout.runOf = try reader.readOptional { try $0.read(fixed: UInt128.self) }
            workout.copies = try Self.readIDs(&reader)
            workout.shoe = try reader.readOptional { try $0.read(fixed: UInt128.self) }
            workout.origin = try reader.readOptional(origin)
            workout.isRunExcluded = try reader.readBool()
            workout.startLeftOut = try reader.readOptional { try $0.readString() }
            row = .workout(workout)
        case .audit:
            let sequence = try reader.readVarint()
            let recordedAt = try reader.readTimestamp()
            guard let kind = AuditEntry.Kind(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown audit kind") }
            row = .audit(
                AuditEntry(
                    sequence: sequence, recordedAt: recordedAt, kind: kind, workout: try reader.readOptional { try $0.read(fixed: UInt128.self) },
                    origin: try reader.readOptional(origin), kilometers: try reader.readDouble(), detail: try reader.readString(),
                    sentBy: reader.isAtEnd ? nil : try reader.readString()))
        case .notification:
            let sequence = try reader.readVarint()
            let at = try reader.readTimestamp()
            guard let kind = Notification.Kind(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown notification kind") }
            row = .notification(
                Notification(
                    sequence: sequence, at: at, kind: kind, workout: try reader.readOptional { try $0.read(fixed: UInt128.self) },
                    shoe: try reader.readOptional { try $0.read(fixed: UInt128.self) }, text: try reader.readString()))
        case .runOnShoe:
            row = .runOnShoe
        case nil:
            throw DecodingFailure("unknown mileage row kind")
        }
        try reader.expectEnd("a mileage row")
        return row
    }

    private static func write(_ ids: [UInt128], into writer: inout BinaryWriter) {
        writer.write(varint: UInt64(ids.count))
        for id in ids { writer.write(fixed: id) }
    }

    private static func readIDs(_ reader: inout BinaryReader) throws -> [UInt128] {
        try (0..<reader.readCount()).map { _ in try reader.read(fixed: UInt128.self) }
    }

    /// The first key of a kind of row, and the first key after them.
    func range(of prefix: Prefix) -> (lower: [UInt8], upper: [UInt8]) { ([prefix.rawValue], [prefix.rawValue + 1]) }
}
