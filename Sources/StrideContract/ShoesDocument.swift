import ShoeMileage
import StrideEvents
import StrideLedger

/// `shoes list --json` and `mileage --json`: the rack with each shoe's figures.
public struct ShoesDocument: ContractDocument {
    /// The shoes, sorted by name.
    public var shoes: [ShoeView]

    /// The rack as it stands; or as of `instant`, a moment of the runner's life (what had
    /// happened by then, as the ledger knows it now: ``Ledger/shoes(asOf:)``); or as recorded
    /// through a sequence (what the ledger said then: ``Ledger/shoes(asRecordedThrough:)``).
    /// Only `shoe` (an id or a name, as the ledger knows it now) when given. Give at most one
    /// of `instant` and `sequence`; `instant` wins.
    /// - Throws: ``ShoeError/unknownShoe(_:known:)``, or a storage failure.
    public init(_ ledger: Ledger, shoe: String? = nil, asOf instant: Timestamp? = nil, asRecordedThrough sequence: UInt64? = nil) throws {
        if let instant {
            shoes = try ledger.shoes(asOf: instant)
        } else if let sequence {
            shoes = try ledger.shoes(asRecordedThrough: sequence)
        } else {
            shoes = try ledger.shoes()
        }
        if let shoe {
            let wanted = try ledger.shoe(named: shoe)
            shoes = shoes.filter { $0.shoe.id == wanted.id }
        }
    }

    /// A document of these shoes.
    public init(shoes: [ShoeView]) {
        self.shoes = shoes
    }

    public var json: JSONValue {
        .object(["shoes": .array(shoes.map(Self.json))])
    }

    /// One shoe as the contract shows it (in lists, audits and replays).
    static func json(_ view: ShoeView) -> JSONValue {
        let shoe = view.shoe
        return .object([
            "id": .string(ShoeID.text(shoe.id)), "name": .string(shoe.name), "brand": .string(shoe.brand),
            "startKilometers": .number(shoe.startKilometers), "goalKilometers": .number(shoe.goalKilometers),
            "kilometers": .number(shoe.kilometers), "runs": .integer(shoe.runs), "isRetired": .bool(shoe.isRetired),
            "isDefault": .bool(view.isDefault), "remainingKilometers": .number(shoe.remainingKilometers),
            "lastRun": .string(shoe.lastRun?.description),
        ])
    }
}
