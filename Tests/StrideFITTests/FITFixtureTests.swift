import Foundation
import StrideFIT
import StrideTestSupport
import Testing

/// Stride's decoder beside fitdecode's reading of the same real files (`fit/REFERENCE.json`).
@Suite("FIT fixtures against fitdecode", .enabled(if: fixturesFolder() != nil))
struct FITFixtureTests {
    static let folder = fixturesFolder().map { "\($0)/fit" } ?? ""

    /// The reference's entry for each file.
    nonisolated(unsafe) static let reference: [String: [String: Any]] = {
        guard let data = FileManager.default.contents(atPath: "\(folder)/REFERENCE.json"),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let files = root["files"] as? [String: [String: Any]]
        else { return [:] }
        return files
    }()

    static let names: [String] = reference.keys.sorted()

    @Test("the reference lists the files", .enabled(if: fixturesFolder() != nil))
    func referenceIsThere() {
        #expect(Self.names.count >= 13)
    }

    @Test("each session agrees with fitdecode, or the file is refused as fitdecode refuses it", arguments: names)
    func sessionsAgree(name: String) throws {
        let entry = try #require(Self.reference[name])
        let bytes = try #require(FileManager.default.contents(atPath: "\(Self.folder)/\(name)"))
        let (activity, failure) = Array(bytes).withUnsafeBytes { FITActivity.decode($0) }
        let readsIt = entry["lenient_ok"] as? Bool ?? false
        if !readsIt {
            let error = try #require(failure)
            // fitdecode's error says where it stopped ("@ 403456"); Stride names the same byte.
            let message = entry["lenient_error"] as? String ?? ""
            #expect(message.hasSuffix("@ \(error.offset)"), "\(error) against \(message)")
            return
        }
        #expect(failure == nil, "\(String(describing: failure))")
        #expect(activity.counts.files == entry["fit_file_count"] as? Int)
        #expect(activity.counts.records == entry["record_count"] as? Int)
        #expect(activity.counts.laps == entry["lap_count"] as? Int)
        #expect(activity.counts.dataMessages == entry["data_message_count"] as? Int)
        #expect(activity.counts.messagesWithDeveloperFields == entry["messages_with_developer_fields"] as? Int)
        #expect(activity.counts.compressedTimestampMessages == entry["compressed_timestamp_messages"] as? Int)
        let fileID = try #require(entry["file_id"] as? [String: Any])
        #expect(activity.fileID?.serialNumber.map(Int.init) == fileID["serial_number"] as? Int)
        #expect(activity.fileID?.manufacturer.map(Int.init) == fileID["manufacturer_raw"] as? Int)
        #expect(activity.fileID?.product.map(Int.init) == fileID["product_raw"] as? Int)
        #expect(Self.same(activity.fileID?.timeCreated, fileID["time_created"]))
        let sessions = try #require(entry["sessions"] as? [[String: Any]])
        #expect(activity.sessions.count == sessions.count)
        for (session, expected) in zip(activity.sessions, sessions) {
            #expect(FITNames.sport(session.sport) == expected["sport"] as? String, "session \(session.index)")
            #expect(FITNames.subSport(session.subSport) == expected["sub_sport"] as? String, "session \(session.index)")
            #expect(Self.same(session.startTime, expected["start_time"]), "session \(session.index)")
            #expect(Self.close(session.totalElapsedTime, expected["total_elapsed_time"]), "session \(session.index)")
            #expect(Self.close(session.totalTimerTime, expected["total_timer_time"]), "session \(session.index)")
            #expect(Self.close(session.totalDistance, expected["total_distance"]), "session \(session.index)")
            #expect(session.totalCalories == expected["total_calories"] as? Int, "session \(session.index)")
            #expect(session.averageHeartRate == expected["avg_heart_rate"] as? Int, "session \(session.index)")
            #expect(session.maximumHeartRate == expected["max_heart_rate"] as? Int, "session \(session.index)")
            #expect(session.totalAscent == expected["total_ascent"] as? Int, "session \(session.index)")
            #expect(session.numberOfLaps == expected["num_laps"] as? Int, "session \(session.index)")
        }
    }

    /// A FIT date-time against the reference's ISO 8601 UTC text, or its plain number for a
    /// time relative to power-on.
    static func same(_ value: FITDateTime?, _ expected: Any?) -> Bool {
        guard let value else { return expected == nil || expected is NSNull }
        if let number = expected as? Int { return Int(value.rawValue) == number }
        guard let text = expected as? String, let seconds = value.secondsSince1970 else { return false }
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text).map { Int64($0.timeIntervalSince1970) == seconds } ?? false
    }

    static func close(_ value: Double?, _ expected: Any?) -> Bool {
        guard let value else { return expected == nil || expected is NSNull }
        guard let number = expected as? Double else { return false }
        return abs(value - number) < 0.0015
    }
}
