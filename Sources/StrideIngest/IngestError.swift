import StrideEvents
import StrideFIT

/// Why a file could not be ingested, naming the file and the line or entry, and what to do.
public enum IngestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file cannot be opened or read.
    case unreadable(file: String, reason: String)
    /// The file is none of the formats Stride reads.
    case unknownFormat(file: String, found: String)
    /// The file's structure is broken at a line (truncated, unbalanced, a required
    /// attribute missing); what came before it is committed.
    case broken(file: String, line: Int, problem: String)
    /// A zip that could be an attack, or is damaged: refused before anything is inflated.
    case unsafeArchive(file: String, entry: String, problem: String)
    /// A zip with no Apple Health export in it.
    case noExportInArchive(file: String)
    /// A JSON document (Health Auto Export's) that cannot be read: malformed JSON, or a field
    /// that makes it unreadable (a point without a date), with its line when it can be found
    /// and its field (`metrics[2].data[5].date`). Nothing of the document is appended.
    case invalidDocument(file: String, line: Int?, field: String?, problem: String)
    /// A file of another format than the one the caller required (a server route for one).
    case unexpectedFormat(file: String, found: InputFormat, expected: InputFormat)
    /// An account archive (Strava's, Garmin Connect's) whose index cannot be read: its
    /// `activities.csv`, `shoes.csv`, summaries or gear, at the line or field `place` names.
    /// Nothing of the archive is appended.
    case brokenArchive(file: String, place: String?, problem: String)
    /// A FIT file that fails its CRC, is cut short or is malformed, at the byte the problem
    /// names. Nothing of the FIT file it happens in is kept (its CRC cannot vouch for any of
    /// it); the FIT files chained before it in the same file, each checked, are committed.
    case brokenFIT(file: String, problem: FITError)
    /// A FIT file read whole that gives no workout: no session message, or times counted
    /// from the device's power-on that nothing places. Nothing of it is appended.
    case unusableFIT(file: String, problem: String)
    /// A FIT file of another type than an activity (`file_id.type` 2 settings, 9 weight, 32
    /// monitoring…), with no session: no workout to read. Nothing of it is appended.
    case notAnActivityFIT(file: String, fileType: UInt8)

    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            "cannot read \(file): \(reason); check the path and its permissions"
        case .unknownFormat(let file, let found):
            "\(file) is \(found), not a format Stride reads; give an Apple Health export.zip or export.xml, NDJSON samples, a GPX track, a FIT or TCX activity (or a zip of FIT files), a Health Auto Export document, or a Strava or Garmin Connect account archive"
        case .broken(let file, let line, let problem):
            "\(file), line \(line): \(problem). Everything before that line is committed; repair the file or export it again from the Health app, then run the same `stride ingest` again: only what is missing will be added"
        case .unsafeArchive(let file, let entry, let problem):
            "\(file), entry \"\(entry.shownInMessage)\": \(problem); nothing was read from it. Use the archive exactly as it was exported or downloaded"
        case .invalidDocument(let file, let line, let field, let problem):
            "\(file)\(line.map { ", line \($0)" } ?? "")\(field.map { ": \($0)" } ?? ""): \(problem). Nothing from it was added; "
                + "correct the document (or let Health Auto Export send it again) and ingest it again"
        case .unexpectedFormat(let file, let found, let expected):
            "\(file) is \(found), not \(expected) as expected here; send it where \(found) is taken (`stride ingest` reads every format)"
        case .brokenFIT(let file, let problem):
            "\(file): \(problem). Nothing from that FIT file was added (the FIT files chained before it in the same file, if any, were); "
                + "copy the activity from the device again, or download its original from Garmin Connect, and ingest it again"
        case .unusableFIT(let file, let problem):
            "\(file): \(problem). Nothing from it was added; export the activity again from the device's app (Garmin Connect: Export Original)"
        case .notAnActivityFIT(let file, let fileType):
            "\(file): this is a \(FITNames.fileType(fileType)), not an activity: it holds no workout, and nothing from it was added. "
                + "Ingest the watch's activity files instead (on a Garmin, GARMIN/Activity; in Garmin Connect, an activity's Export Original)"
        case .brokenArchive(let file, let place, let problem):
            "\(file)\(place.map { ", \($0)" } ?? ""): \(problem). Nothing from the archive was added; download it again "
                + "(Strava: Settings › My Account › Download or Delete Your Account; Garmin Connect: Account › Data Management › Export Your Data) "
                + "and ingest the zip as downloaded"
        case .noExportInArchive(let file):
            "\(file) holds no Apple Health export (no XML with a <HealthData> root); export again from the Health app (Profile › Export All Health Data)"
        }
    }
}
