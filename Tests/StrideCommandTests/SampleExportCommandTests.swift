import Foundation
import StrideTestSupport
import Testing

/// `stride-sample`, the bundled export generator: dated as a real export is, whichever way
/// its length is given.
@Suite("stride-sample's exports")
struct SampleExportCommandTests {
    let sample = builtExecutable("stride-sample")

    @Test("an export is dated the morning after its last day, by --days or by --megabytes", arguments: [["--days", "3"], ["--megabytes", "1"]])
    func exportDate(length: [String]) throws {
        try withTemporaryDirectory { folder in
            let file = folder + "/export.xml"
            let made = try runProcess(sample, [file] + length + ["--start", "2023-03-10", "--time-zone", "Europe/Paris"])
            #expect(made.status == 0, "\(made.standardError)")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let exportDate = try #require(text.firstMatch(of: /<ExportDate value="(\d{4}-\d{2}-\d{2}) 10:00:00 \+0100"/)?.1)
            let lastDay = try #require(text.matches(of: /startDate="(\d{4}-\d{2}-\d{2})/).map { String($0.1) }.max())
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd"
            formatter.timeZone = TimeZone(identifier: "UTC")
            let next = try #require(formatter.date(from: lastDay)).addingTimeInterval(86_400)
            #expect(String(exportDate) == formatter.string(from: next))
        }
    }
}
