import PointsBalance
import StrideContract
import StrideEvents

/// The points: the balance, the history as a cumulative chart and a table, the journal,
/// and the check-in and journal forms.
enum PointsPage {
    /// The most history lines the table lists and the chart draws (the latest).
    static let shownLines = 200

    /// What the page reads.
    struct Content {
        var statement: PointsStatement
        /// The latest journal entries, newest first.
        var journal: [JournalLine]
        var journalCount: Int
        var today: CivilDate
        var time: LocalTime
    }

    static func read(_ reader: PageReader) throws -> Content {
        let journal = try reader.journal()
        return Content(
            statement: try reader.points(), journal: Array(journal.suffix(10).reversed()), journalCount: journal.count,
            today: reader.today, time: reader.time)
    }

    static func render(_ content: Content, _ render: RenderContext) -> String {
        let account = content.statement.account
        let history = content.statement.history
        var html = Shell.heading(render.level, "Points")
        html += "<p class=\"lead\">+10 on first use, +1 for the daily check-in, +3 for the day's first and fifth journal entries, "
        html += "+1/+2/+3 when the day's steps reach 1,000/5,000/10,000.</p>"
        html += "<div class=\"cards\">"
        for (label, value) in [("Balance", account.balance), ("Earned", account.earned), ("Spent", account.spent)] {
            html += "<div class=\"card\"><span class=\"label\">\(label)</span><span class=\"value\">\(Format.count(value))</span></div>"
        }
        html += "</div>"
        html += forms(content, render)
        // The running balance over the whole history; the latest lines are drawn and listed.
        var balance = 0
        var totals: [Int] = []
        for line in history {
            balance += line.points
            totals.append(balance)
        }
        let shown = Array(zip(history, totals).suffix(shownLines))
        let isCut = history.count > shownLines
        let chart = CumulativeChart(
            id: render.idPrefix + "points-balance", title: isCut ? "Balance, the latest \(shownLines) awards and spends" : "Balance, award by award",
            summary: "The points balance after each award and spend, in the order they were recorded.", unit: "points",
            steps: shown.map { line, total in
                .init(
                    sequence: line.sequence, total: Double(total), change: (line.points >= 0 ? "+" : "") + String(line.points),
                    note: ruleText(line), href: render.links.event(line.sequence))
            },
            emptyMessage: "No points yet.", headings: ["Event", "Points", "Balance", "Rule"])
        html += "<div class=\"charts\">" + chart.render() + "</div>"
        html += Shell.heading(render.level + 1, "History")
        html += table(shown.reversed(), render, content.time, isCut: isCut, count: history.count)
        html += journal(content, render)
        return html
    }

    private static func forms(_ content: Content, _ render: RenderContext) -> String {
        guard render.showsForms else { return "" }
        var html = "<div class=\"inline-forms\">"
        let checkedIn = content.statement.history.contains { $0.rule == PointRule.dailyCheckIn.description && $0.day == content.today }
        if checkedIn {
            html += "<p class=\"panel note\">Checked in for \(content.today): see you tomorrow.</p>"
        } else {
            html += FormMarkup.form(.checkIn, render: render, legend: "Check in for \(content.today)", fields: "", button: "Check in")
        }
        html += "</div>"
        let text =
            "<label class=\"wide\" for=\"\(render.idPrefix)journal-text\">Entry<textarea id=\"\(render.idPrefix)journal-text\" name=\"text\" required maxlength=\"10000\"></textarea></label>"
        html += FormMarkup.form(.journal, render: render, legend: "Write in the journal", fields: text, button: "Add entry")
        return html
    }

    private static func table(_ lines: [(HistoryLine, Int)], _ render: RenderContext, _ time: LocalTime, isCut: Bool, count: Int) -> String {
        let caption = isCut ? "The latest \(lines.count) of \(count) awards and spends, newest first" : "Every award and spend, newest first"
        var html = "<div class=\"table-wrap\"><table><caption>\(caption)</caption><thead><tr>"
        for heading in ["Event", "When", "Rule", "Points", "Balance", "Day", "Detail"] { html += "<th scope=\"col\">\(heading)</th>" }
        html += "</tr></thead><tbody>"
        for (line, total) in lines {
            let sequence = "#\(line.sequence)"
            let link = render.links.event(line.sequence).map { "<a href=\"\($0.html)\">\(sequence)</a>" } ?? sequence
            var detail = line.reason?.html ?? ""
            if let sentBy = line.sentBy { detail += (detail.isEmpty ? "" : ", ") + "via \(sentBy.html)" }
            html +=
                "<tr><th scope=\"row\">\(link)</th><td class=\"when\">\(Shell.short(time.format(line.at)))</td><td>\(ruleText(line).html)</td>"
            html += "<td class=\"num\">\(line.points >= 0 ? "+" : "")\(line.points)</td><td class=\"num\">\(Format.count(total))</td>"
            html += "<td class=\"when\">\(line.day?.description ?? "")</td><td>\(detail)</td></tr>"
        }
        if lines.isEmpty { html += "<tr><td colspan=\"7\">No points yet.</td></tr>" }
        return html + "</tbody></table></div>"
    }

    private static func journal(_ content: Content, _ render: RenderContext) -> String {
        var html = Shell.heading(render.level + 1, "Journal")
        guard !content.journal.isEmpty else { return html + "<p class=\"note\">No journal entries yet.</p>" }
        if content.journalCount > content.journal.count {
            html += "<p class=\"note\">The latest \(content.journal.count) of \(content.journalCount) entries.</p>"
        }
        html += "<ul class=\"notes\">"
        for entry in content.journal {
            html += "<li><span class=\"note\">\(Shell.readable(content.time.format(entry.at)).html)</span><br>\(entry.text.html)</li>"
        }
        return html + "</ul>"
    }

    /// A line's rule as a runner reads it: "10,000 steps in a day", "spent", and for a
    /// reversal "10,000 steps in a day, reversed".
    static func ruleText(_ line: HistoryLine) -> String {
        ruleText(line.rule) + (line.kind == .reversal ? ", reversed" : "")
    }

    /// A rule's name as a runner reads it (`steps10000` is "10,000 steps").
    static func ruleText(_ rule: String) -> String {
        switch PointRule.allCases.first(where: { $0.description == rule }) {
        case .firstUse?: "first use"
        case .dailyCheckIn?: "daily check-in"
        case .firstJournalEntry?: "the day's first journal entry"
        case .fifthJournalEntry?: "the day's fifth journal entry"
        case .steps1000?: "1,000 steps in a day"
        case .steps5000?: "5,000 steps in a day"
        case .steps10000?: "10,000 steps in a day"
        case nil: rule == "spend" ? "spent" : rule
        }
    }
}
