import Foundation

/// Which shoe on the rack a shoe of another service's archive (Strava's `shoes.csv`, Garmin's
/// `gear.json`) is. Pure.
///
/// The rule: a rack shoe of the same name, in any case and with the spaces at the ends
/// ignored, is the same shoe; `--shoe NAME=RACK_NAME` says so where the names differ. No such
/// shoe: a new one. What cannot be told apart is reported, never guessed — two rack shoes that
/// print the archive shoe's name, or two archive shoes that print one name (Strava tells them
/// apart by their ids) both matching one rack shoe.
public enum ArchiveShoePolicy {
    /// What an archive shoe is on the rack.
    public enum Match: Equatable, Sendable {
        /// The rack shoe of this name.
        case onRack(String)
        /// A shoe the rack does not have: added.
        case new
        /// More than one shoe it could be, named: the runner says which with `--shoe`.
        case ambiguous([String])
        /// `--shoe` names a rack shoe that is not there.
        case unknownRackShoe(String)
    }

    /// How two names are compared: case and the spaces at the ends ignored.
    public static func key(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Each archive shoe's match, in the order given (`archive` may name one shoe twice when
    /// two shoes print one name: each is matched, and told apart only by the runner).
    ///
    /// - Parameters:
    ///   - archive: the archive's shoes' names.
    ///   - rack: the rack's shoes' names.
    ///   - said: `--shoe NAME=RACK_NAME`: archive name → rack name.
    public static func match(archive: [String], rack: [String], said: [String: String] = [:]) -> [Match] {
        var rackByKey: [String: [String]] = [:]
        for name in rack { rackByKey[key(name), default: []].append(name) }
        let saidByKey = Dictionary(said.map { (key($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        var archiveCount: [String: Int] = [:]
        for name in archive { archiveCount[key(name), default: 0] += 1 }
        return archive.map { name in
            if let wanted = saidByKey[key(name)] {
                guard let found = rackByKey[key(wanted)] else { return .unknownRackShoe(wanted) }
                return found.count == 1 ? .onRack(found[0]) : .ambiguous(found)
            }
            guard let found = rackByKey[key(name)] else { return .new }
            if found.count > 1 { return .ambiguous(found) }
            // Two archive shoes of one name and one rack shoe: which of them it is, only the
            // runner knows.
            if archiveCount[key(name), default: 0] > 1 { return .ambiguous(found) }
            return .onRack(found[0])
        }
    }
}
