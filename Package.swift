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
        .target(
            name: "HabiterAudit",
            dependencies: ["CPCRE2"],
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]
        ),
        .executableTarget(
            name: "habiter-audit",
            dependencies: ["HabiterAudit"]
        ),
        .testTarget(
            name: "HabiterAuditTests",
            dependencies: ["HabiterAudit"],
            exclude: ["Snapshots", "Fixtures"]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["HabiterAudit"]
        ),
    ]
)
