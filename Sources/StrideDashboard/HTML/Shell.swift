import StrideContract
import StrideEvents

/// The frame of every page: the HTML5 document, the inline stylesheet, the navigation bar
/// and, when the page shows the past, the banner saying so.
enum Shell {
    /// The sections the navigation bar names, in order.
    enum Section: String, CaseIterable {
        case overview, daily, shoes, training, points, log

        var title: String {
            switch self {
            case .overview: "Overview"
            case .daily: "Daily"
            case .shoes: "Shoes"
            case .training: "Training"
            case .points: "Points"
            case .log: "Log"
            }
        }

        func href(_ links: Links) -> String {
            switch self {
            case .overview: links.overview
            case .daily: links.daily()
            case .shoes: links.shoes
            case .training: links.training
            case .points: links.points
            case .log: links.log()
            }
        }
    }

    /// A whole document: `title` for the tab, the navigation (with `current` marked), the
    /// banner of the past and `main` inside `<main>`.
    static func document(title: String, current: Section?, links: Links, banner: String, main: String, signOutCSRF: String? = nil) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        html += "<meta name=\"referrer\" content=\"same-origin\">"
        html += "<title>\(title.html) · Stride</title><style>\(Stylesheet.css)</style></head><body>"
        html += "<header class=\"site\"><div class=\"inner\"><a class=\"brand\" href=\"\(links.overview.html)\">Stride</a>"
        html += navigation(current: current, links: links)
        if let csrf = signOutCSRF, let path = links.action(.signOut) {
            html += "<form class=\"signout\" method=\"post\" action=\"\(path.html)\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf.html)\">"
            html += "<button type=\"submit\">Sign out</button></form>"
        }
        html += "</div></header><main id=\"main\">" + banner + main + "</main>"
        html +=
            "<footer class=\"site\"><p>Every figure is computed from the ledger's events; nothing on this page comes from the network.</p></footer>"
        return html + "</body></html>\n"
    }

    /// The navigation bar.
    static func navigation(current: Section?, links: Links) -> String {
        var html = "<nav aria-label=\"Pages\"><ul>"
        for section in Section.allCases {
            let marker = section == current ? " aria-current=\"page\"" : ""
            html += "<li><a href=\"\(section.href(links).html)\"\(marker)>\(section.title)</a></li>"
        }
        return html + "</ul></nav>"
    }

    /// "As of 2023-06-01 00:00 (UTC), a moment of the runner's life …", "As the ledger stood at
    /// sequence N (…) — nothing stored; back to now", or nothing for the present. `now` is the
    /// same page's link at the present (nil in a report).
    static func banner(_ past: PageReader.Past?, lived: Timestamp? = nil, time: LocalTime, now: String?) -> String {
        if let lived {
            var html = "<p class=\"banner\" role=\"status\"><strong>As of \(readable(time.format(lived)).html)</strong>"
            html += " — what had happened by then, as the ledger knows it now (runs by when they were run, however late they arrived)"
            html += "; read-only, so no forms"
            if let now { html += "; <a href=\"\(now.html)\">back to now</a>" }
            return html + ".</p>"
        }
        guard let past else { return "" }
        var when = ""
        if let recordedAt = past.recordedAt {
            when = " (recorded by " + readable(time.format(recordedAt))
            if let instant = past.instant { when += "; asked for " + readable(time.format(instant)) }
            when += ")"
        } else if let instant = past.instant {
            when = " (before anything was recorded; asked for " + readable(time.format(instant)) + ")"
        }
        var html = "<p class=\"banner\" role=\"status\"><strong>As the ledger stood at sequence \(past.sequence)</strong>\(when.html)"
        html += " — as recorded then, the events recorded by that point folded from the nearest snapshot; read-only, so no forms"
        if let now { html += "; <a href=\"\(now.html)\">back to now</a>" }
        return html + ".</p>"
    }

    /// `2024-05-01T08:00:00+02:00` as `2024-05-01 08:00 (+02:00)`.
    static func readable(_ iso: String) -> String {
        guard iso.count >= 19 else { return iso }
        let date = iso.prefix(10)
        let clock = iso.dropFirst(11).prefix(5)
        let offset = iso.dropFirst(19).drop { $0 == "." || $0.isNumber }
        return "\(date) \(clock)" + (offset.isEmpty ? "" : " (\(offset == "Z" ? "UTC" : String(offset)))")
    }

    /// `2024-05-01T08:00:00+02:00` as `2024-05-01 08:00`: for tables and lists, whose page
    /// names the time zone.
    static func short(_ iso: String) -> String {
        guard iso.count >= 16 else { return iso }
        return "\(iso.prefix(10)) \(iso.dropFirst(11).prefix(5))"
    }

    /// A heading at a level from 1 to 6.
    static func heading(_ level: Int, _ text: String, id: String? = nil) -> String {
        let tag = "h\(min(max(level, 1), 6))"
        return "<\(tag)\(id.map { " id=\"\($0.html)\"" } ?? "")>\(text.html)</\(tag)>"
    }
}
