/// The story issue 27 told of a ledger's two times, for the command-line and the server's
/// tests of `--as-of` / `?asOf=` and `--as-recorded` / `?asRecorded=`: a shoe set as default
/// in 2018, and these runs of 2019–2024 ingested years later.
public enum TimeTravelStory {
    /// The runs as NDJSON workouts (km): 5 in 2019, 10 in 2021, 4.25 under way at
    /// 2023-06-01T00:00Z, 8 later that day, 21 in 2024.
    public static let runs = [
        #"{"activity":"HKWorkoutActivityTypeRunning","start":"2019-03-10T07:00:00Z","end":"2019-03-10T07:30:00Z","distance":5,"distanceUnit":"km","id":"r2019"}"#,
        #"{"activity":"HKWorkoutActivityTypeRunning","start":"2021-07-04T07:00:00Z","end":"2021-07-04T08:00:00Z","distance":10,"distanceUnit":"km","id":"r2021"}"#,
        #"{"activity":"HKWorkoutActivityTypeRunning","start":"2023-05-31T23:45:00Z","end":"2023-06-01T00:15:00Z","distance":4.25,"distanceUnit":"km","id":"r2023a"}"#,
        #"{"activity":"HKWorkoutActivityTypeRunning","start":"2023-06-01T08:00:00Z","end":"2023-06-01T08:45:00Z","distance":8,"distanceUnit":"km","id":"r2023b"}"#,
        #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-04-20T07:00:00Z","end":"2024-04-20T09:00:00Z","distance":21,"distanceUnit":"km","id":"r2024"}"#,
    ].joined(separator: "\n")
}
