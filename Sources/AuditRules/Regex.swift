import AuditBytes
internal import CPCRE2
import Synchronization

/// A compiled PCRE2 pattern (UTF mode that tolerates invalid UTF-8 in subjects), JIT-compiled
/// when the platform allows, before its first match. Shareable across threads; matching needs
/// a per-thread `RegexMatcher`.
public final class Regex: @unchecked Sendable {
    /// The compiled pattern, its capture groups and the secret's group: set at init, or for a
    /// deferred pattern before its first match (`prepareForMatching`), then never changed.
    private var compiled: Compiled?
    /// Why a deferred pattern did not compile, once it was tried.
    private var compileError: RegexError?
    private let options: UInt32
    /// The pattern as written, for diagnostics.
    public let pattern: String
    /// Whether the pattern is compiled and `pcre2_jit_compile_8` has run on it (whether or not
    /// the JIT succeeded; matching falls back to the interpreter when it did not). Both wait for
    /// the first match: most of a pack's patterns meet no value their keywords let through.
    /// Compiling all the JIT code at load was a third of a pack's load; compiling the built-in
    /// patterns, 16 M of the 81 M instructions of a scan of `{}`.
    private let isReady = Atomic<Bool>(false)
    /// Held while the pattern is compiled: no thread may match it meanwhile.
    private let compilation = Mutex<Void>(())

    struct Compiled {
        let code: OpaquePointer
        let captureCount: Int
        let secretGroup: Int
    }

    /// Whether a search may be told where matches must start by (`PCRE2_USE_OFFSET_LIMIT`,
    /// which JIT-compiles other code).
    let isStartLimited: Bool

    /// Compiles `pattern` with `pcre2_compile_8` (`pcre2_jit_compile_8` waits for the first
    /// match); `startLimited` for `RegexMatcher.allMatches(_:in:near:reach:)`.
    public convenience init(_ pattern: String, caseInsensitive: Bool = false, startLimited: Bool = false) throws(RegexError) {
        self.init(deferring: pattern, caseInsensitive: caseInsensitive, startLimited: startLimited)
        compiled = try Regex.compile(pattern, options: options)
    }

    /// A pattern compiled before its first match, for patterns known to compile (the built-in
    /// pack's, which a test compiles): a match reports one that does not.
    public init(deferring pattern: String, caseInsensitive: Bool = false, startLimited: Bool = false) {
        var options = UInt32(PCRE2_UTF) | UInt32(PCRE2_MATCH_INVALID_UTF)
        if caseInsensitive { options |= UInt32(PCRE2_CASELESS) }
        if startLimited { options |= UInt32(PCRE2_USE_OFFSET_LIMIT) }
        self.options = options
        isStartLimited = startLimited
        self.pattern = pattern
    }

    deinit {
        if let compiled { pcre2_code_free_8(compiled.code) }
    }

    private static func compile(_ pattern: String, options: UInt32) throws(RegexError) -> Compiled {
        var errorCode: Int32 = 0
        var errorOffset: Int = 0
        let code: OpaquePointer? = pattern.utf8CString.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: buffer.count) { p in
                pcre2_compile_8(p, buffer.count - 1, options, &errorCode, &errorOffset, nil)
            }
        }
        guard let code else {
            throw RegexError.compile(message: Regex.errorMessage(errorCode), offset: errorOffset)
        }
        var count: UInt32 = 0
        _ = pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_CAPTURECOUNT), &count)
        let named = "secret".withCString { name in
            name.withMemoryRebound(to: UInt8.self, capacity: 7) { pcre2_substring_number_from_name_8(code, $0) }
        }
        return Compiled(code: code, captureCount: Int(count), secretGroup: named > 0 ? Int(named) : (count >= 1 ? 1 : 0))
    }

    /// Compiles the pattern and its JIT code unless done, once for all threads; the compiled
    /// pattern, or why it does not compile.
    @inline(__always)
    func prepareForMatching() throws(RegexError) -> Compiled {
        if isReady.load(ordering: .acquiring), let compiled { return compiled }
        return try prepareOnce()
    }

    private func prepareOnce() throws(RegexError) -> Compiled {
        let outcome: Result<Compiled, RegexError> = compilation.withLock { _ in
            let made = compiledLocked()
            if case .success(let compiled) = made, !isReady.load(ordering: .relaxed) {
                _ = pcre2_jit_compile_8(compiled.code, UInt32(PCRE2_JIT_COMPLETE))
                isReady.store(true, ordering: .releasing)
            }
            return made
        }
        return try outcome.get()
    }

    /// The compiled pattern, compiling a deferred one; with `compilation` held.
    private func compiledLocked() -> Result<Compiled, RegexError> {
        if let compiled { return .success(compiled) }
        if let compileError { return .failure(compileError) }
        do {
            let made = try Regex.compile(pattern, options: options)
            compiled = made
            return .success(made)
        } catch {
            compileError = error
            return .failure(error)
        }
    }

    /// Number of capture groups (compiling a deferred pattern, without its JIT code; 0 when it
    /// does not compile).
    public var captureCount: Int {
        compilation.withLock { _ in (try? compiledLocked().get())?.captureCount ?? 0 }
    }

    /// Whether the pattern is compiled yet (a deferred one is compiled before its first match).
    var isCompiled: Bool {
        compilation.withLock { _ in compiled != nil }
    }

    /// Whether the pattern runs as JIT code (compiling it first, as a match would).
    public var isJITCompiled: Bool {
        guard let compiled = try? prepareForMatching() else { return false }
        var size = 0
        return pcre2_pattern_info_8(compiled.code, UInt32(PCRE2_INFO_JITSIZE), &size) == 0 && size > 0
    }

    /// The text of a PCRE2 error code (`pcre2_get_error_message_8`).
    static func errorMessage(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = pcre2_get_error_message_8(code, &buffer, buffer.count)
        return n > 0 ? String(decoding: buffer[0..<Int(n)], as: UTF8.self) : "PCRE2 error \(code)"
    }
}

public enum RegexError: Error, Equatable, Sendable {
    /// The pattern does not compile; `offset` is the byte offset in the pattern.
    case compile(message: String, offset: Int)
    /// A match gave up at the match or depth limit: the check is incomplete.
    case limitExceeded
    /// Any other matching error.
    case match(String)

    public var message: String {
        switch self {
        case .compile(let message, let offset): return "pattern does not compile at offset \(offset): \(message)"
        case .limitExceeded: return "the match limit was reached, so the check is incomplete"
        case .match(let message): return "matching failed: \(message)"
        }
    }
}

/// Per-thread matching state: match data, a match context with limits, and a JIT stack.
public final class RegexMatcher {
    private let matchData: OpaquePointer
    private let context: OpaquePointer
    /// The same limits and stack, for searches whose matches must start by an offset.
    private let startLimitedContext: OpaquePointer
    private let jitStack: OpaquePointer?

    /// Default limits: generous for real patterns, small enough that a catastrophic pattern
    /// gives up within milliseconds.
    public static let defaultMatchLimit: UInt32 = 1_000_000
    public static let defaultDepthLimit: UInt32 = 10_000

    public init(matchLimit: UInt32 = RegexMatcher.defaultMatchLimit, depthLimit: UInt32 = RegexMatcher.defaultDepthLimit) {
        matchData = pcre2_match_data_create_8(32, nil)
        context = pcre2_match_context_create_8(nil)
        pcre2_set_match_limit_8(context, matchLimit)
        pcre2_set_depth_limit_8(context, depthLimit)
        jitStack = pcre2_jit_stack_create_8(32 * 1024, 1024 * 1024, nil)
        if let jitStack { pcre2_jit_stack_assign_8(context, nil, UnsafeMutableRawPointer(jitStack)) }
        startLimitedContext = pcre2_match_context_copy_8(context)
    }

    deinit {
        if let jitStack { pcre2_jit_stack_free_8(jitStack) }
        pcre2_match_context_free_8(startLimitedContext)
        pcre2_match_context_free_8(context)
        pcre2_match_data_free_8(matchData)
    }

    /// Finds the first match of `regex` in `subject` at or after `start` (`pcre2_match_8`).
    /// Returns the whole match range and the range of the secret group (nil when that group did
    /// not participate), as offsets into `subject`.
    public func firstMatch(_ regex: Regex, in subject: UnsafeRawBufferPointer, from start: Int = 0) throws(RegexError) -> RegexMatch? {
        try firstMatch(regex, in: subject, from: start, context: context)
    }

    /// The first match that starts at or after `start` and at or before `last`
    /// (`pcre2_set_offset_limit_8`); `regex` must be start-limited.
    private func firstMatch(_ regex: Regex, in subject: UnsafeRawBufferPointer, from start: Int, startingBy last: Int) throws(RegexError) -> RegexMatch? {
        precondition(regex.isStartLimited, "a start limit needs a pattern compiled for it")
        pcre2_set_offset_limit_8(startLimitedContext, last)
        return try firstMatch(regex, in: subject, from: start, context: startLimitedContext)
    }

    private func firstMatch(_ regex: Regex, in subject: UnsafeRawBufferPointer, from start: Int, context: OpaquePointer) throws(RegexError) -> RegexMatch? {
        let base = subject.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? emptyByteBase
        let compiled = try regex.prepareForMatching()
        let rc = pcre2_match_8(compiled.code, base, subject.count, start, 0, matchData, context)
        if rc == PCRE2_ERROR_NOMATCH { return nil }
        if rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT
            || rc == PCRE2_ERROR_HEAPLIMIT {
            throw .limitExceeded
        }
        if rc < 0 { throw .match(Regex.errorMessage(rc)) }
        let ovector = pcre2_get_ovector_pointer_8(matchData)!
        let whole = Int(ovector[0])..<Int(ovector[1])
        let group = compiled.secretGroup
        var secret: Range<Int>? = whole
        if group > 0 {
            if group < Int(rc), ovector[2 * group] != PCRE2_UNSET_VALUE {
                secret = Int(ovector[2 * group])..<Int(ovector[2 * group + 1])
            } else {
                secret = nil
            }
        }
        return RegexMatch(range: whole, secret: secret)
    }

    /// All non-overlapping matches, advancing one byte after an empty match.
    public func allMatches(_ regex: Regex, in subject: UnsafeRawBufferPointer, limit: Int = 64) throws(RegexError) -> [RegexMatch] {
        var results: [RegexMatch] = []
        var start = 0
        while start <= subject.count, results.count < limit, let m = try firstMatch(regex, in: subject, from: start) {
            results.append(m)
            start = m.range.isEmpty ? m.range.upperBound + 1 : m.range.upperBound
        }
        return results
    }

    /// What `allMatches` finds, for a pattern each of whose matches starts at most `reach` bytes
    /// before a keyword it holds (`KeywordReach`), given where the keywords are: `anchors`,
    /// ascending offsets. Only the stretches `reach` bytes before an anchor are tried as starts;
    /// each search still sees the whole subject, so lookarounds read what they always read.
    /// `regex` must be start-limited.
    public func allMatches(_ regex: Regex, in subject: UnsafeRawBufferPointer, near anchors: [Int], reach: Int,
                           limit: Int = 64) throws(RegexError) -> [RegexMatch] {
        var results: [RegexMatch] = []
        var start = 0
        var next = 0
        while results.count < limit {
            while next < anchors.count && anchors[next] < start { next += 1 }
            guard next < anchors.count else { break }
            // The starts that the next anchors allow, joined while they touch.
            let first = max(start, anchors[next] - reach)
            var last = anchors[next]
            var after = next + 1
            while after < anchors.count && anchors[after] - reach <= last + 1 {
                last = max(last, anchors[after])
                after += 1
            }
            if let m = try firstMatch(regex, in: subject, from: first, startingBy: last) {
                results.append(m)
                start = m.range.isEmpty ? m.range.upperBound + 1 : m.range.upperBound
            } else {
                start = last + 1
                next = after
            }
        }
        return results
    }
}

/// `PCRE2_UNSET` is not imported (it is `~(PCRE2_SIZE)0`).
private let PCRE2_UNSET_VALUE = Int.max.magnitude * 2 + 1

/// One match: the whole match and the secret group, as byte ranges of the subject.
public struct RegexMatch: Equatable, Sendable {
    public var range: Range<Int>
    public var secret: Range<Int>?
}
