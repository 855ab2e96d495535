/// A file the tool reads for its own use that cannot be used: a rule pack, the inventory, the
/// configuration, a baseline. The message names the file, the position and, in a rule pack, the
/// rule. Shared by those readers so that none depends on another's error type.
public struct FileFormatError: Error, Equatable, Sendable, CustomStringConvertible {
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
