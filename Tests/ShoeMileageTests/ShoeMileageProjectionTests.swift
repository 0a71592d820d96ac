import StrideEvents
import StrideProjection
import Testing

@testable import ShoeMileage

@Suite("The mileage projection")
struct ShoeMileageProjectionTests {
    let projection = ShoeMileageProjection()
    var sequence: UInt64 = 0
    /// 2024-05-01 08:00 UTC: the runs start then, and events are recorded seconds after.
    static let base: Int64 = 1_714_550_400

    mutating func apply(_ event: LedgerEvent, entity: EntityReference = .rack, to rows: inout ProjectionRows<MileageKey, MileageRow>) {
        sequence += 1
        let recorded = RecordedEvent(
            sequence: sequence, recordedAt: Timestamp(secondsSince1970: Self.base + 3_600 + Int64(sequence)),
            occurredAt: Timestamp(secondsSince1970: Self.base + 3_600 + Int64(sequence)),
            entity: entity, idempotencyKey: nil, storedSchemaVersion: 1, event: event)
        projection.apply(ProjectionEvent(recorded), to: &rows)
    }

    static func workout(km: Double) -> LedgerEvent {
        .workoutRecorded(
            WorkoutRecorded(
                activityType: "HKWorkoutActivityTypeRunning", deviceClass: .watch, start: Timestamp(secondsSince1970: base + 100),
                end: Timestamp(secondsSince1970: base + 2000), durationSeconds: 1900, distanceMeters: km * 1000, distanceSource: .statistics,
                distanceAsWritten: "\(km) km", energyKilocalories: nil, created: nil, sourceName: "Watch", sourceVersion: nil, device: nil,
                metadata: []))
    }

    func shoe(_ id: UInt128, _ rows: inout ProjectionRows<MileageKey, MileageRow>) -> Shoe? {
        if case .shoe(let shoe)? = rows.row(.shoe(id)) { return shoe }
        return nil
    }

    func auditTotal(_ id: UInt128, _ rows: ProjectionRows<MileageKey, MileageRow>) -> Double {
        rows.present.compactMap { key, row -> AuditEntry? in
            guard case .audit(let shoe, _) = key, shoe == id, case .audit(let entry) = row else { return nil }
            return entry
        }.sorted { $0.sequence < $1.sequence }.reduce(0) { $0 + $1.kilometers }
    }

    @Test("reassigning moves a run's kilometres; unassigning takes them off; the audit always adds up")
    mutating func moves() {
        var rows = ProjectionRows<MileageKey, MileageRow>()
        apply(.shoeRegistered(ShoeRegistered(shoe: 1, name: "A", brand: nil, startKilometers: 10, goalKilometers: nil)), to: &rows)
        apply(.shoeRegistered(ShoeRegistered(shoe: 2, name: "B", brand: nil, startKilometers: 0, goalKilometers: nil)), to: &rows)
        let run = EntityReference(.workout, id: 50)
        apply(Self.workout(km: 5), entity: run, to: &rows)
        apply(.workoutAssigned(WorkoutAssigned(shoe: 1, origin: .manual)), entity: run, to: &rows)
        #expect(shoe(1, &rows)?.kilometers == 15)
        apply(.workoutAssigned(WorkoutAssigned(shoe: 2, origin: .manual)), entity: run, to: &rows)
        #expect(shoe(1, &rows)?.kilometers == 10)
        #expect(shoe(1, &rows)?.runs == 0)
        #expect(shoe(2, &rows)?.kilometers == 5)
        apply(.workoutAssignmentChanged(WorkoutAssignmentChange(.unassigned)), entity: run, to: &rows)
        #expect(shoe(2, &rows)?.kilometers == 0)
        #expect(auditTotal(1, rows) == 10)
        #expect(auditTotal(2, rows) == 0)
    }

    @Test("a shoe reaching its goal is announced once, even if it dips below and climbs again")
    mutating func goalOnce() {
        var rows = ProjectionRows<MileageKey, MileageRow>()
        apply(.shoeRegistered(ShoeRegistered(shoe: 1, name: "A", brand: nil, startKilometers: 795, goalKilometers: 800)), to: &rows)
        let run = EntityReference(.workout, id: 50)
        apply(Self.workout(km: 6), entity: run, to: &rows)
        apply(.workoutAssigned(WorkoutAssigned(shoe: 1, origin: .manual)), entity: run, to: &rows)
        apply(.workoutAssignmentChanged(WorkoutAssignmentChange(.unassigned)), entity: run, to: &rows)
        apply(.workoutAssigned(WorkoutAssigned(shoe: 1, origin: .manual)), entity: run, to: &rows)
        let notes = rows.present.values.compactMap { row -> Notification? in if case .notification(let note) = row { note } else { nil } }
        #expect(notes.filter { $0.kind == .goalReached }.count == 1)
        #expect(notes.filter { $0.kind == .newRun }.count == 1)
        // The run's note says where it is now: it never asks for a shoe the run has.
        #expect(notes.first { $0.kind == .newRun }?.text == "6.00 km run — on A")
    }

    @Test("a run's notification says where it is: the shoe it went to automatically, then the one the runner put it on, then none")
    mutating func notificationText() {
        var rows = ProjectionRows<MileageKey, MileageRow>()
        apply(.shoeRegistered(ShoeRegistered(shoe: 1, name: "Pegasus 40", brand: nil, startKilometers: 0, goalKilometers: nil)), to: &rows)
        apply(.shoeRegistered(ShoeRegistered(shoe: 2, name: "Novablast", brand: nil, startKilometers: 0, goalKilometers: nil)), to: &rows)
        let run = EntityReference(.workout, id: 50)
        apply(Self.workout(km: 5.02), entity: run, to: &rows)
        apply(.workoutAssigned(WorkoutAssigned(shoe: 1, origin: .auto)), entity: run, to: &rows)
        func notes(_ rows: ProjectionRows<MileageKey, MileageRow>) -> [String] {
            rows.present.values.compactMap { row -> String? in if case .notification(let note) = row { note.text } else { nil } }
        }
        #expect(notes(rows) == ["5.02 km run — assigned to Pegasus 40"])
        apply(.workoutAssigned(WorkoutAssigned(shoe: 2, origin: .manual)), entity: run, to: &rows)
        #expect(notes(rows) == ["5.02 km run — on Novablast"])
        apply(.workoutAssignmentChanged(WorkoutAssignmentChange(.unassigned)), entity: run, to: &rows)
        #expect(notes(rows) == ["5.02 km run — choose a shoe"])
    }

    @Test("rows round-trip through their encoding")
    mutating func encoding() throws {
        var rows = ProjectionRows<MileageKey, MileageRow>()
        apply(.shoeRegistered(ShoeRegistered(shoe: 1, name: "A", brand: "Nike", startKilometers: 10, goalKilometers: 800)), to: &rows)
        apply(.defaultShoeSelected(DefaultShoeSelected(shoe: 1)), to: &rows)
        let run = EntityReference(.workout, id: 50)
        apply(Self.workout(km: 5), entity: run, to: &rows)
        apply(.workoutAssigned(WorkoutAssigned(shoe: 1, origin: .auto)), entity: run, to: &rows)
        for (key, row) in rows.present {
            let bytes = projection.encodedRow(row)
            #expect(try bytes.withUnsafeBytes { try projection.decodeRow($0) } == row)
            #expect(try projection.encode(key: key).withUnsafeBytes { try projection.decodeKey($0) } == key)
        }
    }
}
