@testable import AuditCore
import AuditReport
import Testing

/// The summary's count of secrets repeated across a capture's requests: what a plain count of
/// each secret's findings, by input and hash, gives, whatever order the findings come in.
@Suite struct RepeatedAcrossRequestsTests {
    /// A request's finding of `rule` in `artifact` of the secret hashed `hash`.
    static func finding(rule: String, artifact: String, hash: UInt64?, inRequest: Bool = true, suppressed: Bool = false) -> Finding {
        var finding = Finding(ruleId: rule, level: .error, family: .secret, message: "", key: nil, context: .payload, inventoryClass: nil,
                              artifact: artifact, position: SourcePosition(line: 1, column: 1, byteOffset: 0), path: LayeredPath(),
                              pathText: "/", confidence: .high, preview: "", fingerprint: "",
                              suppression: suppressed ? Suppression(source: .allowlist, justification: "test") : nil)
        finding.secretHash = hash
        finding.isInRequest = inRequest
        return finding
    }

    /// The phrase counted plainly: each secret's findings in a dictionary, named by its first
    /// finding's rule.
    static func plainPhrase(_ findings: [Finding]) -> String? {
        struct Secret: Hashable { var artifact: String, hash: UInt64 }
        var order: [Secret] = []
        var counts: [Secret: (rule: String, count: Int)] = [:]
        for f in findings where f.isActive && f.isInRequest {
            guard let hash = f.secretHash else { continue }
            let secret = Secret(artifact: f.artifact, hash: hash)
            if counts[secret] == nil { order.append(secret); counts[secret] = (f.ruleId, 0) }
            counts[secret]!.count += 1
        }
        var kinds: [String: Int] = [:]
        var keys: [(rule: String, requests: Int)] = []
        for secret in order where counts[secret]!.count > 1 {
            let (rule, requests) = counts[secret]!
            let key = "\(rule) \(requests)"
            if kinds[key] == nil { keys.append((rule, requests)) }
            kinds[key, default: 0] += 1
        }
        guard !keys.isEmpty else { return nil }
        keys.sort { $0.rule != $1.rule ? $0.rule < $1.rule : $0.requests > $1.requests }
        return "repeated across requests: " + keys.map { "\(kinds["\($0.rule) \($0.requests)"]!) \($0.rule) in \($0.requests) requests" }.joined(separator: ", ")
    }

    @Test func countsAsAPlainCountDoes() {
        var generator = SeededGenerator(seed: 23)
        for round in 0..<60 {
            let count = round < 10 ? round : Int.random(in: 10...400, using: &generator)
            let findings = (0..<count).map { _ in
                Self.finding(rule: ["secret.jwt", "secret.github-token", "secret.bearer"].randomElement(using: &generator)!,
                             artifact: ["a.har", "b.har"].randomElement(using: &generator)!,
                             hash: Bool.random(using: &generator) && round % 3 == 0 ? nil : UInt64.random(in: 0..<UInt64(max(2, count / 3)), using: &generator),
                             inRequest: Int.random(in: 0..<10, using: &generator) > 0, suppressed: Int.random(in: 0..<10, using: &generator) == 0)
            }
            #expect(TextReport.repeatedAcrossRequests(findings) == Self.plainPhrase(findings), "round \(round)")
        }
    }

    /// One secret's findings under two rules count as the first one's rule.
    @Test func aSecretCountsAsItsFirstFindingsRule() {
        let findings = [Self.finding(rule: "secret.jwt", artifact: "a.har", hash: 7), Self.finding(rule: "secret.bearer", artifact: "a.har", hash: 7),
                        Self.finding(rule: "secret.bearer", artifact: "b.har", hash: 7)]
        #expect(TextReport.repeatedAcrossRequests(findings) == "repeated across requests: 1 secret.jwt in 2 requests")
        #expect(TextReport.repeatedAcrossRequests(Array(findings.reversed())) == "repeated across requests: 1 secret.bearer in 2 requests")
    }
}
