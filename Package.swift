// swift-tools-version:6.0
import PackageDescription

// diffable depends on the Swift toolchain alone: no package dependencies.
let package = Package(
    name: "diffable",
    products: [
        .executable(name: "diffable", targets: ["diffable"]),
        .executable(name: "diffable-bench", targets: ["diffable-bench"]),
        .library(name: "DiffableEngine", targets: ["DiffableEngine"]),
        .library(name: "DiffableProtocol", targets: ["DiffableProtocol"]),
        .library(name: "DiffableServer", targets: ["DiffableServer"]),
    ],
    targets: [
        // Pure engine: snapshot model, diff, selection, search. No I/O, no JSON.
        .target(name: "DiffableEngine", exclude: ["README.md", "Concurrency/README.md", "Diff/README.md", "Edit/README.md", "Selection/README.md", "Search/README.md", "Snapshot/README.md", "Source/README.md", "Outline/README.md", "Window/README.md"]),
        // The wire contract in Swift: JSON, the message envelope, errors, one
        // typed request per method and the codecs between JSON and engine
        // values. No I/O, no engine logic.
        .target(name: "DiffableProtocol", dependencies: ["DiffableEngine"],
                exclude: ["README.md", "JSON/README.md", "Messages/README.md", "Codecs/README.md", "ByteDecoding/README.md", "Requests/README.md"]),
        // The daemon: dispatch, one handler per method, the stdio session.
        .target(name: "DiffableServer", dependencies: ["DiffableEngine", "DiffableProtocol"],
                exclude: ["README.md", "Methods/README.md", "Routing/README.md", "Server/README.md", "Transport/README.md"]),
        // Thin stdio entry point.
        .executableTarget(name: "diffable", dependencies: ["DiffableServer"], exclude: ["README.md"]),
        // Release-build benchmark command.
        .executableTarget(name: "diffable-bench", dependencies: ["DiffableEngine", "DiffableProtocol", "DiffableServer"], exclude: ["README.md"]),
        // Helpers the test targets share: the seeded generator, snapshot builders.
        .target(name: "DiffableTestSupport", dependencies: ["DiffableEngine", "DiffableProtocol"], path: "Tests/DiffableTestSupport",
                exclude: ["README.md"]),
        .testTarget(name: "DiffableProtocolTests", dependencies: ["DiffableProtocol", "DiffableTestSupport"]),
        .testTarget(name: "DiffableEngineTests", dependencies: ["DiffableEngine", "DiffableTestSupport"]),
        .testTarget(name: "DiffableServerTests", dependencies: ["DiffableProtocol", "DiffableServer", "DiffableTestSupport"]),
        // The executable's own code (command-line parsing), without a process.
        .testTarget(name: "diffableTests", dependencies: ["diffable"]),
        // Drives the built `diffable` binary through a pipe.
        .testTarget(name: "EndToEndTests", dependencies: ["diffable"]),
    ]
)
