/// Gathers an activity from the decoder's messages, one chained file at a time: what a file
/// gives is kept only when the file ends whole.
struct FITActivityReader: FITMessageHandler {
    /// What the files read whole gave.
    private(set) var activity = FITActivity()
    /// What the file being read gives so far.
    private var pending = FITActivity()
    /// Whether `record` messages are kept (a run's stream), or only counted.
    let keepsRecords: Bool

    init(keepsRecords: Bool = false) {
        self.keepsRecords = keepsRecords
    }

    /// Global message numbers, from the profile.
    private enum Global {
        static let fileID: UInt16 = 0
        static let session: UInt16 = 18
        static let lap: UInt16 = 19
        static let record: UInt16 = 20
        static let deviceInfo: UInt16 = 23
        static let activity: UInt16 = 34
    }

    mutating func beginFile(at offset: Int, dataSize: Int) {
        pending = FITActivity()
    }

    mutating func message(_ message: FITMessage) throws {
        pending.counts.dataMessages += 1
        if message.hasDeveloperFields { pending.counts.messagesWithDeveloperFields += 1 }
        if message.hasCompressedTimestamp { pending.counts.compressedTimestampMessages += 1 }
        switch message.globalNumber {
        case Global.record:
            pending.counts.records += 1
            // At most ``FITActivity/mostRecords`` in all: a file of tiny records (a compressed
            // timestamp and one field each) must not cost gigabytes; the rest are counted.
            if keepsRecords, activity.records.count + pending.records.count < FITActivity.mostRecords {
                pending.records.append(FITRecord(message))
            }
        case Global.lap:
            pending.counts.laps += 1
        case Global.session:
            pending.sessions.append(FITSession(message, index: activity.sessions.count + pending.sessions.count))
        case Global.fileID:
            pending.fileIDs.append(FITFileID(message))
        case Global.deviceInfo:
            // Device index 0 is the creator; other indexes are sensors (a chest strap…).
            if message.unsigned(0) == 0, pending.creator == nil { pending.creator = FITDevice(deviceInfo: message) }
        case Global.activity:
            pending.activityTimestamp = message.timestamp
            pending.activityLocalTimestamp = message.unsigned(5).map { UInt32(truncatingIfNeeded: $0) }
        default:
            break
        }
    }

    mutating func endFile(at offset: Int) {
        activity.counts.files += 1
        activity.counts.dataMessages += pending.counts.dataMessages
        activity.counts.records += pending.counts.records
        activity.counts.laps += pending.counts.laps
        activity.counts.messagesWithDeveloperFields += pending.counts.messagesWithDeveloperFields
        activity.counts.compressedTimestampMessages += pending.counts.compressedTimestampMessages
        activity.fileIDs += pending.fileIDs
        activity.sessions += pending.sessions
        activity.records += pending.records
        if activity.creator == nil, let fileID = pending.fileIDs.first {
            // The creator's device_info where it names the device, the file_id where it does not.
            var creator = pending.creator ?? FITDevice(manufacturer: nil, product: nil)
            if creator.manufacturer == nil || creator.product == nil && creator.productName == nil {
                creator.manufacturer = fileID.manufacturer
                creator.product = fileID.product
            }
            creator.productName = creator.productName ?? fileID.productName
            creator.serialNumber = creator.serialNumber ?? fileID.serialNumber
            activity.creator = creator
        }
        if let timestamp = pending.activityTimestamp {
            activity.activityTimestamp = timestamp
            activity.activityLocalTimestamp = pending.activityLocalTimestamp
        }
        pending = FITActivity()
    }
}
