import ArgumentParser
import Foundation

/// The export's elements, one temporary file per record type (and one each for correlations,
/// workouts and activity summaries), joined at the end in the order the Health app writes
/// them: an export of any size is written day by day without holding it in memory.
final class ElementStreams {
    /// Correlations, workouts and activity summaries follow the records, in this order.
    static let correlations = "Correlation"
    static let workouts = "Workout"
    static let activitySummaries = "ActivitySummary"

    /// Record types in the order exports list them (HealthKit's own order of its types; bwassim
    /// and haozes list theirs so). Types not listed follow, by name.
    static let recordOrder = [
        "HKQuantityTypeIdentifierBodyMassIndex", "HKQuantityTypeIdentifierBodyFatPercentage", "HKQuantityTypeIdentifierBodyMass",
        "HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierBloodPressureSystolic",
        "HKQuantityTypeIdentifierBloodPressureDiastolic", "HKQuantityTypeIdentifierStepCount",
        "HKQuantityTypeIdentifierDistanceWalkingRunning", "HKQuantityTypeIdentifierBasalEnergyBurned",
        "HKQuantityTypeIdentifierActiveEnergyBurned", "HKQuantityTypeIdentifierFlightsClimbed",
        "HKQuantityTypeIdentifierRespiratoryRate", "HKQuantityTypeIdentifierAppleExerciseTime",
        "HKQuantityTypeIdentifierDistanceCycling", "HKQuantityTypeIdentifierRestingHeartRate",
        "HKQuantityTypeIdentifierWalkingHeartRateAverage", "HKQuantityTypeIdentifierEnvironmentalAudioExposure",
        "HKQuantityTypeIdentifierHeadphoneAudioExposure", "HKQuantityTypeIdentifierWalkingDoubleSupportPercentage",
        "HKQuantityTypeIdentifierAppleStandTime", "HKQuantityTypeIdentifierWalkingSpeed", "HKQuantityTypeIdentifierWalkingStepLength",
        "HKQuantityTypeIdentifierWalkingAsymmetryPercentage", "HKCategoryTypeIdentifierSleepAnalysis",
        "HKCategoryTypeIdentifierAppleStandHour", "HKQuantityTypeIdentifierHeartRateVariabilitySDNN",
    ]

    private let folder: String
    private var files: [String: XMLFileWriter] = [:]
    /// Bytes appended to every stream so far.
    private(set) var bytesWritten = 0

    /// Creates the folder of temporary files, which must not exist yet.
    /// - Throws: `ValidationError` when it cannot be created.
    init(folder: String) throws {
        self.folder = folder
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ValidationError("cannot create \(folder) (\(error.localizedDescription)); check the folder is writable")
        }
    }

    /// Appends text to the stream of `element` (a record type or one of the element names above).
    /// - Throws: an I/O error.
    func append(_ text: String, to element: String) throws {
        let file: XMLFileWriter
        if let open = files[element] {
            file = open
        } else {
            file = try XMLFileWriter(path: folder + "/" + String(files.count), flushAt: 256 << 10)
            files[element] = file
        }
        try file.write(text)
        bytesWritten += text.utf8.count
    }

    /// Writes every stream into `writer`, in the export's order.
    /// - Throws: an I/O error.
    func join(into writer: XMLFileWriter) throws {
        let records = files.keys.filter { ![Self.correlations, Self.workouts, Self.activitySummaries].contains($0) }
        let listed = Self.recordOrder.filter(records.contains)
        let others = records.filter { !Self.recordOrder.contains($0) }.sorted()
        for element in listed + others + [Self.correlations, Self.workouts, Self.activitySummaries] {
            guard let file = files[element] else { continue }
            try file.close()
            try writer.copy(contentsOf: file.path)
        }
    }

    /// Removes the temporary files.
    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// Buffered writing of a large text file.
final class XMLFileWriter {
    let path: String
    private let handle: FileHandle
    private let flushAt: Int
    private var buffer = Data()
    private var isClosed = false
    private(set) var bytesWritten = 0

    /// Creates the file (mode 0600: it holds health data, if made up).
    /// - Throws: `ValidationError` when the file cannot be created.
    init(path: String, flushAt: Int = 1 << 20) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw ValidationError("cannot create \(path); check the folder exists and is writable") }
        self.path = path
        self.handle = handle
        self.flushAt = flushAt
    }

    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        bytesWritten += text.utf8.count
        if buffer.count >= flushAt { try flush() }
    }

    func write(bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        bytesWritten += bytes.count
        if buffer.count >= flushAt { try flush() }
    }

    /// Appends the contents of another file, a few megabytes at a time.
    func copy(contentsOf other: String) throws {
        try flush()
        guard let source = FileHandle(forReadingAtPath: other) else { throw ValidationError("cannot read \(other)") }
        defer { try? source.close() }
        while let chunk = try source.read(upToCount: 4 << 20), !chunk.isEmpty {
            try handle.write(contentsOf: chunk)
            bytesWritten += chunk.count
        }
    }

    private func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        guard !isClosed else { return }
        try flush()
        try handle.close()
        isClosed = true
    }
}
