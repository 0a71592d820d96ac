import StrideEvents

/// Where a recorded sample came from, as far as withdrawals need to know.
enum SampleOrigin {
    /// Whether a sample came from an Apple Health export: only an export can show it deleted.
    ///
    /// An export's records name their creation, their source's version or their device (every
    /// record of the real exports in `../shared/fixtures` but iOS 8's oldest names one); the
    /// other readers name none of them (NDJSON, Health Auto Export), and Health Auto Export's
    /// samples are summaries. A record of an export that names none of the three is taken for
    /// another way in: never withdrawn by an export, which errs on the side of keeping it.
    static func isFromHealthExport(_ sample: SampleRecorded) -> Bool {
        sample.deviceClass != .summary && (sample.created != nil || sample.sourceVersion != nil || sample.device != nil)
    }
}
