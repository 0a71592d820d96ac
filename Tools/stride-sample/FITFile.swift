import Foundation
import StrideFIT

/// Writes FIT activity files as a watch does: a `file_id`, one `record` a second (time,
/// position, altitude, heart rate, cadence, distance), a `session` with the totals and an
/// `activity`, each message after its definition, the header's and the file's CRCs.
struct FITFile {
    /// One second of a run.
    struct Record {
        var time: Date
        var latitude: Double
        var longitude: Double
        var altitude: Double
        var heartRate: UInt8
        var cadence: UInt8
        var metres: Double
    }

    /// What a run's session sums up.
    struct Session {
        var start: Date
        var elapsedSeconds: Double
        var timerSeconds: Double
        var metres: Double
        var calories: UInt16
        var averageHeartRate: UInt8
        var maximumHeartRate: UInt8
        var ascent: UInt16
        /// 1 running, 2 cycling.
        var sport: UInt8
        /// The offset of the runner's zone, for the activity's local time.
        var offsetSeconds: Int
    }

    /// The seconds between the Unix epoch and FIT's (1989-12-31 00:00 UTC).
    static let epoch: Double = 631_065_600

    private var body: [UInt8] = []

    /// A file of `type` (4 an activity, 32 monitoring) from a device, created at `created`.
    init(type: UInt8 = 4, serial: UInt32, created: Date) {
        define(local: 0, global: 0, fields: [(0, 1, 0x00), (1, 2, 0x84), (2, 2, 0x84), (3, 4, 0x8C), (4, 4, 0x86)])
        data(local: 0) { out in
            out.append(type)
            out.u16(1)  // Garmin
            out.u16(1_623)  // a Forerunner
            out.u32(serial)
            out.u32(Self.time(created))
        }
        define(local: 1, global: 20, fields: [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (2, 2, 0x84), (3, 1, 0x02), (4, 1, 0x02), (5, 4, 0x86)])
    }

    /// Adds a second of the run.
    mutating func add(_ record: Record) {
        data(local: 1) { out in
            out.u32(Self.time(record.time))
            out.s32(Int32((record.latitude * 2_147_483_648 / 180).rounded()))
            out.s32(Int32((record.longitude * 2_147_483_648 / 180).rounded()))
            out.u16(UInt16(max(0, min(65_534, ((record.altitude + 500) * 5).rounded()))))
            out.append(record.heartRate)
            out.append(record.cadence)
            out.u32(UInt32(max(0, (record.metres * 100).rounded())))
        }
    }

    /// The file, closed by its session and activity.
    mutating func finish(_ session: Session) -> [UInt8] {
        let end = session.start.addingTimeInterval(session.elapsedSeconds)
        define(
            local: 2, global: 18,
            fields: [
                (253, 4, 0x86), (2, 4, 0x86), (5, 1, 0x00), (6, 1, 0x00), (7, 4, 0x86), (8, 4, 0x86), (9, 4, 0x86), (11, 2, 0x84), (16, 1, 0x02),
                (17, 1, 0x02), (22, 2, 0x84),
            ])
        data(local: 2) { out in
            out.u32(Self.time(end))
            out.u32(Self.time(session.start))
            out.append(session.sport)
            out.append(0)
            out.u32(UInt32((session.elapsedSeconds * 1000).rounded()))
            out.u32(UInt32((session.timerSeconds * 1000).rounded()))
            out.u32(UInt32((session.metres * 100).rounded()))
            out.u16(session.calories)
            out.append(session.averageHeartRate)
            out.append(session.maximumHeartRate)
            out.u16(session.ascent)
        }
        define(local: 3, global: 34, fields: [(253, 4, 0x86), (1, 2, 0x84), (2, 1, 0x00), (3, 1, 0x00), (4, 1, 0x00), (5, 4, 0x86)])
        data(local: 3) { out in
            out.u32(Self.time(end))
            out.u16(1)
            out.append(0)
            out.append(26)
            out.append(1)
            out.u32(UInt32(Int64(Self.time(end)) + Int64(session.offsetSeconds)))
        }
        var header: [UInt8] = [14, 0x20]
        header.u16(2_132)
        header.u32(UInt32(body.count))
        header += Array(".FIT".utf8)
        header.u16(Self.crc(header))
        let file = header + body
        var closed = file
        closed.u16(Self.crc(file))
        return closed
    }

    private mutating func define(local: UInt8, global: UInt16, fields: [(UInt8, UInt8, UInt8)]) {
        body += [0x40 | local, 0, 0]
        body.u16(global)
        body.append(UInt8(fields.count))
        for (number, size, type) in fields { body += [number, size, type] }
    }

    private mutating func data(local: UInt8, _ write: (inout [UInt8]) -> Void) {
        body.append(local)
        write(&body)
    }

    static func time(_ date: Date) -> UInt32 { UInt32(max(0, date.timeIntervalSince1970 - epoch)) }

    static func crc(_ bytes: [UInt8]) -> UInt16 { FITCRC.checksum(bytes) }
}

extension [UInt8] {
    fileprivate mutating func u16(_ value: UInt16) { append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8)]) }
    fileprivate mutating func u32(_ value: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((value >> UInt32(shift)) & 0xFF)) } }
    fileprivate mutating func s32(_ value: Int32) { u32(UInt32(bitPattern: value)) }
}
