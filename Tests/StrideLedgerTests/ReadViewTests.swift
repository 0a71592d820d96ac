import Foundation
import StrideEvents
import StrideTestSupport
import Synchronization
import Testing

@testable import StrideLedger

/// A read through one view of the ledger: whatever is appended meanwhile, every read inside
/// it sees one state.
@Suite("One read, one view")
struct ReadViewTests {
    static func ledger(in folder: String) throws -> Ledger {
        try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Timestamp(secondsSince1970: 1_717_243_200)))
    }

    @Test("an append from another thread while a view is open is not seen inside it (log, shoes, points), and is seen after")
    func oneState() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            _ = try ledger.registerShoe(name: "Pegasus", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: true, at: nil)
            let (before, inside) = try ledger.read { () -> ((UInt64, Int, Int), (UInt64, Int, Int)) in
                let before = (try ledger.lastSequence(), try ledger.shoes().count, try ledger.pointsStatement().account.balance)
                // Another thread appends and commits while this view is open.
                let done = DispatchSemaphore(value: 0)
                let outcome = Mutex<(any Error)?>(nil)
                Thread {
                    do {
                        _ = try ledger.registerShoe(name: "Clifton", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: false, at: nil)
                        _ = try ledger.checkIn(at: nil)
                    } catch { outcome.withLock { $0 = error } }
                    done.signal()
                }.start()
                done.wait()
                #expect(outcome.withLock { $0 } == nil)
                return (before, (try ledger.lastSequence(), try ledger.shoes().count, try ledger.pointsStatement().account.balance))
            }
            #expect(inside == before)
            #expect(try ledger.lastSequence() > before.0)
            #expect(try ledger.shoes().count == 2)
            #expect(try ledger.pointsStatement().account.balance == before.2 + 1)
        }
    }

    @Test("an action inside a view is refused as a bug, and appends nothing")
    func noWritesInside() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            let last = try ledger.lastSequence()
            #expect(throws: (any Error).self) {
                try ledger.read { _ = try ledger.checkIn(at: nil) }
            }
            #expect(try ledger.lastSequence() == last)
        }
    }

    @Test("a projection behind the log (another process's older Stride, a rebuild begun) is caught up before the view reads it, not inside")
    func catchesUpBeforeTheView() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            _ = try ledger.registerShoe(name: "Novablast", brand: nil, startKilometers: 12, goalKilometers: nil, makeDefault: false, at: nil)
            try ledger.store.resetProjection(named: ledger.mileage.name)
            let kilometers = try ledger.read { try ledger.shoes().map(\.shoe.kilometers) }
            #expect(kilometers == [12])
        }
    }

    @Test("a ledger opened afresh, as each command opens it, reads every projection through one view")
    func freshProcess() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            _ = try ledger.registerShoe(name: "Ghost", brand: nil, startKilometers: 3, goalKilometers: nil, makeDefault: true, at: nil)
            _ = try ledger.checkIn(at: nil)
            let opened = try Ledger.open(at: folder + "/ledger")
            let (kilometers, balance, days, tokens) = try opened.read {
                (
                    try opened.shoes().map(\.shoe.kilometers), try opened.pointsStatement().account.balance,
                    try opened.dailyRecords(from: nil, through: nil).count, try opened.tokens().count
                )
            }
            #expect(kilometers == [3])
            #expect(balance == (try ledger.pointsStatement().account.balance))
            #expect(days == 0)
            #expect(tokens == 0)
        }
    }
}
