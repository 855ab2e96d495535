// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "habiter-audit",
    products: [
        .executable(name: "habiter-audit", targets: ["habiter-audit"]),
        .library(name: "HabiterAudit", targets: ["HabiterAudit"]),
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
        .target(
            name: "HabiterAudit",
            dependencies: ["CPCRE2", "CZlib"],
            // Release builds skip run-time exclusivity checks (about 7 % of a scan's time, on
            // every access to the scan state); debug builds, which the tests use, keep them.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
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
            dependencies: ["HabiterAudit", "TestHelpers"],
            exclude: ["Snapshots", "Fixtures"]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["HabiterAudit", "TestHelpers"]
        ),
    ]
)
