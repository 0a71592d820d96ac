import StrideEvents

/// A workout read from a Health Auto Export document, with its place.
struct PushedWorkout {
    var workout: WorkoutRecorded
    var event: PendingEvent
    var path: FieldPath
    /// Its start as printed: its offset is what the phone's clock showed.
    var start: HealthAutoExportDate
    /// Content kept but left out (an unknown distance unit…), with why.
    var leftOut: [String]
}

/// Reads Health Auto Export workouts, version 1 (legacy) and 2 alike: the same keys hold
/// other shapes in each (`activeEnergy` an object or a series), so each field is read by
/// its shape, not by the version.
///
/// The activity comes from the display name (``HealthAutoExportActivities``), kept as
/// written in the metadata (`HAEName`). Distance is `distance` (`km`, `mi`, `m`…); energy
/// `activeEnergyBurned` (v2) or `activeEnergy` (v1, an object), in kcal or kJ; the duration
/// v2's `duration` in seconds, else end minus start. Scalars and `{qty, units}` members go to
/// the metadata; series and routes are not kept. The identity is v2's `id`, else the start,
/// end and activity; a workout sent again is a duplicate.
struct WorkoutReader {
    private var identity = IdentityHasher()

    /// Checks that an element of `workouts` can be read: its dates.
    /// - Throws: ``FieldError`` for an element that lacks its dates.
    static func check(_ element: DocumentObject) throws {
        _ = try element.date("start")
        _ = try element.date("end")
    }

    /// The workout of one element of `workouts`.
    /// - Throws: ``FieldError`` for an element that lacks its dates.
    mutating func workout(_ element: DocumentObject) throws -> PushedWorkout {
        let name = element.optionalText("name") ?? ""
        let start = try element.date("start")
        let end = try element.date("end")
        let activity = HealthAutoExportActivities.activityType(of: name)
        var leftOut: [String] = []
        var metres: Double?
        var asWritten: String?
        if let distance = Self.quantity(element["distance"]) {
            if let factor = distance.units.flatMap(HealthUnits.metres(per:)) {
                metres = distance.value * factor
                asWritten = "\(distance.value) \(distance.units ?? "")"
            } else {
                leftOut.append(
                    "its distance unit \"\((distance.units ?? "").shownInMessage)\" is not m, km, mi or ft: the workout is kept without a distance")
            }
        }
        var kilocalories: Double?
        if let energy = Self.quantity(element["activeEnergyBurned"]) ?? Self.quantity(element["activeEnergy"]) {
            if let factor = energy.units.flatMap(HealthUnits.kilocalories(per:)) {
                kilocalories = energy.value * factor
            } else {
                leftOut.append(
                    "its energy unit \"\((energy.units ?? "").shownInMessage)\" is not kcal, Cal or kJ: the workout is kept without its energy")
            }
        }
        let elapsed = Double(end.instant.millisecondsSince1970 - start.instant.millisecondsSince1970) / 1000
        let id = element.optionalText("id").flatMap { $0.isEmpty ? nil : $0 }
        var metadata = [MetadataEntry(key: "HAEName", value: name)]
        if let id { metadata.append(MetadataEntry(key: "HAEId", value: id)) }
        if case .bool(let isIndoor)? = element["isIndoor"] {
            metadata.append(MetadataEntry(key: "HKIndoorWorkout", value: isIndoor ? "1" : "0"))
        }
        metadata += Self.scalars(of: element)
        let workout = WorkoutRecorded(
            activityType: activity, deviceClass: .summary, start: start.instant, end: end.instant,
            durationSeconds: element.number("duration") ?? elapsed, distanceMeters: metres,
            distanceSource: metres == nil ? .none : .reported, distanceAsWritten: asWritten, energyKilocalories: kilocalories,
            created: nil, sourceName: "Health Auto Export", sourceVersion: nil, device: nil, metadata: metadata)
        let hash =
            id.map { identity.hash("hae-workout", $0) }
            ?? identity.hash(
                "hae-workout", String(start.instant.millisecondsSince1970), String(end.instant.millisecondsSince1970), activity)
        let entity = SampleIdentity.make(start: start.instant, hash: hash)
        let event = PendingEvent(
            .workoutRecorded(workout), occurredAt: start.instant, entity: EntityReference(.workout, id: entity),
            idempotencyKey: IdempotencyKey(entity))
        return PushedWorkout(workout: workout, event: event, path: element.path, start: start, leftOut: leftOut)
    }

    /// A `{qty, units}` member's number and units; nil for another shape (v2's series).
    private static func quantity(_ value: JSONNode?) -> (value: Double, units: String?)? {
        guard case .object(let object)? = value, case .number(let number)? = object["qty"] else { return nil }
        if case .string(let units)? = object["units"] { return (number, units) }
        return (number, nil)
    }

    /// The members worth keeping beside the workout: text, numbers, booleans, and
    /// `{qty, units}` objects as `qty units`; not series, routes or nested objects.
    private static func scalars(of element: DocumentObject) -> [MetadataEntry] {
        let skipped: Set<String> = ["name", "id", "start", "end", "isIndoor"]
        return element.fields.keys.sorted().filter { !skipped.contains($0) }.compactMap { key in
            guard let value = element[key] else { return nil }
            if let quantity = quantity(value) { return MetadataEntry(key: key, value: "\(quantity.value) \(quantity.units ?? "")") }
            switch value {
            case .array, .object, .deferred: return nil
            default: return MetadataEntry(key: key, value: value.text)
            }
        }
    }
}
