// swift-tools-version:6.0
import PackageDescription

// diffable depends on the Swift toolchain alone: no package dependencies.
let package = Package(
    name: "diffable",
    products: [
        .executable(name: "diffable", targets: ["diffable"]),
        .executable(name: "diffable-bench", targets: ["diffable-bench"]),
        .library(name: "DiffableEngine", targets: ["DiffableEngine"]),
        .library(name: "DiffableServer", targets: ["DiffableServer"]),
    ],
    targets: [
        // Pure engine: snapshot model, diff, selection, search. No I/O, no JSON.
        .target(name: "DiffableEngine", exclude: ["Diff/README.md", "Selection/README.md", "Search/README.md", "Snapshot/README.md", "Outline/README.md"]),
        // Protocol layer: JSON, framing, JSON-RPC dispatch, one file per method.
        .target(name: "DiffableServer", dependencies: ["DiffableEngine"], exclude: ["JSON/README.md"]),
        // Thin stdio entry point.
        .executableTarget(name: "diffable", dependencies: ["DiffableServer"]),
        // Release-build benchmark command.
        .executableTarget(name: "diffable-bench", dependencies: ["DiffableEngine", "DiffableServer"]),
        .testTarget(name: "DiffableEngineTests", dependencies: ["DiffableEngine"]),
        .testTarget(name: "DiffableServerTests", dependencies: ["DiffableServer"]),
        // Drives the built `diffable` binary through a pipe.
        .testTarget(name: "EndToEndTests", dependencies: ["diffable"]),
    ]
)
