import Foundation
import StrideEvents
import StrideFIT
import StrideTestSupport
import Testing

/// A run's stream, as the log will keep it: the FIT files' records, a few bytes a second.
@Suite("Run streams")
struct RunStreamTests {
    typealias Reading = RunStreamCodec.Reading

    static func roundTrip(_ stream: RunStreamCodec) throws -> (RunStreamCodec, bytes: Int) {
        var writer = BinaryWriter()
        stream.encode(into: &writer)
        let bytes = writer.bytes
        let decoded = try bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            return try RunStreamCodec(decoding: &reader)
        }
        return (decoded, bytes.count)
    }

    @Test("values come back at their precision: 0.1 s, 0.1 m, the beat, 1e-6 degree; holes stay holes")
    func precision() throws {
        let stream = RunStreamCodec(
            start: Timestamp(secondsSince1970: 1_700_000_000),
            readings: [
                Reading(seconds: 0, metres: 0, heartRate: 120, cadence: 84, altitude: 35.24, latitude: 48.8566141, longitude: 2.3522219),
                Reading(seconds: 1.04, metres: 3.26, heartRate: nil, cadence: 85, altitude: 35.31, latitude: 48.8566389, longitude: 2.3522501),
                Reading(seconds: 2, metres: 6.5, heartRate: 122, cadence: nil, altitude: nil, latitude: nil, longitude: nil),
            ])
        let (decoded, _) = try Self.roundTrip(stream)
        #expect(decoded.start == stream.start)
        #expect(decoded.readings.map(\.seconds) == [0, 1, 2])
        #expect(decoded.readings.map(\.metres) == [0, 3.3, 6.5])
        #expect(decoded.readings.map(\.heartRate) == [120, nil, 122])
        #expect(decoded.readings.map(\.cadence) == [84, 85, nil])
        #expect(decoded.readings.map(\.altitude) == [35.2, 35.3, nil])
        #expect(decoded.readings.map(\.latitude) == [48.856614, 48.856639, nil])
        #expect(decoded.readings.map(\.longitude) == [2.352222, 2.35225, nil])
    }

    @Test("a stream cut short is refused, not misread")
    func cutShort() throws {
        var writer = BinaryWriter()
        RunStreamCodec(start: Timestamp(secondsSince1970: 0), readings: (0..<100).map { Reading(seconds: Double($0), metres: Double($0) * 3) })
            .encode(into: &writer)
        let cut = Array(writer.bytes.dropLast(5))
        #expect(throws: DecodingFailure.self) {
            try cut.withUnsafeBytes { buffer in
                var reader = BinaryReader(buffer)
                _ = try RunStreamCodec(decoding: &reader)
            }
        }
    }

    @Test("every FIT fixture's records: kept whole, under 20 bytes a second of the run", .enabled(if: fixturesFolder() != nil))
    func fitFixtures() throws {
        let folder = try #require(fixturesFolder()) + "/fit"
        var totalBytes = 0
        var totalSeconds = 0.0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).filter({ $0.hasSuffix(".fit") }).sorted() {
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            let (activity, _) = bytes.withUnsafeBytes { FITActivity.decode($0, keepingRecords: true) }
            #expect(activity.records.count == activity.counts.records, "\(name)")
            let timed = activity.records.filter { $0.timestamp?.secondsSince1970 != nil }
            guard let first = timed.first?.timestamp?.secondsSince1970, let last = timed.last?.timestamp?.secondsSince1970, last > first else {
                continue
            }
            let readings = timed.map { record in
                Reading(
                    seconds: Double((record.timestamp?.secondsSince1970 ?? first) - first), metres: record.distance,
                    heartRate: record.heartRate.map(Double.init), cadence: record.cadence.map(Double.init), altitude: record.altitude,
                    latitude: record.latitude, longitude: record.longitude)
            }
            let stream = RunStreamCodec(start: Timestamp(millisecondsSince1970: first * 1000), readings: readings)
            let (decoded, size) = try Self.roundTrip(stream)
            #expect(decoded.readings.count == readings.count)
            for (back, original) in zip(decoded.readings, readings) {
                #expect(abs((back.metres ?? 0) - (original.metres ?? 0)) <= 0.05 + 1e-9, "\(name)")
                #expect(back.heartRate == original.heartRate, "\(name)")
            }
            totalBytes += size
            totalSeconds += Double(last - first)
        }
        #expect(totalSeconds > 0)
        // Pauses count as seconds of the run too; the bound is the issue's.
        #expect(Double(totalBytes) / totalSeconds < 20, "\(Double(totalBytes) / totalSeconds) bytes a second")
        print(
            "Run streams of the FIT fixtures: \(totalBytes) bytes over \(Int(totalSeconds)) s, \(String(format: "%.2f", Double(totalBytes) / totalSeconds)) bytes a second"
        )
    }
}

/// A file of tiny records cannot cost unbounded memory: beyond ``FITActivity/mostRecords``
/// they are counted, not kept.
@Suite("FIT records kept, within a bound")
struct FITRecordBoundTests {
    @Test("a file of more records than any run (compressed timestamps, a heart rate each) keeps 360,000 and counts the rest")
    func bound() throws {
        var builder = FITBuilder()
        builder.define(local: 0, global: 20, fields: [(253, 4, 0x86), (3, 1, 0x02)])
        builder.data(local: 0, FITBuilder.littleEndian32(1_000_000_000) + [120])
        builder.define(local: 1, global: 20, fields: [(3, 1, 0x02)])
        let extra = 1_000
        for index in 0..<(FITActivity.mostRecords - 1 + extra) {
            builder.compressed(local: 1, timeOffset: UInt8((index + 1) & 0x1F), [120])
        }
        let (activity, failure) = FITBuilder.decodeKeepingRecords(builder.file())
        #expect(failure == nil)
        #expect(activity.records.count == FITActivity.mostRecords)
        #expect(activity.counts.records == FITActivity.mostRecords + extra)
    }
}

extension FITBuilder {
    static func decodeKeepingRecords(_ bytes: [UInt8]) -> (FITActivity, FITError?) {
        bytes.withUnsafeBytes { FITActivity.decode($0, keepingRecords: true) }
    }
}
