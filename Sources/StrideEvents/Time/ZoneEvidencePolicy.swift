import Foundation

/// The periods away from home that the inputs' clocks show, for a ``ZoneTimeline``'s
/// evidence (the runner's own periods are laid over them).
///
/// The rule, in order:
/// 1. Each observation is read as a zone. A named zone is itself. A bare offset (rounded to
///    the quarter hour) is home when the home zone had that offset at that instant; else the
///    named zone observed nearest in time, within ``namingReach``, that had it then; else a
///    fixed offset (``fixedOffsetZone(seconds:)``). An offset beyond ±18 hours is no evidence.
/// 2. Observations are taken in time order (ties by reading, then source), each dated in its
///    zone. One whose neighbours on both sides are in other zones is a lone observation:
///    noise or a day trip, not a move, and it is dropped (so a watch whose clock was not
///    changed does not break a stay).
/// 3. Consecutive observations in one zone make a stay. A stay away from home makes a period
///    only when it lasts over a local midnight: its observations lie on at least two of its
///    local dates. The period holds the dates from its first observation's to its last's.
///    Home stays make no period but hold their dates.
/// 4. A date held by two stays (a move during the day) goes to the earlier one: the date
///    began there. Crossing the date line westwards, the later stay starts after the earlier
///    one's last date.
/// 5. One date with no observation between two stays (the date a flight east skips or
///    spends in the air) goes to the stay before: given to the stay after, it would make the
///    last date seen in the stay before last no time at all. Other dates without evidence
///    are home: a trip is not extended past the last date it was seen, nor inferred across a
///    longer silence.
///
/// The result depends only on the set of observations, never on their order.
public enum ZoneEvidencePolicy {
    /// How far in time, either side, a named zone's observation names a bare offset that
    /// matches it: 48 hours.
    public static let namingReach: Int64 = 48 * 3600
    /// The dates without observation between two stays that the earlier stay takes: 1.
    public static let bridgedDates: Int64 = 1
    /// The largest offset, either side of UTC, read as evidence: 18 hours.
    public static let largestOffset = 18 * 3600

    /// The periods away from home the observations show, in date order, none overlapping.
    public static func periods(home: TimeZone, observations: some Sequence<ZoneObservation>) -> [ZonePeriod] {
        var zones = ZoneIndex(home: home)
        let ordered = Set(observations).map { (observation: $0, reading: $0.reading.description) }.sorted { lhs, rhs in
            if lhs.observation.instant != rhs.observation.instant { return lhs.observation.instant < rhs.observation.instant }
            if lhs.reading != rhs.reading { return lhs.reading < rhs.reading }
            return lhs.observation.source.rawValue < rhs.observation.source.rawValue
        }.map(\.observation)
        let named = namedStays(ordered, zones: &zones)
        var sightings: [Sighting] = []
        for observation in ordered {
            let zone: Int?
            switch observation.reading {
            case .zone(let timeZone): zone = zones.index(of: timeZone)
            case .offset(let seconds): zone = self.zone(ofOffset: seconds, at: observation.instant, named: named, zones: &zones)
            }
            guard let zone else { continue }
            sightings.append(Sighting(zone: zone, day: zones.calendars[zone].dayNumber(of: observation.instant)))
        }
        let stays = self.stays(of: sightings)
        let claims = bridged(self.claims(of: stays))
        var periods: [ZonePeriod] = []
        for claim in claims where claim.zone != 0 {
            let from = CivilDate(daysSince1970: claim.firstDay)
            let to = CivilDate(daysSince1970: claim.lastDay + 1)
            if let last = periods.last, last.zone.identifier == zones.zones[claim.zone].identifier, last.to == from {
                periods[periods.count - 1].to = to
            } else {
                periods.append(ZonePeriod(zones.zones[claim.zone], from: from, to: to))
            }
        }
        return periods
    }

    /// The zone of a fixed offset (seconds east of UTC): `Etc/GMT-7` for UTC+7 (the IANA
    /// names count the other way), `Etc/GMT` for UTC, and for an offset of part of an hour or
    /// beyond the `Etc` names (UTC−12 to UTC+14) Foundation's fixed zone, named like
    /// `GMT+0530`. Nil beyond ±18 hours.
    public static func fixedOffsetZone(seconds: Int) -> TimeZone? {
        guard abs(seconds) <= largestOffset else { return nil }
        if seconds % 3600 == 0, (-12...14).contains(seconds / 3600) {
            let hours = seconds / 3600
            let name = hours == 0 ? "Etc/GMT" : hours > 0 ? "Etc/GMT-\(hours)" : "Etc/GMT+\(-hours)"
            if let zone = TimeZone(identifier: name) { return zone }
        }
        return TimeZone(secondsFromGMT: seconds)
    }

    /// An observation's zone (as an index) and its local date, as days since 1970.
    struct Sighting {
        var zone: Int
        var day: Int64
    }

    /// Consecutive observations in one zone: the zone and their first and last dates.
    struct Stay {
        var zone: Int
        var firstDay: Int64
        var lastDay: Int64
    }

    /// The zones met so far, home first, each with its calendar built once.
    struct ZoneIndex {
        private(set) var zones: [TimeZone]
        private(set) var calendars: [LocalCalendar]
        private var indexOfIdentifier: [String: Int]

        init(home: TimeZone) {
            zones = [home]
            calendars = [LocalCalendar(timeZone: home)]
            indexOfIdentifier = [home.identifier: 0]
        }

        mutating func index(of zone: TimeZone) -> Int {
            if let index = indexOfIdentifier[zone.identifier] { return index }
            indexOfIdentifier[zone.identifier] = zones.count
            zones.append(zone)
            calendars.append(LocalCalendar(timeZone: zone))
            return zones.count - 1
        }
    }

    /// The named zones' observations as stays in time: the zone and the first and last
    /// instants (seconds) it was seen without another named zone between.
    private static func namedStays(_ ordered: [ZoneObservation], zones: inout ZoneIndex) -> [(zone: Int, first: Int64, last: Int64)] {
        var stays: [(zone: Int, first: Int64, last: Int64)] = []
        for observation in ordered {
            guard case .zone(let timeZone) = observation.reading else { continue }
            let zone = zones.index(of: timeZone)
            let second = observation.instant.secondsSince1970
            if let last = stays.last, last.zone == zone {
                stays[stays.count - 1].last = second
            } else {
                stays.append((zone, second, second))
            }
        }
        return stays
    }

    /// The zone a bare offset at an instant stands for (rule 1), or nil when it is no evidence.
    private static func zone(
        ofOffset seconds: Int, at instant: Timestamp, named: [(zone: Int, first: Int64, last: Int64)], zones: inout ZoneIndex
    ) -> Int? {
        let offset = Int((Double(seconds) / 900).rounded()) * 900
        guard abs(offset) <= largestOffset else { return nil }
        if zones.calendars[0].offset(at: instant) == offset { return 0 }
        let second = instant.secondsSince1970
        // The first named stay that starts after the instant; those before it end in time order.
        var low = 0
        var high = named.count
        while low < high {
            let middle = (low + high) / 2
            if named[middle].first <= second { low = middle + 1 } else { high = middle }
        }
        var best: (distance: Int64, identifier: String, zone: Int)?
        func consider(_ stay: (zone: Int, first: Int64, last: Int64)) {
            guard zones.calendars[stay.zone].offset(at: instant) == offset else { return }
            let distance = stay.first > second ? stay.first - second : max(0, second - stay.last)
            let candidate = (distance, zones.zones[stay.zone].identifier, stay.zone)
            if let current = best, (current.distance, current.identifier) <= (candidate.0, candidate.1) { return }
            best = candidate
        }
        var before = low - 1
        while before >= 0, named[before].last >= second - namingReach {
            consider(named[before])
            before -= 1
        }
        var after = low
        while after < named.count, named[after].first <= second + namingReach {
            consider(named[after])
            after += 1
        }
        if let best { return best.zone }
        return fixedOffsetZone(seconds: offset).map { zones.index(of: $0) }
    }

    /// The stays of the sightings once lone ones are dropped (rules 2 and 3).
    static func stays(of sightings: [Sighting]) -> [Stay] {
        var stays: [Stay] = []
        for (index, sighting) in sightings.enumerated() {
            let agreesBefore = index > 0 && sightings[index - 1].zone == sighting.zone
            let agreesAfter = index + 1 < sightings.count && sightings[index + 1].zone == sighting.zone
            guard agreesBefore || agreesAfter else { continue }
            if let last = stays.last, last.zone == sighting.zone {
                stays[stays.count - 1].lastDay = max(last.lastDay, sighting.day)
            } else {
                stays.append(Stay(zone: sighting.zone, firstDay: sighting.day, lastDay: sighting.day))
            }
        }
        return stays
    }

    /// The dates each stay holds (rules 3 and 4): home stays and stays away that last over a
    /// midnight, each from the date after the last one an earlier stay held.
    static func claims(of stays: [Stay]) -> [Stay] {
        var claims: [Stay] = []
        var lastHeld: Int64?
        for stay in stays where stay.zone == 0 || stay.lastDay > stay.firstDay {
            let first = lastHeld.map { max(stay.firstDay, $0 + 1) } ?? stay.firstDay
            if first <= stay.lastDay { claims.append(Stay(zone: stay.zone, firstDay: first, lastDay: stay.lastDay)) }
            lastHeld = max(lastHeld ?? stay.lastDay, stay.lastDay)
        }
        return claims
    }

    /// The claims with a short silence between two given to the earlier (rule 5).
    static func bridged(_ claims: [Stay]) -> [Stay] {
        var claims = claims
        for index in claims.indices.dropLast() {
            let silence = claims[index + 1].firstDay - claims[index].lastDay - 1
            if silence > 0, silence <= bridgedDates { claims[index].lastDay += silence }
        }
        return claims
    }
}
