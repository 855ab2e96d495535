import AuditCore
import AuditInputs
import AuditDetection
import AuditRules

extension Scanner {
    /// How large a ZIP inside another archive may be: it is read whole into memory, and its size
    /// is not the input's (DESIGN.md's bound is the input's size plus 64 MB).
    static let nestedZipLimit = 64 << 20

    /// Scans the members of the archive `window` holds, each as an input of its own named
    /// `name!member`, and returns the archive's outcome, which lists them
    /// (`ArtifactOutcome.members`) and holds the errors of the archive itself. `compression`:
    /// the archive's own (`tar+gzip`). `depth`: the archive's, 1 at the top.
    func scanArchive(_ format: ArchiveFormat, window: ByteWindow, name: String, compression: String?, rules: RulePack,
                     matcher: RegexMatcher, caches: WorkerCaches, depth: Int) -> ArtifactOutcome {
        var errors: [InputError] = []
        var members: [ArtifactOutcome] = []
        // An archive's positions are byte offsets, as a binary file's are.
        window.isBinary = true
        func position(_ offset: Int?) -> SourcePosition? { offset.map { SourcePosition(line: 1, column: $0 + 1, byteOffset: $0) } }
        if depth > ArchiveFormat.maxDepth {
            errors.append(InputError(kind: .limit, artifact: name, reason: "an archive nested more than \(ArchiveFormat.maxDepth) deep is not opened"))
        } else {
            var walk = ArchiveFormat.walk(format, window, memoryLimit: depth > 1 ? Scanner.nestedZipLimit : nil)
            walking: while true {
                switch walk.next() {
                case .success(nil):
                    break walking
                case .success(.member(let member, let memberWindow)):
                    members.append(scan(memberWindow, name: name + "!" + member, rules: rules, matcher: matcher, caches: caches,
                                        archiveDepth: depth))
                case .success(.unreadable(let member, let reason)):
                    members.append(.unread(InputError(kind: .read, artifact: name + "!" + member, reason: reason)))
                case .failure(let error):
                    errors.append(InputError(kind: error.kind, artifact: name, position: position(error.offset), reason: error.reason))
                    break walking
                }
            }
        }
        // Read to the end (a tar's zero blocks): the byte count is the archive's size.
        while window.extend(keeping: window.end) {}
        // Unless a member reported it: the archive failed inside that member.
        if let failure = window.failure, !(errors + members.flatMap(\.errors)).contains(where: { $0.kind == .read && $0.reason == failure }) {
            errors.append(InputError(kind: .read, artifact: name, reason: failure))
        }
        let summary = ArtifactSummary(name: name, format: InputFormat.reportName(format.rawValue, encoding: nil, compression: compression),
                                      byteCount: window.end)
        return ArtifactOutcome(findings: [], errors: errors, summary: summary, sightings: [], members: members)
    }
}
