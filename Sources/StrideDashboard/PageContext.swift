import Foundation
import StrideEvents
import StrideLedger

/// How the pages' forms appear.
public enum Forms: Sendable, Hashable {
    /// No forms (a report, or a page read without a session).
    case omitted
    /// Forms, each carrying a hidden `csrf` field with this value (the caller's token for
    /// the session, checked when the form comes back).
    case shown(csrf: String)
}

/// What every page is rendered with besides the ledger: where links go, whether forms
/// appear, and the point in the past to show, if any.
public struct PageContext: Sendable {
    /// Link targets.
    public var links: Links
    /// Forms and their CSRF value. Forms never appear while showing the past.
    public var forms: Forms
    /// The past to show (nil: the ledger as it stands).
    public var timeTravel: TimeTravel?
    /// The instant taken as now (which day is today); nil for the ledger's clock.
    public var now: Timestamp?
    /// What the last form sent did, shown at the top of the page once.
    public var notice: Notice?

    /// A context; by default served links, no forms, the present.
    public init(
        links: Links = .served(), forms: Forms = .omitted, timeTravel: TimeTravel? = nil, now: Timestamp? = nil, notice: Notice? = nil
    ) {
        self.links = links
        self.forms = forms
        self.timeTravel = timeTravel
        self.now = now
        self.notice = notice
    }
}

/// The outcome of a form, said at the top of the page it leads back to: the command line's
/// sentence for what was done, or for why it was refused.
public struct Notice: Sendable, Hashable {
    /// The sentence.
    public var text: String
    /// Whether the form was refused.
    public var isRefusal: Bool

    /// A notice.
    public init(_ text: String, isRefusal: Bool = false) {
        self.text = text
        self.isRefusal = isRefusal
    }

    /// The notice as a paragraph: a status, or an alert for a refusal.
    var html: String {
        isRefusal
            ? "<p class=\"notice refused\" role=\"alert\">\(text.html)</p>"
            : "<p class=\"notice\" role=\"status\">\(text.html)</p>"
    }
}
