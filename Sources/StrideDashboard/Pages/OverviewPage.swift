import DailyHealth
import PointsBalance
import ShoeMileage
import StrideContract
import StrideEvents

/// The overview: the last seven days at a glance, the shoes nearest their goal, the latest
/// notifications, the points balance.
enum OverviewPage {
    /// What the overview reads.
    struct Content {
        /// The seven days shown, oldest first.
        var week: [CivilDate]
        var records: [CivilDate: DailyRecord]
        /// Runs started on each day: how many and their metres.
        var runs: [CivilDate: (count: Int, meters: Double)]
        /// Active shoes with a goal, nearest it first (three at most).
        var nearGoal: [ShoeView]
        var shoeCount: Int
        /// The latest notifications, newest first (five at most).
        var notifications: [ShoeMileage.Notification]
        /// The day each notified run started, by workout.
        var runDays: [UInt128: CivilDate]
        var account: Account
        var time: LocalTime
    }

    static func read(_ reader: PageReader) throws -> Content {
        let last = try reader.lastActiveDay()
        let week = (0..<7).map { last.adding(days: $0 - 6) }
        let records = try reader.days(from: week.first, through: week.last)
        var runs: [CivilDate: (count: Int, meters: Double)] = [:]
        // Each run once (a copy of a run recorded twice is not another run), at its counted distance.
        for workout in try reader.workouts(from: week.first, through: week.last) where workout.isRunning && workout.runOf == nil {
            let day = reader.ledger.day(ofRunStartingAt: workout.start)
            let current = runs[day] ?? (0, 0)
            runs[day] = (current.count + 1, current.meters + workout.kilometers * 1000)
        }
        let notifications = Array(try reader.notifications().suffix(5).reversed())
        let notified = Set(notifications.compactMap(\.workout))
        var runDays: [UInt128: CivilDate] = [:]
        if !notified.isEmpty {
            for workout in try reader.workouts() where notified.contains(workout.id) {
                runDays[workout.id] = reader.ledger.day(ofRunStartingAt: workout.start)
            }
        }
        let shoes = try reader.shoes()
        let nearGoal = shoes.filter { !$0.shoe.isRetired && Plausible.shoeGoalKilometres.contains($0.shoe.goalKilometers ?? 0) }
            .sorted { share($0) > share($1) }
        return Content(
            week: week, records: Dictionary(records.map { ($0.date, $0) }, uniquingKeysWith: { $1 }), runs: runs,
            nearGoal: Array(nearGoal.prefix(3)), shoeCount: shoes.count,
            notifications: notifications, runDays: runDays, account: try reader.points().account,
            time: reader.time)
    }

    /// A shoe's kilometres as a share of its goal.
    static func share(_ view: ShoeView) -> Double {
        guard let goal = view.shoe.goalKilometers, goal > 0 else { return 0 }
        return view.shoe.kilometers / goal
    }

    static func render(_ content: Content, _ render: RenderContext) -> String {
        let level = render.level
        var html = Shell.heading(level, "Overview")
        let first = content.week.first?.description ?? ""
        let last = content.week.last?.description ?? ""
        html +=
            "<p class=\"lead\">The seven days from \(first) to \(last) at a glance, the shoes nearest their goal, the latest notes and your points.</p>"
        html += cards(content)
        html += weekTable(content, render)
        html += "<div class=\"charts\">" + stepsChart(content, render) + "</div>"
        html += Shell.heading(level + 1, "Shoes nearest their goal")
        if content.nearGoal.isEmpty {
            let why = content.shoeCount == 0 ? "No shoes on the rack yet." : "No active shoe has a goal."
            html += "<p class=\"note\">\(why) <a href=\"\(render.links.shoes.html)\">The rack</a>.</p>"
        } else {
            html += "<ul class=\"notes\">"
            for view in content.nearGoal {
                let shoe = view.shoe
                html += "<li><a href=\"\(render.links.audit(shoe: ShoeID.text(shoe.id)).html)\">\(shoe.name.html)</a>"
                if let remaining = shoe.remainingKilometers {
                    html += remaining > 0 ? " — \(Format.kilometers(remaining)) to go" : " — past its goal by \(Format.kilometers(-remaining))"
                }
                html += ProgressBar.render(kilometers: shoe.kilometers, goal: shoe.goalKilometers, label: shoe.name) + "</li>"
            }
            html += "</ul>"
        }
        html += Shell.heading(level + 1, "Latest notifications")
        if content.notifications.isEmpty {
            html += "<p class=\"note\">No notifications yet: one comes with each new run, and one when a shoe reaches its goal.</p>"
        } else {
            html += "<ul class=\"notes\">"
            for note in content.notifications {
                // A run's notification names the run's day; a goal's, when it was reached.
                let when = note.workout.flatMap { content.runDays[$0] }.map { "run of \($0)" } ?? Shell.short(content.time.format(note.at))
                html += "<li>\(note.text.html) <span class=\"note\">· \(when)</span></li>"
            }
            html += "</ul>"
        }
        return html
    }

    private static func cards(_ content: Content) -> String {
        let records = content.week.compactMap { content.records[$0] }
        let nights = records.compactMap(\.sleep)
        let asleep = nights.compactMap(\.asleep)
        let sleepText: String
        if !asleep.isEmpty {
            sleepText = Format.duration(seconds: asleep.reduce(0, +) / asleep.count)
        } else if !nights.isEmpty {
            sleepText = Format.duration(seconds: nights.map(\.inBed).reduce(0, +) / nights.count) + " in bed"
        } else {
            sleepText = "–"
        }
        let resting = records.compactMap(\.restingHeartRate)
        let steps = records.compactMap { $0.steps?.value }
        let runs = content.runs.values.reduce((0, 0.0)) { ($0.0 + $1.count, $0.1 + $1.meters) }
        let items: [(String, String)] = [
            ("Sleep, a night on average", sleepText),
            ("Resting heart rate, average", resting.isEmpty ? "–" : Format.beats(resting.reduce(0, +) / Double(resting.count))),
            ("Steps, a day on average", steps.isEmpty ? "–" : Format.count((steps.reduce(0, +) / Double(steps.count)).wholeForDisplay)),
            ("Runs", runs.0 == 0 ? "none" : runs.0.counted("run") + ", " + Format.kilometers(runs.1 / 1000)),
            ("Points balance", Format.count(content.account.balance)),
        ]
        var html = "<div class=\"cards\">"
        for (label, value) in items {
            html += "<div class=\"card\"><span class=\"label\">\(label.html)</span><span class=\"value\">\(value.html)</span></div>"
        }
        return html + "</div>"
    }

    private static func weekTable(_ content: Content, _ render: RenderContext) -> String {
        var rows: [[String]] = []
        for day in content.week {
            let record = content.records[day]
            let sleep = record?.sleep.map { night in
                night.asleep.map { Format.duration(seconds: $0) } ?? Format.duration(seconds: night.inBed) + " in bed"
            }
            let runs = content.runs[day].map { $0.count.counted("run") + ", " + Format.kilometers($0.meters / 1000) }
            rows.append([
                day.description, sleep ?? "–", record?.restingHeartRate.map(Format.beats) ?? "–",
                record?.steps.map { Format.count($0.value.wholeForDisplay) } ?? "–", runs ?? "–",
            ])
        }
        let table = NumbersTable(
            caption: "The last seven days", headings: ["Day", "Sleep", "Resting heart rate", "Steps", "Runs"], numeric: [2, 3], rows: rows)
        return table.render()
    }

    private static func stepsChart(_ content: Content, _ render: RenderContext) -> String {
        DailyCharts.steps(
            days: content.week, records: content.records, id: render.idPrefix + "overview-steps", title: "Steps, the last seven days")
    }
}
