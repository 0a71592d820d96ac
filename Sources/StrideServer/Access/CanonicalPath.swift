/// A request's path written one way only, decided before any guard looks at it: the router
/// finds `/v1/journal` under `//v1/journal`, `/v1/./journal`, `/v1%2Fjournal` and
/// `/v1/journal/`, so a guard that read the path as sent could be walked around.
///
/// Percent escapes are decoded (every route's path is plain ASCII, none takes a parameter),
/// empty and `.` segments dropped, and a trailing slash removed. A path that climbs with `..`,
/// holds a control character or a broken escape, or is not a path at all (`*`, an absolute
/// URL) is refused.
enum CanonicalPath {
    /// What a request target comes to.
    enum Outcome: Equatable {
        /// The path as it should be read, with the query as sent (`?…`, or empty).
        case path(String, query: String)
        /// Not a path this server reads; the reason, for the 400.
        case refused(String)
    }

    /// The longest request target read (Hummingbird's header limit keeps it shorter anyway).
    static let maximumLength = 8192

    /// The canonical form of a request target (`/path?query`).
    static func of(_ target: String) -> Outcome {
        guard target.utf8.count <= maximumLength else { return .refused("the path is longer than \(maximumLength) bytes") }
        let (rawPath, query): (Substring, Substring) =
            if let mark = target.firstIndex(of: "?") { (target[..<mark], target[mark...]) } else { (target[...], "") }
        guard rawPath.hasPrefix("/") else { return .refused("the request target must be a path starting with /") }
        guard let decoded = percentDecoded(rawPath) else { return .refused("the path holds a broken percent escape") }
        guard !decoded.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x5C }) else {
            return .refused("the path holds a control character or a backslash")
        }
        guard let text = String(validating: decoded, as: UTF8.self) else { return .refused("the path is not UTF-8") }
        var segments: [Substring] = []
        for segment in text.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": return .refused("the path climbs with ..")
            default: segments.append(segment)
            }
        }
        return .path("/" + segments.joined(separator: "/"), query: String(query))
    }

    /// The bytes of `path` with every `%XX` decoded; nil for a broken escape.
    private static func percentDecoded(_ path: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        var iterator = path.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
