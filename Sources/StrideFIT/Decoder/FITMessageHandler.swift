/// Receives what the decoder reads, one FIT file of the chain at a time.
///
/// The decoder checks a file's CRC before decoding its messages, so every message a handler
/// receives comes from a file whose bytes check; ``FITMessageHandler/endFile(at:)`` marks
/// each such file complete. A file that fails stops the decoding with a ``FITError`` and
/// gives no messages.
public protocol FITMessageHandler {
    /// A FIT file of the chain begins at `offset`, its header declaring `dataSize` bytes.
    mutating func beginFile(at offset: Int, dataSize: Int)
    /// A data message of the file.
    mutating func message(_ message: FITMessage) throws
    /// The file that began last ends at `offset` (after its CRC), all of it read.
    mutating func endFile(at offset: Int)
}
