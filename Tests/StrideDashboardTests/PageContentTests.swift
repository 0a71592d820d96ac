import Foundation
import StrideContract
import StrideDashboard
import StrideEvents
import StrideLedger
import StrideTestSupport
import Testing

@testable import StrideCommands

/// What the pages say besides their charts: escaping, time travel, provenance, the empty
/// ledger, and the report as one offline file.
@Suite("The dashboard's pages")
struct PageContentTests {
    static let context = PageContext(now: Fixture.now)

    @Test("names and journal text a runner typed come out escaped, never as markup")
    func escaped() throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try Fixture.full(in: folder)
            for page in [Dashboard.Page.overview, .shoes, .points, .log(from: nil, limit: nil, type: nil)] {
                let html = try Dashboard.render(page: page, ledger: ledger, context: Self.context)
                #expect(!html.contains("<script"), "\(page)")
                #expect(!html.contains(Fixture.trickyShoe), "\(page)")
            }
            let shoes = try Dashboard.render(page: .shoes, ledger: ledger, context: Self.context)
            #expect(shoes.contains("Pegasus &lt;40&gt; &amp; &quot;Co&quot;"))
            let points = try Dashboard.render(page: .points, ledger: ledger, context: Self.context)
            #expect(
                points.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; ran in the rain")
                    || points.contains("&lt;script&gt;alert('x')&lt;/script&gt; ran in the rain"))
        }
    }

    @Test("as of a past sequence, a page shows the figures of then under a banner, without forms")
    func timeTravel() throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try Fixture.full(in: folder)
            let novablast = try #require(try ShoesDocument(ledger).shoes.first { $0.shoe.name == "Novablast" })
            let audit = try ShoeAuditDocument(ledger, shoe: ShoeID.text(novablast.shoe.id))
            let assignment = try #require(audit.steps.first { $0.entry.kind == .assigned })
            let before = assignment.entry.sequence - 1
            let forms = PageContext(forms: .shown(csrf: "c5rf"), now: Fixture.now)
            var past = forms
            past.timeTravel = TimeTravel(sequence: before)
            let then = try Dashboard.render(page: .shoes, ledger: ledger, context: past)
            #expect(then.contains("As the ledger stood at sequence \(before)"))
            #expect(then.contains("15.0 of 20 km (75%)"))
            #expect(!then.contains("name=\"csrf\" value=\"c5rf\"><fieldset>"))
            let now = try Dashboard.render(page: .shoes, ledger: ledger, context: forms)
            #expect(!now.contains("As the ledger stood"))
            #expect(now.contains("25.5 of 20 km (128%)"))
            #expect(now.contains("name=\"csrf\" value=\"c5rf\"><fieldset>"))
            // Links keep the past while moving between pages.
            #expect(then.contains("href=\"/points?asRecorded=\(before)\""))
            // The shoe's audit as recorded then: on the rack, its steps before the assignment.
            let auditThen = try Dashboard.render(page: .audit(shoe: ShoeID.text(novablast.shoe.id)), ledger: ledger, context: past)
            #expect(!auditThen.contains("not on the rack yet"))
            #expect(auditThen.contains("registered"))
            #expect(!auditThen.contains(Ledger.workoutID(try #require(assignment.entry.workout))))
        }
    }

    @Test("the log shows who sent each event, its hash, and a verified badge from the chain of what is shown")
    func log() throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try Fixture.full(in: folder)
            let html = try Dashboard.render(page: .log(from: nil, limit: nil, type: nil), ledger: ledger, context: Self.context)
            #expect(html.contains("via \(Fixture.device)") || html.contains(">\(Fixture.device)<"))
            #expect(html.contains("<span class=\"badge ok\">verified</span>"))
            #expect(html.contains("<dt>Chain hash</dt><dd><code class=\"hash\">"))
            #expect(!html.contains("badge bad"))
        }
    }

    @Test("an empty ledger's pages say there is nothing yet, with no chart drawn empty")
    func empty() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Fixture.empty(in: folder)
            for page in [Dashboard.Page.overview, .daily(from: nil, through: nil), .shoes, .log(from: nil, limit: nil, type: nil)] {
                let html = try Dashboard.render(page: page, ledger: ledger, context: Self.context)
                #expect(html.hasPrefix("<!DOCTYPE html>"), "\(page)")
                #expect(!html.contains("<figure class=\"chart\" "), "\(page): a chart without data")
                #expect(html.contains("empty-note") || html.contains("No ") || html.contains("no "), "\(page)")
            }
            // The first-use award is the one figure an empty ledger has: its chart draws it.
            let points = try Dashboard.render(page: .points, ledger: ledger, context: Self.context)
            let chart = try #require(DrawnChart(in: points, figure: "points-balance"))
            #expect(
                !chart.elements("circle").isEmpty || !chart.elements("rect", matching: [:]).filter { $0["class"]?.contains("bar") == true }.isEmpty)
        }
    }

    @Test("the report is one offline file: every page inline, nothing fetched, no script, no form; written 0600, an existing file refused")
    func report() throws {
        try withTemporaryDirectory { folder in
            let (ledger, token) = try Fixture.full(in: folder)
            let html = try Dashboard.report(ledger, now: Fixture.now)
            for anchor in ["overview", "daily", "shoes", "points", "log"] { #expect(html.contains("<section class=\"page\" id=\"\(anchor)\"")) }
            #expect(!html.contains("<script"))
            #expect(!html.contains("<form"))
            #expect(!html.contains("src=\""))
            #expect(!html.contains("href=\"http"))
            #expect(!html.contains(token))
            let path = folder + "/report.html"
            try ReportFile.write(html, to: path, replacing: false)
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode & 0o777 == 0o600)
            #expect(throws: (any Error).self) { try ReportFile.write("other", to: path, replacing: false) }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == html)
            try ReportFile.write("replaced", to: path, replacing: true)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "replaced")
        }
    }
}
