import StrideEvents

/// Why a shoe or workout command was refused; nothing was appended.
public enum ShoeError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownShoe(String, known: [String])
    case nameTaken(String)
    case emptyName
    case retired(String)
    case unknownWorkout(String)
    case ambiguousWorkout(String, matches: [String])
    case notARun(String, activity: String)
    case notAssigned(String)
    case alreadyThat(String)

    public var description: String {
        switch self {
        case .unknownShoe(let text, let known):
            known.isEmpty
                ? "there is no shoe \"\(text.shownInMessage)\": the rack is empty; add one with `stride shoes add NAME`"
                : "there is no shoe \"\(text.shownInMessage)\"; name one of: \(known.joined(separator: ", ")) (or give its id from `stride shoes list`)"
        case .nameTaken(let name):
            "a shoe named \"\(name.shownInMessage)\" is already on the rack; choose another name, or rename that one with `stride shoes rename`"
        case .emptyName:
            "a shoe needs a name; give one, such as `stride shoes add \"Pegasus 40\"`"
        case .retired(let name):
            "\(name.shownInMessage) is retired and takes no new workouts; bring it back with `stride shoes unretire \"\(name.shownInMessage)\"` or choose another shoe"
        case .unknownWorkout(let text):
            "there is no workout \"\(text.shownInMessage)\"; list them with `stride workouts` and give an id (a unique prefix is enough)"
        case .ambiguousWorkout(let text, let matches):
            "\"\(text.shownInMessage)\" matches \(matches.count) workouts (\(matches.prefix(5).joined(separator: ", "))\(matches.count > 5 ? ", …" : "")); give more characters of the id"
        case .notARun(let workout, let activity):
            "workout \(workout) is \(activity.replacingOccurrences(of: "HKWorkoutActivityType", with: "")), not a run: only runs go on shoes"
        case .notAssigned(let workout):
            "workout \(workout) is on no shoe; nothing to unassign"
        case .alreadyThat(let what):
            "\(what); nothing was changed"
        }
    }
}
