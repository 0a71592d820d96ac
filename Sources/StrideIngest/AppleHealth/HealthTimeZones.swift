import Foundation

/// The zones an export's `HKTimeZone` metadata names, each looked up once: Foundation's
/// `TimeZone(identifier:)` reads the time zone database, and an export names its few zones on
/// many samples.
struct HealthTimeZones {
    /// The zones found by identifier, nil for an identifier that names none.
    private var byIdentifier: [String: TimeZone?] = [:]
    /// The identifier asked for last, and its zone: samples come in long runs of one zone, and
    /// the reader's string table hands out the same string for each of them.
    private var last: (identifier: String, zone: TimeZone?)?
    /// The most identifiers remembered: an export names a handful; a file naming thousands is
    /// looked up afresh rather than held.
    static let mostRemembered = 256

    /// The zone an identifier names (`Europe/Paris`), or nil when this machine knows none by it.
    mutating func zone(named identifier: String) -> TimeZone? {
        if let last, last.identifier.isSameString(as: identifier) { return last.zone }
        let zone: TimeZone?
        if let known = byIdentifier[identifier] {
            zone = known
        } else {
            zone = TimeZone(identifier: identifier)
            if byIdentifier.count < Self.mostRemembered { byIdentifier[identifier] = zone }
        }
        last = (identifier, zone)
        return zone
    }
}
