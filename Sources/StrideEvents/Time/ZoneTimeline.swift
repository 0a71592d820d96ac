import Foundation

/// The time zone in force on each local date of a runner's life: the home zone, except on
/// the dates of periods lived elsewhere.
///
/// Where periods overlap, the later one in the list wins its dates, so a list of periods
/// reads as a history of corrections. ``init(home:runner:evidence:)`` puts the runner's own
/// periods after those learned from the inputs: the runner's word beats what a file implies.
///
/// The timeline keeps its dates as stretches (runs of consecutive dates in one zone) sorted
/// by their first date; finding a date's zone is a binary search over them, so a timeline of
/// thousands of periods stays fast.
public struct ZoneTimeline: Hashable, Sendable {
    /// The zone of every date no period covers.
    public let home: TimeZone
    /// The distinct zones: home first, then the others in the order their first stretch
    /// comes, so that equal timelines have equal arrays.
    let zones: [TimeZone]
    /// The first date of each stretch, as days since 1970, ascending; the first stretch is
    /// home's and starts at `Int64.min`.
    let stretchStarts: [Int64]
    /// The zone of each stretch, as an index into `zones`; neighbours differ.
    let stretchZones: [Int]

    /// A timeline of the home zone and periods elsewhere; a later period wins the dates it
    /// shares with an earlier one. A period in the home zone brings those dates home. Empty
    /// periods are ignored.
    public init(home: TimeZone, periods: [ZonePeriod] = []) {
        self.home = home
        let painted = Self.paint(periods)
        var zones = [home]
        var indexOfIdentifier = [home.identifier: 0]
        var starts: [Int64] = [Int64.min]
        var stretchZones = [0]
        for (start, zone) in painted {
            let index: Int
            if let zone {
                if let known = indexOfIdentifier[zone.identifier] {
                    index = known
                } else {
                    index = zones.count
                    indexOfIdentifier[zone.identifier] = index
                    zones.append(zone)
                }
            } else {
                index = 0
            }
            if stretchZones.last == index { continue }
            starts.append(start)
            stretchZones.append(index)
        }
        self.zones = zones
        self.stretchStarts = starts
        self.stretchZones = stretchZones
    }

    /// The timeline of the runner's own periods over those learned from the inputs: the
    /// runner's periods win every date they cover, and among them the later one wins.
    public init(home: TimeZone, runner: [ZonePeriod], evidence: [ZonePeriod]) {
        self.init(home: home, periods: evidence + runner)
    }

    /// The zone in force on a date.
    public func zone(on date: CivilDate) -> TimeZone {
        zones[stretchZones[stretch(ofDay: date.daysSince1970)]]
    }

    /// The periods away from home, in date order, none overlapping and none touching another
    /// in the same zone: the timeline as `init(home:periods:)` would take it back.
    public var periods: [ZonePeriod] {
        var periods: [ZonePeriod] = []
        for index in stretchZones.indices where stretchZones[index] != 0 {
            let end = index + 1 < stretchStarts.count ? CivilDate(daysSince1970: stretchStarts[index + 1]) : nil
            periods.append(ZonePeriod(zones[stretchZones[index]], from: CivilDate(daysSince1970: stretchStarts[index]), to: end))
        }
        return periods
    }

    /// Whether every date is in the home zone.
    public var isHomeOnly: Bool { stretchStarts.count == 1 }

    /// The stretch holding a day (days since 1970): the last whose first day is at or before it.
    func stretch(ofDay day: Int64) -> Int {
        stretchStarts.lastIndex(atOrBefore: day)
    }

    /// The last day of a stretch, as days since 1970 (`Int64.max` for the last stretch).
    func lastDay(ofStretch index: Int) -> Int64 {
        index + 1 < stretchStarts.count ? stretchStarts[index + 1] - 1 : Int64.max
    }

    /// The dates cut at every period's ends into pieces, each with the zone of the latest
    /// period covering it (nil for none), ascending. Periods are laid from the latest down,
    /// each on the pieces no later one took; a piece once taken is skipped for good (the
    /// `next` links jump over it), so the work is that of sorting the ends.
    private static func paint(_ periods: [ZonePeriod]) -> [(start: Int64, zone: TimeZone?)] {
        let periods = periods.filter { !$0.isEmpty }
        guard !periods.isEmpty else { return [] }
        var ends = Set<Int64>()
        for period in periods {
            ends.insert(period.from.daysSince1970)
            ends.insert(period.to?.daysSince1970 ?? Int64.max)
        }
        let cuts = ends.sorted()
        var indexOfCut: [Int64: Int] = [:]
        for (index, cut) in cuts.enumerated() { indexOfCut[cut] = index }
        // Piece k is [cuts[k], cuts[k + 1]); `next[k]` leads to the first piece at or after k
        // not yet taken (cuts.count - 1 means none).
        var zoneOfPiece = [TimeZone?](repeating: nil, count: cuts.count - 1)
        var next = Array(0..<cuts.count)
        func firstFree(_ piece: Int) -> Int {
            var root = piece
            while next[root] != root { root = next[root] }
            var step = piece
            while step != root {
                let following = next[step]
                next[step] = root
                step = following
            }
            return root
        }
        for period in periods.reversed() {
            guard let first = indexOfCut[period.from.daysSince1970], let end = indexOfCut[period.to?.daysSince1970 ?? Int64.max] else { continue }
            var piece = firstFree(first)
            while piece < end {
                zoneOfPiece[piece] = period.zone
                next[piece] = piece + 1
                piece = firstFree(piece + 1)
            }
        }
        var pieces = zip(cuts, zoneOfPiece).map { (start: $0, zone: $1) }
        if let last = cuts.last, last != Int64.max { pieces.append((last, nil)) }
        return pieces
    }

    public static func == (lhs: ZoneTimeline, rhs: ZoneTimeline) -> Bool {
        lhs.home.identifier == rhs.home.identifier && lhs.stretchStarts == rhs.stretchStarts && lhs.stretchZones == rhs.stretchZones
            && lhs.zones.map(\.identifier) == rhs.zones.map(\.identifier)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(home.identifier)
        hasher.combine(stretchStarts)
        hasher.combine(stretchZones)
    }
}

extension [Int64] {
    /// The index of the last element at or before `value` in this ascending array, by binary
    /// search; 0 when none is (the first element stands for everything before it).
    func lastIndex(atOrBefore value: Int64) -> Int {
        var low = 0
        var high = count
        while high - low > 1 {
            let middle = (low + high) / 2
            if self[middle] <= value { low = middle } else { high = middle }
        }
        return low
    }
}
