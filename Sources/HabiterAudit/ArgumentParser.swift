/// A usage error: exit 64, one line on stderr plus a hint.
public struct UsageError: Error, Equatable, Sendable {
    public var message: String
    /// The command whose help to point at (`scan`, `rules`), nil for the top level.
    public var command: String?
}

/// An option a command accepts.
struct OptionSpec {
    /// Long name without dashes (`format`), used as the key of parsed values.
    var name: String
    /// One-letter alias without the dash (`o`), if any.
    var short: Character?
    /// Whether the option takes a value; otherwise it is a flag.
    var takesValue: Bool
    /// Whether it may be given more than once (`--rules A --rules B`).
    var repeatable = false
}

/// Arguments split into option values, flags and positionals.
struct ParsedArguments {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    func value(_ name: String) -> String? { values[name]?.last }
}

/// Parses arguments the way swift-argument-parser does: `--opt value` and `--opt=value`,
/// `-o value`, flags, `--` ends options, `-` alone is a positional (stdin).
func parseArguments(_ arguments: [String], specs: [OptionSpec], command: String) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var i = 0
    var optionsEnded = false
    while i < arguments.count {
        let argument = arguments[i]
        i += 1
        if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
            parsed.positionals.append(argument)
            continue
        }
        if argument == "--" {
            optionsEnded = true
            continue
        }
        var name: Substring
        var inlineValue: String?
        let spec: OptionSpec?
        if argument.hasPrefix("--") {
            name = argument.dropFirst(2)
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = name[..<eq]
            }
            spec = specs.first { $0.name == name }
        } else {
            guard argument.count == 2 else {
                throw UsageError(message: "unknown option '\(argument)'", command: command)
            }
            name = argument.dropFirst()
            spec = specs.first { $0.short == name.first }
        }
        guard let spec else { throw UsageError(message: "unknown option '\(argument)'", command: command) }
        if spec.takesValue {
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard i < arguments.count else {
                    throw UsageError(message: "missing value for '\(argument)'", command: command)
                }
                value = arguments[i]
                i += 1
            }
            if !spec.repeatable && parsed.values[spec.name] != nil {
                throw UsageError(message: "'--\(spec.name)' given more than once", command: command)
            }
            parsed.values[spec.name, default: []].append(value)
        } else {
            if inlineValue != nil { throw UsageError(message: "'--\(spec.name)' takes no value", command: command) }
            parsed.flags.insert(spec.name)
        }
    }
    return parsed
}

/// Parses an option value into one of the cases of `T`.
func choice<T: RawRepresentable & CaseIterable>(_ value: String?, option: String, command: String, default fallback: T) throws(UsageError) -> T where T.RawValue == String {
    guard let value else { return fallback }
    guard let parsed = T(rawValue: value) else {
        let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
        throw UsageError(message: "invalid value '\(value)' for '--\(option)' (expected one of: \(allowed))", command: command)
    }
    return parsed
}
