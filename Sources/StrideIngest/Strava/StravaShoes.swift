import Foundation

/// A shoe of a Strava bulk export's `shoes.csv` (`Shoe Name, Shoe Brand, Shoe Model[, Shoe
/// Default Sport Types]`; `name, brand, model` before 2019): the rack as Strava keeps it.
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

    /// The shoes of `shoes.csv`'s rows, the header first: none for a file that is empty or
    /// holds its header alone.
    ///
    /// The header is one of the generations Strava has written: lowercase `name, brand, model`
    /// before 2019; `Shoe Name, Shoe Brand, Shoe Model[, Shoe Default Sport Types]` since.
    /// - Throws: ``StravaLayoutError`` for a header of neither, naming the columns not found in
    ///   the closest; ``StravaRowError`` for a shoe with neither a name nor a brand nor a model.
    public static func rack(_ rows: [CSVRows.Row]) throws -> [StravaShoe] {
        guard let header = rows.first?.fields.map({ $0.trimmingCharacters(in: .whitespaces) }) else { return [] }
        let scored = layouts.map { generation, names in
            (generation, names, missing: [names.name, names.brand, names.model].filter { !header.contains($0) })
        }
        guard let closest = scored.min(by: { $0.missing.count < $1.missing.count }) else { return [] }
        guard closest.missing.isEmpty else {
            throw StravaLayoutError(missing: closest.missing, generation: closest.0, file: "shoes.csv")
        }
        let names = closest.1
        let (name, brand, model) = (header.firstIndex(of: names.name), header.firstIndex(of: names.brand), header.firstIndex(of: names.model))
        let sports = names.defaultSportTypes.flatMap { header.firstIndex(of: $0) }
        return try rows.dropFirst().map { row in
            func field(_ index: Int?) -> String? {
                guard let index, index < row.fields.count else { return nil }
                let value = row.fields[index].trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : value
            }
            guard let shown = displayName(name: field(name), brand: field(brand), model: field(model)) else {
                throw StravaRowError(line: row.line, column: names.name, value: "", problem: "is empty, as are its brand and model")
            }
            // "Run" or "Run, Walk" (Strava lists the sport types a shoe is the default for).
            let isDefault = field(sports).map { $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "Run" } } ?? false
            return StravaShoe(name: shown, brand: field(brand), model: field(model), isDefaultForRuns: isDefault, line: row.line)
        }
    }

    /// The columns of each generation of `shoes.csv`, as its header names them.
    private struct Names {
        var name, brand, model: String
        /// Where the generation is known to have one.
        var defaultSportTypes: String?
    }

    private static let layouts: [(StravaActivityLayout.Generation, Names)] = [
        (.english, Names(name: "Shoe Name", brand: "Shoe Brand", model: "Shoe Model", defaultSportTypes: "Shoe Default Sport Types")),
        (.snakeCase, Names(name: "name", brand: "brand", model: "model")),
    ]
}
