import AuditCore
import AuditDetection
import AuditInputs
import AuditScan
import AuditTriage
import Foundation

/// What `scan` and `baseline` share: the options that choose rules, configuration, contexts and
/// inputs, read into a rule pack, scan options and the list of inputs.
struct ScanSetup {
    static let specs: [OptionSpec] = [
        OptionSpec(name: "context", short: nil, takesValue: true),
        OptionSpec(name: "input-format", short: nil, takesValue: true),
        OptionSpec(name: "rules", short: nil, takesValue: true, repeatable: true),
        OptionSpec(name: "no-builtin-rules", short: nil, takesValue: false),
        OptionSpec(name: "config", short: nil, takesValue: true),
        OptionSpec(name: "no-config", short: nil, takesValue: false),
        OptionSpec(name: "max-depth", short: nil, takesValue: true),
        OptionSpec(name: "max-document-hits", short: nil, takesValue: true),
        OptionSpec(name: "jobs", short: "j", takesValue: true),
        OptionSpec(name: "shard", short: nil, takesValue: true),
        OptionSpec(name: "exclude", short: nil, takesValue: true, repeatable: true),
        OptionSpec(name: "include", short: nil, takesValue: true, repeatable: true),
        OptionSpec(name: "no-ignore", short: nil, takesValue: false),
    ]

    enum ContextChoice: String, CaseIterable { case auto, sync, prefs, backup, payload }

    var pack: RulePack
    var options: ScanOptions
    var configuration: Configuration?
    var items: [InputItem]
    var collectErrors: [InputError]
    var jobs: Int

    /// Reads the shared options of `parsed`; nil (after saying why on stderr) when the
    /// configuration or a rule file is invalid.
    static func make(_ parsed: ParsedArguments, command: String, _ environment: CLIEnvironment) throws(UsageError) -> ScanSetup? {
        guard !parsed.positionals.isEmpty else {
            throw UsageError(message: "missing a path to scan (a file, a directory or - for stdin)", command: command)
        }
        if parsed.positionals.filter({ $0 == "-" }).count > 1 {
            throw UsageError(message: "stdin ('-') can be scanned only once", command: command)
        }
        if let output = parsed.value("output"), let overlap = OutputFile.overlap(of: output, with: parsed.positionals) {
            throw UsageError(message: overlap, command: command)
        }
        let context: ContextChoice = try choice(parsed.value("context"), option: "context", command: command, default: .auto)
        let inputFormat: InputFormat = try choice(parsed.value("input-format"), option: "input-format", command: command, default: .auto)
        let maxDepth = try positiveInteger(parsed.value("max-depth"), option: "max-depth", command: command) ?? JSONReader.defaultMaxDepth
        let maxDocumentHits = try positiveInteger(parsed.value("max-document-hits"), option: "max-document-hits", command: command)
            ?? ScanOptions.defaultMaxDocumentHits
        let jobs = try positiveInteger(parsed.value("jobs"), option: "jobs", command: command) ?? 1
        let shard = try parsed.value("shard").map { value throws(UsageError) in try Shard.parse(value, command: command) }
        if parsed.flags.contains("no-config") && parsed.value("config") != nil {
            throw UsageError(message: "--config and --no-config exclude each other", command: command)
        }

        let currentDirectory = FileManager.default.currentDirectoryPath
        var configuration: Configuration?
        do {
            if let path = parsed.value("config") {
                configuration = try Configuration.load(path, currentDirectory: currentDirectory)
            } else if !parsed.flags.contains("no-config"),
                      let found = Configuration.discover(from: parsed.positionals[0], currentDirectory: currentDirectory) {
                configuration = try Configuration.load(found, currentDirectory: currentDirectory)
            }
        } catch {
            environment.writeErr("Error: invalid configuration: \(error)\n")
            return nil
        }
        let pack: RulePack
        do {
            pack = try RulePack.load(builtin: !parsed.flags.contains("no-builtin-rules"),
                                     directories: (configuration?.ruleDirectories ?? []) + (parsed.values["rules"] ?? []),
                                     disabled: configuration?.disabledRules ?? [])
        } catch {
            environment.writeErr("Error: invalid rules: \(error)\n")
            return nil
        }
        var options = ScanOptions(context: ScanContext(rawValue: context.rawValue), inputFormat: inputFormat, maxDepth: maxDepth)
        options.maxDocumentHits = maxDocumentHits
        if let syncPaths = configuration?.syncPaths { options.syncPathMarkers = syncPaths }
        let walk = WalkOptions(
            useIgnoreFiles: !parsed.flags.contains("no-ignore"),
            exclude: try patterns((configuration?.excludePaths ?? []) + (parsed.values["exclude"] ?? []), option: "exclude", command: command),
            include: try patterns((configuration?.includePaths ?? []) + (parsed.values["include"] ?? []), option: "include", command: command))
        var (items, collectErrors) = InputCollector.collect(parsed.positionals, walk: walk)
        if let shard {
            items = items.filter { shard.contains($0.name) }
            collectErrors = collectErrors.filter { shard.contains($0.artifact) }
        }
        return ScanSetup(pack: pack, options: options, configuration: configuration, items: items,
                         collectErrors: collectErrors, jobs: jobs)
    }

    /// Scans the inputs, reporting progress to `progress` when given.
    func scan(progress: ProgressReporter? = nil) -> ScanResult {
        var callback: (@Sendable (Int, Int) -> Void)?
        if let progress {
            callback = { done, bytes in progress.update(filesDone: done, bytesDone: bytes) }
        }
        var result = Scanner(rules: pack, options: options).scan(items, jobs: jobs, progress: callback)
        progress?.finish()
        result.errors = collectErrors + result.errors
        return result
    }

    /// `--exclude` and `--include` globs (and the configuration's), in gitignore syntax.
    static func patterns(_ globs: [String], option: String, command: String) throws(UsageError) -> [PathPattern] {
        var result: [PathPattern] = []
        for glob in globs {
            guard let pattern = PathPattern(line: glob) else {
                throw UsageError(message: "invalid value '\(glob)' for '--\(option)' (expected a path glob such as 'build/' or '**/*.har')", command: command)
            }
            result.append(pattern)
        }
        return result
    }

    static func positiveInteger(_ value: String?, option: String, command: String) throws(UsageError) -> Int? {
        guard let value else { return nil }
        guard let n = Int(value), n >= 1 else {
            throw UsageError(message: "invalid value '\(value)' for '--\(option)' (expected a positive integer)", command: command)
        }
        return n
    }
}

/// `--shard K/N`: the inputs whose path hashes to K of N (1-based). The split depends only on
/// each input's path, so a shard keeps its files when others are added, and the N shards
/// together are the whole set, each input in exactly one.
struct Shard: Equatable {
    var index: Int
    var count: Int

    static func parse(_ text: String, command: String) throws(UsageError) -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            throw UsageError(message: "invalid value '\(text)' for '--shard' (expected K/N with 1 ≤ K ≤ N, e.g. 2/4)", command: command)
        }
        return Shard(index: k, count: n)
    }

    func contains(_ path: String) -> Bool {
        var bytes = Array(path.utf8)
        let hash = bytes.withUnsafeMutableBufferPointer { KeyFactsCache.hash(UnsafeBufferPointer($0)) }
        return Int(hash % UInt64(count)) == index - 1
    }
}
