/// Key parts whose bytes sort in the order of what they stand for, for projection rows that
/// are read in ranges (the days of a month, a shoe's audit in sequence order).
extension BinaryWriter {
    /// Writes a local day as 8 bytes, big-endian with the sign flipped: byte order is day
    /// order, days before 1970 included.
    public mutating func write(orderedDay day: CivilDate) {
        write(fixed: (UInt64(bitPattern: day.daysSince1970) ^ (1 << 63)).bigEndian)
    }
}

extension BinaryReader {
    /// Reads a day written with ``BinaryWriter/write(orderedDay:)``.
    /// - Throws: ``DecodingFailure`` when the bytes run out.
    public mutating func readOrderedDay() throws -> CivilDate {
        CivilDate(daysSince1970: Int64(bitPattern: UInt64(bigEndian: try read(fixed: UInt64.self)) ^ (1 << 63)))
    }
}
