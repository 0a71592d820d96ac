import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideIngest

/// GPX tracks as apps and watches write them: times with and without a zone, and elements
/// that close themselves.
@Suite("GPX times and shapes")
struct GPXIngestTests {
    /// A track of two points, a minute apart, with the times as written.
    static func track(_ first: String, _ second: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Converter" xmlns="http://www.topografix.com/GPX/1/1">
         <trk><name>Morning Run</name><trkseg>
          <trkpt lat="47.0" lon="8.0"><ele>400</ele><time>\(first)</time></trkpt>
          <trkpt lat="47.001" lon="8.0"><ele>401</ele><time>\(second)</time></trkpt>
         </trkseg></trk>
        </gpx>

        """
    }

    @Test(
        "a time without a zone is UTC, as the GPX schema says; fractions, Z and offsets read as written",
        arguments: [
            ("2013-01-01T12:00:04", "2013-01-01T12:01:04", "2013-01-01T12:00:04Z", "2013-01-01T12:01:04Z"),
            ("2013-01-01T12:00:04.250", "2013-01-01T12:01:04.5", "2013-01-01T12:00:04.250Z", "2013-01-01T12:01:04.500Z"),
            ("2013-01-01T12:00:04Z", "2013-01-01T12:01:04.5Z", "2013-01-01T12:00:04Z", "2013-01-01T12:01:04.500Z"),
            ("2013-01-01T13:00:04+01:00", "2013-01-01T07:01:04-0500", "2013-01-01T12:00:04Z", "2013-01-01T12:01:04Z"),
        ])
    func zones(first: String, second: String, start: String, end: String) throws {
        try withTemporaryDirectory { (folder: String) throws in
            let result = try read(try write(Self.track(first, second), named: "run.gpx", in: folder))
            let run = try #require(result.workouts.first)
            #expect(run.start == ISO8601.parse(start))
            #expect(run.end == ISO8601.parse(end))
        }
    }

    @Test("a time that is no date is still refused, naming its line", arguments: ["2013-01-01", "yesterday", "2013-01-01T12:00:04Zulu"])
    func notTimes(written: String) throws {
        try withTemporaryDirectory { (folder: String) throws in
            let file = try write(Self.track("2013-01-01T12:00:04Z", written), named: "run.gpx", in: folder)
            #expect(throws: IngestError.self) { _ = try read(file) }
            do {
                _ = try read(file)
            } catch let error as IngestError {
                guard case .broken(_, let line, let problem) = error else { Issue.record("\(error)"); return }
                #expect(line == 5)
                #expect(problem.contains(written))
            }
        }
    }

    @Test("elements that close themselves read as their open-and-close forms: an empty track, segment, value or time")
    func selfClosing() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let gpx = """
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="Apple Watch" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
                 <trk/>
                 <trk><trkseg/><trkseg>
                  <trkpt lat="47.0" lon="8.0"><ele/><time>2024-05-01T06:00:00Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr/><gpxtpx:cad>80</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>
                  <trkpt lat="47.001" lon="8.0"><time/><ele>401</ele></trkpt>
                  <trkpt lat="47.002" lon="8.0"/>
                  <trkpt lat="47.003" lon="8.0"><ele>402</ele><time>2024-05-01T06:03:00Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>150</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
                 </trkseg></trk>
                </gpx>

                """
            let result = try read(try write(gpx, named: "run.gpx", in: folder))
            let run = try #require(result.workouts.first)
            #expect(result.workouts.count == 1)
            // Every point counts in the length; the timed ones are the start and end.
            #expect(abs((run.distanceMeters ?? 0) - GreatCircle.distance(from: (47.0, 8.0), to: (47.003, 8.0))) < 1e-6)
            #expect(run.start == ISO8601.parse("2024-05-01T06:00:00Z"))
            #expect(run.end == ISO8601.parse("2024-05-01T06:03:00Z"))
            #expect(result.result.counts.streamReadings == 2)
            // The empty track is named in the summary as every track without two timed points is.
            #expect(result.result.counts.leftOut["a GPX track without two timed points is not a workout"]?.count == 1)
        }
    }
}
