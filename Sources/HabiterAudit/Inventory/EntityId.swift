/// A parsed `entityId`: `habit/<id>`, `entry/<habit id>/<YYYY-MM-DD>` or `setting/<key>`, each
/// part percent-encoded.
enum EntityId: Equatable {
    case habit(id: String)
    case entry(habitId: String, date: String)
    case setting(key: String)

    /// Parses `text`, or says what is wrong with it (by kind, never echoing it).
    static func parse(_ text: String) -> Result<EntityId, EntityIdProblem> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let type = parts.first else { return .failure(.grammar) }
        switch type {
        case "habit":
            guard parts.count == 2 else { return .failure(.grammar) }
            guard let id = percentDecoded(parts[1]), !id.isEmpty else { return .failure(.encoding) }
            return .success(.habit(id: id))
        case "entry":
            guard parts.count == 3 else { return .failure(.grammar) }
            guard let habitId = percentDecoded(parts[1]), !habitId.isEmpty else { return .failure(.encoding) }
            guard isCalendarDate(parts[2]) else { return .failure(.date) }
            return .success(.entry(habitId: habitId, date: parts[2]))
        case "setting":
            guard parts.count == 2 else { return .failure(.grammar) }
            guard let key = percentDecoded(parts[1]), !key.isEmpty else { return .failure(.encoding) }
            return .success(.setting(key: key))
        default:
            return .failure(.type)
        }
    }

    /// Percent-decoding that refuses malformed escapes and raw characters an encoder escapes.
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var it = Array(text.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%") {
                guard it.count >= 2, let high = hexValue(it[it.startIndex]), let low = hexValue(it[it.startIndex + 1]) else { return nil }
                bytes.append(high << 4 | low)
                it = it.dropFirst(2)
            } else if b <= 0x20 || b == 0x7F || b == UInt8(ascii: "?") || b == UInt8(ascii: "#") {
                return nil
            } else {
                bytes.append(b)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `YYYY-MM-DD`, a real calendar date.
    static func isCalendarDate(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let y = Int(String(decoding: b[0..<4], as: UTF8.self)), let m = Int(String(decoding: b[5..<7], as: UTF8.self)),
              let d = Int(String(decoding: b[8..<10], as: UTF8.self)),
              (b[0..<4] + b[5..<7] + b[8..<10]).allSatisfy({ $0 &- 0x30 < 10 }), (1...12).contains(m), d >= 1 else { return false }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return d <= days[m - 1]
    }
}

/// What is wrong with an `entityId`.
enum EntityIdProblem: Error {
    case type, grammar, encoding, date

    var message: String {
        switch self {
        case .type: return "its type is not habit, entry or setting"
        case .grammar: return "it does not have the parts habit/<id>, entry/<habit id>/<YYYY-MM-DD> or setting/<key>"
        case .encoding: return "an id part is empty or not properly percent-encoded"
        case .date: return "the entry's date is not a calendar date YYYY-MM-DD"
        }
    }
}
