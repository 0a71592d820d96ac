import PointsBalance
import ShoeMileage
import StrideEvents
import StrideLedger

/// What an action did, as the command line says it (one sentence) and as the HTTP API answers
/// it (`{"message": sentence, …}` with the action's own fields): written once, for both.
public struct ActionReport: ContractDocument {
    /// The sentence the command line prints.
    public var sentence: String
    /// The fields after `message` in the API's answer.
    public var fields: [JSONValue.Member]

    public var json: JSONValue { .object([.init("message", .string(sentence))] + fields) }

    /// A shoe joined the rack.
    public static func shoeAdded(name: String, id: UInt128, isDefault: Bool) -> ActionReport {
        ActionReport(
            sentence: "Added \(name) (id \(ShoeID.text(id)))\(isDefault ? ", the default shoe" : "").",
            fields: [.init("shoe", .string(ShoeID.text(id))), .init("isDefault", .bool(isDefault))])
    }

    /// A shoe was renamed.
    public static func shoeRenamed(_ shoe: String, to name: String) -> ActionReport {
        ActionReport(sentence: "Renamed \(shoe) to \(name).", fields: [.init("name", .string(name))])
    }

    /// A shoe was retired, or brought back.
    public static func shoeRetirement(_ shoe: String, isRetired: Bool) -> ActionReport {
        ActionReport(sentence: isRetired ? "Retired \(shoe)." : "Brought \(shoe) back.", fields: [.init("isRetired", .bool(isRetired))])
    }

    /// The default shoe was chosen, or cleared.
    public static func defaultShoe(_ shoe: String?) -> ActionReport {
        ActionReport(
            sentence: shoe.map { "\($0) is the default shoe: runs from now on go to it." } ?? "No default shoe: new runs wait for you to choose.",
            fields: [.init("shoe", .string(shoe))])
    }

    /// A run was put on a shoe.
    public static func assigned(_ workout: String, to shoe: String) -> ActionReport {
        ActionReport(sentence: "Assigned workout \(workout) to \(shoe).", fields: [.init("workout", .string(workout)), .init("shoe", .string(shoe))])
    }

    /// A workout was taken off its shoe.
    public static func unassigned(_ workout: String) -> ActionReport {
        ActionReport(sentence: "Took workout \(workout) off its shoe.", fields: [.init("workout", .string(workout))])
    }

    /// A run is kept off every shoe but one the runner puts it on.
    public static func excluded(_ workout: String) -> ActionReport {
        ActionReport(
            sentence: "Workout \(workout) is off the shoes: neither the default shoe nor an archive will put it on one; only you can.",
            fields: [.init("workout", .string(workout))])
    }

    /// Two workouts were said to be one run, or two different runs.
    public static func sameRun(_ workout: String, _ other: String, isSameRun: Bool) -> ActionReport {
        ActionReport(
            sentence: isSameRun
                ? "Workouts \(workout) and \(other) are one run from now on: counted once, with the preferred copy's distance."
                : "Workouts \(workout) and \(other) are different runs from now on: each counted on its own.",
            fields: [.init("workout", .string(workout)), .init("other", .string(other)), .init("isSameRun", .bool(isSameRun))])
    }

    /// A check-in, new or already made that day, and what it earned.
    public static func checkedIn(_ outcome: CheckInOutcome) -> ActionReport {
        let day = outcome.day
        let sentence =
            if !outcome.isNew {
                "Already checked in for \(day): no point twice in a day."
            } else if outcome.pointsEarned > 0 {
                "Checked in for \(day): +\(outcome.pointsEarned) point\(outcome.pointsEarned == 1 ? "" : "s")."
            } else {
                "Checked in for \(day), for no point: " + closedDay(day)
            }
        return ActionReport(
            sentence: sentence,
            fields: [
                .init("day", .string(day.description)), .init("isNew", .bool(outcome.isNew)), .init("pointsAwarded", .integer(outcome.pointsEarned)),
                .init("isOpen", .bool(outcome.isOpen)),
            ])
    }

    /// A journal entry, with the points it earned.
    public static func journalEntry(_ outcome: JournalOutcome) -> ActionReport {
        let awards = outcome.awards
        var sentence = "Added to the journal." + awards.map { " +\($0.points) points (\($0.rule))." }.joined()
        if !outcome.isOpen { sentence += " No points for \(outcome.day): " + closedDay(outcome.day) }
        return ActionReport(
            sentence: sentence,
            fields: [
                .init("day", .string(outcome.day.description)), .init("pointsAwarded", .integer(awards.reduce(0) { $0 + $1.points })),
                .init("isOpen", .bool(outcome.isOpen)),
            ])
    }

    /// Why a past day earned nothing, and how to open it.
    static func closedDay(_ day: CivilDate) -> String {
        "a check-in or an entry earns for today, and for a past day only once points were spent to reopen it "
            + "(`stride points spend N --reason TEXT --reopen \(day)`; no day before the ledger's first)."
    }

    /// Points spent, and the balance left.
    public static func spent(_ points: Int, reason: String, reopening: CivilDate? = nil, balance: Int) -> ActionReport {
        var fields: [JSONValue.Member] = [.init("points", .integer(points)), .init("balance", .integer(balance))]
        var sentence = "Spent \(points) point\(points == 1 ? "" : "s") on \(reason)."
        if let reopening {
            sentence += " \(reopening) is open again: a check-in or entry for it earns."
            fields.append(.init("reopened", .string(reopening.description)))
        }
        return ActionReport(sentence: sentence + " Balance \(balance).", fields: fields)
    }
}

extension ActionReport {
    /// Samples withdrawn by the runner, or restored, and what that did to the step awards.
    public static func samples(_ report: SampleDecisionReport, withdrawn: Bool) -> ActionReport {
        let count = report.samples.count
        var sentence =
            "\(withdrawn ? "Withdrew" : "Restored") \(count) sample\(count == 1 ? "" : "s"): "
            + report.samples.map { "\($0.id) (\($0.value) from \($0.sourceName), \($0.sample.start))" }.joined(separator: ", ") + "."
        sentence += withdrawn ? " They stay in the log and leave every figure." : " They count again."
        for reversal in report.stepAwards.reversed {
            sentence += " The \(reversal.rule) award of \(reversal.day) is reversed: \(reversal.reason)."
        }
        for award in report.stepAwards.awarded { sentence += " +\(award.points) points (\(award.rule)) for \(award.day)." }
        return ActionReport(
            sentence: sentence,
            fields: [
                .init("samples", .array(report.samples.map { .string($0.id) })),
                .init("pointsAwarded", .integer(report.stepAwards.awarded.reduce(0) { $0 + $1.points })),
                .init("pointsTakenBack", .integer(report.stepAwards.reversed.reduce(0) { $0 + $1.takenBack })),
            ])
    }
}
