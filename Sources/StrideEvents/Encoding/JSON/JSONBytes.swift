/// What the two JSON readers (``JSONParser`` for documents, ``JSONWalker`` for locating a
/// value in a large push) share: skipping white space while counting lines, and naming a
/// byte in an error.
package enum JSONBytes {
    /// Moves `index` past spaces, tabs, carriage returns and line feeds, counting the lines.
    package static func skipSpace(in bytes: UnsafeRawBufferPointer, index: inout Int, line: inout Int) {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                line += 1
                index += 1
            default: return
            }
        }
    }

    /// A byte as an error names it: `'x'`, or `a byte 0x1F`.
    package static func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "a byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
