/// A run's readings over time, as the log will keep them (issue 35): compact enough that a
/// second of a run costs a few bytes, whatever the file it came from.
///
/// The readings' values are kept at the precision the figures need — time to a tenth of a
/// second, distance and altitude to a decimetre, heart rate and cadence to the beat and step,
/// position to a millionth of a degree (11 cm) — each column as the zig-zag varint of its
/// change from the reading before, so that a steady run writes one or two bytes a column a
/// second. A column a file lacks costs nothing; one with holes (a strap that drops out) costs a
/// bit a reading.
public struct RunStreamCodec: Sendable, Hashable {
    /// One reading.
    public struct Reading: Sendable, Hashable {
        /// Seconds since the stream's start.
        public var seconds: Double
        public var metres: Double?
        public var heartRate: Double?
        public var cadence: Double?
        public var altitude: Double?
        public var latitude: Double?
        public var longitude: Double?

        public init(
            seconds: Double, metres: Double? = nil, heartRate: Double? = nil, cadence: Double? = nil, altitude: Double? = nil,
            latitude: Double? = nil, longitude: Double? = nil
        ) {
            self.seconds = seconds
            self.metres = metres
            self.heartRate = heartRate
            self.cadence = cadence
            self.altitude = altitude
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// When the stream starts.
    public var start: Timestamp
    /// The readings, in time order.
    public var readings: [Reading]

    /// A stream of these readings, each value kept at the precision the log stores (so that a
    /// stream folded as it is appended gives the figures it gives when read back).
    public init(start: Timestamp, readings: [Reading]) {
        self.start = start
        // Each column at its units (``Column/units``), as ``encode(into:)`` stores it.
        func kept(_ value: Double?, _ units: Double) -> Double? {
            value.flatMap { Self.quantized($0, units) }.map { Double($0) / units }
        }
        self.readings = readings.map { reading in
            Reading(
                seconds: kept(reading.seconds, 10) ?? reading.seconds, metres: kept(reading.metres, 10), heartRate: kept(reading.heartRate, 1),
                cadence: kept(reading.cadence, 1), altitude: kept(reading.altitude, 10), latitude: kept(reading.latitude, 1_000_000),
                longitude: kept(reading.longitude, 1_000_000))
        }
    }

    /// The columns, in their stored order.
    private enum Column: CaseIterable {
        case metres, heartRate, cadence, altitude, latitude, longitude

        /// The steps a unit is stored in.
        var units: Double {
            switch self {
            case .metres, .altitude: 10
            case .heartRate, .cadence: 1
            case .latitude, .longitude: 1_000_000
            }
        }

        func value(of reading: Reading) -> Double? {
            switch self {
            case .metres: reading.metres
            case .heartRate: reading.heartRate
            case .cadence: reading.cadence
            case .altitude: reading.altitude
            case .latitude: reading.latitude
            case .longitude: reading.longitude
            }
        }

        func set(_ value: Double, in reading: inout Reading) {
            switch self {
            case .metres: reading.metres = value
            case .heartRate: reading.heartRate = value
            case .cadence: reading.cadence = value
            case .altitude: reading.altitude = value
            case .latitude: reading.latitude = value
            case .longitude: reading.longitude = value
            }
        }
    }

    /// Writes the stream.
    public func encode(into writer: inout BinaryWriter) {
        writer.write(start)
        writer.write(varint: UInt64(readings.count))
        var previous: Int64 = 0
        for reading in readings {
            let tenths = Self.quantized(reading.seconds, 10) ?? previous
            writer.write(signedVarint: tenths - previous)
            previous = tenths
        }
        // One buffer for every column: each reading's value in its units, or `absent`.
        let absent = Int64.min
        var values = [Int64](repeating: absent, count: readings.count)
        for column in Column.allCases {
            var present = 0
            for index in readings.indices {
                let value = column.value(of: readings[index]).flatMap { Self.quantized($0, column.units) } ?? absent
                values[index] = value
                if value != absent { present += 1 }
            }
            // 0: no value; 1: every reading has one; 2: a bitmap of which do.
            guard present > 0 else {
                writer.write(UInt8(0))
                continue
            }
            if present == values.count {
                writer.write(UInt8(1))
            } else {
                writer.write(UInt8(2))
                var byte: UInt8 = 0
                for (index, value) in values.enumerated() {
                    if value != absent { byte |= 1 << UInt8(index % 8) }
                    if index % 8 == 7 || index == values.count - 1 {
                        writer.write(byte)
                        byte = 0
                    }
                }
            }
            var last: Int64 = 0
            for value in values where value != absent {
                writer.write(signedVarint: value - last)
                last = value
            }
        }
    }

    /// Reads a stream written by ``encode(into:)``.
    /// - Throws: ``DecodingFailure`` for bytes cut short or malformed.
    public init(decoding reader: inout BinaryReader) throws {
        start = try reader.readTimestamp()
        let count = try reader.readCount()
        var readings: [Reading] = []
        readings.reserveCapacity(count)
        var tenths: Int64 = 0
        for _ in 0..<count {
            tenths += try reader.readSignedVarint()
            readings.append(Reading(seconds: Double(tenths) / 10))
        }
        for column in Column.allCases {
            let kind = try reader.readByte()
            var present = [Bool](repeating: kind == 1, count: count)
            switch kind {
            case 0, 1: break
            case 2:
                for index in stride(from: 0, to: count, by: 8) {
                    let byte = try reader.readByte()
                    for bit in 0..<min(8, count - index) { present[index + bit] = byte & (1 << UInt8(bit)) != 0 }
                }
            default: throw DecodingFailure("unknown stream column kind \(kind)")
            }
            guard kind != 0 else { continue }
            var value: Int64 = 0
            for index in 0..<count where present[index] {
                value += try reader.readSignedVarint()
                column.set(Double(value) / column.units, in: &readings[index])
            }
        }
        self.readings = readings
    }

    /// A value in steps of `1 / units`, or nil for one that is not finite or beyond any run.
    private static func quantized(_ value: Double, _ units: Double) -> Int64? {
        guard value.isFinite, abs(value * units) < 1e15 else { return nil }
        return Int64((value * units).rounded())
    }
}
