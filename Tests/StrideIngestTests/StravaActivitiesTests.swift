import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideIngest

/// Strava's `activities.csv` in every generation, read by position.
@Suite("Strava's activities.csv")
struct StravaActivitiesTests {
    static func activities(_ text: String) throws -> (StravaActivityLayout, [StravaActivity]) {
        var rows: [CSVRows.Row] = []
        try Array(text.utf8).withUnsafeBytes { try CSVRows.read($0) { rows.append($0) } }
        let layout = try StravaActivityLayout(header: rows[0].fields)
        return (layout, try rows.dropFirst().map(layout.activity(of:)))
    }

    static func instant(_ text: String) throws -> Timestamp { try #require(ISO8601.parse(text)) }

    @Test("before 2019: snake_case headers, dates as 2018-11-27 19:11:32, one distance in metres, the gear by name")
    func snakeCase() throws {
        let (layout, read) = try Self.activities(
            """
            id,date,name,type,description,elapsed_time,distance,commute,gear,filename
            1988225457,2018-11-27 19:11:32,Evening Run,Run,"",1468,6075.0,true,Pegasus 35,activities/2125648250.fit.gz
            1992478096,2018-11-29 10:02:58,Morning Ride,Ride,"",1449,5869.0,true,1x1x8,

            """)
        #expect(layout.generation == .snakeCase)
        #expect(read.map(\.id) == ["1988225457", "1992478096"])
        #expect(read[0].start == (try Self.instant("2018-11-27T19:11:32Z")))
        #expect(read[0].isRun && !read[1].isRun)
        #expect(read[0].distanceMeters == 6_075)
        #expect(read[0].elapsedSeconds == 1_468)
        #expect(read[0].gearName == "Pegasus 35")
        #expect(read[0].filename == "activities/2125648250.fit.gz")
        #expect(read[1].filename == nil)
        #expect(read.map(\.line) == [2, 3])
    }

    @Test("German headers: decimal commas, dates as 09.12.2022, 15:24:49, the second Distanz in metres")
    func german() throws {
        let (layout, read) = try Self.activities(
            """
            Aktivitäts-ID,Aktivitätsdatum,Name der Aktivität,Aktivitätsart,Aktivitätsbeschreibung,Verstrichene Zeit,Distanz,Aktivitätsausrüstung,Dateiname,Verstrichene Zeit,Bewegungszeit,Distanz
            8234567890,"09.12.2022, 15:24:49",Abendlauf,Lauf,"",1800,"5,21",Asics Novablast 3,activities/8812345678.fit.gz,"1800,0","1750,0","5213,4"
            8234567891,"10.12.2022, 08:00:00",Radfahrt,Radfahrt,"",3600,"20,10",,,"3600,0","3500,0","20100,0"

            """)
        #expect(layout.generation == .german)
        #expect(read[0].start == (try Self.instant("2022-12-09T15:24:49Z")))
        #expect(read[0].isRun && !read[1].isRun)
        #expect(read[0].distanceMeters == 5_213.4)
        #expect(read[0].movingSeconds == 1_750)
        #expect(read[0].gearName == "Asics Novablast 3")
        #expect(read[1].gearName == nil)
    }

    @Test("English headers, as in 2020 (77 columns) and 2024 (94): the real archives", .enabled(if: fixturesFolder() != nil))
    func realArchives() throws {
        let folder = try #require(fixturesFolder()) + "/strava"
        let expectations:
            [(file: String, columns: Int, rows: Int, first: (id: String, type: String, start: String, metres: Double, gear: String?, file: String?))] =
                [
                    (
                        "geo-activity-playground/activities.csv", 94, 1,
                        ("12070555079", "Run", "2022-05-29T15:53:35Z", 3_322.949951171875, nil, "activities/12866632127.fit.gz")
                    ),
                    (
                        "peloton-tcx/activities.csv", 77, 162,
                        ("1176122", "Ride", "2011-08-09T23:02:09Z", 27_524.099609375, "Cannondale", "activities/1176122.gpx")
                    ),
                ]
        for expected in expectations {
            let text = try String(contentsOfFile: folder + "/" + expected.file, encoding: .utf8)
            let (layout, read) = try Self.activities(text)
            #expect(layout.generation == .english, "\(expected.file)")
            #expect(read.count == expected.rows, "\(expected.file)")
            let first = try #require(read.first)
            #expect(first.id == expected.first.id)
            #expect(first.type == expected.first.type)
            #expect(first.start == (try Self.instant(expected.first.start)))
            #expect(first.distanceMeters == expected.first.metres)
            #expect(first.gearName == expected.first.gear)
            #expect(first.filename == expected.first.file)
        }
    }

    @Test("a layout without the columns Stride needs is refused naming them; a row's bad field names its line and column")
    func refusals() throws {
        #expect(throws: StravaLayoutError(missing: ["Distance"], generation: .english)) {
            try StravaActivityLayout(header: ["Activity ID", "Activity Date", "Activity Name", "Activity Type"])
        }
        let layout = try StravaActivityLayout(header: ["id", "date", "name", "type", "distance"])
        #expect(throws: StravaRowError(line: 7, column: "Activity Date", value: "yesterday", problem: "is not a date Strava writes")) {
            try layout.activity(of: CSVRows.Row(fields: ["1", "yesterday", "x", "Run", "10"], line: 7))
        }
        #expect(throws: StravaRowError(line: 8, column: "Distance", value: "ten", problem: "is not a number")) {
            try layout.activity(of: CSVRows.Row(fields: ["1", "2018-01-01 10:00:00", "x", "Run", "ten"], line: 8))
        }
    }

    @Test(
        "dates as each generation writes them, all UTC; anything else is no date",
        arguments: [
            ("May 29, 2022, 3:53:35 PM", "2022-05-29T15:53:35Z"), ("Apr 16, 2021, 10:58:25 PM", "2021-04-16T22:58:25Z"),
            ("Jan 1, 2020, 12:00:00 AM", "2020-01-01T00:00:00Z"), ("Jan 1, 2020, 12:30:00 PM", "2020-01-01T12:30:00Z"),
            ("2018-11-27 19:11:32", "2018-11-27T19:11:32Z"), ("09.12.2022, 15:24:49", "2022-12-09T15:24:49Z"),
        ])
    func dates(written: String, expected: String) throws {
        #expect(StravaDates.parse(written) == (try Self.instant(expected)))
    }

    @Test("not dates", arguments: ["", "yesterday", "May 29, 2022, 13:53:35 PM", "2018-13-27 19:11:32", "Foo 1, 2020, 1:00:00 AM"])
    func notDates(written: String) {
        #expect(StravaDates.parse(written) == nil)
    }
}

/// Strava's `shoes.csv`: the rack.
@Suite("Strava's shoes.csv")
struct StravaShoesTests {
    static func rack(_ text: String) throws -> [StravaShoe] {
        var rows: [CSVRows.Row] = []
        try Array(text.utf8).withUnsafeBytes { try CSVRows.read($0) { rows.append($0) } }
        return try StravaShoe.rack(rows)
    }

    @Test("a shoe with no name is called Brand Model; Run among its default sport types makes it the default for runs")
    func rack() throws {
        let rack = try Self.rack(
            """
            Shoe Name,Shoe Brand,Shoe Model,Shoe Default Sport Types
            Race day,Nike,Vaporfly 3,
            "",Brooks,Levitate 2 ,"Run, Walk"
            "",Hoka,"",Walk

            """)
        #expect(rack.map(\.name) == ["Race day", "Brooks Levitate 2", "Hoka"])
        #expect(rack.map(\.isDefaultForRuns) == [false, true, false])
        #expect(rack.map(\.line) == [2, 3, 4])
    }

    @Test("the 2020 generation has three columns: two Brooks shoes with no name", .enabled(if: fixturesFolder() != nil))
    func realArchive() throws {
        let folder = try #require(fixturesFolder()) + "/strava"
        let rack = try Self.rack(try String(contentsOfFile: folder + "/peloton-tcx/shoes.csv", encoding: .utf8))
        #expect(rack.map(\.name) == ["Brooks Levitate 2", "Brooks Ghost 11"])
        #expect(rack.allSatisfy { !$0.isDefaultForRuns })
        #expect(try Self.rack(try String(contentsOfFile: folder + "/geo-activity-playground/shoes.csv", encoding: .utf8)).isEmpty)
    }

    @Test("a header without the shoe columns is refused naming them; a shoe with nothing to call it names its line")
    func refusals() {
        #expect(throws: StravaLayoutError(missing: ["Shoe Model"], generation: .english, file: "shoes.csv")) {
            try Self.rack("Shoe Name,Shoe Brand\nx,y\n")
        }
        #expect(throws: StravaRowError(line: 3, column: "Shoe Name", value: "", problem: "is empty, as are its brand and model")) {
            try Self.rack("Shoe Name,Shoe Brand,Shoe Model\na,b,c\n,,\n")
        }
    }

    @Test(
        "the pre-2019 generation's lowercase header reads as the others do, with rows or none; an empty file or a header alone is no shoe",
        arguments: [
            ("name,brand,model\n", [String](), [Int]()),
            ("name,brand,model\nRace day,Nike,Vaporfly 3\n,Brooks, Ghost 11\n", ["Race day", "Brooks Ghost 11"], [2, 3]),
            ("", [], []),
            ("\u{FEFF}Shoe Name,Shoe Brand,Shoe Model,Shoe Default Sport Types\r\n", [], []),
            ("Shoe Name,Shoe Brand,Shoe Model\n\n", [], []),
        ])
    func generations(text: String, names: [String], lines: [Int]) throws {
        let rack = try Self.rack(text)
        #expect(rack.map(\.name) == names)
        #expect(rack.map(\.line) == lines)
        #expect(rack.allSatisfy { !$0.isDefaultForRuns })
    }

    @Test(
        "in an archive, every shoes.csv error names shoes.csv and its line, never activities.csv",
        arguments: [
            ("Shoe Name,Shoe Brand\nx,y\n", "line 1", #"lacks "Shoe Model""#),
            ("name,brand\n", "line 1", #"lacks "model""#),
            ("name,brand,model\na,b,c\n,,\n", "line 3", "name \"\" is empty, as are its brand and model"),
            ("name,brand,model\n\"Race day,Nike,Vaporfly\n", "line 2", "never closed"),
        ])
    func archiveErrors(shoes: String, line: String, problem: String) throws {
        try withTemporaryDirectory { (folder: String) throws in
            _ = try write(Self.activities, named: "activities.csv", in: folder)
            _ = try write(shoes, named: "shoes.csv", in: folder)
            #expect {
                _ = try read(folder)
            } throws: { error in
                let message = "\(error)"
                return message.contains("shoes.csv, \(line): ") && message.contains(problem) && !message.contains("activities.csv")
            }
        }
    }

    @Test(
        "in an archive, shoes.csv of the pre-2019 generation is the rack; an empty one, or its header alone, lists no shoe",
        arguments: [
            ("name,brand,model\nRace day,Nike,Vaporfly 3\n", ["shoes.csv line 2"]), ("name,brand,model\n", []), ("", []),
            ("Shoe Name,Shoe Brand,Shoe Model,Shoe Default Sport Types\n", []),
        ])
    func archiveRack(shoes: String, places: [String]) throws {
        try withTemporaryDirectory { (folder: String) throws in
            _ = try write(Self.activities, named: "activities.csv", in: folder)
            _ = try write(shoes, named: "shoes.csv", in: folder)
            let archive = try #require(try read(folder).result.counts.archive)
            #expect(archive.shoes.map(\.place).filter { $0.hasPrefix("shoes.csv") } == places)
            // The run is on its shoe, from shoes.csv or known by the row's name alone.
            #expect(archive.runsOnShoes.count == 1)
        }
    }

    /// `activities.csv` of the pre-2019 generation: one run, on the shoe "Race day".
    static let activities = """
        id,date,name,type,description,elapsed_time,distance,commute,gear,filename
        1234,2018-11-27 19:11:32,Morning Run,Run,,1800,5000.0,false,Race day,

        """
}
