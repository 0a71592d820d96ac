import StrideEvents
import StrideLedger

/// `runners list --json`: the runners of a shared server's folder, by name — each ledger's time
/// zone, events, size on disk and devices with an active token. Never a health figure.
public struct RunnersDocument: ContractDocument {
    /// One runner's ledger.
    public struct Runner: Sendable, Hashable {
        public var name: String
        public var timeZone: String
        public var events: UInt64
        public var bytes: Int
        /// The devices whose token is active.
        public var devices: [String]
        /// Why the ledger could not be opened, when it could not (its figures are then 0).
        public var problem: String?
        /// How far a server with `--replica` last saw the copy in PostgreSQL reach; nil when the
        /// log was never copied.
        public var copiedThrough: UInt64?
        /// What the copy in PostgreSQL holds, when the command asked it (`--replica`).
        public var copy: Copy?
    }

    /// A runner's log in PostgreSQL.
    public struct Copy: Sendable, Hashable {
        /// The server that writes it (``ServerName``).
        public var writer: String
        /// Its last sequence there.
        public var events: UInt64

        public init(writer: String, events: UInt64) {
            self.writer = writer
            self.events = events
        }
    }

    /// The folder.
    public var folder: String
    /// The runners, by name.
    public var runners: [Runner]
    /// Why PostgreSQL could not be asked, when the command asked it and it did not answer.
    public var copyProblem: String?

    /// The runners of `folder` as they stand (each ledger is opened to read); a ledger that
    /// cannot be opened is listed with its problem.
    /// - Throws: ``RunnersError/notAFolder(_:)``.
    public init(_ folder: RunnersFolder, clock: any LedgerClock = SystemClock()) throws {
        self.folder = folder.path
        runners = try folder.names().map { name in
            do {
                let ledger = try Ledger.open(at: folder.ledgerPath(of: name), clock: clock)
                let copied = try ledger.replicaPosition()
                return Runner(
                    name: name, timeZone: ledger.timeZoneIdentifier, events: try ledger.lastSequence(), bytes: ledger.bytesOnDisk,
                    devices: try ledger.tokens().filter { !$0.isRevoked }.map(\.name), copiedThrough: copied == 0 ? nil : copied)
            } catch {
                return Runner(name: name, timeZone: "", events: 0, bytes: 0, devices: [], problem: String(describing: error))
            }
        }
    }

    public var json: JSONValue {
        let members: [JSONValue.Member] = [
            .init("folder", .string(folder)),
            .init(
                "runners",
                .array(
                    runners.map { runner in
                        var members: [JSONValue.Member] = [
                            .init("name", .string(runner.name)), .init("timeZone", .string(runner.timeZone)),
                            .init("events", .integer(Int64(runner.events))), .init("bytes", .integer(Int64(runner.bytes))),
                            .init("devices", .array(runner.devices.map(JSONValue.string))),
                        ]
                        // Only for a ledger that cannot be opened.
                        if let problem = runner.problem { members.append(.init("problem", .string(problem))) }
                        // Only for a log a server with --replica copied, and a copy the command asked.
                        if let copied = runner.copiedThrough { members.append(.init("copiedThrough", .integer(Int64(copied)))) }
                        if let copy = runner.copy {
                            members.append(
                                .init("copy", .object([.init("writer", .string(copy.writer)), .init("events", .integer(Int64(copy.events)))])))
                        }
                        return .object(members)
                    })),
        ]
        return .object(members + (copyProblem.map { [JSONValue.Member("copyProblem", .string($0))] } ?? []))
    }
}
