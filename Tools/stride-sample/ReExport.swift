import ArgumentParser
import Foundation
import ZIPFoundation

/// `stride-sample reexport IN OUT`: an export written again as the Health app writes the same
/// history a little later. Every `HKDevice` address is another (it is the address of an object
/// in the phone's memory, new in every export), every date is printed with the offset of the
/// day of export (the same instants), and the export date moves on. Nothing else changes: a
/// ledger that has the first must find nothing new in the second.
struct ReExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reexport",
        abstract: "Write an export (zip or XML) again as a later export of the same history prints it.",
        discussion: """
            Device addresses are new, dates are printed with --offset (the same instants), and the \
            export date is --days-later days on. With --drop-every N, every Nth record is left out, \
            as if the runner had deleted it in the Health app before exporting again.
            """)

    @Argument(help: "The export to read: export.zip, or an export XML.")
    var input: String

    @Argument(help: "The XML file to write.")
    var output: String

    @Option(help: "The offset dates are printed with, like +0900 or -0500.")
    var offset = "+0900"

    @Option(help: "How many days after the original this export is made.")
    var daysLater = 30

    @Option(help: "Leave out every Nth top-level record (0: none).")
    var dropEvery = 0

    @Option(help: "The seed of the new device addresses.")
    var seed: UInt64 = 7

    func validate() throws {
        guard DateReprinter.offsetSeconds(offset) != nil else { throw ValidationError("--offset \(offset) is not like +0900 or -0500") }
        guard dropEvery >= 0 else { throw ValidationError("--drop-every must be 0 or more") }
        guard FileManager.default.fileExists(atPath: input) else { throw ValidationError("\(input) does not exist") }
        guard !FileManager.default.fileExists(atPath: output) else {
            throw ValidationError("\(output) already exists; choose another name or remove it first")
        }
    }

    func run() throws {
        let source = try Self.exportXML(input)
        var rewriter = ExportRewriter(
            offsetSeconds: DateReprinter.offsetSeconds(offset) ?? 0, exportDateShift: daysLater * 86_400, dropEvery: dropEvery, seed: seed)
        // Written as it is rewritten: an export may hold several gigabytes, and
        // Foundation's `createFile(atPath:contents:)` garbles a file past 2 GiB on Linux.
        let file = try XMLFileWriter(path: output)
        try rewriter.rewrite(source) { try file.write(bytes: $0) }
        try file.close()
        print("Wrote \(output): \(rewriter.records) records, \(rewriter.addresses) device addresses replaced, \(rewriter.dropped) left out.")
    }

    /// The export's XML: the file itself, or the export entry of a zip (the largest `.xml`
    /// that is not the clinical document).
    static func exportXML(_ path: String) throws -> Data {
        guard path.lowercased().hasSuffix(".zip") else { return try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) }
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        let entry = archive.filter { $0.path.lowercased().hasSuffix(".xml") && !$0.path.contains("_cda") }
            .max { $0.uncompressedSize < $1.uncompressedSize }
        guard let entry else { throw ValidationError("\(path) holds no export XML") }
        var data = Data()
        _ = try archive.extract(entry, skipCRC32: false) { data.append($0) }
        return data
    }
}

/// Rewrites an export's bytes line by line (the Health app writes one element a line).
struct ExportRewriter {
    let dates: DateReprinter
    let exportDateShift: Int
    let dropEvery: Int
    var generator: SplitMix64
    var newAddresses: [[UInt8]: [UInt8]] = [:]
    private(set) var records = 0
    private(set) var addresses = 0
    private(set) var dropped = 0
    private var isDropping = false

    init(offsetSeconds: Int, exportDateShift: Int, dropEvery: Int, seed: UInt64) {
        dates = DateReprinter(printer: DatePrinter(offsetSeconds: offsetSeconds))
        self.exportDateShift = exportDateShift
        self.dropEvery = dropEvery
        generator = SplitMix64(seed: seed)
    }

    /// Rewrites `source` line by line, handing each line kept to `emit`.
    mutating func rewrite(_ source: Data, emit: ([UInt8]) throws -> Void) throws {
        try source.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 10 { end += 1 }
                let line = Array(bytes[start..<min(end + 1, bytes.count)])
                if let kept = rewrite(line: line) { try emit(kept) }
                start = end + 1
            }
        }
    }

    /// One line rewritten, or nil when it is left out (a dropped record and its children).
    private mutating func rewrite(line: [UInt8]) -> [UInt8]? {
        let text = Array(line.drop { $0 == 32 || $0 == 9 })
        let trimmed = text.reversed().drop { $0 == 10 || $0 == 13 || $0 == 32 }
        if line.starts(with: Array(" <Record ".utf8)) {
            records += 1
            if dropEvery > 0, records % dropEvery == 0 {
                dropped += 1
                // A record with children is left out through its closing tag.
                isDropping = !Array(trimmed.prefix(2).reversed()).elementsEqual(Array("/>".utf8))
                return nil
            }
        } else if isDropping {
            if line.starts(with: Array(" </Record>".utf8)) { isDropping = false }
            return nil
        }
        let isExportDate = text.starts(with: Array("<ExportDate ".utf8))
        return dates.reprint(replaceAddresses(in: line), shiftingBy: isExportDate ? exportDateShift : 0)
    }

    private mutating func replaceAddresses(in line: [UInt8]) -> [UInt8] {
        let head = Array("HKDevice: 0x".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < line.count {
            if line[index] == head[0], line[index...].starts(with: head) {
                out.append(contentsOf: head)
                index += head.count
                var digits: [UInt8] = []
                while index < line.count, isHex(line[index]) {
                    digits.append(line[index])
                    index += 1
                }
                if !digits.isEmpty {
                    addresses += 1
                    if newAddresses[digits] == nil {
                        newAddresses[digits] = Array(String(0x2_8000_0000 + generator.next() % 0x7FFF_FFFF, radix: 16).utf8)
                    }
                    out.append(contentsOf: newAddresses[digits] ?? digits)
                }
                continue
            }
            out.append(line[index])
            index += 1
        }
        return out
    }

    private func isHex(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...102).contains(byte) || (65...70).contains(byte) }
}

/// Prints the dates of a line again with another offset: `yyyy-MM-dd HH:mm:ss ±hhmm` and iOS
/// 8's `yyyyMMddHHmmss±hhmm`, each in its own form, in the attributes that hold the times of
/// records and workouts (`startDate`, `endDate`, `creationDate`, `date`) and in the export date.
struct DateReprinter {
    let printer: DatePrinter

    static func offsetSeconds(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[0] == 43 || bytes[0] == 45, let hours = Int(text.dropFirst().prefix(2)),
            let minutes = Int(text.suffix(2))
        else { return nil }
        return (bytes[0] == 45 ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    func reprint(_ line: [UInt8], shiftingBy shift: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(line.count + 16)
        var index = 0
        while index < line.count {
            if line[index] == 34, let (end, instant, isCompact) = date(in: line, from: index + 1), isDateAttribute(line, quote: index) {
                out.append(34)
                let printed = printer.print(Date(timeIntervalSince1970: TimeInterval(instant + shift)))
                out.append(contentsOf: isCompact ? Self.compact(printed) : Array(printed.utf8))
                index = end
                continue
            }
            out.append(line[index])
            index += 1
        }
        return out
    }

    private func isDateAttribute(_ line: [UInt8], quote: Int) -> Bool {
        for name in ["startDate=", "endDate=", "creationDate=", " date=", "ExportDate value="] {
            let bytes = Array(name.utf8)
            if quote >= bytes.count, Array(line[(quote - bytes.count)..<quote]) == bytes { return true }
        }
        return false
    }

    /// A date starting at `start`, up to its closing quote: where the quote is, the instant in
    /// seconds, and whether it was written in iOS 8's compact form.
    private func date(in line: [UInt8], from start: Int) -> (Int, Int, Bool)? {
        guard let close = line[start...].firstIndex(of: 34) else { return nil }
        let text = String(decoding: line[start..<close], as: UTF8.self)
        let digits = text.filter(\.isNumber)
        guard let sign = text.last(where: { $0 == "+" || $0 == "-" }), digits.count == 18,
            let offsetText = text.split(separator: sign).last, offsetText.count == 4
        else { return nil }
        let numbers = Array(digits).map { Int(String($0)) ?? 0 }
        func value(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + numbers[$1] } }
        let (year, month, day) = (value(0..<4), value(4..<6), value(6..<8))
        let seconds = value(8..<10) * 3600 + value(10..<12) * 60 + value(12..<14)
        let offset = (sign == "-" ? -1 : 1) * (value(14..<16) * 3600 + value(16..<18) * 60)
        let instant = Self.daysFromCivil(year, month, day) * 86_400 + seconds - offset
        return (close, instant, !text.contains(" "))
    }

    /// `yyyy-MM-dd HH:mm:ss ±hhmm` as iOS 8 wrote it: `yyyyMMddHHmmss±hhmm`.
    private static func compact(_ printed: String) -> [UInt8] {
        let bytes = Array(printed.utf8)
        return bytes[0..<10].filter { $0 != 45 } + bytes[11..<19].filter { $0 != 58 } + bytes[20...]
    }

    private static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
