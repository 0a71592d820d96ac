import Foundation
import StrideEvents
import StrideIngest

/// A one-line progress bar on standard error: how far, bytes and records per second. Shown
/// only when standard error is a terminal and not silenced; redrawn at most ten times a second.
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let isEnabled: Bool
    private let lock = NSLock()
    private let began = Date()
    private var lastDrawn = Date.distantPast
    private var hasDrawn = false

    init(label: String, quiet: Bool) {
        self.label = label
        self.isEnabled = !quiet && Console.isInteractive
    }

    /// Redraws the bar for a file being read, if a tenth of a second has passed.
    func update(_ progress: IngestProgress) {
        draw { seconds in
            let fraction = progress.totalBytes > 0 ? min(1, Double(progress.bytesRead) / Double(progress.totalBytes)) : 0
            return (
                fraction,
                "\(Format.bytes(progress.bytesRead)) of \(Format.bytes(progress.totalBytes))  "
                    + "\(Format.bytes(Int(Double(progress.bytesRead) / seconds)))/s  \(Format.count(Int(Double(progress.records) / seconds))) records/s"
            )
        }
    }

    /// Redraws the bar for `done` of `total` things (`events`), if a tenth of a second has passed.
    func update(done: UInt64, of total: UInt64, unit: String) {
        draw { seconds in
            let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
            return (
                fraction, "\(Format.count(Int(done))) of \(Format.count(Int(total))) \(unit)  \(Format.count(Int(Double(done) / seconds))) \(unit)/s"
            )
        }
    }

    /// Draws the bar with what `describe` says of the seconds since it began: how far, and
    /// the rest of the line.
    private func draw(_ describe: (Double) -> (fraction: Double, detail: String)) {
        guard isEnabled else { return }
        lock.withLock {
            let now = Date()
            guard now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
            lastDrawn = now
            hasDrawn = true
            let (fraction, detail) = describe(max(now.timeIntervalSince(began), 0.001))
            let width = 24
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + "\(label) \(bar) \(Int(fraction * 100))%  " + detail).utf8))
        }
    }

    /// Clears the bar.
    func finish() {
        guard isEnabled else { return }
        lock.withLock {
            if hasDrawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        }
    }
}

/// Human formatting of sizes and counts.
enum Format {
    /// `3.2 MB`, `512 kB`, `120 B`.
    static func bytes(_ count: Int) -> String {
        let value = Double(count)
        if value >= 1e9 { return String(format: "%.2f GB", value / 1e9) }
        if value >= 1e6 { return String(format: "%.1f MB", value / 1e6) }
        if value >= 1e3 { return String(format: "%.0f kB", value / 1e3) }
        return "\(count) B"
    }

    /// `1,234,567`.
    static func count(_ value: Int) -> String { value.groupedDigits }

    /// `812.40 km`.
    static func kilometers(_ value: Double) -> String { String(format: "%.2f km", value) }

    /// `+10.00 km`, `−3.00 km`.
    static func signedKilometers(_ value: Double) -> String {
        let text = String(format: "%.2f km", abs(value))
        return (value < 0 ? "−" : "+") + text
    }

    /// A table cell's text followed by the device that sent its event through the server
    /// (`… via marie-iphone`); the text alone for an action on the machine.
    static func via(_ sentBy: String?, after text: String) -> String {
        guard let sentBy else { return text }
        return text.isEmpty ? "via \(sentBy)" : "\(text), via \(sentBy)"
    }
}
