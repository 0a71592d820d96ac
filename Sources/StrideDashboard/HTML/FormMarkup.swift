/// The markup of the pages' forms: each posts to a ``FormAction``'s path with a hidden
/// `csrf` field, its inputs labelled.
enum FormMarkup {
    /// A form with a legend, `fields` (already marked up) and a submit button.
    static func form(
        _ action: FormAction, render: RenderContext, legend: String?, fields: String, button: String, className: String = "panel"
    ) -> String {
        guard let csrf = render.csrf, let path = render.links.action(action) else { return "" }
        var html = "<form class=\"\(className)\" method=\"post\" action=\"\(path.html)\">"
        html += "<input type=\"hidden\" name=\"csrf\" value=\"\(csrf.html)\">"
        html += "<fieldset>"
        if let legend { html += "<legend>\(legend.html)</legend>" }
        html += fields + "<button type=\"submit\">\(button.html)</button></fieldset></form>"
        return html
    }

    /// A labelled input.
    static func input(_ name: String, label: String, id: String, type: String = "text", required: Bool = false, extra: String = "") -> String {
        "<label for=\"\(id.html)\">\(label.html)<input id=\"\(id.html)\" name=\"\(name)\" type=\"\(type)\"\(required ? " required" : "")\(extra.isEmpty ? "" : " " + extra)></label>"
    }

    /// A hidden field.
    static func hidden(_ name: String, _ value: String) -> String {
        "<input type=\"hidden\" name=\"\(name)\" value=\"\(value.html)\">"
    }

    /// A labelled select of `(value, label)` options.
    static func select(_ name: String, label: String, id: String, options: [(value: String, label: String)], selected: String? = nil) -> String {
        var html = "<label for=\"\(id.html)\">\(label.html)<select id=\"\(id.html)\" name=\"\(name)\">"
        for option in options {
            html += "<option value=\"\(option.value.html)\"\(option.value == selected ? " selected" : "")>\(option.label.html)</option>"
        }
        return html + "</select></label>"
    }
}

/// How page bodies are rendered: where links go, whether forms appear (and their CSRF
/// value), the heading level of the page's title, and a prefix keeping ids unique when
/// several pages share one document.
struct RenderContext {
    var links: Links
    /// The CSRF value; nil when forms are left out (a report, the past, no session).
    var csrf: String?
    /// The page title's heading level: 1 on its own, 2 in a report.
    var level: Int
    /// Prefixed to element ids.
    var idPrefix: String

    /// Whether forms appear.
    var showsForms: Bool { csrf != nil && links.action(.checkIn) != nil }
}
