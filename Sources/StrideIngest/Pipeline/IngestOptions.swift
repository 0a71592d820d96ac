import Foundation
import StrideEvents

/// What a caller tells an ingest beyond the file: the context of a Health Auto Export push,
/// and the format the file must be.
public struct IngestOptions: Sendable {
    /// The context of a Health Auto Export document (its grouping, when it was received);
    /// ignored for other formats.
    public var healthAutoExport: HealthAutoExportContext
    /// The zone the runner's local days are counted in — the ledger's (`Ledger.ingest` sets
    /// it): where a Health Auto Export day bucket ends (a day of 23 or 25 hours), and what a
    /// FIT file's local times are read in. Nil takes each time's printed offset.
    public var timeZone: TimeZone?
    /// The one format the file may be, or nil for any Stride reads: a server route for one
    /// format refuses a file of another before anything is read.
    public var expectedFormat: InputFormat?
    /// The device that sent the file through the server, recorded in every sample and workout
    /// read; nil for a file ingested on the machine.
    public var sentBy: String?
    /// The clock's time as the ingest begins (the ledger's clock; the system's when nil):
    /// a sample that starts more than ten minutes after it is odd content
    /// (``SampleQuality``), as the daily records will find it.
    public var readAt: Timestamp?
    /// The name the ledger's events give the file, when not its own: the server's uploads are
    /// saved under a random name, and recorded as `request`.
    public var recordedName: String?
    /// For an account archive: which rack shoe an archive shoe is where their names differ
    /// (`--shoe NAME=RACK_NAME`; NAME the archive's name for it, or its gear id).
    public var shoeNames: [String: String] = [:]
    /// Where the ingest keeps the files it makes while it reads: the ledger's own `tmp`
    /// (`Ledger.ingest` sets it), the machine's temporary folder for a read without a ledger.
    public var scratchFolder = ScratchFolder.machine

    /// Creates options; the defaults are what `stride ingest` uses.
    public init(
        healthAutoExport: HealthAutoExportContext = HealthAutoExportContext(), timeZone: TimeZone? = nil, expectedFormat: InputFormat? = nil,
        sentBy: String? = nil, readAt: Timestamp? = nil
    ) {
        self.healthAutoExport = healthAutoExport
        self.timeZone = timeZone
        self.expectedFormat = expectedFormat
        self.sentBy = sentBy
        self.readAt = readAt
    }

    /// ``readAt``, or the system clock's now.
    var clockTime: Timestamp {
        readAt ?? Timestamp(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
