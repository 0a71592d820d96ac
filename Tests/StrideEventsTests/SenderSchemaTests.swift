import Testing

@testable import StrideEvents

/// One payload that gained a sender: the bytes its previous schema version wrote (made here
/// field by field, as that version's encoder wrote them, not by today's encoder), and the
/// event without and with a sender.
struct SenderCase: Sendable, CustomTestStringConvertible {
    var type: EventType
    /// The schema version that added the sender.
    var version: UInt16
    /// The bytes version `version - 1` wrote for `plain`.
    var previousBytes: [UInt8]
    var plain: LedgerEvent
    var sent: LedgerEvent
    /// The newest version this Stride reads (later than `version` when a field came after the sender).
    var newest: UInt16? = nil

    var testDescription: String { "\(type.name) \(version - 1) → \(version)" }

    static let day = CivilDate(year: 2024, month: 5, day: 1)
    static let start = Timestamp(secondsSince1970: 1_714_543_200)

    static func bytes(_ write: (inout BinaryWriter) -> Void) -> [UInt8] {
        var writer = BinaryWriter()
        write(&writer)
        return writer.bytes
    }

    static func workout(sentBy: String?) -> WorkoutRecorded {
        WorkoutRecorded(
            activityType: "HKWorkoutActivityTypeRunning", deviceClass: .phone, start: start, end: start.adding(milliseconds: 1_800_000),
            durationSeconds: 1800, distanceMeters: 5020, distanceSource: .reported, distanceAsWritten: "5.02 km", energyKilocalories: 320,
            created: nil, sourceName: "Health Auto Export", sourceVersion: "7.1", device: nil, metadata: [MetadataEntry(key: "k", value: "v")],
            sentBy: sentBy)
    }

    static let all: [SenderCase] = [
        SenderCase(
            type: .workoutRecorded, version: 2,
            previousBytes: bytes { writer in
                writer.write("HKWorkoutActivityTypeRunning")
                writer.write(DeviceClass.phone.rawValue)
                writer.write(start)
                writer.write(signedVarint: 1_800_000)
                writer.write(optional: 1800.0) { $0.write($1) }
                writer.write(optional: 5020.0) { $0.write($1) }
                writer.write(DistanceSource.reported.rawValue)
                writer.write(optional: "5.02 km") { $0.write($1) }
                writer.write(optional: 320.0) { $0.write($1) }
                writer.write(optional: nil as Timestamp?) { $0.write($1) }
                writer.write("Health Auto Export")
                writer.write(optional: "7.1") { $0.write($1) }
                writer.write(optional: nil as String?) { $0.write($1) }
                writer.write(varint: 1)
                writer.write("k")
                writer.write("v")
            },
            plain: .workoutRecorded(workout(sentBy: nil)), sent: .workoutRecorded(workout(sentBy: "marie-iphone"))),
        SenderCase(
            type: .shoeRegistered, version: 3,
            previousBytes: bytes { writer in
                writer.write(fixed: UInt128(7))
                writer.write("Pegasus 40")
                writer.write(optional: "Nike") { $0.write($1) }
                writer.write(10.0)
                writer.write(optional: 800.0) { $0.write($1) }
            },
            plain: .shoeRegistered(ShoeRegistered(shoe: 7, name: "Pegasus 40", brand: "Nike", startKilometers: 10, goalKilometers: 800)),
            sent: .shoeRegistered(
                ShoeRegistered(shoe: 7, name: "Pegasus 40", brand: "Nike", startKilometers: 10, goalKilometers: 800, sentBy: "marie-iphone")),
            newest: 4),
        SenderCase(
            type: .shoeRenamed, version: 2,
            previousBytes: bytes { writer in
                writer.write(fixed: UInt128(7))
                writer.write("Pegasus 41")
            },
            plain: .shoeRenamed(ShoeRenamed(shoe: 7, name: "Pegasus 41")),
            sent: .shoeRenamed(ShoeRenamed(shoe: 7, name: "Pegasus 41", sentBy: "marie-iphone"))),
        SenderCase(
            type: .shoeRetirementChanged, version: 2,
            previousBytes: bytes { writer in
                writer.write(fixed: UInt128(7))
                writer.write(true)
            },
            plain: .shoeRetirementChanged(ShoeRetirement(shoe: 7, isRetired: true)),
            sent: .shoeRetirementChanged(ShoeRetirement(shoe: 7, isRetired: true, sentBy: "marie-iphone")), newest: 3),
        SenderCase(
            type: .defaultShoeSelected, version: 2,
            previousBytes: bytes { writer in writer.write(optional: UInt128(7)) { $0.write(fixed: $1) } },
            plain: .defaultShoeSelected(DefaultShoeSelected(shoe: 7)),
            sent: .defaultShoeSelected(DefaultShoeSelected(shoe: 7, sentBy: "marie-iphone")), newest: 3),
        SenderCase(
            type: .workoutAssigned, version: 2,
            previousBytes: bytes { writer in
                writer.write(fixed: UInt128(7))
                writer.write(AssignmentOrigin.auto.rawValue)
            },
            plain: .workoutAssigned(WorkoutAssigned(shoe: 7, origin: .auto)),
            sent: .workoutAssigned(WorkoutAssigned(shoe: 7, origin: .auto, sentBy: "marie-iphone")), newest: 3),
        SenderCase(
            type: .workoutAssignmentChanged, version: 2,
            previousBytes: bytes { writer in writer.write(WorkoutAssignmentChange.Change.excluded.rawValue) },
            plain: .workoutAssignmentChanged(WorkoutAssignmentChange(.excluded)),
            sent: .workoutAssignmentChanged(WorkoutAssignmentChange(.excluded, sentBy: "marie-iphone")), newest: 3),
        SenderCase(
            type: .pointsAwarded, version: 2,
            previousBytes: bytes { writer in
                writer.write(PointRule.firstJournalEntry.rawValue)
                writer.write(signedVarint: 3)
                writer.write(signedVarint: day.daysSince1970)
            },
            plain: .pointsAwarded(PointsAwarded(rule: .firstJournalEntry, points: 3, day: day)),
            sent: .pointsAwarded(PointsAwarded(rule: .firstJournalEntry, points: 3, day: day, sentBy: "marie-iphone"))),
        SenderCase(
            type: .pointsSpent, version: 2,
            previousBytes: bytes { writer in
                writer.write(signedVarint: 5)
                writer.write("reopen 2024-05-03")
            },
            plain: .pointsSpent(PointsSpent(points: 5, reason: "reopen 2024-05-03")),
            sent: .pointsSpent(PointsSpent(points: 5, reason: "reopen 2024-05-03", sentBy: "marie-iphone")), newest: 3),
        SenderCase(
            type: .checkedIn, version: 2,
            previousBytes: bytes { writer in writer.write(signedVarint: day.daysSince1970) },
            plain: .checkedIn(CheckedIn(day: day)), sent: .checkedIn(CheckedIn(day: day, sentBy: "marie-iphone"))),
        SenderCase(
            type: .journalEntryAdded, version: 2,
            previousBytes: bytes { writer in
                writer.write("ran in the rain")
                writer.write(signedVarint: day.daysSince1970)
            },
            plain: .journalEntryAdded(JournalEntryAdded(text: "ran in the rain", day: day)),
            sent: .journalEntryAdded(JournalEntryAdded(text: "ran in the rain", day: day, sentBy: "marie-iphone"))),
    ]
}

/// Every payload that records who sent it through the server: its previous version still
/// reads (with no sender), the new one round-trips with one, and an action with no sender is
/// still written in the previous version, byte for byte.
@Suite("The sender of an event sent through the server, across schema versions")
struct SenderSchemaTests {
    func encode(_ event: LedgerEvent) -> (version: UInt16, bytes: [UInt8]) {
        var writer = BinaryWriter()
        let (_, version) = event.encode(into: &writer)
        return (version, writer.bytes)
    }

    func decode(_ type: EventType, version: UInt16, _ bytes: [UInt8]) throws -> LedgerEvent {
        try bytes.withUnsafeBytes { try LedgerEvent.decode(typeCode: type.code, schemaVersion: version, from: $0) }
    }

    @Test("the previous version's bytes decode, with no sender", arguments: SenderCase.all)
    func previousVersionDecodes(_ testCase: SenderCase) throws {
        let decoded = try decode(testCase.type, version: testCase.version - 1, testCase.previousBytes)
        #expect(decoded == testCase.plain)
        #expect(decoded.sentBy == nil)
        #expect(decoded.typeName == testCase.type.name)
    }

    @Test("the new version round-trips with a sender, written last", arguments: SenderCase.all)
    func newVersionRoundTrips(_ testCase: SenderCase) throws {
        let (version, bytes) = encode(testCase.sent)
        #expect(version == testCase.version)
        #expect(bytes == testCase.previousBytes + [1, UInt8("marie-iphone".utf8.count)] + Array("marie-iphone".utf8))
        let decoded = try decode(testCase.type, version: version, bytes)
        #expect(decoded == testCase.sent)
        #expect(decoded.sentBy == "marie-iphone")
        // The new version with its sender left absent reads as no sender too.
        #expect(try decode(testCase.type, version: testCase.version, testCase.previousBytes + [0]) == testCase.plain)
    }

    @Test("with no sender, the event is written in the previous version, byte for byte", arguments: SenderCase.all)
    func noSenderWritesPreviousVersion(_ testCase: SenderCase) {
        let (version, bytes) = encode(testCase.plain)
        #expect(version == testCase.version - 1)
        #expect(bytes == testCase.previousBytes)
        #expect(testCase.plain.payload?.encoded.schemaVersion == testCase.version - 1)
    }

    @Test("the log shows sentBy only when there is a sender, as the last key", arguments: SenderCase.all)
    func jsonNamesSenderOnlyWhenPresent(_ testCase: SenderCase) {
        #expect(!testCase.plain.json.text.contains("sentBy"))
        #expect(testCase.sent.json.text.hasSuffix(#","sentBy":"marie-iphone"}"#))
        #expect(testCase.sent.json.text.dropLast(#","sentBy":"marie-iphone"}"#.count) == testCase.plain.json.text.dropLast())
    }

    @Test("a version newer than this Stride's is kept unread, not misread", arguments: SenderCase.all)
    func newerVersionIsUnrecognized(_ testCase: SenderCase) throws {
        let newer = (testCase.newest ?? testCase.version) + 1
        let decoded = try decode(testCase.type, version: newer, testCase.previousBytes)
        guard case .unrecognized(let encoded) = decoded else {
            Issue.record("version \(newer) of \(testCase.type.name) was read as \(decoded)")
            return
        }
        #expect(encoded.schemaVersion == newer)
    }

    @Test("an archive's source is written after the sender, which is written then even when absent; it round-trips and shows in the log")
    func archiveSource() throws {
        let source = "Strava archive export_1.zip, activities.csv line 17 (activity 4567)"
        let cases: [(LedgerEvent, UInt16, [UInt8])] = [
            (
                .workoutAssigned(WorkoutAssigned(shoe: 7, origin: .archive, source: source)), 3,
                SenderCase.bytes { writer in
                    writer.write(fixed: UInt128(7))
                    writer.write(UInt8(2))
                    writer.write(optional: nil as String?) { $0.write($1) }
                    writer.write(source)
                }
            ),
            (
                .shoeRetirementChanged(ShoeRetirement(shoe: 7, isRetired: true, sentBy: "marie-iphone", source: source)), 3,
                SenderCase.bytes { writer in
                    writer.write(fixed: UInt128(7))
                    writer.write(true)
                    writer.write(optional: "marie-iphone") { $0.write($1) }
                    writer.write(source)
                }
            ),
            (
                .workoutAssignmentChanged(WorkoutAssignmentChange(.unassigned, source: source)), 3,
                SenderCase.bytes { writer in
                    writer.write(UInt8(0))
                    writer.write(optional: nil as String?) { $0.write($1) }
                    writer.write(source)
                }
            ),
            (
                .defaultShoeSelected(DefaultShoeSelected(shoe: 7, source: source)), 3,
                SenderCase.bytes { writer in
                    writer.write(optional: UInt128(7)) { $0.write(fixed: $1) }
                    writer.write(optional: nil as String?) { $0.write($1) }
                    writer.write(source)
                }
            ),
            (
                .shoeRegistered(ShoeRegistered(shoe: 7, name: "Pegasus 40", brand: nil, startKilometers: 0, goalKilometers: 800, source: source)), 4,
                SenderCase.bytes { writer in
                    writer.write(fixed: UInt128(7))
                    writer.write("Pegasus 40")
                    writer.write(optional: nil as String?) { $0.write($1) }
                    writer.write(0.0)
                    writer.write(optional: 800.0) { $0.write($1) }
                    writer.write(optional: nil as String?) { $0.write($1) }
                    writer.write(source)
                }
            ),
        ]
        for (event, version, bytes) in cases {
            let written = encode(event)
            #expect(written.version == version)
            #expect(written.bytes == bytes)
            #expect(try decode(EventType.known(code: event.typeCode)!, version: version, bytes) == event)
            #expect(event.payload?.json.text.contains("\"source\":\"Strava archive export_1.zip") == true)
        }
    }

    @Test("archive.ingested round-trips")
    func archiveIngested() throws {
        let event = LedgerEvent.archiveIngested(
            ArchiveIngested(service: "Strava", file: "export_1.zip", asOf: SenderCase.start, activities: 2_074, runs: 1_832, shoes: 5))
        let written = encode(event)
        #expect(try decode(.archiveIngested, version: written.version, written.bytes) == event)
    }

    @Test("a version 1 shoe registration still reads, upcast with no sender")
    func shoeRegisteredVersion1() throws {
        let old = ShoeRegistered.Version1(name: "Pegasus", startKilometers: 12)
        let decoded = try decode(.shoeRegistered, version: 1, old.encoded.bytes)
        #expect(decoded == .shoeRegistered(old.upcast))
        #expect(decoded.sentBy == nil)
    }

    @Test("token events round-trip, and the log shows 8 hex digits of the hash, never all of it")
    func tokenEvents() throws {
        let hash = AccessTokenHash(of: "stride_" + String(repeating: "ab", count: 32))
        let added = LedgerEvent.tokenAdded(TokenAdded(name: "marie-iphone", sha256: hash))
        let (version, bytes) = encode(added)
        #expect(version == 1)
        #expect(try decode(.tokenAdded, version: 1, bytes) == added)
        let full = Hex.string(hash.bytes)
        #expect(added.json.text == #"{"name":"marie-iphone","sha256Prefix":"\#(full.prefix(8))"}"#)
        #expect(!added.json.text.contains(full.prefix(9)))
        let revoked = LedgerEvent.tokenRevoked(TokenRevoked(name: "marie-iphone"))
        #expect(try decode(.tokenRevoked, version: 1, encode(revoked).bytes) == revoked)
        #expect(EventType.known(code: 50) == .tokenAdded && EventType.known(code: 51) == .tokenRevoked)
        #expect(EntityKind(rawValue: 7) == .device && EntityKind.device.description == "device")
    }

    @Test("a token hash of another length than 32 bytes is refused")
    func shortHash() throws {
        var writer = BinaryWriter()
        writer.write("marie-iphone")
        writer.write(raw: [UInt8](repeating: 1, count: 31))
        #expect(throws: DecodingFailure.self) { try decode(.tokenAdded, version: 1, writer.bytes) }
        #expect(AccessTokenHash(bytes: [UInt8](repeating: 0, count: 31)) == nil)
    }
}
