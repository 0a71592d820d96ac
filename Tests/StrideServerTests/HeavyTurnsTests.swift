import Foundation
import StrideEvents
import StrideLedger
import StrideTestSupport
import Synchronization
import Testing

@testable import StrideServer

/// The heavy lane takes the runners' queues in turn: one runner's queued work never runs before
/// another runner's first job, which waits at most for a job already running.
@Suite("The heavy lane's turns")
struct HeavyTurnsTests {
    /// A step of a lane's life: a job (named by its runner's letter and a number) asks to run
    /// with its runner's share of threads, a runner's running job ends, or a waiting job leaves.
    enum Step {
        case arrive(String, share: Int)
        case finish(String)
        case leave(String)
    }

    /// The jobs started, in order, as `steps` happen on a lane of `threads` threads.
    static func started(threads: Int, _ steps: [Step]) -> [String] {
        var turns = HeavyTurns<String, String>(threads: threads)
        var started: [String] = []
        var ids: [String: UInt64] = [:]
        for step in steps {
            switch step {
            case .arrive(let job, let share):
                ids[job] = UInt64(ids.count + 1)
                if turns.arrive(job, id: ids[job] ?? 0, of: String(job.prefix(1)), share: share) { started.append(job) }
            case .finish(let runner):
                started += turns.finish(runner)
            case .leave(let job):
                _ = turns.leave(ids[job] ?? 0, of: String(job.prefix(1)))
            }
        }
        return started
    }

    @Test(
        "who runs next",
        arguments: [
            // One thread: b's first job runs after a's running one, before a's queued ones.
            (
                1,
                [
                    .arrive("a1", share: 1), .arrive("a2", share: 1), .arrive("a3", share: 1), .arrive("b1", share: 1), .finish("a"),
                    .finish("b"), .finish("a"), .finish("a"),
                ], ["a1", "b1", "a2", "a3"]
            ),
            // Runners never served go first, in the order they came; then the one served longest ago.
            (
                1,
                [
                    .arrive("a1", share: 1), .arrive("a2", share: 1), .arrive("c1", share: 1), .arrive("b1", share: 1),
                    .arrive("b2", share: 1), .finish("a"), .finish("c"), .finish("b"), .finish("a"),
                ], ["a1", "c1", "b1", "a2", "b2"]
            ),
            // A share of one thread: a's second job waits while the other thread stays free for b.
            (
                2, [.arrive("a1", share: 1), .arrive("a2", share: 1), .arrive("b1", share: 1), .finish("b"), .finish("a")],
                ["a1", "b1", "a2"]
            ),
            // One ledger whose share is every thread uses them all.
            (2, [.arrive("a1", share: 2), .arrive("a2", share: 2), .arrive("a3", share: 2), .finish("a")], ["a1", "a2", "a3"]),
            // A job that leaves while it waits is never started.
            (1, [.arrive("a1", share: 1), .arrive("b1", share: 1), .arrive("b2", share: 1), .leave("b1"), .finish("a")], ["a1", "b2"]),
        ] as [(Int, [Step], [String])])
    func turns(threads: Int, steps: [Step], expected: [String]) {
        #expect(Self.started(threads: threads, steps) == expected)
    }

    @Test("the counts come back to nothing once every job has ended")
    func counts() {
        var turns = HeavyTurns<String, String>(threads: 2)
        for (index, job) in ["a1", "a2", "b1"].enumerated() { _ = turns.arrive(job, id: UInt64(index), of: String(job.prefix(1)), share: 1) }
        #expect(turns.runningCount == 2 && turns.waitingCount == 1)
        for runner in ["a", "b", "a"] { _ = turns.finish(runner) }
        #expect(turns.runningCount == 0 && turns.waitingCount == 0 && turns.running.isEmpty)
    }

    /// Heavy jobs that note when each started and ended, each holding its thread until the test
    /// releases it. Nothing here is timed by the clock: under a full test run Swift's cooperative
    /// threads may not run this test for minutes, and no wall-clock bound would survive that.
    final class Timeline: Sendable {
        let began = ContinuousClock.now
        private let marks = Mutex<[(job: String, started: Duration, ended: Duration?)]>([])
        private let released = Mutex<Set<String>>([])

        /// A job named `name` that holds its thread until ``release(_:)`` or ``releaseAll()``.
        func job(_ worker: LedgerWorker, _ name: String) -> Task<Void, any Error> {
            Task {
                try await worker.admitHeavy {
                    try await worker.runHeavy { _ in
                        let started = ContinuousClock.now - self.began
                        self.marks.withLock { $0.append((name, started, nil)) }
                        while !self.released.withLock({ $0.contains(name) || $0.contains("") }) { Thread.sleep(forTimeInterval: 0.002) }
                        let ended = ContinuousClock.now - self.began
                        self.marks.withLock { marks in
                            if let index = marks.firstIndex(where: { $0.job == name }) { marks[index].ended = ended }
                        }
                    }
                }
            }
        }

        func release(_ name: String) {
            _ = released.withLock { $0.insert(name) }
        }

        /// Releases every job, those to come too: a test's way out, whatever happened.
        func releaseAll() {
            release("")
        }

        var startOrder: [String] { marks.withLock { $0.map(\.job) } }

        func started(_ name: String) -> Duration? { marks.withLock { $0.first { $0.job == name }?.started } }

        func ended(_ name: String) -> Duration? { marks.withLock { $0.first { $0.job == name }?.ended ?? nil } }

        /// Waits until `condition` holds: 20,000 looks 2 ms apart at most (40 s of this test's own
        /// running), then the test fails instead of hanging.
        func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
            for _ in 0..<20_000 {
                if condition() { return }
                try await Task.sleep(for: .milliseconds(2))
            }
            try #require(condition(), "\(what): not after 20,000 looks")
        }

        func waitUntilStarted(_ name: String) async throws {
            try await waitUntil("\(name) started") { started(name) != nil }
        }
    }

    static func workers(_ folder: String, lanes: WorkLanes) throws -> (LedgerWorker, LedgerWorker) {
        let clock = FixedClock(Timestamp(secondsSince1970: 1_717_243_200))
        let make = { (name: String) in
            LedgerWorker(
                ledger: try Ledger.create(at: folder + "/" + name, timeZone: "UTC", clock: clock), name: name, lanes: lanes, heavyLimit: 4,
                heavyThreads: lanes.heavyThreadsPerRunner, reports: HeavyShareTests.reports)
        }
        return (try make("marie"), try make("bob"))
    }

    @Test("one heavy thread: marie queues three jobs, bob's one job starts as soon as her running one ends, before her queued ones")
    func twoRunnersOneThread() async throws {
        try await withTemporaryDirectory { folder in
            let lanes = WorkLanes(heavyThreads: 1, heavyAdmitted: 8)
            let (marie, bob) = try Self.workers(folder, lanes: lanes)
            let timeline = Timeline()
            defer { timeline.releaseAll() }
            let first = timeline.job(marie, "marie 1")
            try await timeline.waitUntilStarted("marie 1")
            let queued = [timeline.job(marie, "marie 2"), timeline.job(marie, "marie 3")]
            try await timeline.waitUntil("marie's two jobs queued") { lanes.heavyWaiting == 2 }
            let bobs = timeline.job(bob, "bob")
            try await timeline.waitUntil("bob's job queued") { lanes.heavyWaiting == 3 }
            let asked = ContinuousClock.now - timeline.began
            for name in ["marie 1", "bob", "marie 2", "marie 3"] { timeline.release(name) }
            for task in [first, bobs] + queued { try await task.value }
            #expect(timeline.startOrder == ["marie 1", "bob", "marie 2", "marie 3"])
            let bobStarted = try #require(timeline.started("bob"))
            let marieFirstEnded = try #require(timeline.ended("marie 1"))
            let marieSecondStarted = try #require(timeline.started("marie 2"))
            // Bob waited for the one job running when he asked, and for nothing queued after it.
            #expect(asked < marieFirstEnded && marieFirstEnded <= bobStarted && bobStarted < marieSecondStarted)
            try await lanes.shutdown()
        }
    }

    @Test("two heavy threads (the default): marie's jobs hold one, bob's job starts on the other while her first still runs")
    func twoRunnersTwoThreads() async throws {
        try await withTemporaryDirectory { folder in
            let lanes = WorkLanes(heavyThreads: 2, heavyAdmitted: 8)
            let (marie, bob) = try Self.workers(folder, lanes: lanes)
            let timeline = Timeline()
            defer { timeline.releaseAll() }
            let maries = (1...3).map { timeline.job(marie, "marie \($0)") }
            try await timeline.waitUntilStarted("marie 1")
            // Her others wait for her share, though a thread is free.
            try await timeline.waitUntil("marie's two jobs queued") { lanes.heavyWaiting == 2 }
            let bobs = timeline.job(bob, "bob")
            try await timeline.waitUntilStarted("bob")
            #expect(timeline.ended("marie 1") == nil, "bob waited for marie's first job")
            #expect(timeline.startOrder == ["marie 1", "bob"])
            for name in ["bob", "marie 1", "marie 2", "marie 3"] { timeline.release(name) }
            for task in maries + [bobs] { try await task.value }
            // Marie's own jobs ran one after another, each on her share of one thread.
            let starts = try (1...3).map { try #require(timeline.started("marie \($0)")) }
            let ends = try (1...3).map { try #require(timeline.ended("marie \($0)")) }
            #expect(starts[1] >= ends[0] && starts[2] >= ends[1])
            try await lanes.shutdown()
        }
    }

    @Test("a heavy request cancelled while it waits for its turn is not started")
    func cancelledWhileWaiting() async throws {
        try await withTemporaryDirectory { folder in
            let lanes = WorkLanes(heavyThreads: 1, heavyAdmitted: 8)
            let (marie, bob) = try Self.workers(folder, lanes: lanes)
            let timeline = Timeline()
            defer { timeline.releaseAll() }
            let running = timeline.job(marie, "marie")
            try await timeline.waitUntilStarted("marie")
            let waiting = timeline.job(bob, "bob")
            try await timeline.waitUntil("bob's job queued") { lanes.heavyWaiting == 1 }
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            #expect(lanes.heavyWaiting == 0)
            timeline.release("marie")
            try await running.value
            #expect(timeline.startOrder == ["marie"])
            // The lane goes on: bob's next job runs.
            timeline.release("bob again")
            try await timeline.job(bob, "bob again").value
            #expect(timeline.startOrder == ["marie", "bob again"])
            try await lanes.shutdown()
        }
    }
}
