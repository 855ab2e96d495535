import Foundation
import Testing

/// Each C library stays behind one wrapper (STYLE.md): PCRE2 in `AuditRules/Regex.swift`, zlib,
/// Brotli, zstd, liblzma and libbz2 in `AuditInputs/Zlib.swift`, `Brotli.swift`, `Zstd.swift`,
/// `Xz.swift` and `Bzip2.swift`. No other source, test or fuzz file imports them.
@Suite struct CLibraryWrapperTests {
    @Test func eachCLibraryIsImportedByItsWrapperOnly() throws {
        let root = TestSupport.repoRoot
        var importers: [String: [String]] = [:]
        for folder in ["Sources", "Tests", "Fuzz/Sources", "Fuzz/Targets"] {
            let base = root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                for library in PipelineTargetsTests.cLibraries where text.range(of: "import \(library)\n") != nil {
                    importers[library, default: []].append(String(file.path.dropFirst(root.path.count + 1)))
                }
            }
        }
        #expect(importers["CPCRE2"] == ["Sources/AuditRules/Regex.swift"])
        #expect(importers["CZlib"] == ["Sources/AuditInputs/Zlib.swift"])
        #expect(importers["CBrotli"] == ["Sources/AuditInputs/Brotli.swift"])
        #expect(importers["CZstd"] == ["Sources/AuditInputs/Zstd.swift"])
        #expect(importers["CLzma"] == ["Sources/AuditInputs/Xz.swift"])
        #expect(importers["CBzip2"] == ["Sources/AuditInputs/Bzip2.swift"])
    }
}
