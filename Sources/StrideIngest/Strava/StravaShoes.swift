import Foundation

/// A shoe of a Strava bulk export's `shoes.csv` (`Shoe Name, Shoe Brand, Shoe Model[, Shoe
/// Default Sport Types]`): the rack as Strava keeps it.
public struct StravaShoe: Equatable, Sendable {
    /// The name Strava shows: the shoe's own name, or "Brand Model" when it has none.
    public var name: String
    public var brand: String?
    public var model: String?
    /// Whether `Run` is among its default sport types: new runs went to it.
    public var isDefaultForRuns: Bool
    /// The line of `shoes.csv` it is on.
    public var line: Int

    /// The name `Activity Gear` gives a shoe: its name, or "Brand Model" with the spaces at the
    /// ends trimmed (a shoe with no model is "Brand").
    public static func displayName(name: String?, brand: String?, model: String?) -> String? {
        if let name = name?.trimmingCharacters(in: .whitespaces), !name.isEmpty { return name }
        let joined = [brand, model].compactMap { $0?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        return joined.isEmpty ? nil : joined
    }

    /// The shoes of `shoes.csv`'s rows, the header first.
    /// - Throws: ``StravaLayoutError`` for a header without the three columns; ``StravaRowError``
    ///   for a shoe with neither a name nor a brand nor a model.
    public static func rack(_ rows: [CSVRows.Row]) throws -> [StravaShoe] {
        guard let header = rows.first?.fields.map({ $0.trimmingCharacters(in: .whitespaces) }) else { return [] }
        let wanted = ["Shoe Name", "Shoe Brand", "Shoe Model"]
        let positions = wanted.map { header.firstIndex(of: $0) }
        guard let name = positions[0], let brand = positions[1], let model = positions[2] else {
            throw StravaLayoutError(missing: zip(wanted, positions).filter { $0.1 == nil }.map(\.0), generation: nil)
        }
        let sports = header.firstIndex(of: "Shoe Default Sport Types")
        return try rows.dropFirst().map { row in
            func field(_ index: Int?) -> String? {
                guard let index, index < row.fields.count else { return nil }
                let value = row.fields[index].trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : value
            }
            guard let shown = displayName(name: field(name), brand: field(brand), model: field(model)) else {
                throw StravaRowError(line: row.line, column: "Shoe Name", value: "", problem: "is empty, as are its brand and model")
            }
            // "Run" or "Run, Walk" (Strava lists the sport types a shoe is the default for).
            let isDefault = field(sports).map { $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "Run" } } ?? false
            return StravaShoe(name: shown, brand: field(brand), model: field(model), isDefaultForRuns: isDefault, line: row.line)
        }
    }
}
