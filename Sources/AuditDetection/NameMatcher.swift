import AuditBytes
import AuditRules

/// The result of matching a key name against the name rules.
public struct NameMatch: Sendable, Equatable {
    /// Index of the matched rule in the list the matcher was built from.
    public var ruleIndex: Int
    /// The matched name as one word, then the key's words, lowercased: what a value that only
    /// repeats its key is checked against (`ValueCredibility`). One array, so that the name of
    /// every value under a sensitive key is cheap to pass around.
    public var keyWords: [String]
    /// The key names metadata about a secret rather than the secret: its last word, after the
    /// match, is one such as `type`, `expiresAt`, `url` or `length` (`tokenType`,
    /// `passwordUpdatedAt`), or a word that makes it an identifier precedes it (`nextPageToken`,
    /// `twilioAccountSid`).
    public var describesMetadata: Bool

    /// The key's words, lowercased.
    public var words: [String] { Array(keyWords.dropFirst()) }
    /// The matched name as one word (`refreshtoken`).
    public var matchedName: String { keyWords[0] }

    public init(ruleIndex: Int, words: [String], matchedName: String, describesMetadata: Bool) {
        self.ruleIndex = ruleIndex
        keyWords = [matchedName] + words
        self.describesMetadata = describesMetadata
    }
}

/// Matches key names against name rules, fail-closed: every spelling of a name matches
/// (camelCase, snake_case, kebab-case, dotted, any case, plural), whole words only, so
/// `author` is not `auth` and `tokenizer` is not `token`.
public final class NameMatcher: @unchecked Sendable {
    /// Words that, as the last word of a key after the sensitive name, make it metadata.
    static let metadataWords: Set<String> = [
        "type", "types", "kind", "expiry", "expires", "expiration", "exp", "ttl", "in", "at",
        "time", "date", "timestamp", "url", "uri", "urls", "endpoint", "path", "length", "len",
        "size", "count", "enabled", "required", "policy", "format", "field", "fields", "label",
        "hint", "name", "names", "id", "ids", "status", "state", "version", "scope", "scopes",
        "mode", "method", "methods", "issuer", "audience", "algorithm", "alg", "provider",
        "source", "index", "strength", "updated", "created", "changed", "rotated", "valid",
        "validity", "error", "errors", "message", "prompt", "placeholder", "header", "prefix",
        "location", "storage", "store", "key", "keys", "change", "on", "last", "arn", "ref",
        "reference", "requirements", "rules", "help", "description", "text", "title", "tooltip",
        "caption", "body", "footer", "subtitle", "instructions", "button", "link", "action",
        "screen", "page", "dialog", "visibility", "visible", "hidden", "toggle", "icon", "reset",
    ]

    /// Words that, right before a matched name, make the key name an identifier rather than a
    /// credential: a position in a list (`nextPageToken`, `continuation_token`, `syncToken`), a
    /// device's push address (`fcmRegistrationToken`, `pushToken`, `apnsDeviceToken`), a Twilio
    /// resource id (`twilioAccountSid`, `messagingServiceSid`).
    static let identifierQualifiers: [String: Set<String>] = [
        "token": ["page", "pagination", "paging", "continuation", "cursor", "next", "prev", "previous", "resume", "sync",
                  "push", "fcm", "apns", "registration", "device", "notification"],
        "sid": ["account", "service", "messaging", "conversation", "call", "message", "workspace", "flow", "verify"],
    ]

    private let lookup: [String: Int]
    private let prefilter: LiteralPrefilter
    private let maxNameLength: Int

    /// Builds a matcher over `rules` (name rules only); earlier rules win ties.
    public init(rules: [Rule]) {
        var lookup: [String: Int] = [:]
        for (index, rule) in rules.enumerated() {
            for name in rule.names {
                let joined = KeyWords.split(name).joined()
                if lookup[joined] == nil { lookup[joined] = index }
            }
        }
        self.lookup = lookup
        let literals = lookup.keys.sorted()
        prefilter = LiteralPrefilter(literals: literals.filter { $0.utf8.count >= 2 })
        maxNameLength = literals.map { $0.utf8.count }.max() ?? 0
    }

    /// Matches a key given as raw bytes.
    public func match(_ key: UnsafeBufferPointer<UInt8>) -> NameMatch? {
        // Cheap gate, without copying: some name must occur in the key with separators removed,
        // so some pair of consecutive letters or digits must start a name. Most short names
        // (form fields, query parameters) stop here.
        var previous: UInt8 = 0
        var candidate = false
        for b in key {
            let lower = ASCIICase.lower(b)
            let isWordByte = lower &- 0x61 < 26 || lower &- 0x30 < 10 || lower >= 0x80
            if !isWordByte { continue }
            if previous != 0 && prefilter.mayStartLiteral(previous, lower) {
                candidate = true
                break
            }
            previous = lower
        }
        guard candidate else { return nil }
        // Then the search, in any case, in the key's letters and digits (its separators taken
        // out) on the stack, where a scratch array's appends cost more than the search.
        let any = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: key.count) { joined in
            var count = 0
            for b in key {
                joined[count] = b
                count &+= ASCIICase.isLetterOrDigit(b) || b >= 0x80 ? 1 : 0
            }
            var any = false
            prefilter.scan(UnsafeRawBufferPointer(start: joined.baseAddress, count: count)) { _, _ in any = true }
            return any
        }
        guard any else { return nil }
        return match(words: KeyWords.split(key))
    }

    /// Matches a key given as a string.
    public func match(_ key: String) -> NameMatch? {
        var key = key
        return key.withUTF8 { match($0) }
    }

    /// Finds the longest run of words spelling a name; ties go to the earlier rule.
    func match(words: [String]) -> NameMatch? {
        var best: (rule: Int, name: String, start: Int, end: Int)?
        for start in words.indices {
            var joined = ""
            for end in start..<words.count {
                joined += words[end]
                if joined.utf8.count > maxNameLength + 1 { break }
                var candidate: (Int, String)?
                if let rule = lookup[joined] {
                    candidate = (rule, joined)
                } else if joined.hasSuffix("s"), let rule = lookup[String(joined.dropLast())] {
                    candidate = (rule, String(joined.dropLast()))
                }
                guard let (rule, name) = candidate else { continue }
                if let current = best {
                    let longer = name.utf8.count > current.name.utf8.count
                    let tie = name.utf8.count == current.name.utf8.count && rule < current.rule
                    if !(longer || tie) { continue }
                }
                best = (rule, name, start, end)
            }
        }
        guard let best else { return nil }
        let describesMetadata = (best.end < words.count - 1 && NameMatcher.metadataWords.contains(words[words.count - 1]))
            || (best.start > 0 && NameMatcher.identifierQualifiers[best.name]?.contains(words[best.start - 1]) == true)
        return NameMatch(ruleIndex: best.rule, words: words, matchedName: best.name, describesMetadata: describesMetadata)
    }
}
