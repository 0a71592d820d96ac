import StrideEvents

/// How far a read has come, for a progress bar.
public struct IngestProgress: Sendable {
    /// Bytes read (inflated bytes for a zip).
    public var bytesRead: Int
    /// Bytes there are to read (the declared inflated size for a zip).
    public var totalBytes: Int
    /// Records read so far.
    public var records: Int
}

/// What reading one file gave.
public struct ReadResult: Sendable {
    /// What the file was.
    public var format: InputFormat
    /// What was read.
    public var counts: ReadCounts
    /// Bytes read (inflated bytes for a zip).
    public var bytes: Int
}

/// A batch of what was read: the events to append, in file order.
public struct IngestBatch: Sendable {
    /// The events, in file order.
    public var events: [PendingEvent] = []
    /// The spans of the batch's step samples that count in figures (those the quality rule
    /// keeps): what the ingest's step awards are decided for, gathered as each sample is
    /// checked, so that nothing reads the batch again for them.
    public var countedStepSpans: [(start: Timestamp, end: Timestamp)] = []

    mutating func reserveCapacity(_ count: Int) {
        events.reserveCapacity(count)
    }
}

/// Reads one file of any format Stride ingests into batches of pending events.
public enum IngestReader {
    /// The events an ingest commits at a time; a crash loses at most this open batch, which
    /// re-running the ingest completes. Four batches are alive at once (being read, two
    /// waiting, being appended); at 5,000 they take about 15 MB, and commits are still rare
    /// enough not to slow an ingest (measured beside 20,000 on the 90- and 360-day exports).
    public static let defaultBatchSize = 5_000
    /// The events an account archive's ingest commits at a time (see ``read(file:batchSize:options:progress:deliver:)``).
    static let archiveBatchSize = 1_000

    /// Reads `file`, handing each full batch (and the last) to `deliver`, in file order.
    ///
    /// - Parameters:
    ///   - options: the context of a Health Auto Export push, the format required, if any, and the
    ///     device that sent the file through the server (recorded in every sample and workout).
    ///   - progress: called now and then, from the reading thread.
    ///   - deliver: receives batches; what it throws stops the read and is rethrown.
    /// - Returns: the format and what was read.
    /// - Throws: ``IngestError`` naming the file and line, or what `deliver` throws.
    public static func read(
        file: String, batchSize: Int = defaultBatchSize, options: IngestOptions = IngestOptions(),
        progress: (IngestProgress) -> Void = { _ in }, deliver: @escaping (IngestBatch) throws -> Void
    ) throws -> ReadResult {
        let format = try InputFormat.detect(file: file)
        if let expected = options.expectedFormat, expected != format {
            throw IngestError.unexpectedFormat(file: file, found: format, expected: expected)
        }
        // An archive's workouts carry their files' metadata, ten times a sample's bytes: batches of
        // a thousand hold about what a full batch of samples does, whatever the archive's size.
        let isArchive = format == .stravaArchive || format == .garminArchive
        let collector = IngestCollector(
            batchSize: isArchive ? min(batchSize, archiveBatchSize) : batchSize, sentBy: options.sentBy, readAt: options.clockTime, deliver: deliver)
        var bytesRead = 0
        func report(_ total: Int) {
            progress(IngestProgress(bytesRead: bytesRead, totalBytes: total, records: collector.recordsRead))
        }
        switch format {
        case .healthExportArchive:
            let archive = try ExportArchive(file: file)
            let name = "\(file) › \(archive.entry.path)"
            collector.notesWorkoutSpans = !archive.routes.isEmpty
            try readXML(HealthExportReader(file: name, collector: collector), file: name) { consume in
                try archive.forEachChunk { chunk in
                    try consume(chunk)
                    bytesRead += chunk.count
                    report(Int(archive.declaredSize))
                }
            }
            try HealthRoutes.read(archive, into: collector)
        case .healthExportXML:
            let total = FileChunks.size(of: file)
            try readXML(HealthExportReader(file: file, collector: collector), file: file) { consume in
                try FileChunks.forEach(in: file) { chunk in
                    try consume(chunk)
                    bytesRead += chunk.count
                    report(total)
                }
            }
        case .gpx:
            try readXML(GPXReader(file: file, collector: collector), file: file) { consume in
                try FileChunks.forEach(in: file) { chunk in
                    try consume(chunk)
                    bytesRead += chunk.count
                }
            }
        case .ndjson:
            var reader = NDJSONReader(file: file, collector: collector)
            let total = FileChunks.size(of: file)
            try FileChunks.forEach(in: file) { chunk in
                try reader.consume(chunk)
                bytesRead += chunk.count
                report(total)
            }
            try reader.finish()
        case .fit:
            let bytes = try FITInput.bytes(of: file)
            bytesRead = bytes.count
            var workouts = FITWorkouts(file: file, timeZone: options.timeZone, collector: collector)
            try bytes.withUnsafeBytes { try workouts.read($0) }
        case .fitArchive:
            let archive = try FITArchive(file: file)
            if archive.otherEntries > 0 { collector.noteNotRead("zip entries that are no FIT file", count: archive.otherEntries) }
            for entry in archive.entries {
                let bytes = try archive.bytes(of: entry)
                bytesRead += bytes.count
                var workouts = FITWorkouts(file: "\(file) › \(entry.path)", timeZone: options.timeZone, collector: collector)
                do {
                    try bytes.withUnsafeBytes { try workouts.read($0) }
                } catch IngestError.notAnActivityFIT(_, let fileType) {
                    // A watch's files come zipped with its monitoring and settings files.
                    collector.noteNotRead(FITWorkouts.notRead(fileType: fileType), count: 1)
                }
            }
        case .tcx:
            try readXML(TCXReader(file: file, collector: collector), file: file) { consume in
                try FileChunks.forEach(in: file) { chunk in
                    try consume(chunk)
                    bytesRead += chunk.count
                }
            }
        case .healthAutoExport:
            let total = FileChunks.size(of: file)
            let document = try FileChunks.contents(of: file) { read in
                bytesRead = read
                report(total)
            }
            let context = options.healthAutoExport
            let reader = HealthAutoExportReader(
                file: file, grouping: context.grouping, timeZone: options.timeZone,
                receivedAt: context.receivedAt ?? FileChunks.modificationTime(of: file) ?? Timestamp(millisecondsSince1970: 0),
                collector: collector)
            try reader.read(document)
            report(total)
        case .stravaArchive, .garminArchive:
            let isStrava = format == .stravaArchive
            let files = try ArchiveFiles(isStrava ? StravaArchive.location(of: file) : file)
            let total = files.totalSize
            func track(_ read: Int) {
                bytesRead = read
                report(total)
            }
            let (timeZone, readAt) = (options.timeZone, options.clockTime)
            collector.noteArchive(
                isStrava
                    ? try StravaArchive(files: files, collector: collector, timeZone: timeZone, readAt: readAt).read(progress: track)
                    : try GarminArchive(files: files, collector: collector, timeZone: timeZone, readAt: readAt, scratch: options.scratchFolder)
                        .read(progress: track))
            bytesRead = total
        }
        try collector.flush()
        return ReadResult(format: format, counts: collector.counts, bytes: bytesRead)
    }

    /// Feeds an XML document, chunk by chunk, to a scanner and a handler.
    static func readXML<H: XMLHandler>(
        _ handler: H, file: String, chunks: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        var handler = handler
        var scanner = XMLScanner()
        do {
            try chunks { try scanner.consume($0, into: &handler) }
            try scanner.finish()
        } catch let error as XMLStructureError {
            throw IngestError.broken(file: file, line: error.line, problem: error.problem)
        }
    }
}
