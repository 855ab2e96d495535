// swift-tools-version:6.0
// libFuzzer targets for habiter-audit (issue 8, fuzzing). A package of its own, so that the main
// build and tests never see it. Build and run with `scripts/fuzz` (docs/robustness.md): it builds
// with `-Xswiftc -sanitize=fuzzer,address` and `-Xswiftc -enable-testing` (the HTTP reader is
// internal).
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its directory: the checkout's name, whatever it is.
let mainPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

/// One executable per fuzz target (the libFuzzer norm), in `Targets/<name>/`.
let fuzzTargets = [
    "json", "ndjson", "prefs-xml", "datastore", "har", "http", "scan", "layers", "codings",
    "layer-base64", "layer-basic", "layer-data", "layer-deflate", "layer-form", "layer-gzip", "layer-json", "layer-jwt",
    "layer-http", "layer-multipart", "layer-percent", "layer-query", "layer-userinfo", "layer-xml",
]

let library = Target.Dependency.product(name: "HabiterAudit", package: mainPackage)

let package = Package(
    name: "habiter-audit-fuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [library]),
    ] + fuzzTargets.map { name in
        .executableTarget(name: "fuzz-\(name)", dependencies: ["FuzzSupport", library], path: "Targets/\(name)")
    },
    swiftLanguageModes: [.v5]
)
