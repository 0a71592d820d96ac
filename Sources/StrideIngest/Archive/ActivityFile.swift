import Foundation
import StrideEvents
import StrideFIT

/// A workout read from an activity file, with its readings over time when the file has them.
struct ActivityDetail {
    var workout: WorkoutRecorded
    /// The readings, and where in the file they were read.
    var stream: (stream: RunStreamCodec, source: String)?
}

/// An activity file inside an account archive (FIT, GPX or TCX, gzipped or not), read for the
/// workouts it gives: the same readers as `stride ingest` of the file alone, into a collector of
/// its own, so that the archive's row or summary can be joined to its detail before anything is
/// batched.
enum ActivityFile {
    /// The workouts of a file's bytes, each with its stream; what the file says of the runner's
    /// clock (a FIT file's local time) is added to `zones`, once the file is read whole.
    /// - Throws: ``ArchiveFileProblem`` for a file that is damaged, cut short, of no format
    ///   Stride reads, or that gives no workout.
    static func details(
        _ bytes: [UInt8], name: String, timeZone: TimeZone?, readAt: Timestamp, zones: inout ZoneObservations
    ) throws(ArchiveFileProblem) -> [ActivityDetail] {
        var bytes = bytes
        do {
            if bytes.withUnsafeBytes({ Gzip.isGzip($0) }) {
                bytes = try Gzip.inflate(bytes, limit: AccountArchive.largestActivityFile)
            }
            var found: [ActivityDetail] = []
            var indexOfEntity: [UInt128: Int] = [:]
            let collector = IngestCollector(batchSize: 1_000, readAt: readAt) { batch in
                for event in batch.events {
                    switch event.body {
                    case .event(.workoutRecorded(let workout)):
                        indexOfEntity[event.entity.id] = found.count
                        found.append(ActivityDetail(workout: workout))
                    case .event(.workoutStreamRecorded(let recorded)):
                        if let index = indexOfEntity[event.entity.id] { found[index].stream = (recorded.stream, recorded.source) }
                    default: break
                    }
                }
            }
            let format = try bytes.withUnsafeBytes { try InputFormat.detect(head: $0, file: name) }
            switch format {
            case .fit:
                var reader = FITWorkouts(file: name, timeZone: timeZone, collector: collector)
                try bytes.withUnsafeBytes { try reader.read($0) }
            case .gpx:
                try IngestReader.readXML(GPXReader(file: name, collector: collector), file: name) { consume in
                    try bytes.withUnsafeBytes { try consume($0) }
                }
            case .tcx:
                try IngestReader.readXML(TCXReader(file: name, collector: collector), file: name) { consume in
                    try bytes.withUnsafeBytes { try consume($0) }
                }
            default:
                throw ArchiveFileProblem("it is \(format), not an activity file (FIT, GPX or TCX)")
            }
            try collector.flush()
            guard !found.isEmpty else { throw ArchiveFileProblem("it holds no activity") }
            zones.add(collector.counts.zoneObservations)
            return found
        } catch let problem as ArchiveFileProblem {
            throw problem
        } catch let error as IngestError {
            throw ArchiveFileProblem(Self.problem(error))
        } catch {
            throw ArchiveFileProblem("\(error)")
        }
    }

    /// An ingest error's problem, without the advice meant for a file given alone.
    private static func problem(_ error: IngestError) -> String {
        switch error {
        case .brokenFIT(_, let problem): "\(problem)"
        case .unusableFIT(_, let problem): problem
        case .notAnActivityFIT(_, let fileType): "it is a \(FITNames.fileType(fileType)), not an activity"
        case .broken(_, let line, let problem): "line \(line): \(problem)"
        case .unknownFormat(_, let found): "it is \(found), not an activity file"
        default: error.description
        }
    }
}
