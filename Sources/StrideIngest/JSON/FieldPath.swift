/// A place in a JSON document, from its root: `data`, `metrics`, 2, `data`, 5, `date`.
struct FieldPath: Sendable, CustomStringConvertible {
    enum Component: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    var components: [Component] = []

    /// The path one member further.
    func key(_ name: String) -> FieldPath { FieldPath(components: components + [.key(name)]) }

    /// The path one element further.
    func index(_ position: Int) -> FieldPath { FieldPath(components: components + [.index(position)]) }

    /// `metrics[2].data[5].date`: from inside the document's `data`, where everything lies.
    var description: String {
        var text = ""
        for (position, component) in components.enumerated() {
            switch component {
            case .key("data") where position == 0 && components.count > 1: continue
            case .key(let name): text += (text.isEmpty ? "" : ".") + name
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
