// swift-tools-version:6.1
import Foundation
import PackageDescription

// Stride: an event-sourced ledger for a runner's health data.
//
// The layout follows the design card: libraries under `Sources/`, one folder per projection
// under `Projections/`, the `stride` command and the benchmark tool under `Tools/`.
// Dependencies, each for one reason:
// - swift-argument-parser: the `stride` command line.
// - ZIPFoundation: reading the Health app's export.zip entry by entry, without extracting it.
// - Hummingbird 2 (without its optional configuration trait): `stride serve`, the HTTP API
//   on SwiftNIO; HummingbirdTesting runs the tests' requests, and the serve benchmark's
//   "hello" server is a Hummingbird application beside it.
// - swift-log: the server's one line per request (Hummingbird logs through it too).
// - swift-prometheus (on swift-metrics' CoreMetrics): `GET /metrics`, the server's counters,
//   latency histogram and ledger sizes in Prometheus' text format, kept in a registry each
//   server owns (no process-wide MetricsSystem.bootstrap, so tests can start several servers).
// - postgres-nio: `stride serve --replica`/`--follow` and `stride ledger restore --from`, the
//   copy of every runner's log in PostgreSQL (Debian's server), over its wire protocol.
// System libraries, from Debian: liblmdb-dev (the event log) and libssl-dev (SHA-256 for the
// hash chain, with the CPU's SHA extensions and a context reused across events).

let package = Package(
    name: "Stride",
    products: [
        .executable(name: "stride", targets: ["stride"]),
        .executable(name: "stride-bench", targets: ["stride-bench"]),
        .executable(name: "stride-sample", targets: ["stride-sample"]),
        .library(name: "StrideLedger", targets: ["StrideLedger"]),
        .library(name: "StrideContract", targets: ["StrideContract"]),
        .library(name: "StrideServer", targets: ["StrideServer"]),
        .library(name: "StrideDashboard", targets: ["StrideDashboard"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Hummingbird's own foundations, named because the server uses them directly.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // postgres-nio's TLS, named because a replica's address may ask for it (sslmode).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // LMDB from Debian's liblmdb-dev; imported by StrideStore alone.
        .systemLibrary(
            name: "CLMDB",
            path: "Sources/CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        // SHA-256 from OpenSSL's libcrypto; imported by StrideEvents' hashing alone.
        .systemLibrary(
            name: "COpenSSL",
            path: "Sources/COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // zlib's CRC-32, to check an inflated export (ZIPFoundation's own is slow on Linux).
        .systemLibrary(
            name: "CZlibChecksum",
            path: "Sources/CZlibChecksum",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The event catalog, the envelope and its binary encoding, the store protocol and
        // the in-memory store. No I/O.
        .target(name: "StrideEvents", dependencies: ["COpenSSL", "CChecksum"]),
        // CRC-32C with the SSE4.2 instruction (Swift cannot reach it), a table elsewhere.
        .target(name: "CChecksum"),
        // The projection engine's model: a projection's pure fold, its rows, its digest.
        .target(name: "StrideProjection", dependencies: ["StrideEvents"]),
        // Everything that touches LMDB: the safe API over the C library, the event log, and
        // projection rows and checkpoints.
        .target(name: "StrideStore", dependencies: ["CLMDB", "CChecksum", "StrideEvents", "StrideProjection"]),
        // Decoding FIT files (Garmin's and other watches' activities), in Swift from the
        // protocol's public description. No I/O, no dependency.
        .target(name: "StrideFIT"),
        // Reading Apple Health exports (zip or XML), NDJSON, GPX, FIT and TCX into pending events.
        .target(
            name: "StrideIngest",
            dependencies: ["StrideEvents", "StrideFIT", "CZlibChecksum", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        // Projections, one folder each.
        .target(name: "DailyHealth", dependencies: ["StrideEvents", "StrideProjection"], path: "Projections/DailyHealth"),
        .target(name: "SampleCounts", dependencies: ["StrideEvents", "StrideProjection"], path: "Projections/SampleCounts"),
        .target(name: "Travel", dependencies: ["StrideEvents", "StrideProjection"], path: "Projections/Travel"),
        .target(name: "ShoeMileage", dependencies: ["StrideEvents", "StrideProjection"], path: "Projections/ShoeMileage"),
        .target(name: "PointsBalance", dependencies: ["StrideEvents", "StrideProjection"], path: "Projections/PointsBalance"),
        .target(name: "AccessTokens", dependencies: ["StrideEvents", "StrideProjection"], path: "Projections/AccessTokens"),
        .target(name: "TrainingLog", dependencies: ["StrideEvents", "StrideProjection"], path: "Projections/TrainingLog"),
        // The ledger as a user sees it: open or create, verify, export, import, backup, stats.
        .target(
            name: "StrideLedger",
            dependencies: [
                "StrideEvents", "StrideStore", "StrideIngest", "StrideProjection", "DailyHealth", "SampleCounts", "Travel", "ShoeMileage",
                "PointsBalance",
                "AccessTokens", "TrainingLog",
            ]
        ),
        // The copy of every runner's log in PostgreSQL: the table, the copier (ledger → table), the
        // follower (table → ledger), restore and comparison.
        .target(
            name: "StrideReplica",
            dependencies: [
                "StrideLedger", "StrideStore", "StrideEvents", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The JSON documents of the contract (DESIGN.md §8): what read commands print with
        // --json and what the HTTP API answers, built in one place.
        .target(
            name: "StrideContract",
            dependencies: ["StrideLedger", "StrideEvents", "DailyHealth", "ShoeMileage", "PointsBalance", "AccessTokens", "TrainingLog"]
        ),
        // The dashboard's pages and the report: HTML documents with inline SVG charts,
        // rendered from the contract's documents (no server here: StrideServer serves them).
        .target(
            name: "StrideDashboard",
            dependencies: ["StrideContract", "StrideLedger", "StrideEvents", "DailyHealth", "ShoeMileage", "PointsBalance", "TrainingLog"]
        ),
        // `stride serve`: the ledger over HTTP (Hummingbird), answering with the contract's
        // documents and calling the same ledger functions as the command line.
        .target(
            name: "StrideServer",
            dependencies: [
                "StrideLedger", "StrideStore", "StrideContract", "StrideDashboard", "StrideEvents", "StrideIngest", "DailyHealth", "ShoeMileage",
                "PointsBalance", "TrainingLog", "StrideReplica", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The `stride` command's subcommands, kept in a library so tests can run them.
        .target(
            name: "StrideCommands",
            dependencies: [
                "StrideLedger", "StrideStore", "StrideEvents", "StrideContract", "StrideServer", "StrideDashboard", "StrideIngest", "DailyHealth",
                "ShoeMileage", "PointsBalance", "TrainingLog", "StrideReplica", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tools/stride/Commands"
        ),
        .executableTarget(name: "stride", dependencies: ["StrideCommands"], path: "Tools/stride/Main"),
        // A realistic Apple Health export of any size: the bundled sample data and the
        // benchmark's input.
        .executableTarget(
            name: "stride-sample",
            dependencies: [
                "StrideFIT", "CZlibChecksum", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            path: "Tools/stride-sample"
        ),
        // The benchmark: Stride beside a raw LMDB C loop and the Python peers, in one run.
        .target(name: "LMDBBaseline", path: "Tools/stride-bench/Baseline", linkerSettings: [.linkedLibrary("lmdb")]),
        .executableTarget(
            name: "stride-bench",
            dependencies: [
                "StrideEvents", "StrideLedger", "StrideIngest", "StrideFIT", "StrideContract", "StrideDashboard", "LMDBBaseline", "TrainingLog",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                // The serve benchmark's limit: a Hummingbird "hello" server.
                .product(name: "Hummingbird", package: "hummingbird"),
                // The replica benchmark's PostgreSQL, started as the tests start theirs.
                "StrideTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tools/stride-bench/Sources"
        ),
        // Test support: temporary ledgers, running the built executables, the fixtures.
        .target(name: "StrideTestSupport", path: "Tests/TestSupport"),
        // A second process that appends, for the concurrent-writers test.
        .executableTarget(name: "ledger-writer", dependencies: ["StrideStore"], path: "Tests/LedgerWriter"),
        .testTarget(name: "StrideEventsTests", dependencies: ["StrideEvents", "StrideTestSupport"]),
        .testTarget(name: "StrideFITTests", dependencies: ["StrideFIT", "StrideEvents", "StrideTestSupport"]),
        .testTarget(
            name: "StrideStoreTests", dependencies: ["StrideStore", "StrideEvents", "StrideProjection", "StrideTestSupport", "ledger-writer"]
        ),
        .testTarget(
            name: "StrideIngestTests",
            dependencies: [
                "StrideIngest", "StrideEvents", "StrideTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(name: "PointsBalanceTests", dependencies: ["PointsBalance", "StrideProjection", "StrideEvents"]),
        .testTarget(name: "ShoeMileageTests", dependencies: ["ShoeMileage", "StrideProjection", "StrideEvents"]),
        .testTarget(name: "AccessTokensTests", dependencies: ["AccessTokens", "StrideProjection", "StrideEvents"]),
        .testTarget(name: "TrainingLogTests", dependencies: ["TrainingLog", "StrideEvents"]),
        .testTarget(name: "DailyHealthTests", dependencies: ["DailyHealth", "StrideProjection", "StrideTestSupport"]),
        .testTarget(
            name: "StrideLedgerTests",
            dependencies: [
                "StrideLedger", "StrideIngest", "StrideTestSupport", "StrideContract", "ShoeMileage", "PointsBalance", "AccessTokens",
                "stride-sample", "SampleCounts", "DailyHealth", "StrideFIT", "CZlibChecksum", "TrainingLog",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            // `Fixtures/` holds a ledger an earlier release wrote, read from disk by the upgrade's test.
            exclude: ["Fixtures"]),
        .testTarget(
            name: "StrideServerTests",
            dependencies: [
                "StrideServer", "StrideLedger", "StrideContract", "StrideIngest", "StrideTestSupport", "stride", "stride-sample", "StrideReplica",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "StrideDashboardTests",
            dependencies: [
                "StrideDashboard", "StrideCommands", "StrideLedger", "StrideContract", "StrideEvents", "DailyHealth", "ShoeMileage",
                "PointsBalance", "StrideTestSupport",
            ]
        ),
        // `Contract/` holds the expected JSON documents the snapshot test reads from disk.
        .testTarget(
            name: "StrideCommandTests",
            dependencies: ["StrideCommands", "StrideLedger", "StrideEvents", "StrideIngest", "StrideTestSupport", "stride", "stride-sample"],
            exclude: ["Contract"]),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer target exists only when asked for (Tools/fuzz sets STRIDE_FUZZ=1 and builds
// with `-sanitize=fuzzer -parse-as-library`): libFuzzer supplies `main`, which a normal
// executable would clash with.
if ProcessInfo.processInfo.environment["STRIDE_FUZZ"] == "1" {
    package.targets.append(.executableTarget(name: "stride-fuzz", dependencies: ["StrideIngest"], path: "Tools/stride-fuzz"))
    package.products.append(.executable(name: "stride-fuzz", targets: ["stride-fuzz"]))
}
