/// A rule file that cannot be used. The message names the file, the position and the rule.
public struct RuleFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var ruleId: String?
    public var reason: String

    public init(file: String, line: Int? = nil, column: Int? = nil, ruleId: String? = nil, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.ruleId = ruleId
        self.reason = reason
    }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let column { text += ":\(column)" }
        text += ": "
        if let ruleId { text += "rule '\(ruleId)': " }
        return text + reason
    }
}
