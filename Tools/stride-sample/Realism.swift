/// What the generator follows, counted in the real exports of `../shared/fixtures`
/// (bwassim 17.8 MB, haozes 3.8 MB, apple-health-grafana 3.2 MB, rgosdin, josejamilena,
/// ipyhealth, kairess, legacy-ios8; see `SOURCES.md`). Each constant names what it models.
///
/// - Order: records grouped by type, in HealthKit's type order (bwassim: 16 types and 15
///   changes of type in 67,409 records; haozes: 42 and 41), then correlations, workouts and
///   activity summaries; within a type, by start time (ipyhealth's watch and phone).
/// - Device descriptions: the `HKDevice` address changes every few records to few hundred
///   records of one type and device (bwassim: 83 distinct descriptions, 28 without the
///   address, in 12,649 records; 87 runs, median 140, a fifth under 16, none over 400), and the
///   software in it (and the source version) changes with each OS update. Exports from iOS 12
///   and earlier print a new address for nearly every record (haozes 6,599 distinct in 7,088,
///   rgosdin 2,339 in 3,348, josejamilena 3,215 in 3,290); this generator writes a recent
///   watch and phone.
/// - Metadata: a watch heart rate has one entry (motion context; ipyhealth and kairess, every
///   one); walking asymmetry one (placement side; bwassim, every one); the phone's in-bed
///   sleep one (`HKTimeZone`; bwassim, all 106); about 1 % of a watch's energy, distance and
///   heart-rate records carry a sync identifier and version (ipyhealth 0.9–4 %); workouts five
///   (ipyhealth, all 16); third-party apps their own (haozes). Other records none. In all:
///   0.02 (bwassim) to 0.21 (ipyhealth) entries per record; watch-heavy exports more.
/// - Sources: one person's devices and a few apps: ipyhealth 2, rgosdin 3, bwassim 5 (32
///   source-and-version pairs over four years), haozes 24 (fifteen apps). Here: the watch,
///   the phone, a scale's app and manual entries in Health.
/// - Sleep from several sources: bwassim's watch (Garmin) stages and the phone's in-bed
///   blocks (`Clock`, `iPhone`); here the watch's stages and the phone's in-bed block.
/// - Duplicates: records identical in every attribute 0–0.05 % (haozes 6 in 10,939, none
///   elsewhere); none in these fixtures differ only in the source version, which the design
///   says real exports hold: written here, rarer still.
/// - Mix of a watch (ipyhealth, the one Apple Watch export): active energy 40 %, basal energy
///   33 %, heart rate 19 %, distance 4 %, steps 2 %, exercise time 1 %, stand and audio under
///   1 % each. A phone's walking metrics (bwassim, per day): speed 19, step length 19, double
///   support 14, asymmetry 10, headphone audio 6, flights 4.
enum Realism {
    /// One identical repeat per this many records (haozes: 6 in 10,939).
    static let identicalRepeatEvery: UInt64 = 2_000
    /// One repeat differing only in its source version per this many records.
    static let versionRepeatEvery: UInt64 = 10_000
    /// A watch's energy, distance or heart-rate record carries a sync identifier once in this many.
    static let syncIdentifierEvery: UInt64 = 100
    /// The share of address runs that are short (bwassim: 18 of 87 runs under 16 records).
    static let shortRunPercent: UInt64 = 20
    /// Short runs last 1–15 records; the others 25–400 (bwassim: none over 400).
    static let shortRuns: ClosedRange<UInt64> = 1...15
    static let longRuns: ClosedRange<UInt64> = 25...400
    /// Days between OS updates of the watch and the phone (bwassim: 28 descriptions in four years).
    static let daysBetweenUpdates: ClosedRange<UInt64> = 25...60
}
