// swift-tools-version:6.0
import PackageDescription

// The library's targets follow the pipeline (docs/architecture.md): each depends only on the
// stages before it, so an arrow against the flow of data does not compile. Internals shared
// across targets have `package` access.
let package = Package(
    name: "habiter-audit",
    // On Apple platforms, Synchronization's Mutex and Atomic (a pattern's JIT code compiled at
    // its first match, a rule's windowed search worked out at its first long value) need macOS 15.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "habiter-audit", targets: ["habiter-audit"]),
        .library(
            name: "HabiterAudit",
            targets: ["AuditBytes", "AuditCore", "AuditInputs", "AuditRules", "AuditDetection", "AuditScan",
                      "AuditReport", "AuditTriage", "AuditRedact", "HabiterAudit"]
        ),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CBrotli",
            pkgConfig: "libbrotlidec",
            providers: [.apt(["libbrotli-dev"])]
        ),
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        .systemLibrary(
            name: "CLzma",
            pkgConfig: "liblzma",
            providers: [.apt(["liblzma-dev"])]
        ),
        // libbz2-dev installs no pkg-config file: the header and library are in the system paths.
        .systemLibrary(
            name: "CBzip2",
            providers: [.apt(["libbz2-dev"])]
        ),
        // Byte utilities: SWAR, byte search, hex, base64, SHA-256 and the baseline's keyed digest.
        .target(name: "AuditBytes"),
        // What every stage speaks: findings, input errors, positions, layered paths, contexts,
        // input formats, families and levels, built-in check ids, exit statuses.
        .target(name: "AuditCore"),
        // Every reader (JSON, NDJSON, prefs XML, DataStore, raw HTTP, gzip), the layer decoders,
        // zlib, Brotli, zstd, xz and bzip2 each behind one wrapper.
        .target(name: "AuditInputs", dependencies: ["AuditBytes", "AuditCore", "CZlib", "CBrotli", "CZstd", "CLzma", "CBzip2"]),
        // Rules as data: the model, the rule-file parser, the built-in files, PCRE2 behind one wrapper.
        .target(name: "AuditRules", dependencies: ["AuditBytes", "AuditCore", "AuditInputs", "CPCRE2"]),
        // Names, patterns, validators, the compiled rule pack, the inventory and the contract.
        .target(name: "AuditDetection", dependencies: ["AuditBytes", "AuditCore", "AuditInputs", "AuditRules"]),
        // Orchestration: format visitors, layers, hit resolution, fingerprints.
        .target(name: "AuditScan", dependencies: ["AuditBytes", "AuditCore", "AuditInputs", "AuditRules", "AuditDetection"]),
        // SARIF, JSON, text, HTML and GitHub reports, and SARIF merge.
        .target(name: "AuditReport", dependencies: ["AuditBytes", "AuditCore", "AuditInputs", "AuditRules", "AuditDetection", "AuditScan"]),
        // What a gate makes of a scan: baseline, allowlist, configuration.
        .target(name: "AuditTriage", dependencies: ["AuditBytes", "AuditCore", "AuditInputs", "AuditDetection", "AuditScan", "AuditReport"]),
        // Redacted copies of inputs.
        .target(name: "AuditRedact", dependencies: ["AuditBytes", "AuditCore", "AuditInputs", "AuditRules", "AuditDetection", "AuditScan"]),
        // The command line: argument parsing, help, commands, exit status; no argv or exit() here.
        .target(
            name: "HabiterAudit",
            dependencies: ["AuditBytes", "AuditCore", "AuditInputs", "AuditRules", "AuditDetection", "AuditScan",
                           "AuditReport", "AuditTriage", "AuditRedact"]
        ),
        .executableTarget(
            name: "habiter-audit",
            dependencies: ["HabiterAudit"]
        ),
        .target(
            name: "TestHelpers",
            path: "Tests/TestHelpers"
        ),
        .testTarget(
            name: "HabiterAuditTests",
            dependencies: ["AuditBytes", "AuditCore", "AuditInputs", "AuditRules", "AuditDetection", "AuditScan",
                           "AuditReport", "AuditTriage", "AuditRedact", "HabiterAudit", "TestHelpers"],
            exclude: ["Snapshots", "Fixtures"]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["AuditBytes", "AuditCore", "AuditInputs", "AuditRules", "AuditDetection", "AuditScan",
                           "AuditReport", "AuditTriage", "AuditRedact", "HabiterAudit", "TestHelpers"]
        ),
    ]
)
