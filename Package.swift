// swift-tools-version:6.1
import Foundation
import PackageDescription

// Stride: an event-sourced ledger for a runner's health data.
//
// The layout follows the design card: libraries under `Sources/`, one folder per projection
// under `Projections/`, the `stride` command and the benchmark tool under `Tools/`.
// Dependencies, each for one reason:
// - swift-argument-parser: the `stride` command line.
// - ZIPFoundation: reading the Health app's export.zip in place, entry by entry, without
//   extracting it to disk (it inflates through the system's zlib).
//
// System libraries, from Debian: liblmdb-dev (the event log) and libssl-dev (SHA-256 for the
// hash chain: OpenSSL uses the CPU's SHA extensions, and a reused EVP context costs about
// 200 ns an event where swift-crypto's wrapper, allocating a context per hash, cost 300 ns).

/// Release builds link the Swift runtime and Foundation statically (every Swift module is
/// compiled against the static runtime, whose Foundation names the static libraries it
/// needs, and the commands link with it). A process then starts in 6 ms instead of 12 (no
/// symbol resolution over Foundation and ICU), and calls into the runtime (retain, release)
/// skip the PLT: a 20 MB ingest took 15 % less time (`perf stat -r 15`, 0.153–0.159 s
/// against 0.180–0.185 s). Debug builds, and so the tests, stay dynamic and link faster.
///
/// Release executables link with the toolchain's lld and pack their relative relocations
/// (`DT_RELR`, glibc 2.36+, Debian 12): the 80 MB executable holds about 95,000 of them, and
/// the loader's work at start fell from about 2 ms (of a 17 ms one-day ingest) while the
/// executable stays position-independent. Release Swift code is compiled without dynamic
/// exclusivity checks: a rebuild spent 3–4 % in them (`swift_beginAccess`).
let releaseSwift: [SwiftSetting] = [.unsafeFlags(["-static-stdlib", "-enforce-exclusivity=unchecked"], .when(configuration: .release))]
let releaseLink: [LinkerSetting] = [.unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(configuration: .release))]
let package = Package(
    name: "Stride",
    products: [
        .executable(name: "stride", targets: ["stride"]),
        .executable(name: "stride-bench", targets: ["stride-bench"]),
        .executable(name: "stride-sample", targets: ["stride-sample"]),
        .library(name: "StrideLedger", targets: ["StrideLedger"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
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
        // The event catalog, the envelope and its binary encoding, the store protocol and
        // the in-memory store. No I/O.
        .target(name: "StrideEvents", dependencies: ["COpenSSL", "CChecksum"]),
        // CRC-32C with the SSE4.2 instruction (Swift cannot reach it), a table elsewhere.
        .target(name: "CChecksum"),
        // The projection engine's model: a projection's pure fold, its rows, its digest.
        .target(name: "StrideProjection", dependencies: ["StrideEvents"]),
        // Everything that touches LMDB: the safe API over the C library, the event log, and
        // projection rows and checkpoints.
        .target(name: "StrideStore", dependencies: ["CLMDB", "StrideEvents", "StrideProjection"]),
        // Reading Apple Health exports (zip or XML), NDJSON and GPX into pending events.
        .target(
            name: "StrideIngest",
            dependencies: ["StrideEvents", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        // Projections, one folder each.
        .target(name: "DailyHealth", dependencies: ["StrideEvents", "StrideProjection"], path: "Projections/DailyHealth"),
        .target(name: "SampleCounts", dependencies: ["StrideEvents", "StrideProjection"], path: "Projections/SampleCounts"),
        .target(name: "ShoeMileage", dependencies: ["StrideEvents", "StrideProjection"], path: "Projections/ShoeMileage"),
        .target(name: "PointsBalance", dependencies: ["StrideEvents", "StrideProjection"], path: "Projections/PointsBalance"),
        // The ledger as a user sees it: open or create, verify, export, import, backup, stats.
        .target(
            name: "StrideLedger",
            dependencies: ["StrideEvents", "StrideStore", "StrideIngest", "StrideProjection", "DailyHealth", "SampleCounts", "ShoeMileage", "PointsBalance"]
        ),
        // The `stride` command's subcommands, kept in a library so tests can run them.
        .target(
            name: "StrideCommands",
            dependencies: [
                "StrideLedger", "StrideIngest", "DailyHealth", "ShoeMileage", "PointsBalance",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/stride/Commands"
        ),
        .executableTarget(name: "stride", dependencies: ["StrideCommands"], path: "Tools/stride/Main"),
        // A realistic Apple Health export of any size: the bundled sample data and the
        // benchmark's input.
        .executableTarget(
            name: "stride-sample",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            path: "Tools/stride-sample"
        ),
        // The benchmark: Stride beside a raw LMDB C loop and the Python peers, in one run.
        .target(name: "LMDBBaseline", path: "Tools/stride-bench/Baseline", linkerSettings: [.linkedLibrary("lmdb")]),
        .executableTarget(
            name: "stride-bench",
            dependencies: [
                "StrideLedger", "StrideIngest", "LMDBBaseline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            path: "Tools/stride-bench/Sources"
        ),
        // Test support: temporary ledgers, running the built executables, the fixtures.
        .target(name: "StrideTestSupport", path: "Tests/TestSupport"),
        // A second process that appends, for the concurrent-writers test.
        .executableTarget(name: "ledger-writer", dependencies: ["StrideStore"], path: "Tests/LedgerWriter"),
        .testTarget(name: "StrideEventsTests", dependencies: ["StrideEvents"]),
        .testTarget(
            name: "StrideStoreTests", dependencies: ["StrideStore", "StrideEvents", "StrideProjection", "StrideTestSupport", "ledger-writer"]
        ),
        .testTarget(
            name: "StrideIngestTests",
            dependencies: [
                "StrideIngest", "StrideTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(name: "PointsBalanceTests", dependencies: ["PointsBalance", "StrideProjection", "StrideEvents"]),
        .testTarget(name: "ShoeMileageTests", dependencies: ["ShoeMileage", "StrideProjection", "StrideEvents"]),
        .testTarget(name: "DailyHealthTests", dependencies: ["DailyHealth", "StrideProjection", "StrideTestSupport"]),
        .testTarget(name: "StrideLedgerTests", dependencies: ["StrideLedger", "StrideTestSupport", "ShoeMileage", "PointsBalance"]),
        .testTarget(name: "StrideCommandTests", dependencies: ["StrideCommands", "StrideTestSupport", "stride", "stride-sample"]),
    ],
    swiftLanguageModes: [.v6]
)

// The release settings (see `releaseSwift`) for every Swift module and executable we build,
// except in the fuzzing build, whose sanitizer runtime wants the shared one.
let fuzzing = ProcessInfo.processInfo.environment["STRIDE_FUZZ"] == "1"
for target in package.targets where !fuzzing && (target.type == .regular || target.type == .executable) {
    target.swiftSettings = (target.swiftSettings ?? []) + releaseSwift
    if target.type == .executable { target.linkerSettings = (target.linkerSettings ?? []) + releaseLink }
}

// The libFuzzer target exists only when asked for (Tools/fuzz sets STRIDE_FUZZ=1 and builds
// with `-sanitize=fuzzer -parse-as-library`): libFuzzer supplies `main`, which a normal
// executable would clash with.
if fuzzing {
    package.targets.append(.executableTarget(name: "stride-fuzz", dependencies: ["StrideIngest"], path: "Tools/stride-fuzz"))
    package.products.append(.executable(name: "stride-fuzz", targets: ["stride-fuzz"]))
}
