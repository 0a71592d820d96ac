import Testing

@testable import ShoeMileage

/// Which rack shoe an archive's shoe is: hand-written cases, the ambiguous ones first.
@Suite("An archive's shoes on the rack")
struct ArchiveShoePolicyTests {
    @Test(
        "matches, edge cases first",
        arguments: [
            // Two rack shoes print the archive shoe's name: not guessed.
            (["Ghost 15"], ["Ghost 15", "ghost 15 "], [String: String](), [ArchiveShoePolicy.Match.ambiguous(["Ghost 15", "ghost 15 "])]),
            // Two archive shoes print one name, one rack shoe has it: not guessed either.
            (["Brooks Ghost 11", "Brooks Ghost 11"], ["Brooks Ghost 11"], [:], [.ambiguous(["Brooks Ghost 11"]), .ambiguous(["Brooks Ghost 11"])]),
            // …and with none on the rack, two new shoes.
            (["Brooks Ghost 11", "Brooks Ghost 11"], [], [:], [.new, .new]),
            // --shoe naming a shoe the rack lacks.
            (["Vaporfly"], ["Pegasus 40"], ["Vaporfly": "Vaporfly 3"], [.unknownRackShoe("Vaporfly 3")]),
            // --shoe where the names differ, in any case.
            (["Nike Vaporfly 3"], ["Race shoe"], ["nike vaporfly 3": "RACE SHOE"], [.onRack("Race shoe")]),
            // The same name in another case, spaces at the ends.
            ([" pegasus 40"], ["Pegasus 40"], [:], [.onRack("Pegasus 40")]),
            (["Novablast 4"], ["Pegasus 40"], [:], [.new]),
            ([], ["Pegasus 40"], [:], []),
        ])
    func matches(archive: [String], rack: [String], said: [String: String], expected: [ArchiveShoePolicy.Match]) {
        #expect(ArchiveShoePolicy.match(archive: archive, rack: rack, said: said) == expected)
    }
}
