import StrideEvents

/// Where the pages link to: the server's paths (`/`, `/daily`, `/shoes`,
/// `/shoes/audit?shoe=ID`, `/points`, `/log`) or, inside one report file, its sections'
/// anchors (`#overview`, `#daily`…). The same pages render either way.
public struct Links: Sendable, Hashable {
    /// Served paths under a prefix (`""` for the site's root), or one file's anchors.
    public enum Style: Sendable, Hashable {
        /// Paths on the server, each starting with `prefix` (no trailing slash).
        case served(prefix: String)
        /// Anchors within one report file.
        case report
    }

    /// Paths or anchors.
    public var style: Style
    /// The `asOf` value served links carry while the pages show a moment of the runner's
    /// life, so that moving between pages stays in it; the dashboard sets it from the page's
    /// time travel (``TimeTravel/asOf(_:)``).
    public var asOf: String?
    /// The `asRecorded` value served links carry while the pages show what the ledger said at
    /// a sequence (``TimeTravel/asRecorded(sequence:instant:)``); the dashboard sets it.
    public var asRecorded: String?
    /// The events a report's log section holds: audit steps link to these only.
    var reportedEvents: ClosedRange<UInt64>?

    /// Links for the server: paths under `prefix` (`""`: the root).
    public static func served(prefix: String = "") -> Links {
        Links(style: .served(prefix: prefix), asOf: nil, asRecorded: nil, reportedEvents: nil)
    }

    /// Links within one report file.
    public static let report = Links(style: .report, asOf: nil, asRecorded: nil, reportedEvents: nil)

    /// Whether the links are a report's anchors.
    public var isReport: Bool { style == .report }

    /// The overview.
    public var overview: String { target("/", [], anchor: "overview") }

    /// The daily records, of a range when given.
    public func daily(from first: CivilDate? = nil, through last: CivilDate? = nil) -> String {
        target("/daily", [("from", first?.description), ("to", last?.description)], anchor: "daily")
    }

    /// One day's figures down to their samples: a measure (by the contract's name), from a
    /// sample on.
    public func dailyExplain(date: CivilDate, measure: String? = nil, offset: Int? = nil) -> String {
        target(
            "/daily/explain", [("date", date.description), ("measure", measure), ("offset", offset.flatMap { $0 > 0 ? String($0) : nil })],
            anchor: "daily")
    }

    /// The shoe rack.
    public var shoes: String { target("/shoes", [], anchor: "shoes") }

    /// The training log.
    public var training: String { target("/training", [], anchor: "training") }

    /// A shoe's audit, by the shoe's id as `ShoeID.text` writes it.
    public func audit(shoe: String) -> String {
        target("/shoes/audit", [("shoe", shoe)], anchor: "audit-" + HTML.anchor(shoe))
    }

    /// The points.
    public var points: String { target("/points", [], anchor: "points") }

    /// The log, from a sequence and of a type when given.
    public func log(from first: UInt64? = nil, type: String? = nil) -> String {
        target("/log", [("from", first.map(String.init)), ("type", type)], anchor: "log")
    }

    /// One event in the log (`/log?from=SEQ#e-SEQ`); in a report, only an event its log
    /// section holds (nil otherwise).
    public func event(_ sequence: UInt64) -> String? {
        switch style {
        case .served: return log(from: sequence) + "#e-\(sequence)"
        case .report: return reportedEvents?.contains(sequence) == true ? "#e-\(sequence)" : nil
        }
    }

    /// Where a form posts (`/shoes/add`…); nil in a report, which has no forms.
    public func action(_ action: FormAction) -> String? {
        guard case .served(let prefix) = style else { return nil }
        return prefix + action.rawValue
    }

    /// The same links showing the ledger as it stands now.
    public var now: Links {
        var links = self
        links.asOf = nil
        links.asRecorded = nil
        return links
    }

    /// The time travel's query parameter and its value (`asOf` or `asRecorded`), when the
    /// links carry one: a GET form that stays in the past sends it as a hidden field.
    public var timeTravelField: (name: String, value: String)? {
        if let asOf { return ("asOf", asOf) }
        if let asRecorded { return ("asRecorded", asRecorded) }
        return nil
    }

    /// A served path with its query (the time travel's parameter last), or a report's anchor.
    private func target(_ path: String, _ query: [(String, String?)], anchor: String) -> String {
        guard case .served(let prefix) = style else { return "#" + anchor }
        let pairs = (query + [("asOf", asOf), ("asRecorded", asRecorded)]).compactMap { name, value in value.map { name + "=" + HTML.queryValue($0) }
        }
        let full = path == "/" && !prefix.isEmpty ? prefix + "/" : prefix + path
        return pairs.isEmpty ? full : full + "?" + pairs.joined(separator: "&")
    }
}

/// The paths the pages' forms post to; the server handles them. Field names are the JSON
/// API's (`name`, `brand`, `startKilometers`, `goalKilometers`, `isDefault`, `shoe`,
/// `workout`, `text`), plus a hidden `csrf` on every form but the sign-in.
public enum FormAction: String, Sendable, CaseIterable {
    /// Add a shoe: `name`, `brand`, `startKilometers`, `goalKilometers`, `isDefault` (`true` when checked).
    case addShoe = "/shoes/add"
    /// Rename a shoe: `shoe` (its id), `name`.
    case renameShoe = "/shoes/rename"
    /// Retire a shoe: `shoe`.
    case retireShoe = "/shoes/retire"
    /// Bring a retired shoe back: `shoe`.
    case unretireShoe = "/shoes/unretire"
    /// Choose the default shoe: `shoe` (its id; empty clears the default).
    case defaultShoe = "/shoes/default"
    /// Put a run on a shoe, moving it from another: `workout`, `shoe`.
    case assign = "/assign"
    /// Take a run off its shoe: `workout`.
    case unassign = "/unassign"
    /// Keep a run from ever being assigned automatically: `workout`.
    case exclude = "/exclude"
    /// Check in for today: no field but `csrf`.
    case checkIn = "/checkin"
    /// Add a journal entry: `text`.
    case journal = "/journal"
    /// Sign in: `token` (no `csrf`).
    case signIn = "/signin"
    /// Sign out: no field but `csrf`.
    case signOut = "/signout"
}
