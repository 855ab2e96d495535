/// The named values of a URL's query: `https://api.example.com/v1/sync?access_token=…&page=2`
/// gives (`access_token`, …) and (`page`, `2`), percent-decoded with `+` as a space, in order,
/// duplicates kept. A part without `=` is a name with an empty value; the fragment is left to
/// `FragmentLayerDecoder`.
///
/// Only a whole value that is an http, https, ws or wss URL, or a root-relative path
/// (`/callback?code=…`), with no blanks or control characters, is accepted: prose that mentions a
/// URL is left to the pattern rules, and the first byte rejects almost every other string. The
/// URL itself is still scanned as text (`replacesValue` is false): a token in its path or a
/// pattern that spans the query still matches there.
public struct QueryLayerDecoder: LayerDecoder {
    public var name: String { "query" }
    public var gate: LayerGate { LayerGate(minimumLength: 4, firstBytes: "hHwW/", requiredByte: UInt8(ascii: "?")) }

    public init() {}

    public func decode(_ value: UnsafeRawBufferPointer) -> DecodedLayer? {
        guard let first = value.first else { return nil }
        let afterPrefix: Int
        switch first {
        case UInt8(ascii: "/"):
            afterPrefix = 1
        case UInt8(ascii: "h"), UInt8(ascii: "H"), UInt8(ascii: "w"), UInt8(ascii: "W"):
            guard let hostStart = Self.afterWebScheme(value), hostStart < value.count else { return nil }
            let h = value[hostStart]
            guard h != UInt8(ascii: "/") && h != UInt8(ascii: "?") && h != UInt8(ascii: "#") else { return nil }
            afterPrefix = hostStart
        default:
            return nil
        }
        var question = -1
        var end = value.count
        for i in afterPrefix..<value.count {
            let b = value[i]
            if b <= 0x20 || b == 0x7F { return nil }
            if b == UInt8(ascii: "#") && end == value.count {
                end = i
            } else if b == UInt8(ascii: "?") && question < 0 && end == value.count {
                question = i
            }
        }
        guard question >= 0 else { return nil }
        guard PairList.hasPairs(UnsafeRawBufferPointer(rebasing: value[(question + 1)..<end]), separator: UInt8(ascii: "&")) else { return nil }
        let pairs = PairList(encodedIn: (question + 1)..<end, separator: UInt8(ascii: "&"))
        return DecodedLayer(bytes: [], content: .pairs(pairs), replacesValue: false)
    }

    /// Index after `http://`, `https://`, `ws://` or `wss://` (any case), or nil.
    public static func afterWebScheme(_ value: UnsafeRawBufferPointer) -> Int? {
        if LayerBytes.hasPrefixIgnoringCase(value, "https://") { return 8 }
        if LayerBytes.hasPrefixIgnoringCase(value, "http://") { return 7 }
        if LayerBytes.hasPrefixIgnoringCase(value, "wss://") { return 6 }
        if LayerBytes.hasPrefixIgnoringCase(value, "ws://") { return 5 }
        return nil
    }
}
