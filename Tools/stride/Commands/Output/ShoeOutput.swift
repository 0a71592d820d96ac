import Foundation
import ShoeMileage
import StrideEvents
import StrideLedger

/// Shoes, workouts, audits and notifications as the contract's JSON and as tables.
enum ShoeOutput {
    static func json(_ view: ShoeView) -> JSONValue {
        let shoe = view.shoe
        return .object([
            "id": .string(ShoeID.text(shoe.id)), "name": .string(shoe.name), "brand": .string(shoe.brand),
            "startKilometers": .number(shoe.startKilometers), "goalKilometers": .number(shoe.goalKilometers),
            "kilometers": .number(shoe.kilometers), "runs": .integer(shoe.runs), "isRetired": .bool(shoe.isRetired),
            "isDefault": .bool(view.isDefault), "remainingKilometers": .number(shoe.remainingKilometers),
            "lastRun": .string(shoe.lastRun?.description),
        ])
    }

    static func table(_ views: [ShoeView]) -> String {
        var table = TextTable([
            .init(heading: "id"), .init(heading: "name"), .init(heading: "brand"), .init(heading: "km", isNumeric: true),
            .init(heading: "runs", isNumeric: true), .init(heading: "to goal", isNumeric: true), .init(heading: "status"),
        ])
        for view in views {
            let shoe = view.shoe
            let status = [view.isDefault ? "default" : nil, shoe.isRetired ? "retired" : nil].compactMap { $0 }.joined(separator: ", ")
            table.add([
                ShoeID.text(shoe.id), shoe.name, shoe.brand ?? "", ShoeMileageProjection.format(shoe.kilometers), String(shoe.runs),
                shoe.remainingKilometers.map(ShoeMileageProjection.format) ?? "–", status,
            ])
        }
        return table.text
    }

    static func json(_ workout: Workout, time: LocalTime) -> JSONValue {
        .object([
            "id": .string(Ledger.workoutID(workout.id)), "activity": .string(workout.activity),
            "start": .string(time.format(workout.start)), "end": .string(time.format(workout.end)),
            "distanceMeters": .number(workout.distanceMeters), "shoe": .string(workout.shoe.map(ShoeID.text)),
            "assignedBy": .string(workout.origin?.description), "isExcluded": .bool(workout.isExcluded),
            "source": .string(workout.sourceName),
        ])
    }

    static func table(_ workouts: [Workout], shoes: [ShoeView], time: LocalTime) -> String {
        let names = Dictionary(uniqueKeysWithValues: shoes.map { ($0.shoe.id, $0.shoe.name) })
        var table = TextTable([
            .init(heading: "id"), .init(heading: "activity"), .init(heading: "start"), .init(heading: "km", isNumeric: true),
            .init(heading: "shoe"), .init(heading: "by"),
        ])
        for workout in workouts {
            table.add([
                Ledger.workoutID(workout.id), workout.activity.replacingOccurrences(of: "HKWorkoutActivityType", with: ""),
                time.format(workout.start), workout.distanceMeters.map { String(format: "%.2f", $0 / 1000) } ?? "–",
                workout.shoe.flatMap { names[$0] } ?? (workout.isExcluded ? "(excluded)" : "–"), workout.origin?.description ?? "",
            ])
        }
        return table.text
    }

    static func kind(_ entry: AuditEntry) -> String {
        switch entry.kind {
        case .registered: "registered"
        case .assigned: entry.origin == .auto ? "assigned (auto)" : "assigned (manual)"
        case .unassigned: "unassigned"
        case .movedToAnotherShoe: "moved to another shoe"
        }
    }
}
