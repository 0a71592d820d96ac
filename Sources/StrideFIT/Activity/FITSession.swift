/// A FIT `session` message: the summary of one activity in a file. A multisport file holds
/// one per leg (and transitions), sometimes one more spanning them all.
public struct FITSession: Hashable, Sendable {
    /// Its place among the file's sessions, from 0, counted across chained files.
    public var index: Int
    /// The sport's number (1 running, 2 cycling…), see ``FITNames/sport(_:)``.
    public var sport: UInt8?
    /// The sub-sport's number (1 treadmill, 3 trail…), see ``FITNames/subSport(_:)``.
    public var subSport: UInt8?
    /// When it started.
    public var startTime: FITDateTime?
    /// The message's timestamp: when the session ended.
    public var timestamp: FITDateTime?
    /// Seconds from start to end, pauses included.
    public var totalElapsedTime: Double?
    /// Seconds the timer ran: pauses excluded.
    public var totalTimerTime: Double?
    /// Metres.
    public var totalDistance: Double?
    /// Kilocalories.
    public var totalCalories: Int?
    /// Beats per minute.
    public var averageHeartRate: Int?
    /// Beats per minute.
    public var maximumHeartRate: Int?
    /// Metres climbed.
    public var totalAscent: Int?
    /// Laps in the session.
    public var numberOfLaps: Int?

    /// Reads a `session` message (global number 18), the `index`-th of its file.
    init(_ message: FITMessage, index: Int) {
        self.index = index
        sport = message.unsigned(5).map { UInt8(truncatingIfNeeded: $0) }
        subSport = message.unsigned(6).map { UInt8(truncatingIfNeeded: $0) }
        startTime = message.dateTime(2)
        timestamp = message.timestamp
        totalElapsedTime = message.scaled(7, scale: 1000)
        totalTimerTime = message.scaled(8, scale: 1000)
        totalDistance = message.scaled(9, scale: 100)
        totalCalories = message.unsigned(11).map { Int($0) }
        averageHeartRate = message.unsigned(16).map { Int($0) }
        maximumHeartRate = message.unsigned(17).map { Int($0) }
        totalAscent = message.unsigned(22).map { Int($0) }
        numberOfLaps = message.unsigned(26).map { Int($0) }
    }

    /// Creates a session from its values.
    public init(
        index: Int, sport: UInt8?, subSport: UInt8?, startTime: FITDateTime?, timestamp: FITDateTime? = nil,
        totalElapsedTime: Double?, totalTimerTime: Double?, totalDistance: Double?, totalCalories: Int?,
        averageHeartRate: Int?, maximumHeartRate: Int?, totalAscent: Int? = nil, numberOfLaps: Int? = nil
    ) {
        self.index = index
        self.sport = sport
        self.subSport = subSport
        self.startTime = startTime
        self.timestamp = timestamp
        self.totalElapsedTime = totalElapsedTime
        self.totalTimerTime = totalTimerTime
        self.totalDistance = totalDistance
        self.totalCalories = totalCalories
        self.averageHeartRate = averageHeartRate
        self.maximumHeartRate = maximumHeartRate
        self.totalAscent = totalAscent
        self.numberOfLaps = numberOfLaps
    }
}
