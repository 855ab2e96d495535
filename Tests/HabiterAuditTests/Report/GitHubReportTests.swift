@testable import AuditCore
@testable import AuditReport
@testable import AuditScan
import Foundation
import Testing

/// `--format github`: GitHub Actions workflow commands. The golden output of the report sample
/// is in ReportTests, the binary's output in CLITests/GitHubFormatTests; these pin the escaping (a message or a path can never end a command early
/// or start another one) and the command for each level and input.
@Suite struct GitHubReportTests {
    @Test func messagesEscapePercentCarriageReturnAndLineFeed() {
        #expect(GitHubReport.escapeData("100% sure\r\nnext: a, b") == "100%25 sure%0D%0Anext: a, b")
        // `%` first: a sequence that looks encoded stays literal.
        #expect(GitHubReport.escapeData("%0A") == "%250A")
        #expect(GitHubReport.escapeData("::error::x") == "::error::x", "a message cannot start a command: it is not at the start of a line")
        #expect(GitHubReport.escapeData("ghp_…, 40 characters") == "ghp_…, 40 characters")
    }

    @Test func propertiesAlsoEscapeColonAndComma() {
        #expect(GitHubReport.escapeProperty("a:b,c%d\re\nf") == "a%3Ab%2Cc%25d%0De%0Af")
        #expect(GitHubReport.escapeProperty("%3A") == "%253A")
        #expect(GitHubReport.escapeProperty("captures/session 1.har") == "captures/session 1.har")
    }

    @Test func oneLinePerFindingWhateverTheTextHolds() {
        let line = GitHubReport.command("error", artifact: "odd,name:1.json", position: SourcePosition(line: 3, column: 7, byteOffset: 40),
                                        title: "secret.github-token", message: "first\nsecond\r\nthird 50%")
        // Line breaks from an input are shown escaped (`DisplayText`), then the toolkit's escaping.
        #expect(line == #"::error file=odd%2Cname%3A1.json,line=3,col=7,title=secret.github-token::first\u000Asecond\u000D\u000Athird 50%25"# + "\n")
        #expect(line.filter { $0 == "\n" }.count == 1)
    }

    @Test func levelsMapToGitHubCommands() {
        #expect(GitHubReport.command(for: .error) == "error")
        #expect(GitHubReport.command(for: .warning) == "warning")
        #expect(GitHubReport.command(for: .note) == "notice")
    }

    @Test func stdinHasNoFileAndAPositionInTheMessage() {
        let line = GitHubReport.command("warning", artifact: "-", position: SourcePosition(line: 1, column: 2, byteOffset: 1),
                                        title: "transport.authorization-header", message: "m")
        #expect(line == "::warning title=transport.authorization-header::stdin:1:2: m\n")
        #expect(GitHubReport.command("error", artifact: "-", position: nil, title: "input.read", message: "m") == "::error title=input.read::stdin: m\n")
    }

    /// A member of an archive is no file of the repository: the annotation goes on the
    /// outermost archive, the member and its place in the message.
    @Test func aMemberOfAnArchiveIsAnnotatedOnTheArchive() {
        let archives: Set<String> = ["bundles/support.zip", "logs.tar.gz"]
        let member = GitHubReport.command("error", artifact: "bundles/support.zip!backups/b.zip!backup.json",
                                          position: SourcePosition(line: 3, column: 7, byteOffset: 40), title: "secret.github-token",
                                          message: "m", archives: archives)
        #expect(member == "::error file=bundles/support.zip,title=secret.github-token::backups/b.zip!backup.json:3:7: m\n")
        let error = GitHubReport.command("error", artifact: "logs.tar.gz!app.log", position: nil, title: "input.read", message: "m",
                                         archives: archives)
        #expect(error == "::error file=logs.tar.gz,title=input.read::app.log: m\n")
        // A file whose name holds `!`, in no archive, is annotated as it is.
        #expect(GitHubReport.command("error", artifact: "odd!name.json", position: nil, title: "t", message: "m", archives: archives)
                == "::error file=odd!name.json,title=t::m\n")
        #expect(GitHubReport.isArchive(ArtifactSummary(name: "a.tar.gz", format: "tar+gzip", byteCount: 1)))
        #expect(!GitHubReport.isArchive(ArtifactSummary(name: "a.json", format: "json", byteCount: 1)))
    }

    @Test func pathsAreWorkspaceRelativeWithoutDotSlash() {
        #expect(GitHubReport.fileProperty("./captures/a.har") == "captures/a.har")
        #expect(GitHubReport.fileProperty(".//a.json") == "a.json")
        #expect(GitHubReport.fileProperty("captures/./a.har") == "captures/./a.har")
        #expect(GitHubReport.fileProperty("a.json") == "a.json")
        let line = GitHubReport.command("error", artifact: "./a.json", position: nil, title: "input.parse", message: "m")
        #expect(line == "::error file=a.json,title=input.parse::m\n")
    }
}
