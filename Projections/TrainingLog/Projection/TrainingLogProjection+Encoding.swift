import StrideEvents
import StrideProjection

extension TrainingLogProjection {
    private enum Prefix: UInt8 {
        case run = 1, settings, sport
    }

    public func encode(key: Key) -> [UInt8] {
        var writer = BinaryWriter(capacity: 17)
        switch key {
        case .run(let workout):
            writer.write(Prefix.run.rawValue)
            writer.write(fixed: workout.bigEndian)
        case .settings:
            writer.write(Prefix.settings.rawValue)
        case .sport(let workout):
            writer.write(Prefix.sport.rawValue)
            writer.write(fixed: workout.bigEndian)
        }
        return writer.bytes
    }

    public func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> Key {
        var reader = BinaryReader(bytes)
        switch Prefix(rawValue: try reader.readByte()) {
        case .run: return .run(UInt128(bigEndian: try reader.read(fixed: UInt128.self)))
        case .settings: return .settings
        case .sport: return .sport(UInt128(bigEndian: try reader.read(fixed: UInt128.self)))
        case nil: throw DecodingFailure("unknown training-log key kind")
        }
    }

    public func encode(row: Row, into writer: inout BinaryWriter) {
        switch row {
        case .run(let facts):
            writer.write(Prefix.run.rawValue)
            writer.write(varint: facts.sequence)
            writer.write(facts.source)
            writer.write(facts.start)
            writer.write(varint: UInt64(facts.readings))
            for value in [facts.seconds, facts.movingSeconds, facts.climbMetres] { writer.write(value) }
            writer.write(varint: UInt64(facts.efforts.count))
            for effort in facts.efforts {
                writer.write(effort.distance)
                writer.write(effort.startSeconds)
                writer.write(effort.endSeconds)
            }
            writer.write(varint: UInt64(facts.heartRate.count))
            // Streams keep heart rate to the beat and time to a tenth of a second: tenths as
            // varints keep a run's hundred-odd values in a few hundred bytes.
            for held in facts.heartRate {
                writer.write(varint: UInt64(max(0, (held.heartRate * 10).rounded())))
                writer.write(varint: UInt64(max(0, (held.seconds * 10).rounded())))
            }
        case .sport(let sport):
            writer.write(Prefix.sport.rawValue)
            writer.write(sport)
        case .settings(let settings):
            writer.write(Prefix.settings.rawValue)
            writer.write(varint: UInt64(settings.changes.count))
            for change in settings.changes {
                writer.write(varint: change.sequence)
                writer.write(change.recordedAt)
                writer.write(optional: change.from) { $0.write(signedVarint: $1.daysSince1970) }
                writer.write(optional: change.maximumHeartRate) { $0.write($1) }
                writer.write(optional: change.restingHeartRate) { $0.write($1) }
                writer.write(optional: change.sentBy) { $0.write($1) }
            }
        }
    }

    public func decodeRow(_ bytes: UnsafeRawBufferPointer) throws -> Row {
        var reader = BinaryReader(bytes)
        let row: Row
        switch Prefix(rawValue: try reader.readByte()) {
        case .run:
            let sequence = try reader.readVarint()
            let source = try reader.readString()
            let start = try reader.readTimestamp()
            let readings = Int(try reader.readVarint())
            let seconds = try reader.readDouble()
            let moving = try reader.readDouble()
            let climb = try reader.readDouble()
            var efforts: [RunFacts.Effort] = []
            for _ in 0..<(try reader.readCount()) {
                efforts.append(
                    RunFacts.Effort(distance: try reader.readString(), startSeconds: try reader.readDouble(), endSeconds: try reader.readDouble()))
            }
            var heartRate: [HeartRateTime] = []
            for _ in 0..<(try reader.readCount()) {
                heartRate.append(HeartRateTime(heartRate: Double(try reader.readVarint()) / 10, seconds: Double(try reader.readVarint()) / 10))
            }
            row = .run(
                RunFacts(
                    sequence: sequence, source: source, start: start, readings: readings, seconds: seconds, movingSeconds: moving,
                    climbMetres: climb, efforts: efforts, heartRate: heartRate))
        case .settings:
            var changes: [AthleteSettings.Change] = []
            for _ in 0..<(try reader.readCount()) {
                let sequence = try reader.readVarint()
                let recordedAt = try reader.readTimestamp()
                let from = try reader.readOptional { CivilDate(daysSince1970: try $0.readSignedVarint()) }
                let maximum = try reader.readOptional { try $0.readDouble() }
                let resting = try reader.readOptional { try $0.readDouble() }
                let sentBy = try reader.readOptional { try $0.readString() }
                changes.append(
                    AthleteSettings.Change(
                        sequence: sequence, recordedAt: recordedAt, from: from, maximumHeartRate: maximum, restingHeartRate: resting,
                        sentBy: sentBy))
            }
            row = .settings(AthleteSettings(changes: changes))
        case .sport:
            row = .sport(try reader.readString())
        case nil:
            throw DecodingFailure("unknown training-log row kind")
        }
        try reader.expectEnd("a training-log row")
        return row
    }
}

/// What the training log holds, as the ledger reads it.
extension ProjectionState where P == TrainingLogProjection {
    /// The facts of every run's stream, by workout.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func runFacts() throws -> [UInt128: RunFacts] {
        var facts: [UInt128: RunFacts] = [:]
        for (key, row) in try rows(from: .run(0), before: .settings) {
            if case .run(let workout) = key, case .run(let run) = row { facts[workout] = run }
        }
        return facts
    }

    /// The facts of one workout's stream, if it has one.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func facts(of workout: UInt128) throws -> RunFacts? {
        if case .run(let facts)? = try row(.run(workout)) { return facts }
        return nil
    }

    /// Each running workout's sport (``RunSport``), by workout.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func sports() throws -> [UInt128: String] {
        var sports: [UInt128: String] = [:]
        for (key, row) in try rows(from: .sport(0), through: .sport(.max)) {
            if case .sport(let workout) = key, case .sport(let sport) = row { sports[workout] = sport }
        }
        return sports
    }

    /// The runner's settings, as changed.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func settings() throws -> AthleteSettings {
        if case .settings(let settings)? = try row(.settings) { return settings }
        return AthleteSettings()
    }
}
