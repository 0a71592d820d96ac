import Foundation
import Logging
import StrideEvents
import StrideLedger
import StrideTestSupport
import Synchronization
import Testing

@testable import StrideServer

/// On a shared server the heavy lane is shared: each runner has a share of its admissions, so
/// one runner's uploads and replays leave places for another's.
@Suite("The heavy lane, shared by runners")
struct HeavyShareTests {
    /// Where the workers of these tests tell of damaged ledgers (none is).
    static let reports = DamageReports(logger: Logger(label: "test"))

    /// Requests that take their places and wait there until released.
    final class Gate: Sendable {
        let released = Mutex(false)
        let held = Mutex(0)

        /// Takes a place through `worker` and holds it until ``open()``.
        func hold(_ worker: LedgerWorker) -> Task<Void, any Error> {
            Task {
                try await worker.admitHeavy {
                    held.withLock { $0 += 1 }
                    while !released.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
                }
            }
        }

        /// Waits until `count` requests hold their places; a holder refused would leave it
        /// waiting, so it gives up after 3,000 looks 10 ms apart (30 s of this test's own running:
        /// not of the clock's, which a full test run may spend elsewhere) and the test fails
        /// instead of hanging.
        func waitUntilHeld(_ count: Int) async throws {
            var looks = 0
            while held.withLock({ $0 }) < count, looks < 3_000 {
                looks += 1
                try await Task.sleep(for: .milliseconds(10))
            }
            try #require(held.withLock { $0 } >= count, "\(held.withLock { $0 }) of \(count) places held after 3,000 looks")
        }

        func open() {
            released.withLock { $0 = true }
        }
    }

    @Test("a runner holding its two places is refused a third with 503, while another runner is still admitted; places come back")
    func shares() async throws {
        try await withTemporaryDirectory { folder in
            let lanes = WorkLanes(heavyThreads: 2, heavyAdmitted: 4)
            let clock = FixedClock(Timestamp(secondsSince1970: 1_717_243_200))
            let marie = LedgerWorker(
                ledger: try Ledger.create(at: folder + "/marie", timeZone: "UTC", clock: clock), name: "marie", lanes: lanes, heavyLimit: 2,
                heavyThreads: 1, reports: Self.reports)
            let bob = LedgerWorker(
                ledger: try Ledger.create(at: folder + "/bob", timeZone: "UTC", clock: clock), name: "bob", lanes: lanes, heavyLimit: 2,
                heavyThreads: 1, reports: Self.reports)
            let gate = Gate()
            // Two of marie's requests take their places and wait there.
            let holders = [gate.hold(marie), gate.hold(marie)]
            try await gate.waitUntilHeld(2)
            let refused = await #expect(throws: APIError.self) { try await marie.admitHeavy {} }
            #expect(refused?.status == .serviceUnavailable)
            #expect(refused?.message.contains("2 at once for a ledger") == true)
            let bobRan = try await bob.runAdmittedHeavy { try $0.lastSequence() }
            #expect(bobRan >= 1)
            gate.open()
            for holder in holders { try await holder.value }
            #expect(try await marie.runAdmittedHeavy { try $0.lastSequence() } >= 1)
            try await lanes.shutdown()
        }
    }

    @Test("across runners the lane admits its own limit in all")
    func total() async throws {
        try await withTemporaryDirectory { folder in
            let lanes = WorkLanes(heavyThreads: 1, heavyAdmitted: 2)
            let clock = FixedClock(Timestamp(secondsSince1970: 1_717_243_200))
            let workers = try (0..<3).map { index in
                LedgerWorker(
                    ledger: try Ledger.create(at: folder + "/r\(index)", timeZone: "UTC", clock: clock), name: "r\(index)", lanes: lanes,
                    heavyLimit: 2,
                    heavyThreads: 1, reports: Self.reports)
            }
            let gate = Gate()
            let holders = [gate.hold(workers[0]), gate.hold(workers[1])]
            try await gate.waitUntilHeld(2)
            await #expect(throws: APIError.self) { try await workers[2].admitHeavy {} }
            gate.open()
            for holder in holders { try await holder.value }
            try await workers[2].admitHeavy {}
            try await lanes.shutdown()
        }
    }
}
