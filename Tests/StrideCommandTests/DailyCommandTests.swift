import Foundation
import StrideTestSupport
import Testing

/// Daily records end to end: figures checked against an independent reading of the same
/// files (a separate script reading the XML directly: deduplicated records, Paris days,
/// the same rules), which these expectations were taken from.
@Suite("stride daily, rebuild, replay and verify")
struct DailyCommandTests {
    let stride = builtExecutable("stride")
    let sample = builtExecutable("stride-sample")

    func days(_ ledger: String, _ extra: [String] = []) throws -> [String: [String: Any]] {
        let result = try runProcess(stride, ["--ledger", ledger, "daily", "--json"] + extra)
        let document = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let days = (document?["days"] as? [[String: Any]]) ?? []
        return Dictionary(uniqueKeysWithValues: days.map { ($0["date"] as? String ?? "", $0) })
    }

    func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    @Test("the grafana export's days match an independent reading", .enabled(if: fixturesFolder() != nil, "needs ../shared/fixtures"))
    func grafanaDays() throws {
        let fixtures = try #require(fixturesFolder())
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = folder + "/ledger"
            _ = try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"])
            #expect(try runProcess(stride, ["--ledger", ledger, "ingest", fixtures + "/apple-health-grafana/test-export.zip"]).status == 0)
            let all = try days(ledger)
            let november = try #require(all["2021-11-30"])
            let heart = try #require(november["heartRate"] as? [String: Any])
            #expect(abs((number(heart["average"]) ?? 0) - 61.67911584699453) < 1e-9)
            #expect(number(heart["minimum"]) == 44)
            #expect(number(heart["maximum"]) == 115)
            #expect(number(heart["count"]) == 183)
            #expect(number(november["steps"]) == 8991)
            #expect(abs((number(november["distanceMeters"]) ?? 0) - 6688.6144) < 1e-6)
            #expect(abs((number(november["activeEnergyKilocalories"]) ?? 0) - 254.86695889101355) < 1e-6)
            #expect(number(november["restingHeartRate"]) == 50)
            let december = try #require(all["2021-12-01"])
            #expect(number(december["steps"]) == 11693)
            #expect(december["activeEnergyKilocalories"] is NSNull)
            let night = try #require(all["2021-01-02"]?["sleep"] as? [String: Any])
            #expect(number(night["inBed"]) == 23347)
            #expect(night["source"] as? String == "other")
            #expect(night["asleep"] is NSNull)
            #expect(number(all["2021-01-03"]?["restingHeartRate"]) == 45)
        }
    }

    @Test("generated days across the spring change match an independent reading; the 23-hour day has 276 heart-rate samples")
    func generatedDays() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let export = folder + "/export.xml"
            #expect(try runProcess(sample, [export, "--days", "3", "--start", "2024-03-30"]).status == 0)
            let ledger = folder + "/ledger"
            _ = try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"])
            #expect(try runProcess(stride, ["--ledger", ledger, "ingest", export]).status == 0)
            let all = try days(ledger, ["--from", "2024-03-30", "--to", "2024-04-01"])
            let expectations: [(String, Double, Int, Double, Double, Double, [Int])] = [
                // date, HR average, HR count, steps, metres, kcal, [core, deep, REM, awake, unspecified, asleep]
                ("2024-03-30", 77.80902777777777, 288, 19037, 13991.7, 640.5900000000005, [14137, 7721, 6963, 1910, 0, 28821]),
                ("2024-03-31", 78.41666666666667, 276, 19729, 14504.7, 641.3510227272727, [14646, 6110, 5631, 1474, 0, 26387]),
                ("2024-04-01", 77.51388888888889, 288, 18804, 13820.0, 676.1089772727271, [15842, 8424, 5519, 599, 1500, 31285]),
            ]
            for (date, average, count, steps, metres, kcal, sleep) in expectations {
                let day = try #require(all[date])
                let heart = try #require(day["heartRate"] as? [String: Any])
                #expect(abs((number(heart["average"]) ?? 0) - average) < 1e-9, "\(date)")
                #expect(number(heart["count"]) == Double(count), "\(date)")
                #expect(abs((number(day["steps"]) ?? 0) - steps) < 1e-6, "\(date)")
                #expect(abs((number(day["distanceMeters"]) ?? 0) - metres) < 1e-6, "\(date)")
                #expect(abs((number(day["activeEnergyKilocalories"]) ?? 0) - kcal) < 1e-6, "\(date)")
                let night = try #require(day["sleep"] as? [String: Any])
                let stages = ["asleepCore", "asleepDeep", "asleepREM", "awake", "asleepUnspecified", "asleep"].map { number(night[$0]) ?? -1 }
                #expect(stages == sleep.map(Double.init), "\(date)")
                #expect(number(night["inBed"]) == 0)
                #expect(night["source"] as? String == "watch")
            }
        }
    }

    @Test("rebuild and replay agree with the incremental state; verify compares them; a range is inclusive")
    func rebuildReplayVerify() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let export = folder + "/export.xml"
            #expect(try runProcess(sample, [export, "--days", "6", "--start", "2024-05-01"]).status == 0)
            let ledger = folder + "/ledger"
            _ = try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"])
            #expect(try runProcess(stride, ["--ledger", ledger, "ingest", "--batch-size", "700", export]).status == 0)
            let incremental = try runProcess(stride, ["--ledger", ledger, "daily", "--json"]).standardOutput
            let stats =
                try JSONSerialization.jsonObject(with: Data(try runProcess(stride, ["--ledger", ledger, "stats", "--json"]).standardOutput.utf8))
                as? [String: Any]
            let last = try #require(stats?["lastSequence"] as? Int)
            let replayed = try runProcess(stride, ["--ledger", ledger, "replay", "--until", String(last), "--json"])
            let replay = try #require(try JSONSerialization.jsonObject(with: Data(replayed.standardOutput.utf8)) as? [String: Any])
            let daily = try #require(try JSONSerialization.jsonObject(with: Data(incremental.utf8)) as? [String: Any])
            #expect((replay["days"] as? NSArray) == (daily["days"] as? NSArray))
            for key in ["sequence", "shoes", "points", "days"] { #expect(replay[key] != nil, "replay has \(key)") }
            #expect(try runProcess(stride, ["--ledger", ledger, "rebuild"]).status == 0)
            #expect(try runProcess(stride, ["--ledger", ledger, "daily", "--json"]).standardOutput == incremental)
            let verify = try runProcess(stride, ["--ledger", ledger, "verify"])
            #expect(verify.status == 0)
            #expect(verify.standardOutput.contains("Projection daily matches a rebuild"))
            let range = try days(ledger, ["--from", "2024-05-02", "--to", "2024-05-03"])
            #expect(Set(range.keys) == ["2024-05-02", "2024-05-03"])
            let early = try runProcess(stride, ["--ledger", ledger, "replay", "--until", "1", "--json"])
            #expect(early.standardOutput.contains("\"days\":[]"))
            let unknown = try runProcess(stride, ["--ledger", ledger, "rebuild", "mileage-of-the-moon"])
            #expect(unknown.status == 1)
            #expect(unknown.standardError.contains("daily"))
        }
    }

    @Test("daily explain prints each measure's samples with a running total ending at the figure, pages them, and refuses what it cannot read")
    func explain() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = folder + "/ledger"
            let file = folder + "/day.ndjson"
            try """
            {"type":"HKQuantityTypeIdentifierStepCount","value":1200,"unit":"count","start":"2024-05-30T08:00:00+02:00","end":"2024-05-30T09:00:00+02:00","device":"watch"}
            {"type":"HKQuantityTypeIdentifierStepCount","value":900,"unit":"count","start":"2024-05-30T08:30:00+02:00","end":"2024-05-30T09:30:00+02:00","device":"phone"}

            """.write(toFile: file, atomically: true, encoding: .utf8)
            _ = try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"])
            #expect(try runProcess(stride, ["--ledger", ledger, "ingest", file]).status == 0)
            let text = try runProcess(stride, ["--ledger", ledger, "daily", "explain", "2024-05-30", "--measure", "steps"])
            #expect(text.status == 0)
            #expect(text.standardOutput.contains("Steps: 1,650 steps — the figure `stride daily` prints."))
            #expect(text.standardOutput.contains("counted in part: the watch took some of its time"))
            #expect(text.standardOutput.contains("Stretches won: 08:00–09:00 watch 1,200 · 09:00–09:30 phone 450"))
            let page = try runProcess(stride, ["--ledger", ledger, "daily", "explain", "2024-05-30", "--measure", "steps", "--limit", "1", "--json"])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(page.standardOutput.utf8)) as? [String: Any])
            let steps = try #require((document["measures"] as? [[String: Any]])?.first)
            #expect(steps["samplesTotal"] as? Int == 2)
            #expect((steps["samples"] as? [Any])?.count == 1)
            for bad in [["2024-13-40"], ["2024-05-30", "--measure", "mood"], ["2024-05-30", "--limit", "0"]] {
                let refused = try runProcess(stride, ["--ledger", ledger, "daily", "explain"] + bad)
                #expect(refused.status == 64, "\(bad)")
                #expect(!refused.standardError.isEmpty)
            }
            // The old spelling still reads the records.
            #expect(try runProcess(stride, ["--ledger", ledger, "daily", "--from", "2024-05-30"]).standardOutput.contains("2024-05-30"))
        }
    }
}
