import StrideEvents
import Testing

@testable import StrideIngest

/// Garmin Connect's `gear.json`, as real account exports write it (see the fixtures' SOURCES.md).
@Suite("Garmin Connect's gear.json")
struct GarminGearTests {
    static func gear(_ text: String) throws -> GarminGear {
        try GarminGear(try Array(text.utf8).withUnsafeBytes { try JSONParser.parse($0) })
    }

    @Test("shoes on the rack with their status and goal, bikes left off, runs on their gear, the running default the default shoe")
    func rack() throws {
        let gear = try Self.gear(
            """
            [{"gearDTOS": [
                {"gearPk": 101, "gearTypeName": "Shoes", "gearStatusName": "active", "displayName": "Pegasus 40", "customMakeModel": "Nike Pegasus 40", "maximumMeters": 800000.0},
                {"gearPk": 102, "gearTypeName": "Shoes", "gearStatusName": "retired", "displayName": null, "customMakeModel": "Brooks Ghost 15", "retiredDate": 1704067200000, "maximumMeters": 0},
                {"gearPk": 201, "gearTypeName": "Bike", "gearStatusName": "active", "displayName": "Canyon"}
              ],
              "gearActivityDTOs": {"101": [{"gearPk": 101, "activityId": 9001}, {"gearPk": 101, "activityId": 9002}], "201": [{"gearPk": 201, "activityId": 9003}]},
              "gearActivityTypeDTOS": [{"activityType": "running", "gearPk": 101, "defaultFlag": true}, {"activityType": "cycling", "gearPk": 201, "defaultFlag": true}]
            }]
            """)
        #expect(gear.shoes.map(\.name) == ["Pegasus 40", "Brooks Ghost 15"])
        #expect(gear.shoes.map(\.isRetired) == [false, true])
        #expect(gear.shoes[1].retiredAt == Timestamp(millisecondsSince1970: 1_704_067_200_000))
        #expect(gear.shoes.map(\.goalMeters) == [800_000, nil])
        #expect(gear.shoes.map(\.isDefaultForRuns) == [true, false])
        #expect(gear.otherGear == 1)
        #expect(gear.gearOfActivity == ["9001": "101", "9002": "101", "9003": "201"])
    }

    @Test(
        "defaultFlag as archives write it: true, 1 and \"true\" in any case set it; false, 0, \"false\" and null do not; a missing one does",
        arguments: [
            ("true", true), ("1", true), (#""true""#, true), (#""TRUE""#, true), (#""True""#, true), ("false", false), ("0", false),
            (#""false""#, false), (#""FALSE""#, false), ("null", false), (nil, true),
        ] as [(String?, Bool)])
    func defaultFlag(written: String?, isDefault: Bool) throws {
        let flag = written.map { #", "defaultFlag": "# + $0 } ?? ""
        let gear = try Self.gear(
            #"[{"gearDTOS": [{"gearPk": 101, "gearTypeName": "Shoes", "gearStatusName": "active", "displayName": "Pegasus 40"}], "#
                + #""gearActivityTypeDTOS": [{"activityType": "running", "gearPk": 101"# + flag + "}]}]")
        #expect(gear.shoes.map(\.isDefaultForRuns) == [isDefault], "\(written ?? "missing")")
    }

    @Test("an account without gear writes [{}]")
    func empty() throws {
        let gear = try Self.gear("[{}]")
        #expect(gear.shoes.isEmpty && gear.otherGear == 0 && gear.gearOfActivity.isEmpty)
    }

    @Test(
        "a field not as Garmin writes it is named",
        arguments: [
            (#"[{"gearDTOS": {}}]"#, GarminFieldError(field: "gearDTOS", problem: "is not an array")),
            (#"[{"gearDTOS": [{"gearTypeName": "Shoes"}]}]"#, GarminFieldError(field: "gearDTOS[0].gearPk", problem: "is missing")),
            (
                #"[{"gearDTOS": [{"gearPk": 1, "gearTypeName": "Shoes"}]}]"#,
                GarminFieldError(field: "gearDTOS[0].displayName", problem: "is missing, as is customMakeModel")
            ),
            (#"[{}, {}]"#, GarminFieldError(field: "", problem: "holds 2 objects, not one")),
            (#""shoes""#, GarminFieldError(field: "", problem: "is neither an array nor an object")),
            (
                #"[{"gearActivityTypeDTOS": [{"activityType": "running", "gearPk": 101, "defaultFlag": "yes"}]}]"#,
                GarminFieldError(
                    field: "gearActivityTypeDTOS[0].defaultFlag", problem: #"is neither true nor false (true, 1, "true"; false, 0, "false")"#)
            ),
        ])
    func refusals(text: String, error: GarminFieldError) {
        #expect(throws: error) { try Self.gear(text) }
    }
}
