/// Why a recorded sample is left out of the figures, though kept in the log as written:
/// the one rule the ingest summary and the projections share, so that what an ingest says
/// it left out is exactly what the daily records leave out.
public enum SampleQuality {
    /// The reason a sample cannot count, or nil when it can. `recordedAt` is when the log
    /// recorded it (the ingest's clock, for a sample not yet appended): a sample that starts
    /// well after the clock that recorded it is odd.
    public static func problem(with sample: SampleRecorded, recordedAt: Timestamp) -> String? {
        problem(
            typeCode: sample.healthTypeCode, healthType: sample.healthType, value: sample.value, unit: sample.unit,
            start: sample.start, end: sample.end, recordedAt: recordedAt)
    }

    /// The reason a sample cannot count, or nil when it can: the rule reads only the facts
    /// figures are made of (type, value, unit, times) and when the log recorded it.
    public static func problem(with sample: SampleFacts, recordedAt: Timestamp) -> String? {
        problem(
            typeCode: sample.typeCode, healthType: sample.healthType, value: sample.value, unit: sample.unit, start: sample.start,
            end: sample.end, recordedAt: recordedAt)
    }

    /// The rule, over the fields it reads (taken apart, so that neither caller copies a
    /// sample to ask: every ingested and every folded sample is asked).
    private static func problem(
        typeCode: UInt64, healthType: String, value: SampleValue, unit: String?, start: Timestamp, end: Timestamp, recordedAt: Timestamp
    ) -> String? {
        if end < start { return "it ends before it starts" }
        if HealthTypeCatalog.isQuantity(code: typeCode, identifier: healthType), value.number == nil { return "its value is not a number" }
        if let number = value.number, !number.isFinite { return "its value is not a finite number" }
        if let unit, !isKnown(unit: unit, forCode: typeCode) {
            return "its unit \"\(unit.shownInMessage)\" is unknown for \(healthType)"
        }
        if typeCode == HealthTypeCatalog.sleepAnalysis, SleepValue(value) == nil {
            return "its sleep value \"\(value.asWritten.shownInMessage)\" is unknown"
        }
        if let limit = SpanLimit.of(code: typeCode) {
            if !limit.admits(start: start, end: end) { return limit.reason(for: healthType) }
            if let problem = problemWithDates(start: start, recordedAt: recordedAt) { return problem }
            if let number = value.number, let problem = problemWithValue(number, unit: unit ?? "", typeCode: typeCode, start: start, end: end) {
                return problem
            }
        }
        // A sleep value or a unit that passed a list above holds no control character:
        // only the rest is scanned (every folded sample is asked).
        let valueListed = typeCode == HealthTypeCatalog.sleepAnalysis
        let unitListed = unitRule(forCode: typeCode) != nil
        if (!valueListed && hasControlCharacter(value.text)) || (!unitListed && hasControlCharacter(unit)) {
            return "it holds a control character"
        }
        return nil
    }

    /// Whether a unit is one Stride reads for a type it uses (other types take any unit).
    public static func isKnown(unit: String, for healthType: String) -> Bool {
        isKnown(unit: unit, forCode: HealthTypeCatalog.code(of: healthType) ?? 0)
    }

    /// ``isKnown(unit:for:)`` by the type's catalog code.
    static func isKnown(unit: String, forCode code: UInt64) -> Bool {
        unitRule(forCode: code)?(unit) ?? true
    }

    /// The units Stride reads for a type it uses, as a test of a unit; nil for the types
    /// that take any unit.
    private static func unitRule(forCode code: UInt64) -> ((String) -> Bool)? {
        switch code {
        case HealthTypeCatalog.stepCount: { $0 == "count" }
        case HealthTypeCatalog.distanceWalkingRunning: { HealthUnits.metres(per: $0) != nil }
        case HealthTypeCatalog.activeEnergyBurned: { HealthUnits.kilocalories(per: $0) != nil }
        case HealthTypeCatalog.heartRate, HealthTypeCatalog.restingHeartRate: { $0 == "count/min" }
        default: nil
        }
    }

    private static func hasControlCharacter(_ text: String?) -> Bool {
        guard let text, !text.isEmpty else { return false }
        // Control characters are single UTF-8 bytes; no byte of a multi-byte one is below 0x80.
        let isControl = { (byte: UInt8) in (byte < 0x20 && byte != 0x09) || byte == 0x7F }
        return text.utf8.withContiguousStorageIfAvailable { $0.contains(where: isControl) } ?? text.utf8.contains(where: isControl)
    }
}

/// The values of a sleep-analysis sample.
public enum SleepValue: Sendable, Hashable, CaseIterable {
    case inBed
    /// Asleep with no stage (and the deprecated `Asleep`).
    case asleepUnspecified
    case asleepCore
    case asleepDeep
    case asleepREM
    case awake

    /// Reads a sample's value: the category value's name, as exported since iOS 10, or its
    /// raw value, as iOS 8 and 9 exports wrote it (`value="1"`). The raw values are
    /// `HKCategoryValueSleepAnalysis`'s: 0 in bed, 1 asleep (unspecified), 2 awake, 3 core,
    /// 4 deep, 5 REM. Those exports left the attribute out where the value was 0: none of
    /// their records says `value="0"`, and the sleep records without one are the in-bed
    /// spans around asleep ones, so a sleep sample with no value is in bed.
    public init?(_ value: SampleValue) {
        switch value {
        case .text(let text): self.init(text)
        case .number(0), .absent: self = .inBed
        case .number(1): self = .asleepUnspecified
        case .number(2): self = .awake
        case .number(3): self = .asleepCore
        case .number(4): self = .asleepDeep
        case .number(5): self = .asleepREM
        case .number: return nil
        }
    }

    /// Reads a category value as exported (`HKCategoryValueSleepAnalysisAsleepCore`), and the
    /// deprecated `HKCategoryValueSleepAnalysisAsleep` as unspecified.
    public init?(_ text: String) {
        if text == "HKCategoryValueSleepAnalysisAsleep" {
            self = .asleepUnspecified
            return
        }
        guard let named = Self.named.first(where: { $0.identifier == text }) else { return nil }
        self = named.value
    }

    /// Each value with its name, made once: every sleep sample folded is read through it.
    private static let named = allCases.map { (identifier: $0.identifier, value: $0) }

    /// The category value's name, as the Health app exports it and as a reader writes it into
    /// a sleep sample it makes: `HKCategoryValueSleepAnalysisAsleepDeep`.
    public var identifier: String {
        switch self {
        case .inBed: "HKCategoryValueSleepAnalysisInBed"
        case .asleepUnspecified: "HKCategoryValueSleepAnalysisAsleepUnspecified"
        case .asleepCore: "HKCategoryValueSleepAnalysisAsleepCore"
        case .asleepDeep: "HKCategoryValueSleepAnalysisAsleepDeep"
        case .asleepREM: "HKCategoryValueSleepAnalysisAsleepREM"
        case .awake: "HKCategoryValueSleepAnalysisAwake"
        }
    }

    /// Whether this is one of the asleep stages.
    public var isAsleep: Bool {
        switch self {
        case .asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM: true
        case .inBed, .awake: false
        }
    }
}

extension SampleValue {
    /// The value as the summary names it: text as it is, a whole number without decimals.
    var asWritten: String {
        switch self {
        case .text(let text): text
        case .number(let number) where number == number.rounded() && abs(number) < 1e15: String(Int64(number))
        case .number(let number): String(number)
        case .absent: ""
        }
    }
}
