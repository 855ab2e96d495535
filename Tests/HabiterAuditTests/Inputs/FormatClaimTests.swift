@testable import AuditBytes
@testable import AuditInputs
import Testing

/// What an input's name claims (`FormatClaim`): an ASCII name is judged on its bytes, any other
/// by its characters, and the two agree.
@Suite struct FormatClaimTests {
    @Test(arguments: [
        ("-", FormatClaim.structured), ("sync.json", .structured), ("logs/SYNC.NDJSON", .structured), ("a.jsonl.gz", .structured),
        ("capture.HAR", .structured), ("requests.http", .structured), ("notes.txt", .none), ("README", .none), ("a.gz", .none),
        ("tsconfig.json", .jsonc), ("web/tsconfig.base.json", .jsonc), ("JSCONFIG.JSON", .jsonc), (".eslintrc.json", .jsonc),
        ("app/.vscode/settings.json", .jsonc), (".devcontainer/devcontainer.json", .jsonc), ("a.jsonc.gz", .jsonc),
        ("x.vscode/settings.json", .structured), ("tsconfig.jsonc.txt", .none),
        ("données/habitudes.json", .structured), ("ÜBER/.vscode/Einstellungen.JSON", .jsonc), ("tsconfig.jsón", .none),
    ])
    func aNameClaims(_ name: String, _ claim: FormatClaim) {
        #expect(FormatClaim(name: name) == claim, "\(name)")
    }

    /// Every combination of directories, file names and endings that the rules tell apart:
    /// the bytes give the claim the characters give.
    @Test func anASCIINamesBytesClaimWhatItsCharactersClaim() {
        let directories = ["", "a/", "dir/sub/", "/abs/", ".vscode/", "x/.vscode/", "X/.DevContainer/", "x.vscode/", "/", "//", "a//b/"]
        let files = ["tsconfig.json", "TSCONFIG.JSON", "tsconfig.base.json", "tsconfig.", "jsconfig.json", "devcontainer.json",
                     ".devcontainer.json", ".eslintrc.json", "eslintrc.json", "a.json", "a.JSON", "a.jsonc", "a.ndjson", "a.jsonl",
                     "a.har", "a.http", "a.txt", "README", "a.json.gz", "a.gz", ".gz", "a.jsonc.gz", "", ".json", "x.jsonl.GZ",
                     "settings.json", "a b.json", "a.json.", "json"]
        var compared = 0, claims: Set<String> = []
        for directory in directories {
            for file in files {
                for ending in ["", ".gz", "/", ".GZ"] {
                    let name = directory + file + ending
                    let byCharacters = FormatClaim(characters: name)
                    let byBytes = FormatClaim(asciiPath: Array(name.utf8).map(ASCIICase.lower))
                    #expect(byBytes == byCharacters, "\(name)")
                    claims.insert("\(byCharacters)")
                    compared += 1
                }
            }
        }
        #expect(compared == 1_276)
        #expect(claims == ["none", "structured", "jsonc"])
    }
}
