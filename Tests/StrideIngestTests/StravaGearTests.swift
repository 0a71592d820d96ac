import Testing

@testable import StrideIngest

/// Which shoe each row of Strava's `activities.csv` names, as real archives write gear: a name
/// and an id, an id alone, a name alone, one name for two ids.
@Suite("Strava's gear, row by row")
struct StravaGearTests {
    typealias Named = StravaGear.Named

    static func listed(_ names: String...) -> [AccountArchive.Shoe] {
        names.enumerated().map { AccountArchive.Shoe(name: $0.element, place: "shoes.csv line \($0.offset + 2)") }
    }

    @Test("a name and an id: the listed shoe of that name, which takes the id")
    func nameAndID() {
        let (shoes, rows) = StravaGear.resolve([Named(name: "Pegasus 40", id: "11", line: 2)], listed: Self.listed("Pegasus 40"))
        #expect(rows == [0])
        #expect(shoes.map(\.gearID) == ["11"])
    }

    @Test("an id alone, which other rows name: that shoe, whichever row comes first")
    func idNamedElsewhere() {
        let rows = [Named(name: nil, id: "11", line: 2), Named(name: "Pegasus 40", id: "11", line: 3), Named(name: nil, id: "11", line: 4)]
        let (shoes, resolved) = StravaGear.resolve(rows, listed: Self.listed("Pegasus 40"))
        #expect(resolved == [0, 0, 0])
        #expect(shoes.count == 1)
    }

    @Test("an id no row names: a shoe known by its id only, not listed")
    func idAlone() {
        let (shoes, rows) = StravaGear.resolve([Named(name: nil, id: "77", line: 2)], listed: [])
        #expect(rows == [0])
        #expect(shoes.first?.isListed == false)
        #expect(shoes.first?.name == "Strava gear 77")
    }

    @Test("a name alone, of a shoe one id has: that shoe")
    func nameOfOneID() {
        let rows = [Named(name: "Pegasus 40", id: nil, line: 2), Named(name: "Pegasus 40", id: "11", line: 3)]
        let (shoes, resolved) = StravaGear.resolve(rows, listed: Self.listed("Pegasus 40"))
        #expect(resolved == [0, 0])
        #expect(shoes.count == 1)
    }

    @Test("one name, two ids, and rows naming it without an id: two shoes, and the rows set apart naming both — never a third shoe")
    func oneNameTwoIDs() {
        let rows = [
            Named(name: "New Balance 1080R14", id: "11", line: 2), Named(name: "New Balance 1080R14", id: "12", line: 3),
            Named(name: "New Balance 1080R14", id: nil, line: 1_886), Named(name: "New Balance 1080R14", id: nil, line: 1_887),
        ]
        let (shoes, resolved) = StravaGear.resolve(rows, listed: Self.listed("New Balance 1080R14"))
        #expect(resolved[0] == 0)
        #expect(resolved[1] == 1)
        #expect(resolved[2] == resolved[3])
        let apart = shoes[resolved[2] ?? 0]
        #expect(apart.isListed == false)
        #expect(apart.candidates == [0, 1])
        #expect(apart.gearID == nil)
        #expect(shoes.filter(\.isListed).count == 2)
    }

    @Test("a name alone no row gives an id: the listed shoe of that name, else a shoe of its own")
    func nameWithoutIDs() {
        let (shoes, rows) = StravaGear.resolve(
            [Named(name: "Brooks Ghost", id: nil, line: 2), Named(name: "Hoka", id: nil, line: 3), Named(name: "hoka ", id: nil, line: 4)],
            listed: Self.listed("Brooks Ghost"))
        #expect(rows == [0, 1, 1])
        #expect(shoes.count == 2)
        #expect(shoes[1].name == "Hoka")
    }

    @Test("a ride's gear never becomes a shoe; a walk in a shoe the runs name goes on it")
    func onlyRunsMakeShoes() {
        let rows = [
            Named(name: "Cannondale", id: nil, line: 2, isRun: false), Named(name: "Pegasus 40", id: "11", line: 3),
            Named(name: nil, id: "11", line: 4, isRun: false), Named(name: nil, id: "99", line: 5, isRun: false),
        ]
        let (shoes, resolved) = StravaGear.resolve(rows, listed: [])
        #expect(resolved == [nil, 0, 0, nil])
        #expect(shoes.map(\.name) == ["Pegasus 40"])
    }

    @Test("no gear: no shoe")
    func noGear() {
        #expect(StravaGear.resolve([Named(name: nil, id: nil, line: 2), Named(name: " ", id: nil, line: 3)], listed: []).shoeOfRow == [nil, nil])
    }
}
