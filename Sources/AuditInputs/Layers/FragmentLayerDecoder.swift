/// The named values of a URL's fragment, where OAuth puts an authorization response that must
/// not reach a server: Habiter's callbacks `https://mobile.habiter.dev/auth/callback#code=…&state=…`,
/// `dev.habiter.app://auth/callback#…` and `http://localhost:43823/callback#…` give (`code`, …)
/// and (`state`, …), percent-decoded with `+` as a space, in order.
///
/// Only a whole value that is a URL with a scheme and `://` (http, https, ws, wss or an app's
/// own scheme such as `dev.habiter.app`), or a root-relative path, with no blanks or control
/// characters, is accepted; and only a fragment written as `name=value` pairs (every part has a
/// name of URL-safe characters and an `=`), so that page anchors (`#top`) and hash routes
/// (`#/settings?tab=2`) are not opened. The URL itself is still scanned as text.
public struct FragmentLayerDecoder: LayerDecoder {
    public var name: String { "fragment" }
    public var gate: LayerGate {
        LayerGate(minimumLength: 6, firstBytes: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/", requiredByte: UInt8(ascii: "#"))
    }

    public init() {}

    /// Schemes longer than this are not schemes (bounds the scan of text that starts like one).
    static let maxSchemeLength = 40

    public func decode(_ value: UnsafeRawBufferPointer) -> DecodedLayer? {
        guard let first = value.first else { return nil }
        var i = 0
        if first != UInt8(ascii: "/") {
            // A scheme: a letter, then letters, digits, `+`, `-`, `.`, then `://` and a host.
            while i < value.count && i <= Self.maxSchemeLength && Self.isSchemeByte(value[i], first: i == 0) { i += 1 }
            guard i > 0, i + 3 < value.count, value[i] == UInt8(ascii: ":"), value[i + 1] == UInt8(ascii: "/"),
                  value[i + 2] == UInt8(ascii: "/") else { return nil }
            i += 3
            let host = value[i]
            guard host != UInt8(ascii: "/") && host != UInt8(ascii: "?") && host != UInt8(ascii: "#") else { return nil }
        }
        var hash = -1
        while i < value.count {
            let b = value[i]
            if b <= 0x20 || b == 0x7F { return nil }
            if b == UInt8(ascii: "#") && hash < 0 { hash = i }
            i += 1
        }
        guard hash >= 0, hash + 1 < value.count else { return nil }
        // Every part has a name and an `=`, so there is a pair.
        guard Self.isPairs(UnsafeRawBufferPointer(rebasing: value[(hash + 1)...])) else { return nil }
        let pairs = PairList(encodedIn: (hash + 1)..<value.count, separator: UInt8(ascii: "&"))
        return DecodedLayer(bytes: [], content: .pairs(pairs), replacesValue: false)
    }

    private static func isSchemeByte(_ b: UInt8, first: Bool) -> Bool {
        let letter = (b | 0x20) &- UInt8(ascii: "a") < 26
        if first { return letter }
        return letter || b &- UInt8(ascii: "0") < 10 || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }

    /// Every `&`-separated part is `name=value` with a non-empty name of URL-safe characters.
    static func isPairs(_ text: UnsafeRawBufferPointer) -> Bool {
        var partStart = 0
        var sawEquals = false
        for i in 0...text.count {
            if i == text.count || text[i] == UInt8(ascii: "&") {
                guard sawEquals else { return false }
                partStart = i + 1
                sawEquals = false
                continue
            }
            let b = text[i]
            if sawEquals { continue }
            if b == UInt8(ascii: "=") {
                guard i > partStart else { return false }
                sawEquals = true
            } else if !isNameByte(b) {
                return false
            }
        }
        return true
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b | 0x20) &- UInt8(ascii: "a") < 26 || b &- UInt8(ascii: "0") < 10
            || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "~")
            || b == UInt8(ascii: "%") || b == UInt8(ascii: "+") || b == UInt8(ascii: "[") || b == UInt8(ascii: "]")
    }
}
