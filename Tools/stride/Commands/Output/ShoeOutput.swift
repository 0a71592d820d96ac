import Foundation
import ShoeMileage
import StrideContract
import StrideEvents
import StrideLedger

/// Shoes and workouts as readable tables.
enum ShoeOutput {
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

    static func table(_ workouts: [Workout], shoes: [ShoeView], time: LocalTime) -> String {
        let names = Dictionary(uniqueKeysWithValues: shoes.map { ($0.shoe.id, $0.shoe.name) })
        var table = TextTable([
            .init(heading: "id"), .init(heading: "activity"), .init(heading: "start"), .init(heading: "km", isNumeric: true),
            .init(heading: "shoe"), .init(heading: "by"),
        ])
        for workout in workouts {
            table.add([
                Ledger.workoutID(workout.id), workout.activity.replacingOccurrences(of: "HKWorkoutActivityType", with: ""),
                time.format(workout.start),
                workout.distanceMeters == nil ? "–" : String(format: "%.2f", workout.kilometers),
                workout.runOf.map { "copy of \(Ledger.workoutID($0))" } ?? workout.shoe.flatMap { names[$0] }
                    ?? (workout.isRunExcluded ? "(excluded)" : "–"),
                workout.origin?.description ?? "",
            ])
        }
        return table.text
    }
}
