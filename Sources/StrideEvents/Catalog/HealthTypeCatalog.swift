/// HealthKit type identifiers stored as small codes: a sample's type is most of its bytes
/// otherwise, and a code decodes to a shared string without allocating.
///
/// Append only: a code, once given, names its identifier forever. Identifiers not listed
/// are stored as text (code 0).
public enum HealthTypeCatalog {
    // Codes of the types the daily records read, for switching on a number rather than
    // comparing 40-byte names once per sample.

    /// `HKQuantityTypeIdentifierHeartRate`.
    public static let heartRate: UInt64 = 1
    /// `HKQuantityTypeIdentifierStepCount`.
    public static let stepCount: UInt64 = 2
    /// `HKQuantityTypeIdentifierDistanceWalkingRunning`.
    public static let distanceWalkingRunning: UInt64 = 3
    /// `HKQuantityTypeIdentifierActiveEnergyBurned`.
    public static let activeEnergyBurned: UInt64 = 4
    /// `HKQuantityTypeIdentifierRestingHeartRate`.
    public static let restingHeartRate: UInt64 = 6
    /// `HKCategoryTypeIdentifierSleepAnalysis`.
    public static let sleepAnalysis: UInt64 = 7

    /// The identifiers of the types the daily records read, as a reader writes them into the
    /// samples it makes (Garmin's daily totals, Health Auto Export's metrics): spelled here
    /// once, and in ``identifiers`` by these names.
    public enum Identifier {
        /// Heart rate, in `count/min`.
        public static let heartRate = "HKQuantityTypeIdentifierHeartRate"
        /// Steps, in `count`.
        public static let stepCount = "HKQuantityTypeIdentifierStepCount"
        /// Walking and running distance, in `m`, `km`, `mi` or `ft`.
        public static let distanceWalkingRunning = "HKQuantityTypeIdentifierDistanceWalkingRunning"
        /// Active energy, in `kcal`, `Cal` or `kJ`.
        public static let activeEnergyBurned = "HKQuantityTypeIdentifierActiveEnergyBurned"
        /// Resting heart rate, in `count/min`.
        public static let restingHeartRate = "HKQuantityTypeIdentifierRestingHeartRate"
        /// Sleep, its values ``SleepValue``'s identifiers.
        public static let sleepAnalysis = "HKCategoryTypeIdentifierSleepAnalysis"
    }

    /// A type's name without HealthKit's prefix, as tables show it: `StepCount` for
    /// `HKQuantityTypeIdentifierStepCount`.
    public static func shortName(_ identifier: String) -> String {
        for prefix in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKDataType"] where identifier.hasPrefix(prefix) {
            return String(identifier.dropFirst(prefix.count))
        }
        return identifier
    }

    static let identifiers: [String] = [
        Identifier.heartRate,
        Identifier.stepCount,
        Identifier.distanceWalkingRunning,
        Identifier.activeEnergyBurned,
        "HKQuantityTypeIdentifierBasalEnergyBurned",
        Identifier.restingHeartRate,
        Identifier.sleepAnalysis,
        "HKQuantityTypeIdentifierHeartRateVariabilitySDNN",
        "HKQuantityTypeIdentifierWalkingHeartRateAverage",
        "HKQuantityTypeIdentifierFlightsClimbed",
        "HKQuantityTypeIdentifierAppleExerciseTime",
        "HKQuantityTypeIdentifierAppleStandTime",
        "HKCategoryTypeIdentifierAppleStandHour",
        "HKQuantityTypeIdentifierDistanceCycling",
        "HKQuantityTypeIdentifierDistanceSwimming",
        "HKQuantityTypeIdentifierSwimmingStrokeCount",
        "HKQuantityTypeIdentifierRespiratoryRate",
        "HKQuantityTypeIdentifierOxygenSaturation",
        "HKQuantityTypeIdentifierVO2Max",
        "HKQuantityTypeIdentifierBodyMass",
        "HKQuantityTypeIdentifierBodyMassIndex",
        "HKQuantityTypeIdentifierHeight",
        "HKQuantityTypeIdentifierBodyFatPercentage",
        "HKQuantityTypeIdentifierLeanBodyMass",
        "HKQuantityTypeIdentifierWalkingSpeed",
        "HKQuantityTypeIdentifierWalkingStepLength",
        "HKQuantityTypeIdentifierWalkingDoubleSupportPercentage",
        "HKQuantityTypeIdentifierWalkingAsymmetryPercentage",
        "HKQuantityTypeIdentifierAppleWalkingSteadiness",
        "HKQuantityTypeIdentifierSixMinuteWalkTestDistance",
        "HKQuantityTypeIdentifierStairAscentSpeed",
        "HKQuantityTypeIdentifierStairDescentSpeed",
        "HKQuantityTypeIdentifierRunningSpeed",
        "HKQuantityTypeIdentifierRunningPower",
        "HKQuantityTypeIdentifierRunningStrideLength",
        "HKQuantityTypeIdentifierRunningVerticalOscillation",
        "HKQuantityTypeIdentifierRunningGroundContactTime",
        "HKQuantityTypeIdentifierHeadphoneAudioExposure",
        "HKQuantityTypeIdentifierEnvironmentalAudioExposure",
        "HKQuantityTypeIdentifierBloodPressureSystolic",
        "HKQuantityTypeIdentifierBloodPressureDiastolic",
        "HKQuantityTypeIdentifierBloodGlucose",
        "HKQuantityTypeIdentifierBodyTemperature",
        "HKQuantityTypeIdentifierAppleSleepingWristTemperature",
        "HKQuantityTypeIdentifierDietaryEnergyConsumed",
        "HKQuantityTypeIdentifierDietaryWater",
        "HKQuantityTypeIdentifierDietaryCaffeine",
        "HKQuantityTypeIdentifierTimeInDaylight",
        "HKQuantityTypeIdentifierPhysicalEffort",
        "HKQuantityTypeIdentifierNumberOfTimesFallen",
        "HKCategoryTypeIdentifierMindfulSession",
        "HKCategoryTypeIdentifierHighHeartRateEvent",
        "HKCategoryTypeIdentifierLowHeartRateEvent",
        "HKCategoryTypeIdentifierIrregularHeartRhythmEvent",
        "HKCategoryTypeIdentifierHeadphoneAudioExposureEvent",
        "HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent",
        "HKCategoryTypeIdentifierHandwashingEvent",
        "HKCategoryTypeIdentifierToothbrushingEvent",
        "HKCategoryTypeIdentifierAudioExposureEvent",
        "HKDataTypeSleepDurationGoal",
    ]

    /// The code of a listed identifier; nil for others.
    public static func code(of identifier: String) -> UInt64? {
        let found: UInt64?? = identifier.utf8.withContiguousStorageIfAvailable { utf8 in
            lookup.code(of: UnsafeRawBufferPointer(utf8))
        }
        return found ?? lookup.code(of: identifier)
    }

    /// Every sample's append looks its type up here, so the lookup hashes the UTF-8 a word at
    /// a time and compares bytes (a dictionary of strings hashes with SipHash, several times
    /// slower for these 30-to-50-byte names).
    private static let lookup = CodeLookup(identifiers)

    /// The identifier of a code; nil for codes this version does not know.
    public static func identifier(code: UInt64) -> String? {
        code >= 1 && code <= UInt64(identifiers.count) ? identifiers[Int(code - 1)] : nil
    }

    /// Whether a listed code is a quantity type (its samples' values must be numbers).
    static func isQuantity(code: UInt64) -> Bool {
        code >= 1 && code <= UInt64(identifiers.count) && quantityCodes[Int(code - 1)]
    }

    /// Whether a type is a quantity type: by its code when listed (`code` is 0 otherwise),
    /// else by its identifier.
    static func isQuantity(code: UInt64, identifier: String) -> Bool {
        code != 0 ? isQuantity(code: code) : isQuantity(identifier)
    }

    private static func isQuantity(_ identifier: String) -> Bool {
        identifier.utf8.starts(with: "HKQuantityTypeIdentifier".utf8)
    }

    private static let quantityCodes = identifiers.map(isQuantity)
}

/// An open-addressed table from identifier bytes to codes, built once.
private struct CodeLookup: Sendable {
    private let names: [[UInt8]]
    /// For each slot, 0 when empty, or the code whose name hashed there.
    private let slots: [UInt8]
    private let mask: Int

    init(_ identifiers: [String]) {
        names = identifiers.map { Array($0.utf8) }
        var slots = [UInt8](repeating: 0, count: 512)
        let mask = slots.count - 1
        for (index, name) in names.enumerated() {
            var slot = name.withUnsafeBytes { WordHash.slot(of: WordHash.of($0), mask: mask) }
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt8(index + 1)
        }
        self.slots = slots
        self.mask = mask
    }

    func code(of bytes: UnsafeRawBufferPointer) -> UInt64? {
        var slot = WordHash.slot(of: WordHash.of(bytes), mask: mask)
        while true {
            let code = slots[slot]
            guard code != 0 else { return nil }
            if names[Int(code) - 1].withUnsafeBytes({ WordHash.sameBytes($0, bytes) }) { return UInt64(code) }
            slot = (slot + 1) & mask
        }
    }

    func code(of identifier: String) -> UInt64? {
        Array(identifier.utf8).withUnsafeBytes { code(of: $0) }
    }
}
