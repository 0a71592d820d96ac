/// A workout's readings over time (distance, heart rate, cadence, altitude, position), as its
/// file wrote them: a FIT file's records, a TCX file's trackpoints, a GPX track's points, the
/// Health app's `workout-routes`, or the file behind an archive's activity.
///
/// Recorded under the workout's own entity, with a key of its own: a ledger written before
/// streams were kept gets them when the same files are ingested again, without a second
/// workout. The readings are stored compactly (``RunStreamCodec``: a second of a run costs a
/// few bytes).
public struct WorkoutStreamRecorded: EventPayload {
    public static let eventType = EventType.workoutStreamRecorded
    public static let schemaVersion: UInt16 = 1

    /// The workout the readings belong to (its entity id).
    public var workout: UInt128
    /// Where they were read: the file, and the session or track within it.
    public var source: String
    /// The readings.
    public var stream: RunStreamCodec

    /// Creates the payload.
    public init(workout: UInt128, source: String, stream: RunStreamCodec) {
        self.workout = workout
        self.source = source
        self.stream = stream
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(fixed: workout)
        writer.write(source)
        stream.encode(into: &writer)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        workout = try reader.read(fixed: UInt128.self)
        source = try reader.readString()
        stream = try RunStreamCodec(decoding: &reader)
    }

    /// What people read in `stride log` and `stride export`: the readings' count, span and
    /// columns (the readings themselves are in the envelope).
    public var json: JSONValue {
        let readings = stream.readings
        var columns: [String] = []
        if readings.contains(where: { $0.metres != nil }) { columns.append("distance") }
        if readings.contains(where: { $0.heartRate != nil }) { columns.append("heartRate") }
        if readings.contains(where: { $0.cadence != nil }) { columns.append("cadence") }
        if readings.contains(where: { $0.altitude != nil }) { columns.append("altitude") }
        if readings.contains(where: { $0.latitude != nil }) { columns.append("position") }
        return .object([
            "workout": .string(Hex.string(workout)), "source": .string(source), "start": .string(stream.start.description),
            "readings": .integer(readings.count), "seconds": .number(readings.last?.seconds ?? 0),
            "columns": .array(columns.map(JSONValue.string)),
        ])
    }

    /// The key that records a workout's stream once.
    public static func key(workout: UInt128) -> IdempotencyKey {
        IdempotencyKey(hashing: Array("workout.streamRecorded|\(Hex.string(workout))".utf8))
    }
}
