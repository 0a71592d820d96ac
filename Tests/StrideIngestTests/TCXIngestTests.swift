import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideIngest

/// TCX files as Garmin's writers lay them out: every lap's figures, whatever its `<Track>`
/// looks like, and an identity that covers what was read.
@Suite("TCX laps and identity")
struct TCXIngestTests {
    /// A run of three laps as a Forerunner writes it; `track(n)` is lap n's `<Track>` (or none).
    static func run(distances: [Double] = [1000, 1010, 1020], track: (Int) -> String) -> String {
        let laps = distances.indices.map { index in
            let start = ISO8601.format(lapStart(index), offsetSeconds: 0)
            return """
                      <Lap StartTime="\(start)">
                        <TotalTimeSeconds>\(300 + index * 10).0</TotalTimeSeconds>
                        <DistanceMeters>\(distances[index])</DistanceMeters>
                        <MaximumSpeed>3.9</MaximumSpeed>
                        <Calories>\(60 + index)</Calories>
                        <Intensity>Active</Intensity>
                        <TriggerMethod>Distance</TriggerMethod>
                        \(track(index))
                      </Lap>
                """
        }
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="no" ?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
              <Activities>
                <Activity Sport="Running">
                  <Id>2024-05-01T06:00:00.000Z</Id>
            \(laps.joined(separator: "\n"))
                  <Creator xsi:type="Device_t">
                    <Name>Forerunner 245</Name>
                    <UnitId>3999999999</UnitId>
                  </Creator>
                </Activity>
              </Activities>
            </TrainingCenterDatabase>

            """
    }

    static func lapStart(_ index: Int) -> Timestamp {
        Timestamp(millisecondsSince1970: 1_714_543_200_000 + Int64(index) * 330_000)
    }

    /// A trackpoint of lap `index`, `second` seconds into it.
    static func point(_ index: Int, second: Int) -> String {
        let time = ISO8601.format(lapStart(index).adding(milliseconds: Int64(second) * 1000), offsetSeconds: 0)
        return "<Trackpoint><Time>\(time)</Time><DistanceMeters>\(index * 1000 + second)</DistanceMeters></Trackpoint>"
    }

    @Test(
        "every lap's distance, time and energy are read, whatever its Track looks like",
        arguments: [
            ("self-closing", "<Track />"), ("self-closing, no space", "<Track/>"), ("prefixed and self-closing", "<ns1:Track xmlns:ns1=\"x\"/>"),
            ("empty", "<Track></Track>"), ("absent", ""),
        ])
    func trackShapes(shape: String, track: String) throws {
        try withTemporaryDirectory { (folder: String) throws in
            // The first two laps have the shape; the last a track of two points, as before.
            let text = Self.run { $0 < 2 ? track : "<Track>\(Self.point($0, second: 0))\(Self.point($0, second: 320))</Track>" }
            let result = try read(try write(text, named: "run.tcx", in: folder))
            let run = try #require(result.workouts.first, "\(shape)")
            #expect(run.distanceMeters == 3030, "\(shape)")
            #expect(run.durationSeconds == 930, "\(shape)")
            #expect(run.energyKilocalories == 183, "\(shape)")
            #expect(run.metadata("TCXLaps") == "3", "\(shape)")
        }
    }

    @Test("a lap of several Tracks (a watch paused and resumed) keeps its figures and every trackpoint")
    func severalTracks() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let text = Self.run { index in
                "<Track>\(Self.point(index, second: 0))</Track><Track/><Track>\(Self.point(index, second: 100))</Track>"
            }
            let result = try read(try write(text, named: "run.tcx", in: folder))
            let run = try #require(result.workouts.first)
            #expect(run.distanceMeters == 3030)
            #expect(run.durationSeconds == 930)
            #expect(result.result.counts.streamReadings == 6)
        }
    }

    @Test("the identity covers the distance and duration as read: a file whose figures read otherwise is another workout")
    func identityCoversFigures() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let first = try read(try write(Self.run { _ in "<Track/>" }, named: "a.tcx", in: folder))
            let again = try read(try write(Self.run { _ in "<Track></Track>" }, named: "b.tcx", in: folder))
            let longer = try read(try write(Self.run(distances: [1000, 1010, 1520]) { _ in "" }, named: "c.tcx", in: folder))
            let roundsAlike = try read(try write(Self.run(distances: [1000, 1010, 1020.4]) { _ in "" }, named: "d.tcx", in: folder))
            #expect(first.events.map(\.idempotencyKey) == again.events.map(\.idempotencyKey))
            #expect(first.events.map(\.idempotencyKey) != longer.events.map(\.idempotencyKey))
            // To the whole metre: a figure printed with other decimals is the same run.
            #expect(first.events.map(\.idempotencyKey) == roundsAlike.events.map(\.idempotencyKey))
        }
    }

    @Test("an element with no text is no value: <Calories/> and a trackpoint's <Time/> do not stop the read")
    func emptyValues() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let text = Self.run { index in "<Track><Trackpoint><Time/></Trackpoint>\(Self.point(index, second: 10))</Track>" }
                .replacingOccurrences(of: "<Calories>61</Calories>", with: "<Calories/>")
            let result = try read(try write(text, named: "run.tcx", in: folder))
            let run = try #require(result.workouts.first)
            #expect(run.energyKilocalories == 122)
            #expect(run.distanceMeters == 3030)
            #expect(result.result.counts.streamReadings == 3)
        }
    }

    @Test("a lap time no lap takes (1e300 s, a negative one) is no time: the read neither traps nor stops", arguments: ["1e300", "-5", "1e16"])
    func implausibleLapTime(_ written: String) throws {
        try withTemporaryDirectory { (folder: String) throws in
            let text = Self.run { _ in "" }.replacingOccurrences(
                of: "<TotalTimeSeconds>310.0</TotalTimeSeconds>", with: "<TotalTimeSeconds>\(written)</TotalTimeSeconds>")
            let result = try read(try write(text, named: "run.tcx", in: folder))
            let run = try #require(result.workouts.first)
            #expect(run.durationSeconds == 620)
            #expect(run.distanceMeters == 3030)
        }
    }
}
