import StrideEvents
import StrideProjection

/// The points account (after the Sayu app): the balance, what was earned and spent, the
/// history with each line's sequence and rule, and the journal.
public struct PointsBalanceProjection: Projection {
    public typealias Key = PointsKey
    public typealias Row = PointsRow

    public let name = "points"
    /// Version 2: history lines name the device that sent their event. Version 3: step awards
    /// are tracked per day and tier, and can be reversed. Version 4: the first day and the
    /// days reopened by spends, which decide what a check-in or entry earns.
    public let version: UInt32 = 4
    /// Small rows: snapshots of them are kept (see the store's `snapshotInterval`).
    public var keepsSnapshots: Bool { true }
    /// Sample events do not change it: a replay skips them undecoded.
    public var foldsSamples: Bool { false }

    /// Creates the projection.
    public init() {}

    public func apply(_ event: ProjectionEvent, to rows: inout ProjectionRows<Key, Row>) {
        guard case .event(let content) = event.content else { return }
        switch content {
        case .pointsAwarded(let award):
            change(rows: &rows) {
                $0.balance += award.points
                $0.earned += award.points
            }
            let line = HistoryLine(
                sequence: event.sequence, rule: award.rule.description, points: award.points, day: award.day, at: event.occurredAt,
                reason: nil, sentBy: award.sentBy)
            rows.update(.history(sequence: event.sequence), creating: { .history(line) }) { $0 = .history(line) }
            if award.rule == .firstUse {
                rows.update(.firstDay, creating: { .firstDay(award.day) }) { _ in }
            }
            if award.rule.isStepTier {
                rows.update(.stepAward(award.day, award.rule), creating: { .stepAward(StepAwardState()) }) { $0.changeStepAward { $0.awards += 1 } }
            }
        case .pointsReversed(let reversal):
            change(rows: &rows) {
                $0.balance -= reversal.takenBack
                $0.earned -= reversal.takenBack
            }
            let line = HistoryLine(
                sequence: event.sequence, rule: reversal.rule.description, points: -reversal.takenBack, day: reversal.day,
                at: event.occurredAt, reason: reversal.reason, sentBy: reversal.sentBy, kind: .reversal)
            rows.update(.history(sequence: event.sequence), creating: { .history(line) }) { $0 = .history(line) }
            rows.update(.stepAward(reversal.day, reversal.rule), creating: { .stepAward(StepAwardState()) }) {
                $0.changeStepAward { $0.reversals += 1 }
            }
        case .pointsSpent(let spend):
            change(rows: &rows) {
                $0.balance -= spend.points
                $0.spent += spend.points
            }
            let line = HistoryLine(
                sequence: event.sequence, rule: "spend", points: -spend.points, day: spend.reopens, at: event.occurredAt, reason: spend.reason,
                sentBy: spend.sentBy, kind: .spend)
            rows.update(.history(sequence: event.sequence), creating: { .history(line) }) { $0 = .history(line) }
            if let day = spend.reopens {
                rows.update(.reopened(day), creating: { .reopened(bySpend: event.sequence) }) { _ in }
            }
        case .journalEntryAdded(let entry):
            rows.update(.journalDay(entry.day), creating: { .journalDay(count: 0) }) { row in
                if case .journalDay(let count) = row { row = .journalDay(count: count + 1) }
            }
            let line = JournalLine(sequence: event.sequence, at: event.occurredAt, day: entry.day, text: entry.text)
            rows.update(.journal(sequence: event.sequence), creating: { .journal(line) }) { $0 = .journal(line) }
        default:
            break
        }
    }

    private func change(rows: inout ProjectionRows<Key, Row>, _ body: (inout Account) -> Void) {
        rows.update(.account, creating: { .account(Account()) }) { row in
            guard case .account(var account) = row else { return }
            body(&account)
            row = .account(account)
        }
    }
}

extension PointsBalanceProjection {
    enum Prefix: UInt8 {
        case account = 1, history, journalDay, journal, stepAward, firstDay, reopened
    }

    public func encode(key: Key) -> [UInt8] {
        var writer = BinaryWriter(capacity: 9)
        switch key {
        case .account: writer.write(Prefix.account.rawValue)
        case .history(let sequence):
            writer.write(Prefix.history.rawValue)
            writer.write(fixed: sequence.bigEndian)
        case .journalDay(let day):
            writer.write(Prefix.journalDay.rawValue)
            writer.write(orderedDay: day)
        case .journal(let sequence):
            writer.write(Prefix.journal.rawValue)
            writer.write(fixed: sequence.bigEndian)
        case .stepAward(let day, let rule):
            writer.write(Prefix.stepAward.rawValue)
            writer.write(orderedDay: day)
            writer.write(rule.rawValue)
        case .firstDay:
            writer.write(Prefix.firstDay.rawValue)
        case .reopened(let day):
            writer.write(Prefix.reopened.rawValue)
            writer.write(orderedDay: day)
        }
        return writer.bytes
    }

    public func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> Key {
        var reader = BinaryReader(bytes)
        switch Prefix(rawValue: try reader.readByte()) {
        case .account: return .account
        case .history: return .history(sequence: UInt64(bigEndian: try reader.read(fixed: UInt64.self)))
        case .journalDay: return .journalDay(try reader.readOrderedDay())
        case .journal: return .journal(sequence: UInt64(bigEndian: try reader.read(fixed: UInt64.self)))
        case .stepAward:
            let day = try reader.readOrderedDay()
            guard let rule = PointRule(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown point rule") }
            return .stepAward(day, rule)
        case .firstDay: return .firstDay
        case .reopened: return .reopened(try reader.readOrderedDay())
        case nil: throw DecodingFailure("unknown points key kind")
        }
    }

    public func encode(row: Row, into writer: inout BinaryWriter) {
        switch row {
        case .account(let account):
            writer.write(Prefix.account.rawValue)
            writer.write(signedVarint: Int64(account.balance))
            writer.write(signedVarint: Int64(account.earned))
            writer.write(signedVarint: Int64(account.spent))
        case .history(let line):
            writer.write(Prefix.history.rawValue)
            writer.write(varint: line.sequence)
            writer.write(line.rule)
            writer.write(signedVarint: Int64(line.points))
            writer.write(optional: line.day) { $0.write(signedVarint: $1.daysSince1970) }
            writer.write(line.at)
            writer.write(optional: line.reason) { $0.write($1) }
            writer.write(line.kind.rawValue)
            writer.write(optional: line.sentBy) { $0.write($1) }
        case .journalDay(let count):
            writer.write(Prefix.journalDay.rawValue)
            writer.write(varint: UInt64(count))
        case .journal(let line):
            writer.write(Prefix.journal.rawValue)
            writer.write(varint: line.sequence)
            writer.write(line.at)
            writer.write(signedVarint: line.day.daysSince1970)
            writer.write(line.text)
        case .stepAward(let state):
            writer.write(Prefix.stepAward.rawValue)
            writer.write(varint: UInt64(state.awards))
            writer.write(varint: UInt64(state.reversals))
        case .firstDay(let day):
            writer.write(Prefix.firstDay.rawValue)
            writer.write(signedVarint: day.daysSince1970)
        case .reopened(let sequence):
            writer.write(Prefix.reopened.rawValue)
            writer.write(varint: sequence)
        }
    }

    public func decodeRow(_ bytes: UnsafeRawBufferPointer) throws -> Row {
        var reader = BinaryReader(bytes)
        let row: Row
        switch Prefix(rawValue: try reader.readByte()) {
        case .account:
            var account = Account()
            account.balance = Int(try reader.readSignedVarint())
            account.earned = Int(try reader.readSignedVarint())
            account.spent = Int(try reader.readSignedVarint())
            row = .account(account)
        case .history:
            let sequence = try reader.readVarint()
            let rule = try reader.readString()
            let points = Int(try reader.readSignedVarint())
            let day = try reader.readOptional { CivilDate(daysSince1970: try $0.readSignedVarint()) }
            let at = try reader.readTimestamp()
            let reason = try reader.readOptional { try $0.readString() }
            guard let kind = HistoryLine.Kind(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown history line kind") }
            let sentBy = try reader.readOptional { try $0.readString() }
            row = .history(HistoryLine(sequence: sequence, rule: rule, points: points, day: day, at: at, reason: reason, sentBy: sentBy, kind: kind))
        case .journalDay:
            row = .journalDay(count: Int(try reader.readVarint()))
        case .journal:
            row = .journal(
                JournalLine(
                    sequence: try reader.readVarint(), at: try reader.readTimestamp(),
                    day: CivilDate(daysSince1970: try reader.readSignedVarint()), text: try reader.readString()))
        case .stepAward:
            var state = StepAwardState()
            state.awards = Int(try reader.readVarint())
            state.reversals = Int(try reader.readVarint())
            row = .stepAward(state)
        case .firstDay:
            row = .firstDay(CivilDate(daysSince1970: try reader.readSignedVarint()))
        case .reopened:
            row = .reopened(bySpend: try reader.readVarint())
        case nil:
            throw DecodingFailure("unknown points row kind")
        }
        try reader.expectEnd("a points row")
        return row
    }
}
