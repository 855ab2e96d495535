import AuditCore

/// Why a redacted copy was not written. Every case fails closed: nothing is written, and the
/// message names the input, the position and the reason, never a value.
public enum RedactError: Error, Sendable, CustomStringConvertible {
    /// The input could not be read or parsed (or a limit stopped its scan).
    case input([InputError])
    /// Secrets the scan still reports after redaction (a layer that could not be re-encoded, a
    /// value the redactors could not reach).
    case incomplete(artifact: String, remaining: [Finding], problems: [String])
    /// The redacted copy no longer reads in the input's format: a defect of the redactor.
    case broken(artifact: String, errors: [InputError], reason: String)

    /// One line per problem, `file:line:column: reason`.
    public var lines: [String] {
        switch self {
        case .input(let errors):
            return errors.map(\.description)
        case .incomplete(let artifact, let remaining, let problems):
            var lines = remaining.map { finding in
                "\(artifact):\(finding.position.line):\(finding.position.column): \(finding.ruleId) at \(finding.path) is still reported after redaction"
            }
            lines += problems.map { "\(artifact): \($0)" }
            lines.append("\(artifact): \(remaining.count) secret\(remaining.count == 1 ? "" : "s") could not be redacted; nothing was written")
            return lines
        case .broken(let artifact, let errors, let reason):
            return errors.map(\.description) + ["\(artifact): \(reason); nothing was written"]
        }
    }

    public var description: String { lines.joined(separator: "\n") }
}
