import StrideEvents

extension Ledger {
    /// How far ahead of the ledger's clock a user's action may be dated: five minutes.
    ///
    /// An action dated in the future would earn points, or move a shoe, for a day that has
    /// not come. Zero would refuse honest use, though: the time is often typed on another
    /// device (a phone, the coming HTTP server's client) whose clock runs a little ahead, or
    /// rounded up to the next minute. NTP keeps clocks within well under a second, and an
    /// unsynchronised clock drifts by seconds a day, so five minutes covers that with room to
    /// spare while no local day, check-in or journal tier is within reach of it.
    public static let allowedClockSkewMilliseconds: Int64 = 5 * 60 * 1000

    /// The instant a user's action is recorded at: `at` when given — any time since the
    /// Health app's first year (``Plausible/firstInstant``), for back-dating, or up to
    /// ``allowedClockSkewMilliseconds`` ahead of the clock — else the clock's now. Every
    /// action that takes a time goes through here.
    /// - Throws: ``LedgerError/aheadOfClock(at:clock:timeZone:)`` when `at` is later than
    ///   that, ``ValueRefusal`` when earlier; nothing is appended then.
    public func actionInstant(_ at: Timestamp?) throws -> Timestamp {
        let now = clock.now()
        guard let at else { return now }
        guard at >= Plausible.firstInstant else {
            throw ValueRefusal(
                what: "the time", value: at.description, allowed: "on or after \(Plausible.firstDayText)",
                why: "the Health app and Stride began later")
        }
        guard at <= now.adding(milliseconds: Self.allowedClockSkewMilliseconds) else {
            throw LedgerError.aheadOfClock(at: at, clock: now, timeZone: timeZoneIdentifier)
        }
        return at
    }
}
