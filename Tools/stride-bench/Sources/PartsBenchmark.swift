import ArgumentParser
import Foundation
import StrideEvents

/// Where an append's and a scan's time goes: each step timed alone, in memory.
struct PartsBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parts", abstract: "Time the steps of an append and of a decode, each alone, in memory.")

    @Option(help: "Events per step.")
    var events = 1_000_000

    @Option(help: "Repeat the decode step this many times (to profile it).")
    var decodeRepeats = 1

    func run() throws {
        let pending = (0..<events).map(BenchmarkEvents.pending)
        var writer = BinaryWriter(capacity: 512)
        let hasher = SHA256Hasher()
        var envelopes: [[UInt8]] = []
        envelopes.reserveCapacity(events)
        let encode = measure(items: events) {
            for event in pending {
                var payload = BinaryWriter(capacity: 256)
                if case .event(let ledgerEvent) = event.body { _ = ledgerEvent.encode(into: &payload) }
                writer = payload
            }
        }
        let envelope = measure(items: events) {
            var hash = ChainHash.genesis
            for (index, event) in pending.enumerated() {
                hash =
                    Envelope.write(event, sequence: UInt64(index + 1), recordedAt: event.occurredAt, previous: hash, into: &writer, hasher: hasher)
                    .hash
            }
        }
        for (index, event) in pending.enumerated() {
            _ = Envelope.write(event, sequence: UInt64(index + 1), recordedAt: event.occurredAt, previous: .genesis, into: &writer, hasher: hasher)
            envelopes.append(writer.bytes)
        }
        let size = envelopes[0].count
        let sha = measure(items: events) {
            var hash = ChainHash.genesis
            envelopes[0].withUnsafeBytes { bytes in
                for _ in 0..<events { hash = ChainHash.link(previous: hash, event: bytes, hasher: hasher) }
            }
        }
        var checksum: UInt32 = 0
        let crc = measure(items: events) {
            envelopes[0].withUnsafeBytes { bytes in
                for _ in 0..<events { checksum ^= CRC32C.checksum(bytes) }
            }
        }
        var decoded = 0
        let strings = StringTable()
        let decode = try measure(items: events * decodeRepeats) {
            for _ in 0..<decodeRepeats {
                for bytes in envelopes {
                    let event = try bytes.withUnsafeBytes { try Envelope.decodeEvent($0, strings: strings) }
                    if case .sampleRecorded = event.event { decoded += 1 }
                }
            }
        }
        // What every projection reads of a stored sample: its facts, not the whole payload.
        let facts = try measure(items: events * decodeRepeats) {
            for _ in 0..<decodeRepeats {
                for bytes in envelopes {
                    let (_, content) = try bytes.withUnsafeBytes { try Envelope.decodeContent($0, strings: strings) }
                    if case .sample = content { decoded += 1 }
                }
            }
        }
        let header = try measure(items: events) {
            for bytes in envelopes {
                decoded += Int(try bytes.withUnsafeBytes { try Envelope(parsing: $0) }.typeCode)
            }
        }
        print("Steps of an append and a decode, \(events) events of \(size) bytes, in memory:")
        printTable(
            ["step", "rate", "ns/event"],
            [
                ["payload encoding", formatRate(encode), String(format: "%.0f", 1e9 / encode)],
                ["envelope (encoding + CRC-32C + SHA-256)", formatRate(envelope), String(format: "%.0f", 1e9 / envelope)],
                ["SHA-256 link alone", formatRate(sha), String(format: "%.0f", 1e9 / sha)],
                ["CRC-32C alone", formatRate(crc), String(format: "%.0f", 1e9 / crc)],
                ["envelope header parse", formatRate(header), String(format: "%.0f", 1e9 / header)],
                ["full decode (header + payload)", formatRate(decode), String(format: "%.0f", 1e9 / decode)],
                ["facts decode (what projections read)", formatRate(facts), String(format: "%.0f", 1e9 / facts)],
            ])
        _ = checksum
    }
}
