import ArgumentParser
import Foundation
import StrideContract
import StrideEvents
import StrideLedger
import TrainingLog

struct TrainingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "training", abstract: "The training log: volume per week, best efforts, heart-rate zones, fitness and fatigue.",
        discussion: """
            Every run counts once, from its best copy (a watch's file, the Health app, an archive), on \
            its local day, with the distance that copy gives. Best efforts, zones and load come from each \
            run's stream (its file's readings); a run without heart rate in its file takes the Health \
            app's watch samples during it. Zones and TRIMP use the heart-rate settings of each run's day \
            (`stride athlete set`); where none is set, an estimate, marked so.
            """,
        subcommands: [Weeks.self, Months.self, Years.self, Efforts.self, Zones.self, Load.self, Shoes.self, Explain.self],
        defaultSubcommand: Weeks.self)

    struct Weeks: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "weeks", abstract: "Runs, kilometres, time, climb, TRIMP and kilometres per shoe per ISO week (Monday first).")
        @OptionGroup var options: TrainingOptions

        func run() throws { try options.printVolume(per: .week) }
    }

    struct Months: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "months", abstract: "The same per calendar month.")
        @OptionGroup var options: TrainingOptions

        func run() throws { try options.printVolume(per: .month) }
    }

    struct Years: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "years", abstract: "The same per year.")
        @OptionGroup var options: TrainingOptions

        func run() throws { try options.printVolume(per: .year) }
    }

    struct Efforts: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "efforts", abstract: "The best 400 m, 1 km, mile, 5 km, 10 km, half and marathon: all time and per year.",
            discussion: """
                The least elapsed time between two moments of one run's stream with that distance between \
                them, the distance interpolated between readings. A stretch faster than 12.5 m/s between two \
                readings is a GPS jump: no effort spans one.
                """)
        @OptionGroup var options: TrainingOptions

        func run() throws {
            let document = try options.read { try TrainingEffortsDocument($0, $1) }
            if options.output.json { return Console.print(document) }
            guard !document.efforts.isEmpty else { return Console.print("No run with a stream covers 400 m\(options.rangeText).") }
            var table = TextTable([
                .init(heading: "distance"), .init(heading: "time", isNumeric: true), .init(heading: "pace /km", isNumeric: true),
                .init(heading: "run"), .init(heading: "started"), .init(heading: "workout"),
            ])
            for effort in document.efforts {
                table.add([
                    effort.distance.name, ExplainWording.stopwatch(effort.seconds),
                    ExplainWording.stopwatch(effort.seconds / effort.distance.metres * 1000),
                    effort.run.day.description, document.time.format(effort.start), Ledger.workoutID(effort.run.workout),
                ])
            }
            Console.print("Best efforts\(options.rangeText), all time:\n")
            Console.print(table.text)
        }
    }

    struct Zones: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "zones", abstract: "Time in the five heart-rate zones (percent of maximum), in all and per week.")
        @OptionGroup var options: TrainingOptions

        func run() throws {
            let document = try options.read { try TrainingZonesDocument($0, $1) }
            if options.output.json { return Console.print(document) }
            let total = document.seconds.reduce(0, +)
            var table = TextTable([
                .init(heading: "zone"), .init(heading: "of max"), .init(heading: "time", isNumeric: true), .init(heading: "share", isNumeric: true),
            ])
            for (index, seconds) in document.seconds.enumerated() {
                let (low, high) = TrainingZonesDocument.bounds[index]
                table.add([
                    "Z\(index + 1)", high.map { "\(low)–\(Int($0)) %" } ?? "\(low) % and above", ExplainWording.stopwatch(seconds),
                    total > 0 ? String(format: "%.0f %%", seconds / total * 100) : "",
                ])
            }
            Console.print("Time in heart-rate zones\(options.rangeText). \(document.settings.sentence)\n")
            Console.print(table.text)
        }
    }

    struct Load: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "load", abstract: "Each day's TRIMP, fitness (42 days), fatigue (7 days) and form.",
            discussion: """
                TRIMP (Banister): the sum over readings of minutes × HRr × 0.64 × e^(1.92 × HRr), HRr = (HR − \
                resting) / (maximum − resting) clamped to [0, 1]. Fitness CTL = CTL yesterday + (TRIMP − CTL \
                yesterday) / 42; fatigue ATL the same over 7; form = yesterday's CTL − ATL. The series starts \
                at 0 on the day of the first run; without --from the text shows the last 28 days.
                """)
        @OptionGroup var options: TrainingOptions

        func run() throws {
            let document = try options.read { try TrainingLoadDocument($0, $1) }
            if options.output.json { return Console.print(document) }
            guard !document.days.isEmpty else { return Console.print("No run yet\(options.rangeText): the load starts on the day of the first.") }
            let shown = options.range.from == nil ? Array(document.days.suffix(28)) : document.days
            var table = TextTable([
                .init(heading: "day"), .init(heading: "TRIMP", isNumeric: true), .init(heading: "fitness", isNumeric: true),
                .init(heading: "fatigue", isNumeric: true), .init(heading: "form", isNumeric: true),
            ])
            for day in shown {
                table.add([
                    day.date.description, day.trimp > 0 ? String(format: "%.1f", day.trimp) : "", String(format: "%.1f", day.fitness),
                    String(format: "%.1f", day.fatigue), String(format: "%+.1f", day.form),
                ])
            }
            Console.print("Fitness, fatigue and form\(options.rangeText). \(document.settings.sentence)\n")
            Console.print(table.text)
        }
    }

    struct Shoes: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "shoes", abstract: "When each shoe reaches its goal, at its pace of the last eight weeks.")
        @OptionGroup var options: TrainingOptions

        func run() throws {
            let document = try options.read { try TrainingShoesDocument($0, $1) }
            if options.output.json { return Console.print(document) }
            guard !document.shoes.isEmpty else { return Console.print("No shoes on the rack.") }
            var table = TextTable([
                .init(heading: "shoe"), .init(heading: "km", isNumeric: true), .init(heading: "goal", isNumeric: true),
                .init(heading: "last 8 weeks", isNumeric: true), .init(heading: "reaches its goal"),
            ])
            for shoe in document.shoes {
                let when = document.reaches(shoe)
                table.add([
                    shoe.name, String(format: "%.1f", shoe.kilometres), shoe.goalKilometres.map { String(format: "%.0f", $0) } ?? "",
                    String(format: "%.1f", shoe.recentKilometres), when,
                ])
            }
            Console.print("Shoes on \(document.day)\(options.rangeText):\n")
            Console.print(table.text)
        }
    }

    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "explain", abstract: "A week, month, year, best effort or day's load, down to its runs and events.",
            discussion: """
                Examples: `stride training explain week 2024-W03`, `explain month 2024-01`, `explain effort 5k \
                --year 2024`, `explain day 2024-01-15`.
                """)
        @OptionGroup var options: TrainingOptions
        @Argument(help: "week, month, year, effort or day.") var kind: String
        @Argument(help: "The week (2024-W03), month (2024-01), year (2024), distance (400m, 1k, 1mi, 5k, 10k, half, marathon) or day (2024-01-15).")
        var name: String
        @Option(help: "For an effort: the best of this year only.") var year: Int?

        func validate() throws { _ = try subject() }

        /// The subject, read by the contract's one reader of it (the API's and the pages').
        /// - Throws: `ValidationError`: a malformed subject is a usage error.
        func subject() throws -> TrainingExplainDocument.Subject {
            do {
                return try TrainingExplainDocument.Subject(kind: kind, name: name, year: year)
            } catch {
                throw ValidationError(error.part == .year ? "--year " + error.problem : error.problem)
            }
        }

        func run() throws {
            let subject = try subject()
            let document: TrainingExplainDocument
            do {
                document = try options.read { try TrainingExplainDocument($0, subject, $1) }
            } catch let unknown as TrainingExplainDocument.UnknownSubject {
                throw CommandFailure(unknown.description)
            }
            if options.output.json { return Console.print(document) }
            Console.print("The \(document.title):\n")
            for line in document.rules { Console.print("  · \(line)") }
            Console.print("")
            var table = TextTable([
                .init(heading: "workout"), .init(heading: "day"), .init(heading: "km", isNumeric: true), .init(heading: "shoe"),
                .init(heading: "stream"), .init(heading: "HR from"), .init(heading: "max/rest"), .init(heading: "TRIMP", isNumeric: true),
                .init(heading: "events"),
            ])
            for run in document.runs {
                let settings =
                    TrainingSettings.text(run.maximumHeartRate) + "/" + TrainingSettings.text(run.restingHeartRate)
                var events = ["recorded #\(run.recordedSequence)"]
                if let facts = run.facts { events.append("stream #\(facts.sequence)") }
                for change in [run.maximumHeartRate.change, run.restingHeartRate.change].compactMap({ $0 })
                where !events.contains("settings #\(change.sequence)") {
                    events.append("settings #\(change.sequence)")
                }
                table.add([
                    Ledger.workoutID(run.workout), run.day.description, String(format: "%.2f", run.kilometres), run.shoe ?? "",
                    run.facts.map { "\($0.readings) readings, \(ExplainWording.stopwatch($0.seconds))" } ?? "none", run.heartRateSource ?? "none",
                    settings, String(format: "%.1f", run.trimp), events.joined(separator: ", "),
                ])
            }
            Console.print(table.text)
            if let effort = document.effort, let readings = document.effortReadings {
                func text(_ pair: [RunStreamCodec.Reading]) -> String {
                    pair.map { String(format: "%.1f s at %.1f m", $0.seconds, $0.metres ?? 0) }.joined(separator: " and ")
                }
                Console.print(
                    "\nIts start lies between the readings \(text(readings.atStart)); its end between \(text(readings.atEnd)); \(readings.within) readings within."
                )
            }
            if let effort = document.effort {
                Console.print(
                    "\nThe effort runs from second \(String(format: "%.1f", effort.effort.startSeconds)) to \(String(format: "%.1f", effort.effort.endSeconds)) of the stream (\(document.time.format(effort.start))): \(ExplainWording.stopwatch(effort.seconds))."
                )
            }
        }
    }
}

/// The options every `training` command takes: the ledger, `--json`, the days and the time.
struct TrainingOptions: ParsableArguments {
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var range: TrainingRange
    @OptionGroup var travel: TimeTravelOptions

    func validate() throws { _ = try request() }

    /// The days and time the options name, read by the contract's one builder of a training
    /// query (the API's and the pages').
    /// - Throws: `ValidationError`: an option that cannot be read is a usage error.
    func request() throws -> TrainingRequest {
        do {
            return try TrainingRequest.read(
                from: range.from, to: range.to, asOf: travel.asOf, asRecorded: travel.asRecorded, spelling: .commandLine)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Reads a document through one view of the ledger.
    func read<D>(_ make: (Ledger, TrainingQuery) throws -> D) throws -> D {
        let request = try request()
        return try ledger.read { opened in try make(opened, try request.query(in: opened)) }
    }

    /// ` from 2024-01-01 through 2024-03-31, as of …`: the range and time, for headings.
    var rangeText: String {
        var parts: [String] = []
        let days = [range.from.map { "from \($0)" }, range.to.map { "through \($0)" }].compactMap { $0 }
        if !days.isEmpty { parts.append(days.joined(separator: " ")) }
        if let asOf = travel.asOf { parts.append("as of \(asOf)") }
        if let asRecorded = travel.asRecorded { parts.append("as recorded by \(asRecorded)") }
        return parts.isEmpty ? "" : " " + parts.joined(separator: ", ")
    }

    func printVolume(per period: TrainingLog.Period) throws {
        let document = try read { try TrainingVolumeDocument($0, per: period, $1) }
        if output.json { return Console.print(document) }
        guard !document.volumes.isEmpty else { return Console.print("No runs\(rangeText).") }
        var table = TextTable([
            .init(heading: period.rawValue), .init(heading: "runs", isNumeric: true), .init(heading: "km", isNumeric: true),
            .init(heading: "moving", isNumeric: true), .init(heading: "climb m", isNumeric: true), .init(heading: "TRIMP", isNumeric: true),
            .init(heading: "shoes"),
        ])
        let shown = range.from == nil && period == .week ? Array(document.volumes.suffix(12)) : document.volumes
        for volume in shown {
            table.add([
                volume.period, String(volume.runs), String(format: "%.1f", volume.kilometres), ExplainWording.stopwatch(volume.movingSeconds),
                String(format: "%.0f", volume.climbMetres), String(format: "%.0f", volume.trimp),
                volume.kilometresByShoe.sorted { $0.value > $1.value }.map { "\($0.key) \(String(format: "%.1f", $0.value))" }.joined(
                    separator: ", "),
            ])
        }
        let note = shown.count < document.volumes.count ? " (the last 12 weeks with runs; --from shows more)" : ""
        Console.print("Training \(period.rawValue)s\(rangeText)\(note). \(document.settings.sentence)\n")
        Console.print(table.text)
    }
}

/// `--from` and `--to`: local days, inclusive (read with the time by ``TrainingOptions/request()``).
struct TrainingRange: ParsableArguments {
    @Option(help: "The first day, yyyy-MM-dd.") var from: String?
    @Option(help: "The last day, yyyy-MM-dd.") var to: String?
}
