/// The rules that award points (after the Sayu app).
public enum PointRule: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The ledger's first use: +10, once.
    case firstUse = 0
    /// A daily check-in: +1 a day.
    case dailyCheckIn = 1
    /// The day's first journal entry: +3.
    case firstJournalEntry = 2
    /// The day's fifth journal entry: +3.
    case fifthJournalEntry = 3
    /// 1,000 steps in a day: +1.
    case steps1000 = 4
    /// 5,000 steps in a day: +2.
    case steps5000 = 5
    /// 10,000 steps in a day: +3.
    case steps10000 = 6

    /// The points the rule awards.
    public var points: Int {
        switch self {
        case .firstUse: 10
        case .dailyCheckIn: 1
        case .firstJournalEntry, .fifthJournalEntry: 3
        case .steps1000: 1
        case .steps5000: 2
        case .steps10000: 3
        }
    }

    /// The rule's name in JSON and tables.
    public var description: String {
        switch self {
        case .firstUse: "firstUse"
        case .dailyCheckIn: "dailyCheckIn"
        case .firstJournalEntry: "firstJournalEntry"
        case .fifthJournalEntry: "fifthJournalEntry"
        case .steps1000: "steps1000"
        case .steps5000: "steps5000"
        case .steps10000: "steps10000"
        }
    }
}

/// Points were awarded by a rule, for a local day.
///
/// Schema history: version 2 adds the device that sent the action that earned it
/// (``sentBy``: a check-in, a journal entry, or the ingest whose steps reached a tier); see
/// ``SentThroughServer``.
public struct PointsAwarded: SentThroughServer {
    public static let eventType = EventType.pointsAwarded
    public static let schemaVersion: UInt16 = 2

    /// The rule.
    public var rule: PointRule
    /// The points.
    public var points: Int
    /// The local day the award is for.
    public var day: CivilDate
    /// The device that sent what earned it through the server; nil otherwise.
    public var sentBy: String?

    /// Creates the payload.
    public init(rule: PointRule, points: Int, day: CivilDate, sentBy: String? = nil) {
        self.rule = rule
        self.points = points
        self.day = day
        self.sentBy = sentBy
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(rule.rawValue)
        writer.write(signedVarint: Int64(points))
        writer.write(signedVarint: day.daysSince1970)
        writer.write(sender: sentBy)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        guard let rule = PointRule(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown point rule") }
        self.rule = rule
        points = Int(try reader.readSignedVarint())
        day = CivilDate(daysSince1970: try reader.readSignedVarint())
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
    }

    public var json: JSONValue {
        .object(["rule": .string(rule.description), "points": .integer(points), "day": .string(day.description)], sentBy: sentBy)
    }

    /// The key that awards a rule once per day (once ever for the first use).
    public static func key(_ rule: PointRule, day: CivilDate) -> IdempotencyKey {
        IdempotencyKey(hashing: Array("points.\(rule)".utf8) + (rule == .firstUse ? [] : Array(day.description.utf8)))
    }
}

/// Points were spent, perhaps to reopen a past day (Sayu's rule: a check-in or a journal
/// entry earns for today, and for a past day only once points were spent to reopen it).
///
/// Schema history: version 2 adds the device that sent it (``sentBy``), see
/// ``SentThroughServer``; version 3 the day it reopens (``reopens``), after the sender (written
/// then even when absent). A spend that reopens no day is written as before, in version 1 or 2.
public struct PointsSpent: SentThroughServer {
    public static let eventType = EventType.pointsSpent
    public static let schemaVersion: UInt16 = 3

    /// The points.
    public var points: Int
    /// What for.
    public var reason: String
    /// The device that sent it through the server; nil when spent on the machine.
    public var sentBy: String?
    /// The past local day the spend reopens, so that a check-in or journal entry for it earns.
    public var reopens: CivilDate?

    /// Creates the payload.
    public init(points: Int, reason: String, sentBy: String? = nil, reopens: CivilDate? = nil) {
        self.points = points
        self.reason = reason
        self.sentBy = sentBy
        self.reopens = reopens
    }

    public var writtenSchemaVersion: UInt16 { reopens != nil ? 3 : sentBy == nil ? 1 : 2 }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(signedVarint: Int64(points))
        writer.write(reason)
        guard let reopens else { return writer.write(sender: sentBy) }
        writer.write(optional: sentBy) { $0.write($1) }
        writer.write(optional: reopens) { $0.write(signedVarint: $1.daysSince1970) }
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        points = Int(try reader.readSignedVarint())
        reason = try reader.readString()
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
        reopens = schemaVersion >= 3 ? try reader.readOptional { CivilDate(daysSince1970: try $0.readSignedVarint()) } : nil
    }

    public var json: JSONValue {
        var members: [JSONValue.Member] = [.init("points", .integer(points)), .init("reason", .string(reason))]
        if let reopens { members.append(.init("reopens", .string(reopens.description))) }
        return .object(members, sentBy: sentBy)
    }
}

/// The runner checked in for a local day.
///
/// Schema history: version 2 adds the device that sent it (``sentBy``); see
/// ``SentThroughServer``.
public struct CheckedIn: SentThroughServer {
    public static let eventType = EventType.checkedIn
    public static let schemaVersion: UInt16 = 2

    /// The local day.
    public var day: CivilDate
    /// The device that sent it through the server; nil for a check-in on the machine.
    public var sentBy: String?

    /// Creates the payload.
    public init(day: CivilDate, sentBy: String? = nil) {
        self.day = day
        self.sentBy = sentBy
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(signedVarint: day.daysSince1970)
        writer.write(sender: sentBy)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        day = CivilDate(daysSince1970: try reader.readSignedVarint())
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
    }

    public var json: JSONValue { .object(["day": .string(day.description)], sentBy: sentBy) }

    /// The key that records one check-in a day.
    public static func key(day: CivilDate) -> IdempotencyKey { IdempotencyKey(hashing: Array("checkin.\(day)".utf8)) }
    /// The key of a check-in for a day that was closed then (it earned nothing): one such a
    /// day, apart from the day's check-in once it is reopened.
    public static func closedKey(day: CivilDate) -> IdempotencyKey { IdempotencyKey(hashing: Array("checkin.closed.\(day)".utf8)) }
}

/// A journal entry was written.
///
/// Schema history: version 2 adds the device that sent it (``sentBy``); see
/// ``SentThroughServer``.
public struct JournalEntryAdded: SentThroughServer {
    public static let eventType = EventType.journalEntryAdded
    public static let schemaVersion: UInt16 = 2

    /// The entry.
    public var text: String
    /// The local day it was written on.
    public var day: CivilDate
    /// The device that sent it through the server; nil when written on the machine.
    public var sentBy: String?

    /// Creates the payload.
    public init(text: String, day: CivilDate, sentBy: String? = nil) {
        self.text = text
        self.day = day
        self.sentBy = sentBy
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(text)
        writer.write(signedVarint: day.daysSince1970)
        writer.write(sender: sentBy)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        text = try reader.readString()
        day = CivilDate(daysSince1970: try reader.readSignedVarint())
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
    }

    public var json: JSONValue { .object(["text": .string(text), "day": .string(day.description)], sentBy: sentBy) }
}

/// A step award was reversed: the day's steps changed after the award was decided (a sample
/// withdrawn, a repeat now counted once, a summary replaced by an export's samples) and no
/// longer reach its tier.
///
/// The balance never goes below zero: the reversal takes back what the balance holds, at most
/// the award's points (``takenBack``); what was already spent is not taken back.
public struct PointsReversed: SentThroughServer {
    public static let eventType = EventType.pointsReversed
    public static let schemaVersion: UInt16 = 2

    /// The rule of the award reversed.
    public var rule: PointRule
    /// The local day of the award.
    public var day: CivilDate
    /// The points the award gave.
    public var points: Int
    /// The points taken back from the balance (at most ``points``).
    public var takenBack: Int
    /// Why, as a runner reads it: the day's steps now, and what changed them.
    public var reason: String
    /// The device that sent what changed the day through the server; nil otherwise.
    public var sentBy: String?

    /// Creates the payload.
    public init(rule: PointRule, day: CivilDate, points: Int, takenBack: Int, reason: String, sentBy: String? = nil) {
        self.rule = rule
        self.day = day
        self.points = points
        self.takenBack = takenBack
        self.reason = reason
        self.sentBy = sentBy
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(rule.rawValue)
        writer.write(signedVarint: day.daysSince1970)
        writer.write(signedVarint: Int64(points))
        writer.write(signedVarint: Int64(takenBack))
        writer.write(reason)
        writer.write(sender: sentBy)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        guard let rule = PointRule(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown point rule") }
        self.rule = rule
        day = CivilDate(daysSince1970: try reader.readSignedVarint())
        points = Int(try reader.readSignedVarint())
        takenBack = Int(try reader.readSignedVarint())
        reason = try reader.readString()
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
    }

    public var json: JSONValue {
        .object(
            [
                "rule": .string(rule.description), "day": .string(day.description), "points": .integer(points),
                "takenBack": .integer(takenBack), "reason": .string(reason),
            ], sentBy: sentBy)
    }

    /// The key of the `generation`th reversal of a rule's award for a day (0 for the first):
    /// an award reversed, awarded again and reversed again is two reversals.
    public static func key(_ rule: PointRule, day: CivilDate, generation: Int) -> IdempotencyKey {
        IdempotencyKey(hashing: Array("points.reversed.\(rule).\(day).\(generation)".utf8))
    }
}

extension PointsAwarded {
    /// The key of the `generation`th award of a rule for a day: the first is ``key(_:day:)``'s
    /// (as every award before reversals existed); a tier reached again after a reversal is
    /// awarded again under the next.
    public static func key(_ rule: PointRule, day: CivilDate, generation: Int) -> IdempotencyKey {
        generation == 0 ? key(rule, day: day) : IdempotencyKey(hashing: Array("points.\(rule)\(day)#\(generation)".utf8))
    }
}

extension PointRule {
    /// The step tiers, lowest first: 1,000, 5,000 and 10,000 steps.
    public static let stepTiers: [(steps: Double, rule: PointRule)] = [(1000, .steps1000), (5000, .steps5000), (10_000, .steps10000)]

    /// Whether this is a step tier.
    public var isStepTier: Bool { Self.stepTiers.contains { $0.rule == self } }
}
