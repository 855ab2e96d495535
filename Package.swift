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
            dependencies: ["CPCRE2", "CZlib"]
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
