/// One step of a JSON Pointer.
public enum PathToken: Hashable, Sendable {
    case key(String)
    case index(Int)
}

/// Where a value sits: one RFC 6901 JSON Pointer per layer; entering an embedded layer appends
/// `!` and the decoder's name, e.g. `/log/entries/3/request/postData/text!json/apiKey`.
public struct LayeredPath: Hashable, Sendable, CustomStringConvertible {
    /// A decoded layer: the decoder that opened it (nil for the input itself) and the pointer
    /// inside it.
    public struct Layer: Hashable, Sendable {
        public var decoder: String?
        public var tokens: [PathToken]

        public init(decoder: String?, tokens: [PathToken]) {
            self.decoder = decoder
            self.tokens = tokens
        }
    }

    public var layers: [Layer]

    public init(layers: [Layer] = [Layer(decoder: nil, tokens: [])]) {
        self.layers = layers
    }

    /// This path with a new layer opened by `decoder`.
    public func entering(_ decoder: String) -> LayeredPath {
        var copy = self
        copy.layers.append(Layer(decoder: decoder, tokens: []))
        return copy
    }

    /// This path with `token` appended to the innermost layer.
    public func appending(_ token: PathToken) -> LayeredPath {
        var copy = self
        copy.append(token)
        return copy
    }

    /// Appends `token` to the innermost layer, in place.
    public mutating func append(_ token: PathToken) {
        layers[layers.count - 1].tokens.append(token)
    }

    public var description: String { description(appending: nil) }

    /// The description of `appending(token)`, without making that path.
    public func description(appending token: PathToken?) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        func append(_ token: PathToken) {
            text.append(UInt8(ascii: "/"))
            switch token {
            case .index(let i): text.appendDecimal(i)
            case .key(let k): LayeredPath.appendEscaped(k, to: &text)
            }
        }
        for layer in layers {
            if let decoder = layer.decoder {
                text.append(UInt8(ascii: "!"))
                text.append(contentsOf: decoder.utf8)
            }
            for token in layer.tokens { append(token) }
        }
        if let token { append(token) }
        return String(decoding: text, as: UTF8.self)
    }

    /// `key` as a pointer token: RFC 6901 escaping, `~` as `~0`, `/` as `~1`.
    static func escape(_ key: String) -> String {
        var text: [UInt8] = []
        appendEscaped(key, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    private static func appendEscaped(_ key: String, to text: inout [UInt8]) {
        var key = key
        key.withUTF8 { bytes in
            guard bytes.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
                text.append(contentsOf: bytes)
                return
            }
            for b in bytes {
                switch b {
                case UInt8(ascii: "~"): text += "~0".utf8
                case UInt8(ascii: "/"): text += "~1".utf8
                default: text.append(b)
                }
            }
        }
    }

    /// The last token's name: the key, or the index as text.
    public var lastName: String? {
        for layer in layers.reversed() {
            if let token = layer.tokens.last {
                switch token {
                case .key(let k): return k
                case .index(let i): return String(i)
                }
            }
        }
        return nil
    }
}

import Foundation
