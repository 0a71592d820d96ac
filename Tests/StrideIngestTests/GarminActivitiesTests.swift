import StrideEvents
import Testing

@testable import StrideIngest

/// Garmin Connect's `summarizedActivities.json`, as real account exports write it.
@Suite("Garmin Connect's summarized activities")
struct GarminActivitiesTests {
    static func read(_ text: String) throws -> [GarminActivity] {
        try GarminActivities.read(try Array(text.utf8).withUnsafeBytes { try JSONParser.parse($0) })
    }

    @Test("durations in ms, distances in cm, times in epoch ms with the local start beside: hand-computed")
    func units() throws {
        let read = try Self.read(
            """
            [{"summarizedActivitiesExport": [
              {"activityId": 12345678901, "name": "Morning Run", "activityType": "running", "startTimeGmt": 1704096000000.0,
               "startTimeLocal": 1704115800000.0, "duration": 1834567.0, "distance": 521340.0, "avgSpeed": 0.2841, "avgHr": 148.0, "maxHr": 171.0},
              {"activityId": 12345678902, "name": "Treadmill", "activityType": {"typeKey": "treadmill_running"}, "startTimeGmt": 1704182400000,
               "duration": 1800000, "distance": 500000},
              {"activityId": 12345678903, "name": "Ride", "activityType": "cycling", "startTimeGmt": 1704268800000, "startTimeLocal": 1704272400000}
            ]}]
            """)
        #expect(read.map(\.id) == ["12345678901", "12345678902", "12345678903"])
        #expect(read.map(\.isRun) == [true, true, false])
        #expect(read[0].start == Timestamp(millisecondsSince1970: 1_704_096_000_000))
        // 19,800,000 ms = 5 h 30 min: a run in India.
        #expect(read[0].localOffsetSeconds == 19_800)
        #expect(read[0].durationSeconds == 1_834.567)
        #expect(read[0].distanceMeters == 5_213.4)
        #expect(read[0].averageHeartRate == 148 && read[0].maximumHeartRate == 171)
        #expect(read[1].type == "treadmill_running" && read[1].localOffsetSeconds == 0)
        #expect(read[2].localOffsetSeconds == 3_600 && read[2].distanceMeters == nil)
    }

    @Test(
        "a field not as Garmin writes it is named with its path",
        arguments: [
            ("{}", GarminFieldError(field: "", problem: "is not an array")),
            (#"[{"summarizedActivitiesExport": {}}]"#, GarminFieldError(field: "[0].summarizedActivitiesExport", problem: "is not an array")),
            (
                #"[{"summarizedActivitiesExport": [{"activityId": 1, "startTimeGmt": 0}, {"startTimeGmt": 0}]}]"#,
                GarminFieldError(field: "[0].summarizedActivitiesExport[1].activityId", problem: "is missing")
            ),
            (
                #"[{"summarizedActivitiesExport": [{"activityId": 1, "startTimeGmt": 0, "distance": "far"}]}]"#,
                GarminFieldError(field: "[0].summarizedActivitiesExport[0].distance", problem: "is not a number")
            ),
            (
                #"[{"summarizedActivitiesExport": [{"activityId": 1, "startTimeGmt": 0, "startTimeLocal": 90000000}]}]"#,
                GarminFieldError(field: "[0].summarizedActivitiesExport[0].startTimeLocal", problem: "is more than 14 hours from startTimeGmt")
            ),
        ])
    func refusals(text: String, error: GarminFieldError) {
        #expect(throws: error) { try Self.read(text) }
    }
}
