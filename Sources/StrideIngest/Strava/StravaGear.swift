import Foundation

/// Which of the archive's shoes each row of Strava's `activities.csv` was run in. Pure.
///
/// A row names its gear by `Activity Gear` (the shoe's name, or "Brand Model") and by `Gear`
/// (the shoe's id), or by one of the two:
/// - a name and an id: the shoe of that id, which `shoes.csv` lists under that name (the first
///   listed shoe of the name not taken by another id, in `shoes.csv` order); ids beyond the
///   listed shoes of a name are shoes of their own;
/// - an id alone: the shoe other rows name with that id; an id no row names is a shoe known
///   only by its id, which joins the rack only where the runner says which shoe it is;
/// - a name alone: the shoe of that name when one shoe has it; when rows name two ids under
///   it, which of them the row means is not written, so the rows are set apart
///   (``AccountArchive/Shoe/candidates``) until the runner says which rack shoe they are.
///
/// Only runs make shoes: a ride's gear is a bike, and a walk in a shoe is counted on a shoe
/// the runs or `shoes.csv` name.
enum StravaGear {
    /// What a row says of its gear.
    struct Named: Equatable {
        var name: String?
        var id: String?
        var line: Int
        var isRun = true
    }

    /// The archive's shoes — the listed ones first, in their order, then the ones only rows
    /// name — and each row's shoe (an index into them; nil for a row on no gear).
    static func resolve(_ rows: [Named], listed: [AccountArchive.Shoe]) -> (shoes: [AccountArchive.Shoe], shoeOfRow: [Int?]) {
        var shoes = listed
        let rows = rows.map { row in
            Named(
                name: row.name.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }, id: row.id, line: row.line,
                isRun: row.isRun)
        }
        // The names rows give each id, and the ids rows give each name, in order of appearance.
        var nameOfID: [String: String] = [:]
        var idsOfName: [String: [String]] = [:]
        for row in rows {
            guard let name = row.name, let id = row.id else { continue }
            if nameOfID[id] == nil { nameOfID[id] = name }
            if !(idsOfName[key(name)] ?? []).contains(id) { idsOfName[key(name), default: []].append(id) }
        }
        var shoeOfID: [String: Int] = [:]
        var shoeOfName: [String: Int] = [:]
        var setApart: [String: Int] = [:]
        var mayAddShoes = true
        func listedShoe(named name: String, notAmong taken: Set<Int>) -> Int? {
            shoes.indices.first { $0 < listed.count && key(shoes[$0].name) == key(name) && !taken.contains($0) }
        }
        func shoe(of row: Named) -> Int? {
            if let id = row.id {
                if let known = shoeOfID[id] { return known }
                if let name = row.name ?? nameOfID[id] {
                    if let found = listedShoe(named: name, notAmong: Set(shoeOfID.values)), shoes[found].gearID == nil {
                        shoes[found].gearID = id
                        shoeOfID[id] = found
                    } else {
                        guard mayAddShoes else { return nil }
                        let template = shoes.first { key($0.name) == key(name) }
                        shoes.append(
                            AccountArchive.Shoe(
                                name: name, brand: template?.brand, gearID: id, place: "activities.csv line \(row.line) (Activity Gear)"))
                        shoeOfID[id] = shoes.count - 1
                    }
                } else {
                    guard mayAddShoes else { return nil }
                    shoes.append(
                        AccountArchive.Shoe(
                            name: "Strava gear \(id)", isListed: false, gearID: id, place: "activities.csv line \(row.line) (Gear \(id), no name)"))
                    shoeOfID[id] = shoes.count - 1
                }
                return shoeOfID[id]
            }
            guard let name = row.name else { return nil }
            let ids = idsOfName[key(name)] ?? []
            if ids.count == 1 { return shoe(of: Named(name: name, id: ids[0], line: row.line)) }
            if ids.isEmpty {
                if let known = shoeOfName[key(name)] { return known }
                if let found = listedShoe(named: name, notAmong: []) {
                    shoeOfName[key(name)] = found
                } else {
                    guard mayAddShoes else { return nil }
                    shoes.append(AccountArchive.Shoe(name: name, place: "activities.csv line \(row.line) (Activity Gear)"))
                    shoeOfName[key(name)] = shoes.count - 1
                }
                return shoeOfName[key(name)]
            }
            if let known = setApart[key(name)] { return known }
            guard mayAddShoes else { return nil }
            let candidates = ids.compactMap { shoe(of: Named(name: name, id: $0, line: row.line)) }
            var apart = AccountArchive.Shoe(
                name: name, isListed: false, place: "activities.csv rows naming \(name) without a gear id (the first on line \(row.line))")
            apart.candidates = candidates
            shoes.append(apart)
            setApart[key(name)] = shoes.count - 1
            return setApart[key(name)]
        }
        var shoeOfRow = [Int?](repeating: nil, count: rows.count)
        for index in rows.indices where rows[index].isRun { shoeOfRow[index] = shoe(of: rows[index]) }
        // Another activity goes on a shoe only if there is one: the runs' or the listed ones.
        mayAddShoes = false
        for index in rows.indices where !rows[index].isRun { shoeOfRow[index] = shoe(of: rows[index]) }
        return (shoes, shoeOfRow)
    }

    private static func key(_ name: String) -> String { name.trimmingCharacters(in: .whitespaces).lowercased() }
}
