import Foundation
import Glibc

/// The names of the hidden files and folders that exports, backups and imports write
/// before moving them into place, and the clean-up of those left by killed writers.
///
/// A partial is named `.NAME.partial-PID` beside its target `NAME`; the process id says
/// whose it is, so a partial whose process is gone is debris and is removed the next time
/// anything writes that target. A live writer's partial is left alone.
enum PartialFiles {
    /// Splits `path` into its folder (ending in `/`, or empty) and its last component.
    static func split(_ path: String) -> (folder: String, name: String) {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return ("", trimmed) }
        return (String(trimmed[...slash]), String(trimmed[trimmed.index(after: slash)...]))
    }

    /// This process's partial for `path`.
    static func path(for path: String) -> String {
        let (folder, name) = split(path)
        return folder + "." + name + ".partial-\(getpid())"
    }

    /// Removes the partials of `path` whose writers are gone; returns how many.
    @discardableResult
    static func removeStale(of path: String) -> Int {
        let (folder, name) = split(path)
        let prefix = "." + name + ".partial-"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        var removed = 0
        for entry in entries where entry.hasPrefix(prefix) {
            guard let pid = Int32(entry.dropFirst(prefix.count)), pid != getpid(), !isRunning(pid) else { continue }
            if (try? FileManager.default.removeItem(atPath: folder + entry)) != nil { removed += 1 }
        }
        return removed
    }

    /// Whether a process with this id exists (one we may not signal still exists).
    private static func isRunning(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno != ESRCH)
    }
}
