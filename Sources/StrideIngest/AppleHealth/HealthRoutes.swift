import StrideEvents

/// The routes of an Apple Health export (`workout-routes/*.gpx`): each the stream of the
/// workout it was recorded in.
///
/// A route joins the workout whose span holds its first point (a minute's slack before the
/// start: the phone's GPS starts before the workout is saved as begun), the nearest start
/// when two do; the Health app's `FileReference` is not relied on (exports before iOS 15 write
/// routes without one). Its points become the workout's stream from the workout's start
/// through its end, the distance the length of the track so far. A route of no workout in the
/// export is counted as not read; one that cannot be read is left out, named, and the rest of
/// the export stands.
enum HealthRoutes {
    static let slackMilliseconds: Int64 = 60_000

    static func read(_ archive: ExportArchive, into collector: IngestCollector) throws {
        guard !archive.routes.isEmpty else { return }
        let workouts = collector.workoutSpans.sorted { $0.start < $1.start }
        var unmatched = 0
        for route in archive.routes {
            let name = "\(archive.file) › \(route.path)"
            let bytes: [UInt8]
            do {
                bytes = try archive.bytes(of: route)
            } catch {
                collector.noteLeftOut("a workout route that cannot be read", place: { name })
                continue
            }
            var tracks: [(points: [StreamPoint], line: Int)] = []
            do {
                let reader = GPXReader(file: name, collector: collector) { points, line in tracks.append((points, line)) }
                try IngestReader.readXML(reader, file: name) { consume in try bytes.withUnsafeBytes { try consume($0) } }
            } catch {
                collector.noteLeftOut("a workout route that is not a readable GPX file", place: { name })
                continue
            }
            for track in tracks {
                guard let first = track.points.first?.time,
                    let workout = workouts.filter({ $0.start.adding(milliseconds: -slackMilliseconds) <= first && first <= $0.end })
                        .min(by: {
                            abs($0.start.millisecondsSince1970 - first.millisecondsSince1970)
                                < abs($1.start.millisecondsSince1970 - first.millisecondsSince1970)
                        })
                else {
                    unmatched += 1
                    continue
                }
                if let stream = WorkoutStreams.stream(track.points, from: workout.start, through: workout.end) {
                    try collector.add(stream: stream, of: workout.entity, source: "\(name), track at line \(track.line)")
                }
            }
        }
        if unmatched > 0 { collector.noteNotRead("workout routes of no workout in the export", count: unmatched) }
    }
}
