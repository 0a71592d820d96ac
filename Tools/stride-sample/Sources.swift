/// Who writes a record: the export's sources, each with the device it names (if any).
enum SourceKind: CaseIterable {
    case watch
    /// The phone's own sensors.
    case phone
    /// The phone, for what headphones measured: its source, the headphones' device.
    case headphones
    /// A scale's app, which names no device.
    case scale
    /// Entries made by hand in the Health app.
    case health
}

/// An OS or app version, printed `major.minor` or `major.minor.patch`.
struct SoftwareVersion: Equatable {
    var major: Int
    var minor: Int
    var patch = 0

    var text: String { patch == 0 ? "\(major).\(minor)" : "\(major).\(minor).\(patch)" }

    /// The next update: a patch or a minor release, and a major one after x.6.
    func updated(_ random: inout SplitMix64) -> SoftwareVersion {
        if random.next() % 10 < 4 { return SoftwareVersion(major: major, minor: minor, patch: patch + 1) }
        return minor >= 6 ? SoftwareVersion(major: major + 1, minor: 0) : SoftwareVersion(major: major, minor: minor + 1)
    }
}

/// The sources of one runner's export, their versions, and the `HKDevice` addresses their
/// records print (see ``Realism``).
struct SourceSet {
    private var watchVersion = SoftwareVersion(major: 10, minor: 1)
    private var phoneVersion = SoftwareVersion(major: 17, minor: 1)
    /// The versions before the last update, for the rare repeat that differs only in version.
    private var previousWatchVersion = SoftwareVersion(major: 10, minor: 0, patch: 2)
    private var previousPhoneVersion = SoftwareVersion(major: 17, minor: 0, patch: 3)
    private var nextWatchUpdate: Int
    private var nextPhoneUpdate: Int
    /// The address each (type, device) prints now, and for how many more records.
    private var runs: [String: (address: UInt64, remaining: UInt64)] = [:]
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed ^ 0x5EED_DE71_CE00_0000)
        nextWatchUpdate = 0
        nextPhoneUpdate = 0
        nextWatchUpdate = Int(draw(Realism.daysBetweenUpdates))
        nextPhoneUpdate = Int(draw(Realism.daysBetweenUpdates))
    }

    /// Applies the OS updates due by `day` (counted from the first): new versions, new addresses.
    mutating func update(toDay day: Int) {
        if day >= nextWatchUpdate {
            previousWatchVersion = watchVersion
            watchVersion = watchVersion.updated(&random)
            nextWatchUpdate = day + Int(draw(Realism.daysBetweenUpdates))
            runs = runs.filter { !$0.key.hasSuffix("|watch") }
        }
        if day >= nextPhoneUpdate {
            previousPhoneVersion = phoneVersion
            phoneVersion = phoneVersion.updated(&random)
            nextPhoneUpdate = day + Int(draw(Realism.daysBetweenUpdates))
            runs = runs.filter { $0.key.hasSuffix("|watch") }
        }
    }

    /// The name as written (`&#8217;` and `&#160;`, as real ones hold a curly apostrophe and a
    /// no-break space).
    func name(_ source: SourceKind) -> String {
        switch source {
        case .watch: "Marie&#8217;s Apple&#160;Watch"
        case .phone, .headphones: "Marie&#8217;s iPhone"
        case .scale: "Health Mate"
        case .health: "Health"
        }
    }

    /// The source version now, or the one before the last update.
    func version(_ source: SourceKind, previous: Bool = false) -> String {
        switch source {
        case .watch: (previous ? previousWatchVersion : watchVersion).text
        case .phone, .headphones, .health: (previous ? previousPhoneVersion : phoneVersion).text
        case .scale: previous ? "6.11.1" : "6.12.0"
        }
    }

    /// The `device` attribute of the next record of `type` from `source`, escaped; nil for
    /// sources that print none. Counts the record against its address's run.
    mutating func device(_ source: SourceKind, type: String) -> String? {
        let model: String
        let key: String
        switch source {
        case .watch:
            model = "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:\(watchVersion.text)"
            key = type + "|watch"
        case .phone:
            model = "name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,5, software:\(phoneVersion.text)"
            key = type + "|phone"
        case .headphones:
            model = "name:EarPods, manufacturer:Apple Inc., localIdentifier:Wired Headphones"
            key = type + "|headphones"
        case .scale, .health:
            return nil
        }
        var run = runs[key] ?? (address: newAddress(), remaining: runLength())
        if run.remaining == 0 { run = (address: newAddress(), remaining: runLength()) }
        run.remaining -= 1
        runs[key] = run
        return "&lt;&lt;HKDevice: 0x\(String(run.address, radix: 16))&gt;, \(model)&gt;"
    }

    /// An address as the Health app prints them: nine hexadecimal digits from 0x28, 16-byte aligned.
    private mutating func newAddress() -> UInt64 {
        0x2_8000_0000 + (random.next() % 0x800_0000) & ~0xF
    }

    private mutating func runLength() -> UInt64 {
        draw(random.next() % 100 < Realism.shortRunPercent ? Realism.shortRuns : Realism.longRuns)
    }

    private mutating func draw(_ range: ClosedRange<UInt64>) -> UInt64 {
        range.lowerBound + random.next() % (range.upperBound - range.lowerBound + 1)
    }
}
