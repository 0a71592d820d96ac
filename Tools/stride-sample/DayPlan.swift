import Foundation

/// What a day of a runner's life writes into the export, one day at a time: a watch and a
/// phone, a scale's app and manual entries, in the proportions ``Realism`` gives.
struct DayPlan {
    private let firstDay: Date
    private let timeZone: TimeZone
    private let totalDays: Int
    private var random: SplitMix64
    private var sources: SourceSet
    private var dayIndex = 0
    private let printer: DatePrinter
    private(set) var recordCount = 0
    private(set) var workoutCount = 0
    /// New-format workouts (statistics and activities) from this day on; older ones use attributes.
    private let newFormatFromDay = 10
    /// The day's records by type, each with its start, to be written in order of start.
    private var pending: [String: [(start: Double, text: String)]] = [:]

    init(firstDay: Date, timeZone: TimeZone, seed: UInt64, totalDays: Int) {
        self.firstDay = firstDay
        self.timeZone = timeZone
        self.totalDays = totalDays
        random = SplitMix64(seed: seed)
        sources = SourceSet(seed: seed)
        printer = DatePrinter(offsetSeconds: timeZone.secondsFromGMT(for: firstDay))
    }

    var hasMoreDays: Bool { dayIndex < totalDays }

    /// The export date of an export of `days` days, printed: the morning after its last day, as
    /// a runner who exports the day after their history ends.
    func exportDate(afterDays days: Int) -> String { printer.print(firstDay.addingTimeInterval(86_400 * Double(days) + 9 * 3600)) }

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

    /// Writes the next day's elements into their streams.
    /// - Throws: an I/O error from the streams.
    mutating func writeNextDay(into streams: ElementStreams) throws {
        sources.update(toDay: dayIndex)
        let day = midnight(dayIndex)
        let nextMidnight = midnight(dayIndex + 1)
        var others: [(element: String, text: String)] = []
        heartRate(day, until: nextMidnight)
        energy(day, until: nextMidnight)
        activity(day)
        rings(day)
        walking(day)
        sleep(before: day)
        if dayIndex % 3 == 1 { weighIn(day) }
        if dayIndex % 2 == 0 { others.append((ElementStreams.workouts, run(day))) }
        if dayIndex % 5 == 3 { others.append((ElementStreams.workouts, cycle(day))) }
        if dayIndex % 7 == 6 { others.append((ElementStreams.correlations, bloodPressure(day))) }
        others.append((ElementStreams.activitySummaries, summary(day)))
        for (type, records) in pending {
            // Sorted by start, the order of writing breaking ties (a repeat follows its record).
            let ordered = records.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            try streams.append(ordered.map(\.element.text).joined(), to: type)
        }
        pending.removeAll(keepingCapacity: true)
        for (element, text) in others { try streams.append(text, to: element) }
        dayIndex += 1
    }

    // MARK: The day's content

    /// The watch: heart rate every five minutes (with its motion context), the resting and
    /// walking averages, and two heart-rate-variability readings with their beats.
    private mutating func heartRate(_ day: Date, until end: Date) {
        var instant = day
        let calendar = localCalendar
        while instant < end {
            let hour = calendar.component(.hour, from: instant)
            let base = hour < 7 ? 54 : (hour < 22 ? 72 : 60)
            let value = base + Int(random.next() % 25)
            record(
                "HKQuantityTypeIdentifierHeartRate", .watch, unit: "count/min", value: "\(value)", start: instant, end: instant,
                metadata: [("HKMetadataKeyHeartRateMotionContext", "\(random.next() % 3)")])
            instant += 300
        }
        record(
            "HKQuantityTypeIdentifierRestingHeartRate", .watch, unit: "count/min", value: "\(50 + random.next() % 8)",
            start: day + 7 * 3600, end: day + 7 * 3600 + 60)
        record(
            "HKQuantityTypeIdentifierWalkingHeartRateAverage", .watch, unit: "count/min", value: "\(92 + random.next() % 15)",
            start: day + 8 * 3600, end: day + 20 * 3600)
        for hour in [3.0, 15.0] {
            let start = day + hour * 3600 + Double(random.next() % 1800)
            var beats = "  <HeartRateVariabilityMetadataList>\n"
            var beat = start
            for _ in 0..<(55 + random.next() % 20) {
                beat += 0.8 + Double(random.next() % 40) / 100
                beats += "   <InstantaneousBeatsPerMinute bpm=\"\(55 + random.next() % 25)\" time=\"\(printer.printClockTime(beat))\"/>\n"
            }
            beats += "  </HeartRateVariabilityMetadataList>\n"
            record(
                "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", .watch, unit: "ms",
                value: decimal(Double(25 + random.next() % 60) + 0.1 * Double(random.next() % 10), 4),
                start: start, end: beat, children: beats)
        }
    }

    /// The watch's energy: active energy in short samples while awake, basal energy all day.
    private mutating func energy(_ day: Date, until end: Date) {
        var instant = day + 7 * 3600
        while instant < day + 23 * 3600 {
            let length = Double(60 + random.next() % 73)
            record(
                "HKQuantityTypeIdentifierActiveEnergyBurned", .watch, unit: "kcal", value: decimal(0.1 + Double(random.next() % 200) / 100, 3),
                start: instant, end: instant + length)
            instant += length
        }
        instant = day
        while instant < end {
            let length = min(Double(120 + random.next() % 107), end.timeIntervalSince(instant))
            record(
                "HKQuantityTypeIdentifierBasalEnergyBurned", .watch, unit: "kcal",
                value: decimal(length / 60 * 1.1 + Double(random.next() % 10) / 100, 3),
                start: instant, end: instant + length)
            instant += length
        }
    }

    /// Steps and distance: the phone all day in 30-minute blocks, the watch in overlapping
    /// 15-minute blocks from 08:00 to 20:00 (where it wins).
    private mutating func activity(_ day: Date) {
        var instant = day + 7 * 3600
        while instant < day + 23 * 3600 {
            let steps = 100 + Int(random.next() % 900)
            record("HKQuantityTypeIdentifierStepCount", .phone, unit: "count", value: "\(steps)", start: instant, end: instant + 1800)
            record(
                "HKQuantityTypeIdentifierDistanceWalkingRunning", .phone, unit: "km", value: decimal(Double(steps) * 0.00072, 3),
                start: instant, end: instant + 1800)
            instant += 1800
        }
        instant = day + 8 * 3600
        while instant < day + 20 * 3600 {
            let steps = 50 + Int(random.next() % 500)
            record("HKQuantityTypeIdentifierStepCount", .watch, unit: "count", value: "\(steps)", start: instant, end: instant + 900)
            record(
                "HKQuantityTypeIdentifierDistanceWalkingRunning", .watch, unit: "km", value: decimal(Double(steps) * 0.00074, 4),
                start: instant, end: instant + 900)
            instant += 900
        }
    }

    /// The watch's rings and ears: exercise and stand minutes, stand hours, ambient sound.
    private mutating func rings(_ day: Date) {
        for minute in distinct(20, below: 12 * 60) {
            let start = day + 8 * 3600 + Double(minute) * 60
            record("HKQuantityTypeIdentifierAppleExerciseTime", .watch, unit: "min", value: "1", start: start, end: start + 60)
        }
        for minute in distinct(10, below: 13 * 12) {
            let start = day + 8 * 3600 + Double(minute) * 300
            let minutes = 1 + random.next() % 5
            record(
                "HKQuantityTypeIdentifierAppleStandTime", .watch, unit: "min", value: "\(minutes)", start: start, end: start + Double(minutes) * 60)
        }
        for hour in 8..<22 {
            let start = day + Double(hour) * 3600
            let stood = random.next() % 4 != 0
            record(
                "HKCategoryTypeIdentifierAppleStandHour", .watch, unit: nil,
                value: stood ? "HKCategoryValueAppleStandHourStood" : "HKCategoryValueAppleStandHourIdle", start: start, end: start + 3600)
        }
        for slot in distinct(10, below: 28) {
            let start = day + 8 * 3600 + Double(slot) * 1800
            record(
                "HKQuantityTypeIdentifierEnvironmentalAudioExposure", .watch, unit: "dBASPL",
                value: decimal(55 + Double(random.next() % 2000) / 100, 4),
                start: start, end: start + 1800)
        }
    }

    /// The phone in a pocket: walking metrics over short stretches, flights, and headphones.
    private mutating func walking(_ day: Date) {
        for index in 0..<19 {
            let start = day + 8 * 3600 + Double(random.next() % (12 * 3600))
            let end = start + Double(20 + random.next() % 40)
            record(
                "HKQuantityTypeIdentifierWalkingSpeed", .phone, unit: "km/hr", value: decimal(3.5 + Double(random.next() % 2000) / 1000, 3),
                start: start, end: end)
            record("HKQuantityTypeIdentifierWalkingStepLength", .phone, unit: "cm", value: "\(60 + random.next() % 20)", start: start, end: end)
            if index < 14 {
                record(
                    "HKQuantityTypeIdentifierWalkingDoubleSupportPercentage", .phone, unit: "%",
                    value: decimal(0.25 + Double(random.next() % 100) / 1000, 3),
                    start: start, end: end)
            }
            if index < 10 {
                record(
                    "HKQuantityTypeIdentifierWalkingAsymmetryPercentage", .phone, unit: "%",
                    value: random.next() % 3 == 0 ? decimal(Double(random.next() % 80) / 1000, 3) : "0",
                    start: start, end: end, metadata: [("HKMetadataKeyDevicePlacementSide", "\(1 + random.next() % 2)")])
            }
        }
        for _ in 0..<4 {
            let start = day + 8 * 3600 + Double(random.next() % (12 * 3600))
            record("HKQuantityTypeIdentifierFlightsClimbed", .phone, unit: "count", value: "\(1 + random.next() % 3)", start: start, end: start + 120)
        }
        for _ in 0..<6 {
            let start = day + 8 * 3600 + Double(random.next() % (13 * 3600))
            record(
                "HKQuantityTypeIdentifierHeadphoneAudioExposure", .headphones, unit: "dBASPL",
                value: decimal(60 + Double(random.next() % 2500) / 100, 4),
                start: start, end: start + Double(600 + random.next() % 600))
        }
    }

    /// The night before `day`: the phone's in-bed block, the watch's stages and breathing on
    /// most nights, and now and then a nap.
    private mutating func sleep(before day: Date) {
        let bed = day - 3600 - Double(random.next() % 1800)
        let rise = day + 7 * 3600 + Double(random.next() % 1800)
        record(
            "HKCategoryTypeIdentifierSleepAnalysis", .phone, unit: nil, value: "HKCategoryValueSleepAnalysisInBed", start: bed, end: rise,
            metadata: [("HKTimeZone", timeZone.identifier)])
        if dayIndex % 7 != 4 {
            let stages = ["AsleepCore", "AsleepDeep", "AsleepCore", "AsleepREM", "Awake"]
            var instant = bed + 900
            var index = 0
            while instant < rise - 600 {
                let stage = stages[index % stages.count]
                let length = stage == "Awake" ? Double(60 + random.next() % 540) : Double(600 + random.next() % 1800)
                let end = min(instant + length, rise - 300)
                record(
                    "HKCategoryTypeIdentifierSleepAnalysis", .watch, unit: nil, value: "HKCategoryValueSleepAnalysis" + stage, start: instant,
                    end: end)
                instant = end
                index += 1
            }
            instant = bed + 1200
            while instant < rise - 900 {
                record(
                    "HKQuantityTypeIdentifierRespiratoryRate", .watch, unit: "count/min", value: decimal(12 + Double(random.next() % 60) / 10, 1),
                    start: instant, end: instant + 180)
                instant += Double(600 + random.next() % 600)
            }
        }
        if dayIndex % 6 == 2 {
            // A nap after lunch, before the 18:00 boundary.
            record(
                "HKCategoryTypeIdentifierSleepAnalysis", .watch, unit: nil, value: "HKCategoryValueSleepAnalysisAsleepUnspecified",
                start: day + 14 * 3600, end: day + 14 * 3600 + 1500)
        }
    }

    /// The scale's app, every third morning: weight, body-mass index and body fat, each with
    /// the app's own identifier.
    private mutating func weighIn(_ day: Date) {
        let instant = day + 7 * 3600 + 600 + Double(random.next() % 600)
        let kilograms = 58 + Double(random.next() % 200) / 100
        for (type, unit, value) in [
            ("HKQuantityTypeIdentifierBodyMass", "kg", decimal(kilograms, 2)),
            ("HKQuantityTypeIdentifierBodyMassIndex", "count", decimal(kilograms / (1.68 * 1.68), 1)),
            ("HKQuantityTypeIdentifierBodyFatPercentage", "%", decimal(0.22 + Double(random.next() % 30) / 1000, 3)),
        ] {
            record(
                type, .scale, unit: unit, value: value, start: instant, end: instant, created: instant + 40,
                metadata: [("HKExternalUUID", uuid()), ("HKWasUserEntered", "0")])
        }
    }

    private mutating func run(_ day: Date) -> String {
        let start = day + 6.5 * 3600 + Double(random.next() % 1800)
        let minutes = 25 + Double(random.next() % 35)
        let kilometres = minutes / (5 + Double(random.next() % 100) / 100)
        return workout(activity: "HKWorkoutActivityTypeRunning", start: start, minutes: minutes, kilometres: kilometres, energy: kilometres * 62)
    }

    private mutating func cycle(_ day: Date) -> String {
        let start = day + 18 * 3600
        return workout(activity: "HKWorkoutActivityTypeCycling", start: start, minutes: 45, kilometres: 15 + Double(random.next() % 10), energy: 380)
    }

    private mutating func workout(activity: String, start: Date, minutes: Double, kilometres: Double, energy: Double) -> String {
        let end = start + minutes * 60
        let dates = "creationDate=\"\(printer.print(end + 5))\" startDate=\"\(printer.print(start))\" endDate=\"\(printer.print(end))\""
        let source =
            "sourceName=\"\(sources.name(.watch))\" sourceVersion=\"\(sources.version(.watch))\" device=\"\(sources.device(.watch, type: activity) ?? "")\""
        let duration = decimal(minutes, 4)
        workoutCount += 1
        var metadata = ""
        for (key, value) in [
            ("HKIndoorWorkout", "0"), ("HKAverageMETs", decimal(8 + Double(random.next() % 400) / 100, 4) + " kcal/hr·kg"),
            ("HKWeatherTemperature", "\(45 + random.next() % 40) degF"), ("HKWeatherHumidity", "\(40 + random.next() % 50)00 %"),
            ("HKTimeZone", timeZone.identifier),
        ] {
            metadata += "  <MetadataEntry key=\"\(key)\" value=\"\(value)\"/>\n"
        }
        if dayIndex < newFormatFromDay {
            return
                " <Workout workoutActivityType=\"\(activity)\" duration=\"\(duration)\" durationUnit=\"min\" totalDistance=\"\(decimal(kilometres, 4))\" totalDistanceUnit=\"km\" totalEnergyBurned=\"\(decimal(energy, 2))\" totalEnergyBurnedUnit=\"kcal\" \(source) \(dates)>\n"
                + metadata + " </Workout>\n"
        }
        let distanceType =
            activity == "HKWorkoutActivityTypeCycling" ? "HKQuantityTypeIdentifierDistanceCycling" : "HKQuantityTypeIdentifierDistanceWalkingRunning"
        var events = ""
        let secondsPerKilometre = minutes * 60 / kilometres
        var segment = start
        while segment + secondsPerKilometre <= end {
            events +=
                "  <WorkoutEvent type=\"HKWorkoutEventTypeSegment\" date=\"\(printer.print(segment))\" duration=\"\(decimal(secondsPerKilometre / 60, 4))\" durationUnit=\"min\"/>\n"
            segment += secondsPerKilometre
        }
        let statistics = """
              <WorkoutStatistics type="\(distanceType)" startDate="\(printer.print(start))" endDate="\(printer.print(end))" sum="\(decimal(kilometres, 4))" unit="km"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="\(printer.print(start))" endDate="\(printer.print(end))" sum="\(decimal(energy, 2))" unit="kcal"/>

            """
        var out = " <Workout workoutActivityType=\"\(activity)\" duration=\"\(duration)\" durationUnit=\"min\" \(source) \(dates)>\n"
        out += metadata + events
        out += statistics.replacingOccurrences(of: "    <", with: "  <")
        out +=
            "  <WorkoutActivity uuid=\"\(uuid())\" startDate=\"\(printer.print(start))\" endDate=\"\(printer.print(end))\" duration=\"\(duration)\" durationUnit=\"min\">\n"
        out += statistics
        out += "  </WorkoutActivity>\n </Workout>\n"
        return out
    }

    /// A blood-pressure reading entered by hand: its records also appear at the top level.
    private mutating func bloodPressure(_ day: Date) -> String {
        let instant = day + 8 * 3600
        let systolic = "\(115 + random.next() % 15)"
        let diastolic = "\(70 + random.next() % 10)"
        let entered = [("HKWasUserEntered", "1")]
        record(
            "HKQuantityTypeIdentifierBloodPressureSystolic", .health, unit: "mmHg", value: systolic, start: instant, end: instant, metadata: entered,
            repeats: false)
        record(
            "HKQuantityTypeIdentifierBloodPressureDiastolic", .health, unit: "mmHg", value: diastolic, start: instant, end: instant,
            metadata: entered,
            repeats: false)
        let source = "sourceName=\"\(sources.name(.health))\" sourceVersion=\"\(sources.version(.health))\""
        let dates = "creationDate=\"\(printer.print(instant + 60))\" startDate=\"\(printer.print(instant))\" endDate=\"\(printer.print(instant))\""
        let metadata = "   <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n"
        var out = " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" \(source) \(dates)>\n"
        out += "  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n"
        out +=
            "  <Record type=\"HKQuantityTypeIdentifierBloodPressureSystolic\" \(source) unit=\"mmHg\" \(dates) value=\"\(systolic)\">\n\(metadata)  </Record>\n"
        out +=
            "  <Record type=\"HKQuantityTypeIdentifierBloodPressureDiastolic\" \(source) unit=\"mmHg\" \(dates) value=\"\(diastolic)\">\n\(metadata)  </Record>\n"
        out += " </Correlation>\n"
        return out
    }

    private mutating func summary(_ day: Date) -> String {
        let components = printer.print(day + 12 * 3600).prefix(10)
        return
            " <ActivitySummary dateComponents=\"\(components)\" activeEnergyBurned=\"\(300 + random.next() % 400)\" activeEnergyBurnedGoal=\"500\" activeEnergyBurnedUnit=\"kcal\" appleMoveTime=\"0\" appleMoveTimeGoal=\"0\" appleExerciseTime=\"\(20 + random.next() % 60)\" appleExerciseTimeGoal=\"30\" appleStandHours=\"\(8 + random.next() % 6)\" appleStandHoursGoal=\"12\"/>\n"
    }

    /// Notes one record for the day's streams. A watch's energy, distance and heart rate now
    /// and then carry a sync identifier; now and then a record is repeated, identically or
    /// with the source version before the last update (see ``Realism``).
    private mutating func record(
        _ type: String, _ source: SourceKind, unit: String?, value: String, start: Date, end: Date, created: Date? = nil,
        metadata: [(String, String)] = [], children: String = "", repeats: Bool = true
    ) {
        var metadata = metadata
        if source == .watch, type.hasSuffix("EnergyBurned") || type.hasSuffix("DistanceWalkingRunning") || type.hasSuffix("HeartRate"),
            random.next() % Realism.syncIdentifierEvery == 0
        {
            metadata.insert(contentsOf: [("HKMetadataKeySyncIdentifier", "2:" + uuid()), ("HKMetadataKeySyncVersion", "1")], at: 0)
        }
        let device = sources.device(source, type: type).map { " device=\"\($0)\"" } ?? ""
        let unitText = unit.map { " unit=\"\($0)\"" } ?? ""
        let rest =
            "\(device)\(unitText) creationDate=\"\(printer.print(created ?? end + 60))\" startDate=\"\(printer.print(start))\" endDate=\"\(printer.print(end))\" value=\"\(value)\""
        var tail = ""
        if metadata.isEmpty && children.isEmpty {
            tail = "/>\n"
        } else {
            tail = ">\n"
            for (key, value) in metadata { tail += "  <MetadataEntry key=\"\(key)\" value=\"\(value)\"/>\n" }
            tail += children + " </Record>\n"
        }
        let head = " <Record type=\"\(type)\" sourceName=\"\(sources.name(source))\" sourceVersion=\""
        let text = head + sources.version(source) + "\"" + rest + tail
        let instant = start.timeIntervalSince1970
        pending[type, default: []].append((instant, text))
        recordCount += 1
        guard repeats else { return }
        if random.next() % Realism.identicalRepeatEvery == 0 {
            pending[type, default: []].append((instant, text))
            recordCount += 1
        }
        if random.next() % Realism.versionRepeatEvery == 0 {
            pending[type, default: []].append((instant, head + sources.version(source, previous: true) + "\"" + rest + tail))
            recordCount += 1
        }
    }

    /// `count` different numbers below `bound`, in increasing order: a watch writes one
    /// record of a kind for a given minute.
    private mutating func distinct(_ count: Int, below bound: UInt64) -> [UInt64] {
        var picked = Set<UInt64>()
        while picked.count < min(count, Int(bound)) { picked.insert(random.next() % bound) }
        return picked.sorted()
    }

    /// A random UUID in the usual form, from the seeded generator.
    private mutating func uuid() -> String {
        let high = random.next()
        let low = random.next()
        let hex = String(high, radix: 16, uppercase: true).leftPadded(16) + String(low, radix: 16, uppercase: true).leftPadded(16)
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}

/// A number with a fixed count of decimals, as exports print them.
func decimal(_ value: Double, _ places: Int) -> String {
    String(format: "%.\(places)f", value)
}

extension String {
    func leftPadded(_ length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
