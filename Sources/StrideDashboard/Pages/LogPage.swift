import StrideContract
import StrideEvents
import StrideLedger

/// The log: events by sequence, a page at a time, optionally of one type, each with its
/// decoded payload, its chain hash, its sender and the outcome of checking its link.
enum LogPage {
    /// Events per page unless asked otherwise, and the most one page shows.
    static let defaultLimit = 50
    static let largestLimit = 500

    /// What the page reads.
    struct Content {
        var events: [RecordedEvent]
        var check: ChainCheck
        var first: UInt64
        var limit: Int
        var type: EventType?
        /// The last sequence of the state shown.
        var last: UInt64
        var time: LocalTime
    }

    /// Without `from`, the latest page (all types) or the first (one type: the log is
    /// indexed by type forwards only). As of a moment of the runner's life, the page's events
    /// that had happened by then (by their action time); the paging stays by sequence.
    static func read(_ reader: PageReader, from first: UInt64?, limit: Int?, type: EventType?) throws -> Content {
        let last = try reader.past?.sequence ?? reader.ledger.lastSequence()
        let count = min(max(limit ?? defaultLimit, 1), largestLimit)
        let start = max(first ?? (type == nil ? (last > UInt64(count) ? last - UInt64(count) + 1 : 1) : 1), 1)
        let events =
            start > last
            ? []
            : try LogDocument(reader.ledger, from: start, limit: count, type: type).events.filter { event in
                event.sequence <= last && reader.includes(event.sequence, happened: event.occurredAt)
            }
        let check = try ChainCheck.check(events.map(\.sequence), in: reader.ledger)
        return Content(events: events, check: check, first: start, limit: count, type: type, last: last, time: reader.time)
    }

    static func render(_ content: Content, _ render: RenderContext) -> String {
        var html = Shell.heading(render.level, "Log")
        let typeText = content.type.map { " of type <code>\($0.name.html)</code>" } ?? ""
        if let firstShown = content.events.first?.sequence, let lastShown = content.events.last?.sequence {
            html += "<p class=\"lead\">Events #\(firstShown) to #\(lastShown)\(typeText), of \(content.last) in the ledger"
            html += render.links.isReport ? "" : " (\(content.limit) a page)"
            html += ".</p>"
        } else {
            html += "<p class=\"lead\">No events\(typeText) from #\(content.first) (the ledger holds \(content.last)).</p>"
        }
        html += filterForm(content, render)
        html += badge(content)
        let pager = self.pager(content, render)
        html += pager
        html += "<ol class=\"events\">"
        for event in content.events { html += article(event, content, render) }
        html += "</ol>"
        if content.events.count > 5 { html += pager }
        return html
    }

    /// The page's verdict and what it means.
    private static func badge(_ content: Content) -> String {
        guard !content.events.isEmpty else { return "" }
        let meaning =
            "each event's checksum matches its bytes and its chain hash, recomputed now, follows from the stored hash of the event before it"
        if content.check.isIntact {
            return "<p><span class=\"badge ok\">verified</span> The events shown are intact: \(meaning). "
                + "This checks what is shown; <code>stride verify</code> checks the whole log.</p>"
        }
        let faults = content.check.outcomes.filter { if case .fault = $0.value { true } else { false } }.count
        return "<p><span class=\"badge bad\">not verified</span> \(faults.counted("event")) shown failed the check (\(meaning)). "
            + "Run <code>stride verify</code>.</p>"
    }

    private static func filterForm(_ content: Content, _ render: RenderContext) -> String {
        guard case .served = render.links.style else { return "" }
        let path = render.links.now.log().split(separator: "?").first.map(String.init) ?? "/log"
        var html = "<form class=\"panel\" method=\"get\" action=\"\(path.html)\"><fieldset><legend>Show</legend>"
        let options = [("", "every type")] + EventType.catalog.map { ($0.name, $0.name) }
        html += FormMarkup.select("type", label: "Type", id: render.idPrefix + "log-type", options: options, selected: content.type?.name ?? "")
        html += FormMarkup.input(
            "from", label: "From sequence", id: render.idPrefix + "log-from", type: "number", extra: "min=\"1\" value=\"\(content.first)\"")
        if let travel = render.links.timeTravelField { html += FormMarkup.hidden(travel.name, travel.value) }
        return html + "<button type=\"submit\">Show</button></fieldset></form>"
    }

    private static func pager(_ content: Content, _ render: RenderContext) -> String {
        guard !render.links.isReport else { return "" }
        var links: [String] = []
        let typeName = content.type?.name
        if content.first > 1 {
            let earlier = content.type == nil ? (content.first > UInt64(content.limit) ? content.first - UInt64(content.limit) : 1) : 1
            links.append(
                "<a href=\"\(render.links.log(from: earlier, type: typeName).html)\">\(content.type == nil ? "Earlier events" : "From the start")</a>"
            )
        }
        if let lastShown = content.events.last?.sequence, lastShown < content.last, content.type == nil || content.events.count == content.limit {
            links.append("<a href=\"\(render.links.log(from: lastShown + 1, type: typeName).html)\">Later events</a>")
        }
        guard !links.isEmpty else { return "" }
        return "<nav class=\"pager\" aria-label=\"Log pages\">" + links.joined(separator: " ") + "</nav>"
    }

    private static func article(_ event: RecordedEvent, _ content: Content, _ render: RenderContext) -> String {
        var html = "<li><article class=\"event\" id=\"e-\(event.sequence)\">"
        html += Shell.heading(render.level + 1, "#\(event.sequence) \(event.event.typeName)")
        html += "<dl class=\"fields\">"
        html += "<dt>Recorded</dt><dd>\(Shell.readable(content.time.format(event.recordedAt)).html)</dd>"
        html += "<dt>Occurred</dt><dd>\(Shell.readable(content.time.format(event.occurredAt)).html)</dd>"
        html += "<dt>Entity</dt><dd><code>\((event.entity.kind.description + ":" + event.entity.shortID).html)</code></dd>"
        html += "<dt>Sent by</dt><dd>\(event.event.sentBy.map { "via " + $0.html } ?? "this machine (not through the server)")</dd>"
        if let key = event.idempotencyKey { html += "<dt>Idempotency key</dt><dd><code class=\"hash\">\(key.description.html)</code></dd>" }
        switch content.check.outcomes[event.sequence] {
        case .verified(let hash)?:
            html += "<dt>Chain hash</dt><dd><code class=\"hash\">\(hash.description)</code> <span class=\"badge ok\">verified</span></dd>"
        case .fault(let problem)?:
            html += "<dt>Chain hash</dt><dd><span class=\"badge bad\">not verified</span> \(problem.html)</dd>"
        case nil:
            break
        }
        html += "<dt>Payload</dt><dd><pre class=\"payload\">\(pretty(event.event.json).html)</pre></dd>"
        return html + "</dl></article></li>"
    }

    /// JSON with two-space indents, one member a line.
    static func pretty(_ value: JSONValue, indent: String = "") -> String {
        switch value {
        case .object(let members) where !members.isEmpty:
            let inner = indent + "  "
            let lines = members.map { member in inner + JSONValue.string(member.key).text + ": " + pretty(member.value, indent: inner) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let values) where !values.isEmpty:
            let inner = indent + "  "
            return "[\n" + values.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        default:
            return value.text
        }
    }
}
