import AuditBytes

/// A parsed `entityId`: `habit/<id>`, `entry/<habit id>/<YYYY-MM-DD>` or `setting/<key>`, each
/// part percent-encoded.
public enum EntityId: Equatable {
    case habit(id: Part)
    case entry(habitId: Part, date: Part)
    case setting(key: Part)

    /// A part of an id: where it stands in the id's bytes when the id spells it as it is, as it
    /// does every part made only of bytes `encodeURIComponent` leaves alone (UUIDs, dates, the
    /// registry's keys), else its decoded text. A `String` for every part took an allocation
    /// and its release for every entity document.
    public enum Part: Equatable {
        case bytes(Range<Int>)
        case decoded(String)

        /// `body` on the part's UTF-8; `id` holds the bytes of the id it was parsed from.
        public func withText<R>(in id: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            switch self {
            case .bytes(let range): body(UnsafeBufferPointer(rebasing: id[range]))
            case .decoded(var text): text.withUTF8(body)
            }
        }

        /// The part made a `String` (for a look-up by name, or a report).
        public func text(in id: UnsafeBufferPointer<UInt8>) -> String {
            withText(in: id) { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Parses the UTF-8 `bytes` of an entity id, or says what is wrong with them (by kind, never
    /// echoing them). On bytes, as the drafts keep the id: it runs once per entity document.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<EntityId, EntityIdProblem> {
        // At most three parts: find the first two slashes, and whether there is a third.
        var slashes = (first: -1, second: -1)
        for i in 0..<bytes.count where bytes[i] == UInt8(ascii: "/") {
            if slashes.first < 0 { slashes.first = i } else if slashes.second < 0 { slashes.second = i } else { return .failure(.grammar) }
        }
        guard slashes.first >= 0 else { return .failure(.grammar) }
        let type = UnsafeBufferPointer(rebasing: bytes[..<slashes.first])
        if type.equals("entry") {
            guard slashes.second >= 0 else { return .failure(.grammar) }
            let habitId: Part
            switch part((slashes.first + 1)..<slashes.second, of: bytes) {
            case .success(let part): habitId = part
            case .failure(let problem): return .failure(problem)
            }
            let date = (slashes.second + 1)..<bytes.count
            guard isCalendarDate(bytes[date]) else { return .failure(.date) }
            return .success(.entry(habitId: habitId, date: .bytes(date)))
        }
        let isHabit = type.equals("habit")
        guard isHabit || type.equals("setting") else { return .failure(.type) }
        guard slashes.second < 0 else { return .failure(.grammar) }
        return part((slashes.first + 1)..<bytes.count, of: bytes).map { isHabit ? .habit(id: $0) : .setting(key: $0) }
    }

    /// The part of `id` at `range`, decoded. Most parts are made only of bytes that
    /// `encodeURIComponent` leaves as they are: such a part is canonical and ASCII, and is taken
    /// where it stands in one pass (decoding it and encoding it again cost some 2,000
    /// instructions for a UUID). Any other goes the plain way.
    static func part(_ range: Range<Int>, of id: UnsafeBufferPointer<UInt8>) -> Result<Part, EntityIdProblem> {
        let part = UnsafeBufferPointer(rebasing: id[range])
        // Eight bytes at a time while all are hex digits or dashes, as UUIDs are (a byte at a
        // time, a UUID took some 550 instructions).
        var i = 0
        while i &+ 8 <= part.count {
            let w = UnsafeRawPointer(part.baseAddress! + i).loadUnaligned(as: UInt64.self)
            if (SWAR.hexDigits(w) | SWAR.exactBytesEqual(w, UInt8(ascii: "-")) & ~w) & SWAR.highBits != SWAR.highBits { break }
            i &+= 8
        }
        // The rest, every byte's bit and-ed: no branch per byte (a UUID's digits and letters
        // come in no order a branch predictor learns; by a switch, `part` took 2 % of an NDJSON
        // scan's samples for 0.3 % of its instructions).
        var all: UInt64 = 1
        for b in UnsafeBufferPointer(rebasing: part[i...]) { all &= unreservedBit(b) }
        if !part.isEmpty && all == 1 { return .success(.bytes(range)) }
        return partByReencoding(part).map(Part.decoded)
    }

    /// An id part, decoded, and refused unless encoding it again gives back `part`, as the
    /// server's `parseEntityId` does.
    static func partByReencoding(_ part: UnsafeBufferPointer<UInt8>) -> Result<String, EntityIdProblem> {
        guard let text = percentDecoded(part), !text.isEmpty, !text.isBlank else { return .failure(.encoding) }
        return isCanonical(part, decoded: text) ? .success(text) : .failure(.nonCanonical)
    }

    /// Whether `part` is exactly what `encodeURIComponent` (Dart's `Uri.encodeComponent`) makes
    /// of `decoded`: letters, digits and `-_.!~*'()` raw, every other byte of the UTF-8 as `%XX`
    /// with upper-case hex.
    static func isCanonical(_ part: UnsafeBufferPointer<UInt8>, decoded: String) -> Bool {
        let hex = upperHexDigits
        var decoded = decoded
        // The decoded bytes read in place (a walk of `String.UTF8View` cost some 40
        // instructions a byte).
        return decoded.withUTF8 { bytes in
            var i = 0
            for b in bytes {
                if isUnreserved(b) {
                    guard i < part.count, part[i] == b else { return false }
                    i += 1
                } else {
                    guard i + 2 < part.count, part[i] == UInt8(ascii: "%"), part[i + 1] == hex[Int(b >> 4)],
                          part[i + 2] == hex[Int(b & 0xF)] else { return false }
                    i += 3
                }
            }
            return i == part.count
        }
    }

    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

    /// The characters `encodeURIComponent` leaves as they are (letters, digits and
    /// `-_.!~*'()`), a bit per ASCII byte: bytes 0 to 63, then 64 to 127.
    private static let unreservedLow: UInt64 = 0x03FF_6782_0000_0000
    private static let unreservedHigh: UInt64 = 0x47FF_FFFE_87FF_FFFE

    /// 1 when `encodeURIComponent` leaves `b` as it is, else 0; computed without a branch (the
    /// compiler made a branch of `b < 64 ? low : high`).
    @inline(__always)
    static func unreservedBit(_ b: UInt8) -> UInt64 {
        // All ones for bytes 64 to 127 (and 192 to 255), else zero: picks the word.
        let high = 0 &- UInt64(b &>> 6 & 1)
        let word = unreservedLow ^ ((unreservedLow ^ unreservedHigh) & high)
        // 0 for bytes 128 to 255.
        let ascii = UInt64(1 &- (b &>> 7))
        return (word &>> UInt64(b & 63)) & ascii
    }

    private static func isUnreserved(_ b: UInt8) -> Bool { unreservedBit(b) == 1 }

    /// Percent-decoding that refuses malformed escapes and raw characters an encoder escapes.
    static func percentDecoded(_ text: UnsafeBufferPointer<UInt8>) -> String? {
        // One pass: whether anything needs decoding or refusing, and whether it is all ASCII.
        var plain = true, ascii = true
        for b in text {
            if b == UInt8(ascii: "%") || b <= 0x20 || b == 0x7F || b == UInt8(ascii: "?") || b == UInt8(ascii: "#") {
                plain = false
                break
            }
            if b >= 0x80 { ascii = false }
        }
        if plain {
            // ASCII is valid UTF-8: made without the (slower) validating initializer.
            return ascii ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var it = text.makeIterator()
        while let b = it.next() {
            if b == UInt8(ascii: "%") {
                guard let h = it.next(), let l = it.next(), let high = hexValue(h), let low = hexValue(l) else { return nil }
                bytes.append(high << 4 | low)
            } else if b <= 0x20 || b == 0x7F || b == UInt8(ascii: "?") || b == UInt8(ascii: "#") {
                return nil
            } else {
                bytes.append(b)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `YYYY-MM-DD`, a real calendar date.
    public static func isCalendarDate(_ text: UnsafeBufferPointer<UInt8>.SubSequence) -> Bool {
        guard text.count == 10 else { return false }
        func byte(_ i: Int) -> UInt8 { text[text.startIndex + i] }
        func digit(_ i: Int) -> Int? { byte(i) &- 0x30 < 10 ? Int(byte(i) &- 0x30) : nil }
        guard byte(4) == UInt8(ascii: "-"), byte(7) == UInt8(ascii: "-"),
              let y0 = digit(0), let y1 = digit(1), let y2 = digit(2), let y3 = digit(3),
              let m0 = digit(5), let m1 = digit(6), let d0 = digit(8), let d1 = digit(9) else { return false }
        let y = ((y0 * 10 + y1) * 10 + y2) * 10 + y3, m = m0 * 10 + m1, d = d0 * 10 + d1
        guard (1...12).contains(m), d >= 1 else { return false }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let days = switch m {
        case 2: leap ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
        return d <= days
    }
}

/// What is wrong with an `entityId`.
enum EntityIdProblem: Error {
    case type, grammar, encoding, nonCanonical, date

    var message: String {
        switch self {
        case .type: return "its type is not habit, entry or setting"
        case .grammar: return "it does not have the parts habit/<id>, entry/<habit id>/<YYYY-MM-DD> or setting/<key>"
        case .encoding: return "an id part is empty, blank or not properly percent-encoded"
        case .nonCanonical: return "an id part is not canonically encoded (encodeURIComponent's set, upper-case hex), as the server requires"
        case .date: return "the entry's date is not a calendar date YYYY-MM-DD"
        }
    }
}
