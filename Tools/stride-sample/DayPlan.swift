import Foundation

/// What a day of a runner's life writes into the export, one day at a time.
struct DayPlan {
    private let firstDay: Date
    private let timeZone: TimeZone
    private let totalDays: Int
    private var random: SplitMix64
    private var dayIndex = 0
    private let printer: DatePrinter
    private(set) var recordCount = 0
    private(set) var workoutCount = 0
    /// New-format workouts (statistics and activities) from this day on; older ones use attributes.
    private let newFormatFromDay = 10

    init(firstDay: Date, timeZone: TimeZone, seed: UInt64, totalDays: Int) {
        self.firstDay = firstDay
        self.timeZone = timeZone
        self.totalDays = totalDays
        random = SplitMix64(seed: seed)
        printer = DatePrinter(offsetSeconds: timeZone.secondsFromGMT(for: firstDay))
    }

    var hasMoreDays: Bool { dayIndex < totalDays }

    /// The export date, printed.
    var exportDate: String { printer.print(firstDay.addingTimeInterval(86_400 * 3650)) }

    static func parseDay(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter.date(from: text)
    }

    /// The local midnight of the day `offset` days after the first, as an instant.
    private func midnight(_ offset: Int) -> Date {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? timeZone
        let first = utc.dateComponents([.year, .month, .day], from: firstDay)
        return localCalendar.date(from: DateComponents(year: first.year, month: first.month, day: (first.day ?? 1) + offset))
            ?? firstDay
    }

    private var localCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The XML of the next day.
    mutating func nextDay() -> String {
        let day = midnight(dayIndex)
        let nextMidnight = midnight(dayIndex + 1)
        var out = ""
        out.reserveCapacity(256 << 10)
        heartRate(day, until: nextMidnight, into: &out)
        activity(day, into: &out)
        sleep(before: day, into: &out)
        if dayIndex % 2 == 0 { run(day, into: &out) }
        if dayIndex % 5 == 3 { cycle(day, into: &out) }
        if dayIndex % 7 == 6 { bloodPressure(day, into: &out) }
        summary(day, into: &out)
        dayIndex += 1
        return out
    }

    // MARK: The day's content

    private mutating func heartRate(_ day: Date, until end: Date, into out: inout String) {
        var instant = day
        let calendar = localCalendar
        while instant < end {
            let hour = calendar.component(.hour, from: instant)
            let base = hour < 7 ? 54 : (hour < 22 ? 72 : 60)
            let value = base + Int(random.next() % 25)
            record(into: &out, type: "HKQuantityTypeIdentifierHeartRate", watch: true, unit: "count/min", value: "\(value)",
                start: instant, end: instant, metadata: [("HKMetadataKeyHeartRateMotionContext", "\(random.next() % 3)")])
            instant += 300
        }
        record(into: &out, type: "HKQuantityTypeIdentifierRestingHeartRate", watch: true, unit: "count/min",
            value: "\(50 + random.next() % 8)", start: day + 7 * 3600, end: day + 7 * 3600 + 60)
    }

    /// Steps, distance and energy: the phone all day in 30-minute blocks, the watch in
    /// overlapping 15-minute blocks from 08:00 to 20:00 (where it wins).
    private mutating func activity(_ day: Date, into out: inout String) {
        var instant = day + 7 * 3600
        while instant < day + 23 * 3600 {
            let steps = 100 + Int(random.next() % 900)
            record(into: &out, type: "HKQuantityTypeIdentifierStepCount", watch: false, unit: "count", value: "\(steps)",
                start: instant, end: instant + 1800)
            record(into: &out, type: "HKQuantityTypeIdentifierDistanceWalkingRunning", watch: false, unit: "km",
                value: String(format: "%.3f", Double(steps) * 0.00072), start: instant, end: instant + 1800)
            instant += 1800
        }
        instant = day + 8 * 3600
        while instant < day + 20 * 3600 {
            let steps = 50 + Int(random.next() % 500)
            record(into: &out, type: "HKQuantityTypeIdentifierStepCount", watch: true, unit: "count", value: "\(steps)",
                start: instant, end: instant + 900)
            record(into: &out, type: "HKQuantityTypeIdentifierDistanceWalkingRunning", watch: true, unit: "km",
                value: String(format: "%.4f", Double(steps) * 0.00074), start: instant, end: instant + 900)
            record(into: &out, type: "HKQuantityTypeIdentifierActiveEnergyBurned", watch: true, unit: "kcal",
                value: String(format: "%.2f", Double(5 + random.next() % 40)), start: instant, end: instant + 900)
            instant += 900
        }
    }

    /// The night before `day`: the phone's in-bed block, and watch stages on most nights.
    private mutating func sleep(before day: Date, into out: inout String) {
        let bed = day - 3600 - Double(random.next() % 1800)
        let rise = day + 7 * 3600 + Double(random.next() % 1800)
        record(into: &out, type: "HKCategoryTypeIdentifierSleepAnalysis", watch: false, unit: nil,
            value: "HKCategoryValueSleepAnalysisInBed", start: bed, end: rise)
        if dayIndex % 7 != 4 {
            let stages = ["AsleepCore", "AsleepDeep", "AsleepCore", "AsleepREM", "Awake"]
            var instant = bed + 900
            var index = 0
            while instant < rise - 600 {
                let length = Double(1200 + random.next() % 2400)
                let end = min(instant + length, rise - 300)
                record(into: &out, type: "HKCategoryTypeIdentifierSleepAnalysis", watch: true, unit: nil,
                    value: "HKCategoryValueSleepAnalysis" + stages[index % stages.count], start: instant, end: end)
                instant = end
                index += 1
            }
        }
        if dayIndex % 6 == 2 {
            // A nap after lunch, before the 18:00 boundary.
            record(into: &out, type: "HKCategoryTypeIdentifierSleepAnalysis", watch: true, unit: nil,
                value: "HKCategoryValueSleepAnalysisAsleepUnspecified", start: day + 14 * 3600, end: day + 14 * 3600 + 1500)
        }
    }

    private mutating func run(_ day: Date, into out: inout String) {
        let start = day + 6.5 * 3600 + Double(random.next() % 1800)
        let minutes = 25 + Double(random.next() % 35)
        let kilometres = minutes / (5 + Double(random.next() % 100) / 100)
        workout(into: &out, activity: "HKWorkoutActivityTypeRunning", start: start, minutes: minutes, kilometres: kilometres,
            energy: kilometres * 62)
    }

    private mutating func cycle(_ day: Date, into out: inout String) {
        let start = day + 18 * 3600
        workout(into: &out, activity: "HKWorkoutActivityTypeCycling", start: start, minutes: 45, kilometres: 15 + Double(random.next() % 10),
            energy: 380)
    }

    private mutating func workout(into out: inout String, activity: String, start: Date, minutes: Double, kilometres: Double, energy: Double) {
        let end = start + minutes * 60
        let dates = "creationDate=\"\(printer.print(end + 5))\" startDate=\"\(printer.print(start))\" endDate=\"\(printer.print(end))\""
        let source = "sourceName=\"\(ExportDocument.watchSource)\" sourceVersion=\"10.1\" device=\"\(ExportDocument.watchDevice)\""
        let duration = String(format: "%.4f", minutes)
        workoutCount += 1
        if dayIndex < newFormatFromDay {
            out += " <Workout workoutActivityType=\"\(activity)\" duration=\"\(duration)\" durationUnit=\"min\" totalDistance=\"\(String(format: "%.4f", kilometres))\" totalDistanceUnit=\"km\" totalEnergyBurned=\"\(String(format: "%.2f", energy))\" totalEnergyBurnedUnit=\"kcal\" \(source) \(dates)>\n"
            out += "  <MetadataEntry key=\"HKIndoorWorkout\" value=\"0\"/>\n </Workout>\n"
            return
        }
        let distanceType = activity == "HKWorkoutActivityTypeCycling" ? "HKQuantityTypeIdentifierDistanceCycling" : "HKQuantityTypeIdentifierDistanceWalkingRunning"
        let statistics = """
              <WorkoutStatistics type="\(distanceType)" startDate="\(printer.print(start))" endDate="\(printer.print(end))" sum="\(String(format: "%.4f", kilometres))" unit="km"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="\(printer.print(start))" endDate="\(printer.print(end))" sum="\(String(format: "%.2f", energy))" unit="kcal"/>

            """
        out += " <Workout workoutActivityType=\"\(activity)\" duration=\"\(duration)\" durationUnit=\"min\" \(source) \(dates)>\n"
        out += "  <MetadataEntry key=\"HKIndoorWorkout\" value=\"0\"/>\n"
        out += statistics.replacingOccurrences(of: "    <", with: "  <")
        out += "  <WorkoutActivity uuid=\"\(random.next())\" startDate=\"\(printer.print(start))\" endDate=\"\(printer.print(end))\" duration=\"\(duration)\" durationUnit=\"min\">\n"
        out += statistics
        out += "  </WorkoutActivity>\n </Workout>\n"
    }

    /// A blood-pressure correlation: its records also appear at the top level.
    private mutating func bloodPressure(_ day: Date, into out: inout String) {
        let instant = day + 8 * 3600
        let systolic = "\(115 + random.next() % 15)"
        let diastolic = "\(70 + random.next() % 10)"
        record(into: &out, type: "HKQuantityTypeIdentifierBloodPressureSystolic", watch: false, unit: "mmHg", value: systolic, start: instant, end: instant)
        record(into: &out, type: "HKQuantityTypeIdentifierBloodPressureDiastolic", watch: false, unit: "mmHg", value: diastolic, start: instant, end: instant)
        let dates = "creationDate=\"\(printer.print(instant))\" startDate=\"\(printer.print(instant))\" endDate=\"\(printer.print(instant))\""
        out += " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"\(ExportDocument.phoneSource)\" sourceVersion=\"17.1\" \(dates)>\n"
        out += "  <Record type=\"HKQuantityTypeIdentifierBloodPressureSystolic\" sourceName=\"\(ExportDocument.phoneSource)\" sourceVersion=\"17.1\" unit=\"mmHg\" \(dates) value=\"\(systolic)\"/>\n"
        out += "  <Record type=\"HKQuantityTypeIdentifierBloodPressureDiastolic\" sourceName=\"\(ExportDocument.phoneSource)\" sourceVersion=\"17.1\" unit=\"mmHg\" \(dates) value=\"\(diastolic)\"/>\n"
        out += " </Correlation>\n"
    }

    private mutating func summary(_ day: Date, into out: inout String) {
        let components = printer.print(day + 12 * 3600).prefix(10)
        out += " <ActivitySummary dateComponents=\"\(components)\" activeEnergyBurned=\"\(300 + random.next() % 400)\" activeEnergyBurnedGoal=\"500\" activeEnergyBurnedUnit=\"kcal\" appleMoveTime=\"0\" appleMoveTimeGoal=\"0\" appleExerciseTime=\"\(20 + random.next() % 60)\" appleExerciseTimeGoal=\"30\" appleStandHours=\"\(8 + random.next() % 6)\" appleStandHoursGoal=\"12\"/>\n"
    }

    /// Writes one record; every 60th is written twice, as exports sometimes repeat them.
    private mutating func record(
        into out: inout String, type: String, watch: Bool, unit: String?, value: String, start: Date, end: Date,
        metadata: [(String, String)] = []
    ) {
        let source = watch
            ? "sourceName=\"\(ExportDocument.watchSource)\" sourceVersion=\"10.1\" device=\"\(ExportDocument.watchDevice)\""
            : "sourceName=\"\(ExportDocument.phoneSource)\" sourceVersion=\"17.1\" device=\"\(ExportDocument.phoneDevice)\""
        let unitText = unit.map { " unit=\"\($0)\"" } ?? ""
        var text = " <Record type=\"\(type)\" \(source)\(unitText) creationDate=\"\(printer.print(end + 60))\" startDate=\"\(printer.print(start))\" endDate=\"\(printer.print(end))\" value=\"\(value)\""
        if metadata.isEmpty {
            text += "/>\n"
        } else {
            text += ">\n"
            for (key, value) in metadata { text += "  <MetadataEntry key=\"\(key)\" value=\"\(value)\"/>\n" }
            text += " </Record>\n"
        }
        out += text
        recordCount += 1
        if recordCount % 60 == 0 { out += text }
    }
}

/// Prints instants as Apple Health does: `yyyy-MM-dd HH:mm:ss ±hhmm`, one offset for the file.
struct DatePrinter {
    let offsetSeconds: Int

    func print(_ date: Date) -> String {
        let local = Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(offsetSeconds)
        let days = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
        let secondOfDay = Int(local - days * 86_400)
        let (year, month, day) = Self.civil(days)
        let sign = offsetSeconds < 0 ? "-" : "+"
        let offset = abs(offsetSeconds)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d %@%02d%02d", year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60,
            secondOfDay % 60, sign, offset / 3600, offset / 60 % 60)
    }

    private static func civil(_ days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), Int(m), Int(d))
    }
}

/// A small, fast, seedable random generator (SplitMix64).
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
