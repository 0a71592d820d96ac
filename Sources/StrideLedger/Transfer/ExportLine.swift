import Foundation
import StrideEvents

/// One line of `stride export`: an event as readable JSON, plus its envelope, which is what
/// `stride import` trusts. See the README's "Export format".
enum ExportLine {
    /// The JSON line (without its newline) for a stored event.
    static func render(_ stored: StoredEvent) throws -> String {
        let (envelope, event) = try stored.bytes.withUnsafeBytes { bytes in
            (try Envelope(parsing: bytes), try Envelope.decodeEvent(bytes))
        }
        let document: JSONValue = .object([
            "sequence": .integer(stored.sequence),
            "recordedAt": .string(event.recordedAt.description),
            "occurredAt": .string(event.occurredAt.description),
            "type": .string(event.event.typeName),
            "schemaVersion": .integer(envelope.schemaVersion),
            "entity": .string(event.entity.description),
            "idempotencyKey": .string(event.idempotencyKey?.description),
            "payload": event.event.json,
            "hash": .string(envelope.chainHash.description),
            "envelope": .string(Data(stored.bytes).base64EncodedString()),
        ])
        return document.text
    }

    /// Reads a line back into the stored event it carries: its `sequence`, `hash` and
    /// `envelope` (the rest is for people).
    /// - Throws: a sentence saying what is wrong with the line.
    static func parse(_ line: [UInt8]) throws(LineProblem) -> StoredEvent {
        let notALine = LineProblem("it is not an export line (a JSON object with sequence, hash and envelope)")
        guard case .object(let fields)? = try? line.withUnsafeBytes({ try JSONParser.parse($0) }),
            case .number(let number)? = fields["sequence"], number >= 1, number <= 0x1p53, number == number.rounded(),
            case .string(let hashText)? = fields["hash"], case .string(let envelope)? = fields["envelope"]
        else { throw notALine }
        guard let bytes = Data(base64Encoded: envelope) else {
            throw LineProblem("its envelope is not base64")
        }
        let stored = StoredEvent(sequence: UInt64(number), bytes: Array(bytes))
        let hash = stored.bytes.withUnsafeBytes { try? Envelope(parsing: $0).chainHash }
        guard let hash, hash.description == hashText else {
            throw LineProblem("its hash field does not match its envelope")
        }
        return stored
    }

    /// What is wrong with one line.
    struct LineProblem: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }
}
