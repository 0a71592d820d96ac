import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideIngest

@Suite("Reading Apple Health exports")
struct AppleHealthReaderTests {
    static let watchDevice = "&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1&gt;"

    static func record(
        type: String = "HKQuantityTypeIdentifierStepCount", value: String = "120", offset: String = "+0200",
        start: String = "2024-05-01 08:00:00", end: String = "2024-05-01 08:10:00", extra: String = "", children: String = ""
    ) -> String {
        let open =
            " <Record type=\"\(type)\" sourceName=\"Phone\" sourceVersion=\"17.1\" unit=\"count\" creationDate=\"\(end) \(offset)\" startDate=\"\(start) \(offset)\" endDate=\"\(end) \(offset)\" value=\"\(value)\"\(extra)"
        return children.isEmpty ? open + "/>" : open + ">\n" + children + "\n </Record>"
    }

    @Test("the same sample printed with another offset has the same identity; a record differing in any attribute is another")
    func identities() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let summer = try read(try write(export(Self.record()), named: "a.xml", in: folder))
            // 08:00 +0200 is 07:00 +0100: the same instant, as a later export would print it.
            let winter = try read(
                try write(export(Self.record(offset: "+0100", start: "2024-05-01 07:00:00", end: "2024-05-01 07:10:00")), named: "b.xml", in: folder))
            let otherVersion = try read(try write(export(Self.record().replacingOccurrences(of: "17.1", with: "17.2")), named: "c.xml", in: folder))
            #expect(summer.events[0].idempotencyKey == winter.events[0].idempotencyKey)
            #expect(summer.samples[0].start == winter.samples[0].start)
            #expect(summer.events[0].idempotencyKey != otherVersion.events[0].idempotencyKey)
        }
    }

    @Test("a source name in two Unicode normalizations is two sources: each record's identity is the one it has read alone")
    func normalizations() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let composed = Self.record().replacingOccurrences(of: "sourceName=\"Phone\"", with: "sourceName=\"Caf\u{E9}\"")
            let decomposed = Self.record().replacingOccurrences(of: "sourceName=\"Phone\"", with: "sourceName=\"Cafe\u{301}\"")
            let both = try read(try write(export(composed + "\n" + decomposed + "\n" + composed), named: "both.xml", in: folder))
            let alone = try read(try write(export(decomposed), named: "alone.xml", in: folder))
            #expect(both.events.count == 3)
            #expect(both.events[1].idempotencyKey == alone.events[0].idempotencyKey)
            #expect(both.events[0].idempotencyKey != both.events[1].idempotencyKey)
            #expect(both.events[0].idempotencyKey == both.events[2].idempotencyKey)
        }
    }

    @Test("batches start small and double up to the batch size; every record arrives once and is counted by type")
    func batchRamp() throws {
        try withTemporaryDirectory { (folder: String) throws in
            // 9,000 step records a minute apart, and 10 of a type the catalog does not list.
            var records: [String] = []
            for minute in 0..<9_000 {
                let start = Date(timeIntervalSince1970: 1_714_550_400 + Double(minute) * 60)
                let text = Self.printed(start)
                records.append(Self.record(start: text, end: text))
            }
            for index in 0..<10 { records.append(Self.record(type: "HKQuantityTypeIdentifierMadeUp", value: String(index))) }
            let file = try write(export(records.joined(separator: "\n")), named: "many.xml", in: folder)
            let box = BatchSizes()
            let result = try IngestReader.read(file: file, batchSize: 3_000) { box.add($0.events.count) }
            #expect(box.sizes == [500, 1_000, 2_000, 3_000, 2_510])
            #expect(result.counts.samplesByType == ["HKQuantityTypeIdentifierStepCount": 9_000, "HKQuantityTypeIdentifierMadeUp": 10])
        }
    }

    static func printed(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/Paris")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }

    @Test("HKExternalUUID, then the sync identifier (its version telling versions apart), make the identity")
    func metadataIdentities() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let external = "  <MetadataEntry key=\"HKExternalUUID\" value=\"E-1\"/>"
            let a = try read(try write(export(Self.record(value: "1", children: external)), named: "a.xml", in: folder))
            let b = try read(try write(export(Self.record(value: "2", children: external)), named: "b.xml", in: folder))
            #expect(a.events[0].idempotencyKey == b.events[0].idempotencyKey)
            func sync(_ version: String, _ value: String) -> String {
                Self.record(
                    value: value,
                    children:
                        "  <MetadataEntry key=\"HKMetadataKeySyncIdentifier\" value=\"S-1\"/>\n  <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"\(version)\"/>"
                )
            }
            let first = try read(try write(export(sync("1", "10")), named: "c.xml", in: folder))
            let second = try read(try write(export(sync("2", "12")), named: "d.xml", in: folder))
            #expect(first.events[0].entity == second.events[0].entity)
            #expect(first.events[0].idempotencyKey != second.events[0].idempotencyKey)
        }
    }

    @Test("records inside a Correlation are skipped: they repeat top-level ones")
    func correlations() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let body =
                Self.record()
                + "\n <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Phone\" creationDate=\"2024-05-01 08:00:00 +0200\" startDate=\"2024-05-01 08:00:00 +0200\" endDate=\"2024-05-01 08:00:00 +0200\">\n"
                + Self.record(value: "7") + "\n </Correlation>"
            let result = try read(try write(export(body), named: "a.xml", in: folder))
            #expect(result.samples.count == 1)
            #expect(result.result.counts.nestedRecordsSkipped == 1)
        }
    }

    @Test("elements that close themselves read as their open-and-close forms: a workout, a correlation, a record and its metadata")
    func selfClosing() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let workout =
                " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\" totalDistance=\"5\" totalDistanceUnit=\"km\" sourceName=\"Watch\" startDate=\"2024-05-01 07:00:00 +0200\" endDate=\"2024-05-01 07:30:00 +0200\""
            let correlation =
                " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Phone\" creationDate=\"2024-05-01 08:00:00 +0200\" startDate=\"2024-05-01 08:00:00 +0200\" endDate=\"2024-05-01 08:00:00 +0200\""
            let metadata = "  <MetadataEntry key=\"k\" value=\"v\"/>"
            let selfClosed = [workout + "/>", correlation + "/>", Self.record(value: "7"), Self.record(value: "8", children: metadata)]
            let spelledOut = [
                workout + "></Workout>", correlation + "></Correlation>", Self.record(value: "7").replacingOccurrences(of: "/>", with: "></Record>"),
                Self.record(value: "8", children: metadata.replacingOccurrences(of: "/>", with: "></MetadataEntry>")),
            ]
            let closed = try read(try write(export(selfClosed.joined(separator: "\n")), named: "closed.xml", in: folder))
            let open = try read(try write(export(spelledOut.joined(separator: "\n")), named: "open.xml", in: folder))
            #expect(closed.workouts.count == 1)
            #expect(closed.samples.map(\.value) == [.number(7), .number(8)])
            #expect(closed.samples.last?.metadata == [MetadataEntry(key: "k", value: "v")])
            #expect(closed.events.map(\.idempotencyKey) == open.events.map(\.idempotencyKey))
            #expect(closed.result.counts.export != nil && closed.result.counts.export == open.result.counts.export)
        }
    }

    @Test("a Record inside a Record is skipped and counted apart from a correlation's")
    func recordInsideRecord() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let inner = Self.record(value: "7")
            let deeper = "  <Extra>\n  " + inner + "\n  </Extra>"
            let body = Self.record(children: "  <MetadataEntry key=\"k\" value=\"v\"/>\n " + inner + "\n" + deeper)
            let result = try read(try write(export(body), named: "n.xml", in: folder))
            #expect(result.samples.count == 1)
            #expect(result.samples.first?.metadata == [MetadataEntry(key: "k", value: "v")])
            #expect(result.result.counts.recordsInsideRecordsSkipped == 2)
            #expect(result.result.counts.nestedRecordsSkipped == 0)
        }
    }

    @Test(
        "workout distance: statistics first, attributes next, a WorkoutActivity's statistics never added again",
        arguments: [
            (
                "<WorkoutStatistics type=\"HKQuantityTypeIdentifierDistanceWalkingRunning\" startDate=\"2024-05-01 07:00:00 +0200\" endDate=\"2024-05-01 07:30:00 +0200\" sum=\"5.02\" unit=\"km\"/>",
                5020.0, DistanceSource.statistics
            ),
            ("", 3218.688, DistanceSource.attributes),
        ])
    func workoutDistance(statistics: String, metres: Double, source: DistanceSource) throws {
        try withTemporaryDirectory { (folder: String) throws in
            let activity =
                "<WorkoutActivity uuid=\"1\" startDate=\"2024-05-01 07:00:00 +0200\" endDate=\"2024-05-01 07:30:00 +0200\"><WorkoutStatistics type=\"HKQuantityTypeIdentifierDistanceWalkingRunning\" startDate=\"2024-05-01 07:00:00 +0200\" endDate=\"2024-05-01 07:30:00 +0200\" sum=\"9.99\" unit=\"km\"/></WorkoutActivity>"
            let attributes = statistics.isEmpty ? " totalDistance=\"2\" totalDistanceUnit=\"mi\"" : ""
            let body =
                " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\"\(attributes) totalEnergyBurned=\"1000\" totalEnergyBurnedUnit=\"kJ\" sourceName=\"Watch\" device=\"\(Self.watchDevice)\" creationDate=\"2024-05-01 07:31:00 +0200\" startDate=\"2024-05-01 07:00:00 +0200\" endDate=\"2024-05-01 07:30:00 +0200\">\n  \(statistics)\n  \(activity)\n </Workout>"
            let workout = try #require(try read(try write(export(body), named: "w.xml", in: folder)).workouts.first)
            #expect(abs((workout.distanceMeters ?? 0) - metres) < 1e-6)
            #expect(workout.distanceSource == source)
            #expect(abs((workout.energyKilocalories ?? 0) - 1000 / 4.184) < 1e-9)
            #expect(workout.durationSeconds == 1800)
            #expect(workout.deviceClass == .watch)
        }
    }

    @Test("the DTD is never processed: an entity it defines, internal or external, is not expanded")
    func noEntityExpansion() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let dtd = "<!DOCTYPE HealthData [\n<!ENTITY secret SYSTEM \"file:///etc/passwd\">\n<!ENTITY lol \"lol\">\n<!ELEMENT HealthData ANY\n]>\n"
            let result = try read(try write(export(Self.record(value: "&lol;&secret;"), dtd: dtd), named: "x.xml", in: folder))
            #expect(result.samples.first?.value == .text("&lol;&secret;"))
            #expect(result.result.counts.leftOut.keys.contains { $0.contains("reference") })
        }
    }

    @Test("odd content in a well-formed record is kept, counted and named, and does not stop the read")
    func oddContent() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let body = [
                Self.record(value: "lots"), Self.record(start: "2024-05-01 09:00:00", end: "2024-05-01 08:00:00"),
                Self.record(type: "HKQuantityTypeIdentifierDistanceWalkingRunning").replacingOccurrences(
                    of: "unit=\"count\"", with: "unit=\"furlong\""),
                Self.record(value: "3"),
            ].joined(separator: "\n")
            let result = try read(try write(export(body), named: "o.xml", in: folder))
            #expect(result.samples.count == 4)
            let reasons = result.result.counts.leftOut
            #expect(reasons["its value is not a number"]?.count == 1)
            #expect(reasons["it ends before it starts"]?.count == 1)
            #expect(reasons.keys.contains { $0.contains("furlong") })
            #expect(reasons["its value is not a number"]?.examples.first?.hasSuffix(":4") == true)
        }
    }

    @Test(
        "broken structure stops the read, naming the file and line",
        arguments: [
            ("cut short", export(AppleHealthReaderTests.record()).replacingOccurrences(of: "</HealthData>", with: ""), "cut short"),
            (
                "unbalanced",
                export(
                    " <Record type=\"X\" sourceName=\"P\" startDate=\"2024-05-01 08:00:00 +0200\" endDate=\"2024-05-01 08:00:00 +0200\">\n </Workout>"
                ), "unbalanced"
            ),
            ("no start date", export(" <Record type=\"X\" sourceName=\"P\" endDate=\"2024-05-01 08:00:00 +0200\"/>"), "startDate"),
            (
                "bad date", export(" <Record type=\"X\" sourceName=\"P\" startDate=\"yesterday\" endDate=\"2024-05-01 08:00:00 +0200\"/>"),
                "not a date"
            ),
            ("not health", "<?xml version=\"1.0\"?>\n<Other/>\n", "neither"),
        ])
    func broken(name: String, text: String, expected: String) throws {
        try withTemporaryDirectory { (folder: String) throws in
            let file = try write(text, named: "broken.xml", in: folder)
            do {
                _ = try read(file)
                Issue.record("\(name) was read without an error")
            } catch let error as IngestError {
                #expect(error.description.contains(file))
                #expect(error.description.contains(expected), "\(error)")
            }
        }
    }

    @Test("a file cut at any point fails or reads a prefix, never crashes", arguments: [10, 500, 1500, 2200])
    func truncatedAnywhere(length: Int) throws {
        try withTemporaryDirectory { (folder: String) throws in
            let full = export(
                (1...10).map { Self.record(value: String($0), start: "2024-05-01 08:0\($0 % 10):00", end: "2024-05-01 08:0\($0 % 10):30") }.joined(
                    separator: "\n"))
            let cut = String(full.utf8.prefix(length)) ?? ""
            let file = try write(cut, named: "cut.xml", in: folder)
            #expect(throws: IngestError.self) { _ = try read(file) }
        }
    }
}

@Suite("Values read from exports")
struct ValueTests {
    @Test(
        "printed dates are read as instants",
        arguments: [
            ("2024-05-01 08:00:00 +0200", Int64(1_714_543_200)), ("2024-05-01 06:00:00 +0000", 1_714_543_200),
            ("2024-05-01 01:30:00 -0430", 1_714_543_200), ("2016-11-14 07:25:41 -0700", 1_479_133_541),
        ])
    func dates(text: String, seconds: Int64) {
        #expect(HealthDate.parse(text) == Timestamp(secondsSince1970: seconds))
    }

    @Test(
        "text that is not such a date is refused", arguments: ["2024-05-01T08:00:00+02:00", "2024-02-30 08:00:00 +0200", "2024-05-01 08:00:00", ""])
    func badDates(text: String) {
        #expect(HealthDate.parse(text) == nil)
    }

    @Test(
        "numbers are read exactly, by the fast path or the slow one",
        arguments: [
            ("72", 72.0), ("0.4971749504535062", 0.4971749504535062), ("-1.5", -1.5), ("1e3", 1000.0),
            ("12345678901234567890", 12345678901234567890.0),
            ("0.1", 0.1), ("+3", 3.0),
        ])
    func numbers(text: String, value: Double) {
        #expect(Array(text.utf8).withUnsafeBytes { DecimalNumber.parse($0) } == value)
    }

    @Test("text that is not a number is not one", arguments: ["", "-", "1.2.3", "nan", "inf", "12kg", "."])
    func notNumbers(text: String) {
        #expect(Array(text.utf8).withUnsafeBytes { DecimalNumber.parse($0) } == nil)
    }

    @Test(
        "device classes: the device's model first, the source name without a device, other otherwise",
        arguments: [
            ("<<HKDevice>, name:Apple Watch, model:Watch, hardware:Watch6,2>", "Phone app", DeviceClass.watch),
            ("<<HKDevice>, name:iPhone, model:iPhone, hardware:iPhone14,5>", "Marie’s Apple Watch", .phone),
            ("Dummy device", "Apple Watch", .other),
            (nil, "Marie’s Apple\u{00A0}Watch", .watch),
            (nil, "Marie’s iPhone", .phone),
            (nil, "Withings", .other),
        ] as [(String?, String, DeviceClass)])
    func deviceClasses(device: String?, source: String, expected: DeviceClass) {
        #expect(DeviceClassifier.classify(device: device, sourceName: source) == expected)
    }

    @Test(
        "units: m, km, mi, ft to metres; kcal, Cal, kJ to kilocalories",
        arguments: [
            ("m", 1.0), ("km", 1000), ("mi", 1609.344), ("ft", 0.3048),
        ])
    func distanceUnits(unit: String, metres: Double) {
        #expect(HealthUnits.metres(per: unit) == metres)
    }

    @Test("energy units")
    func energyUnits() {
        #expect(HealthUnits.kilocalories(per: "kcal") == 1)
        #expect(HealthUnits.kilocalories(per: "Cal") == 1)
        #expect(HealthUnits.kilocalories(per: "kJ") == 1 / 4.184)
        #expect(HealthUnits.kilocalories(per: "furlong") == nil)
    }

    @Test("references: the five entities and character references decode; others stay as written")
    func references() {
        let text = "&lt;&gt;&amp;&quot;&apos;&#8217;&#xA0;&unknown;&"
        let decoded = Array(text.utf8).withUnsafeBytes { XMLReferences.decode($0) }
        #expect(String(decoding: decoded.bytes, as: UTF8.self) == "<>&\"'\u{2019}\u{00A0}&unknown;&")
        #expect(decoded.hasUnknownReference)
    }

    @Test("the great-circle distance of one degree of latitude is about 111.2 km")
    func greatCircle() {
        #expect(abs(GreatCircle.distance(from: (0, 0), to: (1, 0)) - 111_195) < 1)
        #expect(GreatCircle.distance(from: (48.85, 2.35), to: (48.85, 2.35)) == 0)
    }
}

/// The sizes of the batches a read delivers, in order.
private final class BatchSizes: @unchecked Sendable {
    private let lock = NSLock()
    private var delivered: [Int] = []
    func add(_ size: Int) { lock.withLock { delivered.append(size) } }
    var sizes: [Int] { lock.withLock { delivered } }
}
