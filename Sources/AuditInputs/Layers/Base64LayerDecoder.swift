import AuditBytes

/// Base64 held in a string (RFC 4648, standard or URL-safe alphabet, padded or not, with the line
/// breaks of MIME and Android's `Base64.DEFAULT`), opened only when it decodes to something a
/// reader can use: JSON (`.json`), gzip, zlib or zstd data (`.text` holding the compressed bytes,
/// which the gzip, deflate or zstd decoder opens next), an HTTP message whatever its body (for the
/// HTTP layer), or printable UTF-8 text (`.text`). The
/// value itself is still scanned as text: a base64 secret is a secret.
///
/// Strict, because most secrets are base64-shaped: a random token must not come back as
/// "text". The value needs 16 characters or more, one alphabet, canonical padding and zero
/// trailing bits; the decoded bytes must be valid UTF-8 without NUL, at least 90 % printable, and
/// are checked as they are decoded, so a random token is rejected after a few bytes without
/// allocating. Text or compressed data that would decode beyond `maxDecodedBytes` is refused (`decode`
/// throws, and the scan reports a limit): it is recognised, so it is never skipped.
public struct Base64LayerDecoder: LayerDecoder {
    public var name: String { "base64" }
    public var gate: LayerGate { LayerGate(minimumLength: Base64LayerDecoder.minLength, firstBytes: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_") }

    /// Fewer characters are too short to hold a layer worth opening (and too likely to decode to
    /// a few printable bytes by chance).
    public static let minLength = 16
    /// How many decoded bytes of text are checked before the value is taken for text.
    static let textSample = 512

    /// A UUID (`8-4-4-4-12` hex digits) or a plain hex string: base64-shaped, never base64 text.
    /// The commonest long values of this domain, rejected without decoding.
    static func isUUIDOrHex(_ value: UnsafeRawBufferPointer) -> Bool {
        let isUUID = value.count == 36 && value[8] == UInt8(ascii: "-") && value[13] == UInt8(ascii: "-")
            && value[18] == UInt8(ascii: "-") && value[23] == UInt8(ascii: "-")
        // Eight bytes at a time: every byte a hex digit, or one of the UUID's dashes.
        var i = 0
        while i &+ 8 <= value.count {
            let w = value.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let dashes = isUUID ? SWAR.exactBytesEqual(w, UInt8(ascii: "-")) & ~w & uuidDashes(inWordAt: i) : 0
            if SWAR.hexDigits(w) | dashes != SWAR.highBits { return false }
            i &+= 8
        }
        // The last few bytes (a UUID's last four are hex digits).
        while i < value.count {
            let b = value[i]
            guard b &- 0x30 < 10 || (b | 0x20) &- 0x61 < 6 else { return false }
            i += 1
        }
        return true
    }

    /// The high bits of the bytes where a UUID has its dashes (8, 13, 18, 23), in the word at
    /// `offset` (a multiple of 8).
    @inline(__always)
    private static func uuidDashes(inWordAt offset: Int) -> UInt64 {
        switch offset {
        case 8: 0x80 | 0x80 << 40  // bytes 8 and 13
        case 16: 0x80 << 16 | 0x80 << 56  // bytes 18 and 23
        default: 0
        }
    }

    /// For each byte: 1 for a symbol of both alphabets, `standardOnly` for `+` and `/`,
    /// `urlOnly` for `-` and `_`, 0 for anything else.
    private static let symbolKinds: [UInt8] = (0...255).map { b in
        switch (Base64.value(UInt8(b), .standard), Base64.value(UInt8(b), .url)) {
        case (_?, _?): 1
        case (_?, nil): standardOnly
        case (nil, _?): urlOnly
        case (nil, nil): 0
        }
    }
    private static let standardOnly: UInt8 = 2
    private static let urlOnly: UInt8 = 4

    /// Decoded sizes beyond this are refused. With the gzip layer's own cap, a layer costs at
    /// most 32 MiB beyond the input: within the 64 MB the scanner may take beyond its input,
    /// some 30 MB of which are its own (rules, compiled patterns, buffers).
    public static let maxDecodedBytes = 16 << 20

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) throws(LayerRefusal) -> DecodedLayer? {
        guard let alphabet = try recognisedAlphabet(value) else { return nil }
        guard let bytes = Base64.decode(value, alphabet: alphabet, ignoringLineBreaks: true) else { return nil }
        // Text, compressed data or JSON alike: the text layer offers it to the decoders again, so JSON opens
        // as `!base64!json` when it parses, and is scanned as text when it does not.
        return DecodedLayer(bytes: bytes, content: .text, replacesValue: false)
    }

    /// Whether `decode` opens `value` (or refuses it, throwing), without decoding all of it.
    public func recognises(_ value: UnsafeRawBufferPointer) throws(LayerRefusal) -> Bool {
        try recognisedAlphabet(value) != nil
    }

    /// The alphabet of `value` when it is base64 of text, gzip, zlib or zstd data (checked on a
    /// decoded sample), nil when it is not; throws when it is and would decode beyond
    /// `maxDecodedBytes`.
    private func recognisedAlphabet(_ value: UnsafeRawBufferPointer) throws(LayerRefusal) -> Base64.Alphabet? {
        guard value.count >= Self.minLength, !Self.isUUIDOrHex(value), let (alphabet, symbols) = Self.base64Characters(value) else { return nil }
        let decodedCount = symbols * 3 / 4
        guard Self.decodesToTextOrCompressed(value, alphabet: alphabet, decodedCount: decodedCount) else { return nil }
        guard decodedCount <= Self.maxDecodedBytes else {
            throw LayerRefusal(.limit, "base64 text or compressed data of \(decodedCount) bytes, over the limit of \(Self.maxDecodedBytes) bytes a layer may decode to; what it holds is not checked")
        }
        return alphabet
    }

    /// Pass 1, characters: the alphabet of `value` and its number of symbols when it is
    /// base64 by its characters, padding, length and trailing bits; nothing is decoded yet.
    @inline(__always)
    private static func base64Characters(_ value: UnsafeRawBufferPointer) -> (alphabet: Base64.Alphabet, symbols: Int)? {
        var symbols = 0
        var padding = 0
        var standard = false
        var url = false
        var last: UInt8 = 0
        // The leading run of symbols, 16 at a time while all are symbols, then by table; the
        // rest (line breaks, padding) byte by byte. Symbols of both alphabets end it at once.
        var seen: UInt8 = 0
        var run = 0
        let mixed = standardOnly | urlOnly
        while run &+ 16 <= value.count {
            let masks = Base64.symbolMasks16(value.baseAddress! + run)
            if masks.symbols != 0xFFFF { break }
            if masks.standardOnly != 0 { seen |= standardOnly }
            if masks.urlOnly != 0 { seen |= urlOnly }
            run &+= 16
            if seen & mixed == mixed { break }
        }
        symbolKinds.withUnsafeBufferPointer { kinds in
            while run < value.count {
                let kind = kinds[Int(value[run])]
                if kind == 0 { break }
                // Symbols of one alphabet only are rare: both alphabets end the check at once.
                if kind != 1 {
                    seen |= kind
                    if seen & mixed == mixed { break }
                }
                run &+= 1
            }
        }
        if seen & standardOnly != 0 && seen & urlOnly != 0 { return nil }
        standard = seen & standardOnly != 0
        url = seen & urlOnly != 0
        symbols = run
        if run > 0 { last = value[run - 1] }
        for b in UnsafeRawBufferPointer(rebasing: value[run...]) {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                break
            case UInt8(ascii: "+"), UInt8(ascii: "/"):
                standard = true
                if url { return nil }
            case UInt8(ascii: "-"), UInt8(ascii: "_"):
                url = true
                if standard { return nil }
            case UInt8(ascii: "="):
                padding += 1
                continue
            case 0x0A, 0x0D:
                continue
            default:
                return nil
            }
            if padding > 0 { return nil }
            symbols += 1
            last = b
        }
        guard symbols + padding >= minLength, !(standard && url), padding <= 2,
              padding == 0 || (symbols + padding) % 4 == 0 else { return nil }
        let alphabet: Base64.Alphabet = url ? .url : .standard
        guard let lastValue = Base64.value(last, alphabet) else { return nil }
        switch symbols % 4 {
        case 1: return nil
        case 2: if lastValue & 0x0F != 0 { return nil }
        case 3: if lastValue & 0x03 != 0 { return nil }
        default: break
        }
        return (alphabet, symbols)
    }

    /// Pass 2, on the first bytes decoded onto the stack: gzip or zstd magic, zlib data that
    /// begins to inflate to text, or text. A UTF-8 character is at most 4 bytes, so text reaches a
    /// character boundary within the sample.
    @inline(__always)
    private static func decodesToTextOrCompressed(_ value: UnsafeRawBufferPointer, alphabet: Base64.Alphabet, decodedCount: Int) -> Bool {
        let sampleCount = min(decodedCount, textSample + 8)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(sampleCount, 1)) { sample -> Bool in
            let decoded = Base64.decodePrefix(value, alphabet: alphabet, into: UnsafeMutableBufferPointer(rebasing: sample[..<sampleCount]))
            if decoded >= 3 && sample[0] == 0x1F && sample[1] == 0x8B && sample[2] == 0x08 {
                // RFC 1952 header: FLG's reserved bits clear, a known OS (a random token that
                // starts with `H4sI`, base64 of the magic, seldom has both).
                return decoded >= 10 && sample[3] & 0xE0 == 0 && (sample[9] <= 13 || sample[9] == 255)
            }
            if decoded >= 5 && Zstd.hasMagic(sample[..<decoded]) { return true }
            // Zlib data, else perhaps text that starts `x^`.
            if decoded >= 2 && sample[0] == 0x78 && DeflateLayerDecoder.opens(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: sample[..<decoded]))) {
                return true
            }
            if startsWithHTTPMessage(UnsafeBufferPointer(rebasing: sample[..<decoded])) { return true }
            var check = TextCheck(expectedBytes: decodedCount)
            // Printable ASCII eight bytes at a time, up to the sample's end at most.
            let wordsEnd = min(decoded, textSample)
            var index = 0
            while index < decoded {
                if index &+ 8 <= wordsEnd && check.feedPrintableASCII(UnsafeRawPointer(sample.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                    index &+= 8
                } else {
                    guard check.feed(sample[index]) else { return false }
                    index &+= 1
                }
                // Half a kilobyte of text is enough: random bytes never get this far.
                if index >= textSample && check.atCharacterBoundary { return check.finish() }
            }
            // Every byte was decoded and checked (a longer value has stopped above).
            return decoded == decodedCount && check.finish()
        }
    }

    /// Whether decoded bytes start with an HTTP message's start line, whatever its body (a
    /// proxy's export keeps a response's gzip body as sent): the HTTP layer reads it. Its first
    /// word is looked at before its line is searched.
    private static func startsWithHTTPMessage(_ sample: UnsafeBufferPointer<UInt8>) -> Bool {
        var word = 0
        while word < sample.count && sample[word] &- UInt8(ascii: "A") < 26 { word += 1 }
        guard word > 0, word < sample.count, sample[word] == UInt8(ascii: " ") || sample[word] == UInt8(ascii: "/"),
              let lineFeed = sample.firstIndex(of: 0x0A) else { return false }
        return HTTPLayerDecoder.isStartLine(UnsafeBufferPointer(rebasing: sample[..<lineFeed]))
    }

    /// Decodes a value that is known to be base64 (a HAR body with `"encoding": "base64"`, a
    /// MIME part with `Content-Transfer-Encoding: base64`), whatever it decodes to. Lenient where
    /// encoders differ: either alphabet (even mixed), padding optional, blanks and line breaks
    /// ignored, non-zero trailing bits ignored. Fails on a character outside the alphabet, data
    /// after padding, a lone final character, or a decoded size beyond `maxBytes`.
    public static func decodeForced<C: Collection>(_ text: C, maxBytes: Int = 256 << 20) -> Result<[UInt8], Base64Error> where C.Element == UInt8 {
        // Base64 as encoders write it (one alphabet, canonical padding, zero trailing bits)
        // decodes four symbols at a time, to the bytes the loop below gives it; the loop reads
        // the rest, a symbol at a time, and says why it fails. Text that could decode beyond
        // `maxBytes` goes to the loop, which counts before it decodes.
        if text.count * 3 / 4 <= maxBytes, let strict = Base64.decode(text, alphabet: .standard, ignoringLineBreaks: true) {
            return .success(strict)
        }
        return decodeLeniently(text, maxBytes: maxBytes)
    }

    /// `decodeForced` a symbol at a time, whatever the text is.
    static func decodeLeniently<C: Collection>(_ text: C, maxBytes: Int) -> Result<[UInt8], Base64Error> where C.Element == UInt8 {
        let symbols: Int
        switch checkForced(text, maxBytes: maxBytes) {
        case .success(let count): symbols = count
        case .failure(let error): return .failure(error)
        }
        var output: [UInt8] = []
        output.reserveCapacity(symbols * 3 / 4)
        var bits = Base64.BitAccumulator()
        let values = Base64.values(in: nil)  // either alphabet
        for c in text {
            let v = values[Int(c)]
            guard v < 64, let byte = bits.add(v) else { continue }
            output.append(byte)
        }
        return .success(output)
    }

    /// Whether `decodeForced` would succeed, without decoding: the number of base64 symbols, or
    /// why the text is not base64.
    public static func checkForced<C: Collection>(_ text: C, maxBytes: Int = 256 << 20) -> Result<Int, Base64Error> where C.Element == UInt8 {
        text.withContiguousStorageIfAvailable { checkForced($0, maxBytes: maxBytes) }
            ?? Array(text).withUnsafeBufferPointer { checkForced($0, maxBytes: maxBytes) }
    }

    private static func checkForced(_ text: UnsafeBufferPointer<UInt8>, maxBytes: Int) -> Result<Int, Base64Error> {
        var symbols = 0
        var paddingAt = -1
        var offset = 0
        let values = Base64.values(in: nil)  // either alphabet
        while offset < text.count {
            // Sixteen symbols at a time while there is no padding.
            if paddingAt < 0 && offset &+ 16 <= text.count && Base64.symbolMasks16(text.baseAddress! + offset).symbols == 0xFFFF {
                symbols &+= 16
                offset &+= 16
                continue
            }
            let c = text[offset]
            if values[Int(c)] < 64 {
                if paddingAt >= 0 { return .failure(.dataAfterPadding(offset: offset)) }
                symbols += 1
            } else if c == UInt8(ascii: "=") {
                if paddingAt < 0 { paddingAt = offset }
            } else if !(c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D) {
                return .failure(.invalidCharacter(offset: offset))
            }
            offset += 1
        }
        if symbols % 4 == 1 { return .failure(.truncated) }
        guard symbols / 4 * 3 + max(0, symbols % 4 - 1) <= maxBytes else { return .failure(.tooLarge(limit: maxBytes)) }
        return .success(symbols)
    }
}

/// Why a value known to be base64 could not be decoded. Messages name the position and the kind
/// of problem, never the data.
public enum Base64Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// A byte outside both base64 alphabets (and not a blank or line break).
    case invalidCharacter(offset: Int)
    /// A base64 character after `=` padding.
    case dataAfterPadding(offset: Int)
    /// One character left over after the last full group: not a whole byte.
    case truncated
    /// The decoded data would exceed the limit.
    case tooLarge(limit: Int)

    public var description: String { message }

    /// A one-line message for an input error.
    public var message: String {
        switch self {
        case .invalidCharacter(let offset): "invalid base64: the character at offset \(offset) is not in the base64 alphabet"
        case .dataAfterPadding(let offset): "invalid base64: data after the padding, at offset \(offset)"
        case .truncated: "invalid base64: truncated (one character after the last full group)"
        case .tooLarge(let limit): "base64 data decodes beyond the limit of \(limit) bytes"
        }
    }
}
