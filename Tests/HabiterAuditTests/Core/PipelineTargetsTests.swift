import Foundation
import Testing

/// The library's targets follow the pipeline (docs/architecture.md): each depends only on
/// targets before it, so that the compiler refuses a reference against the flow of data. The
/// order is written here once; Package.swift must agree with it.
@Suite struct PipelineTargetsTests {
    /// The pipeline, first stage first. `AuditBytes` and `AuditCore` depend on nothing.
    static let pipeline = [
        "AuditBytes", "AuditCore", "AuditInputs", "AuditRules", "AuditDetection", "AuditScan",
        "AuditReport", "AuditTriage", "AuditRedact", "HabiterAudit",
    ]

    /// The C libraries, each behind one wrapper (STYLE.md), which any stage may use.
    static let cLibraries: Set = ["CPCRE2", "CZlib", "CBrotli", "CZstd", "CLzma", "CBzip2"]

    /// `name: [dependencies]` of each `.target(…)` in Package.swift.
    static func declaredTargets() throws -> [String: [String]] {
        let manifest = try String(contentsOf: TestSupport.repoRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [String: [String]] = [:]
        let pattern = try NSRegularExpression(pattern: #"\.target\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
        let range = NSRange(manifest.startIndex..., in: manifest)
        for match in pattern.matches(in: manifest, range: range) {
            let name = String(manifest[Range(match.range(at: 1), in: manifest)!])
            let list = Range(match.range(at: 2), in: manifest).map { String(manifest[$0]) } ?? ""
            targets[name] = list.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \n\"")) }
                .filter { !$0.isEmpty }
        }
        return targets
    }

    @Test func everyLibraryTargetIsAStageOfThePipeline() throws {
        let targets = try Self.declaredTargets()
        #expect(Set(targets.keys).subtracting(["TestHelpers"]) == Set(Self.pipeline))
    }

    @Test func eachTargetDependsOnlyOnEarlierStages() throws {
        let targets = try Self.declaredTargets()
        for (stage, name) in Self.pipeline.enumerated() {
            for dependency in targets[name] ?? [] where !Self.cLibraries.contains(dependency) {
                let index = try #require(Self.pipeline.firstIndex(of: dependency), "\(name) depends on \(dependency), no stage")
                #expect(index < stage, "\(name) depends on \(dependency), a later stage")
            }
        }
    }

    @Test func eachSourceFileImportsOnlyItsTargetsDependencies() throws {
        let targets = try Self.declaredTargets()
        let sources = TestSupport.repoRoot.appendingPathComponent("Sources")
        for name in Self.pipeline {
            let allowed = Set(targets[name] ?? [])
            let folder = sources.appendingPathComponent(name)
            let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            for case let file as URL in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("import Audit") {
                    let module = String(line.dropFirst("import ".count))
                    #expect(allowed.contains(module), "\(file.lastPathComponent) (\(name)) imports \(module)")
                }
            }
        }
    }
}
