import Foundation
import ZIPFoundation

/// A gzip file (RFC 1952) inflated in memory, up to a limit: a header, a raw deflate
/// stream (inflated by ZIPFoundation), and the inflated bytes' CRC-32 and size.
enum Gzip {
    /// Whether bytes start with gzip's magic number.
    static func isGzip(_ head: UnsafeRawBufferPointer) -> Bool {
        head.count >= 2 && head[0] == 0x1F && head[1] == 0x8B
    }

    /// Why a gzip file could not be inflated.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Inflates `bytes`, at most `limit` bytes of it (or only the first `limit` when `prefixOnly`).
    /// - Throws: ``Failure`` for a damaged or cut-short file, or one inflating past `limit`.
    static func inflate(_ bytes: [UInt8], limit: Int, prefixOnly: Bool = false) throws -> [UInt8] {
        let start = try deflateStart(bytes)
        let body = Data(bytes[start...])
        var inflated: [UInt8] = []
        // ZIPFoundation's inflater hands its provider's chunk to zlib as `bufferSize` bytes
        // long: one chunk of exactly that size, padded, and an error if it asks for more
        // (a stream that never ends).
        let bufferSize = max(body.count, 1 << 16)
        var padded = body
        padded.append(Data(count: bufferSize - body.count))
        do {
            _ = try Data.decompress(
                size: Int64(bufferSize), bufferSize: bufferSize, skipCRC32: true,
                provider: { position, _ in
                    guard position == 0 else { throw Failure(description: "the gzip stream is cut short") }
                    return padded
                },
                consumer: { data in
                    inflated.append(contentsOf: data)
                    if inflated.count > limit {
                        if prefixOnly { throw Enough() }
                        throw Failure(description: "it inflates past \(limit) bytes, more than any FIT file holds")
                    }
                })
        } catch is Enough {
            return Array(inflated.prefix(limit))
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "the gzip stream is damaged (\(error))")
        }
        if prefixOnly { return inflated }
        guard bytes.count >= 8 else { throw Failure(description: "the gzip file is cut short") }
        let trailer = bytes.suffix(8).map(UInt32.init)
        let crc = trailer[0] | trailer[1] << 8 | trailer[2] << 16 | trailer[3] << 24
        guard Data(inflated).crc32(checksum: 0) == crc else { throw Failure(description: "the gzip file fails its CRC-32: it is damaged") }
        return inflated
    }

    private struct Enough: Error {}

    /// Where the deflate stream starts, after the header and its optional fields.
    private static func deflateStart(_ bytes: [UInt8]) throws -> Int {
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 8 else {
            throw Failure(description: "it is not a gzip file of deflated data")
        }
        let flags = bytes[3]
        var index = 10
        if flags & 0x04 != 0 {
            guard index + 2 <= bytes.count else { throw Failure(description: "the gzip header is cut short") }
            index += 2 + (Int(bytes[index]) | Int(bytes[index + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
            while index < bytes.count, bytes[index] != 0 { index += 1 }
            index += 1
        }
        if flags & 0x02 != 0 { index += 2 }
        guard index < bytes.count else { throw Failure(description: "the gzip header is cut short") }
        return index
    }
}
