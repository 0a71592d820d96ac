/// What Stride reads from a FIT activity file: its identity, the device, each session, and
/// counts of what else it holds.
public struct FITActivity: Sendable {
    /// The `file_id` of each chained file, in order (most files hold one).
    public var fileIDs: [FITFileID] = []
    /// The sessions, in file order.
    public var sessions: [FITSession] = []
    /// The `record` messages, in file order, when decoding was asked to keep them.
    public var records: [FITRecord] = []
    /// The most `record` messages kept from one file: 100 hours at one a second, more than any
    /// run; beyond it they are only counted (``Counts/records``).
    public static let mostRecords = 360_000
    /// The device that recorded it, when a `device_info` or `file_id` says.
    public var creator: FITDevice?
    /// The last `activity` message's timestamp and local wall-clock time: together they place
    /// a file whose times are relative to power-on (see ``FITDateTime/isAbsolute``).
    public var activityTimestamp: FITDateTime?
    /// See ``activityTimestamp``: seconds since the FIT epoch on the local wall clock.
    public var activityLocalTimestamp: UInt32?
    /// How many messages of each kind were read.
    public var counts = Counts()

    /// Counts of what a file holds, for the tests against another decoder and for the audit.
    public struct Counts: Hashable, Sendable {
        /// Chained FIT files.
        public var files = 0
        /// Data messages of every kind.
        public var dataMessages = 0
        /// `record` messages (one per second or so of the activity).
        public var records = 0
        /// `lap` messages.
        public var laps = 0
        /// Messages with developer fields (skipped).
        public var messagesWithDeveloperFields = 0
        /// Messages with a compressed-timestamp header.
        public var compressedTimestampMessages = 0
    }

    /// The first file's `file_id`.
    public var fileID: FITFileID? { fileIDs.first }

    /// Creates an empty activity.
    public init() {}

    /// Decodes a FIT file. Returns what the chained files that were read whole hold, and the
    /// error that stopped the reading, if any: a file that fails its CRC or is cut short gives
    /// nothing (its CRC cannot vouch for any of it), but the files chained before it do.
    /// With `keepingRecords`, the `record` messages are kept too (``records``).
    public static func decode(_ bytes: UnsafeRawBufferPointer, keepingRecords: Bool = false) -> (activity: FITActivity, failure: FITError?) {
        var reader = FITActivityReader(keepsRecords: keepingRecords)
        do {
            try FITDecoder.decode(bytes, into: &reader)
            return (reader.activity, nil)
        } catch let error as FITError {
            return (reader.activity, error)
        } catch {
            // The reader throws nothing of its own.
            return (reader.activity, nil)
        }
    }

    /// Decodes a FIT file that must be read whole.
    /// - Throws: ``FITError`` naming the offset where reading stopped.
    public init(decoding bytes: [UInt8]) throws {
        let (activity, failure) = bytes.withUnsafeBytes { Self.decode($0) }
        if let failure { throw failure }
        self = activity
    }
}
