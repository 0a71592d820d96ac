import Foundation

/// The system's tz database: the folder of compiled zone files (TZif) that the C library and
/// Foundation read a zone's rules from.
struct TimeZoneDatabase: Sendable {
    /// The folder, e.g. `/usr/share/zoneinfo`.
    var directory: String

    /// The machine's: `$TZDIR` when set (as the C library honours it), else `/usr/share/zoneinfo`.
    static var system: TimeZoneDatabase {
        if let directory = ProcessInfo.processInfo.environment["TZDIR"], !directory.isEmpty {
            return TimeZoneDatabase(directory: directory)
        }
        return TimeZoneDatabase(directory: "/usr/share/zoneinfo")
    }

    /// Names in the folder that are not zones of their own: the machine's setting, the
    /// template for POSIX TZ strings, and the `posix/` and `right/` copies of every zone (the
    /// latter counting leap seconds, which Stride's arithmetic does not).
    private static let excludedNames: Set<String> = ["localtime", "posixrules"]
    private static let excludedFolders: Set<Substring> = ["posix", "right"]

    /// Whether the database holds a zone called `identifier`: a name spelled as IANA names are
    /// (letters, digits, `_`, `+`, `-`, folders separated by `/`, so no path can leave the
    /// folder) whose file is a compiled zone.
    func holds(_ identifier: String) -> Bool {
        let components = identifier.split(separator: "/", omittingEmptySubsequences: false)
        guard identifier.utf8.count <= 255, let first = components.first,
            components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && $0.utf8.allSatisfy(Self.isNameByte) }),
            !Self.excludedNames.contains(identifier), !Self.excludedFolders.contains(first)
        else { return false }
        let path = directory + "/" + identifier
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let file = FileHandle(forReadingAtPath: path)
        else { return false }
        defer { try? file.close() }
        // Every compiled zone file starts with this magic; the folder's tables (zone.tab,
        // tzdata.zi, leapseconds) do not.
        return (try? file.read(upToCount: 4)).map(Array.init) == Array("TZif".utf8)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "-"): true
        default: false
        }
    }
}
