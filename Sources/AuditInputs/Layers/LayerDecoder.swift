import AuditBytes
import AuditCore

/// What a decoder found inside a string value.
public struct DecodedLayer: Sendable {
    /// How to read the decoded bytes.
    public enum Content: Sendable {
        /// A JSON text decoded from the value (a JWT's claims): read with the JSON reader (keys,
        /// values, further layers).
        case json
        /// The value itself is a JSON text: read where it stands, as `json` is. Not copied: the
        /// value (a capture's body, a payload in a log) is often kilobytes, already unescaped.
        case valueIsJSON
        /// The value itself is an XML document: read where it stands with the XML reader, each
        /// text and attribute judged by its name.
        case valueIsXML
        /// The value itself is an HTTP/1.x message: read where it stands with the raw HTTP
        /// reader, its headers judged by name and its bodies by type and coding.
        case valueIsHTTP
        /// Plain text (or bytes): offered to the decoders again, else scanned with the pattern
        /// rules as one value.
        case text
        /// Named values (URL query, form body, userinfo, Basic credentials): each value is
        /// judged by its name like an object member, and offered to the decoders.
        case pairs(PairList)
    }

    /// The decoded bytes of a `json` or `text` layer; empty for `valueIsJSON`, `valueIsXML`,
    /// `valueIsHTTP` and `pairs`, which are read from the value.
    public var bytes: [UInt8]
    public var content: Content
    /// True when the layer holds everything the value says (JSON text), so the value itself is
    /// not scanned again as text; false when the value is worth scanning as it is too (a JWT is
    /// a credential, and its decoded claims are scanned as well).
    public var replacesValue: Bool

    public init(bytes: [UInt8], content: Content, replacesValue: Bool) {
        self.bytes = bytes
        self.content = content
        self.replacesValue = replacesValue
    }
}

/// One name and value of a `pairs` layer, both decoded (percent-decoding and the like).
public struct DecodedPair: Sendable, Equatable {
    public var name: [UInt8]
    public var value: [UInt8]
    /// The value is the bytes as written, nothing decoded: the decoder that split it off is
    /// not offered it again (`a=b=c` is the pair `a` = `b=c`, never a form inside a form).
    public var isVerbatim: Bool

    public init(name: [UInt8], value: [UInt8], isVerbatim: Bool = false) {
        self.name = name
        self.value = value
        self.isVerbatim = isVerbatim
    }
}

/// Opens an embedded layer held in a string value: JSON in a string here; base64, URL queries,
/// form bodies, JWTs and the like plug in the same way. Each decoder must reject a value that
/// is not its kind cheaply, because every string value is offered to every decoder. A decoder
/// keeps no stored property (its name and gate are computed): the scan calls it out of an
/// existential, which copied a stored name, a retain and a release, per value offered, and
/// scans on several threads would contend for one string's reference count.
public protocol LayerDecoder: Sendable {
    /// The decoder's name in layered paths: `/note!json/apiKey`.
    var name: String { get }
    /// What a value must look like before `decode` is asked at all.
    var gate: LayerGate { get }
    /// The layer inside `value`, or nil when `value` is not this kind of layer. A value that is
    /// this kind of layer but cannot be opened in full (over a size or ratio limit, corrupt after
    /// a header that says what it is) throws: recognised means scanned or refused, never skipped.
    func decode(_ value: UnsafeRawBufferPointer) throws(LayerRefusal) -> DecodedLayer?
}

/// Why a value that is a decoder's kind of layer is not opened. The scan reports it as an input
/// error at the value, so what the layer holds never passes unchecked.
public struct LayerRefusal: Error, Equatable, Sendable {
    public enum Kind: Sendable { case parse, limit }

    public var kind: Kind
    /// One line naming the kind of problem, never the data.
    public var reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }
}

/// A test on a value's length and first byte that every decoder passes before it decodes: most
/// values fail it for most decoders, so they cost one table lookup instead of a call.
public struct LayerGate: Sendable {
    public var minimumLength: Int
    /// The bytes a value may start with; nil for any.
    public var firstBytes: String?
    /// A byte the value must contain somewhere (`=` for a form).
    public var requiredByte: UInt8?

    public init(minimumLength: Int, firstBytes: String?, requiredByte: UInt8? = nil) {
        self.minimumLength = minimumLength
        self.firstBytes = firstBytes
        self.requiredByte = requiredByte
    }
}

/// The decoders a scan tries, with their gates as lookup tables.
public struct LayerDecoderSet {
    public let decoders: [any LayerDecoder]
    /// For each first byte, the decoders (by index, as a bit mask) that may accept it.
    @usableFromInline let byFirstByte: [UInt16]
    /// For each length up to the longest minimum, the decoders a value that long is long enough
    /// for; the last entry stands for every longer value.
    @usableFromInline let byLength: [UInt16]
    /// The decoders that require a byte somewhere in the value, and each one's byte.
    @usableFromInline let requiring: UInt16
    @usableFromInline let requiredBytes: [UInt8]
    /// The shortest value any decoder accepts.
    @usableFromInline let minimumLength: Int

    public init(_ decoders: [any LayerDecoder]) {
        precondition(decoders.count <= 16, "at most 16 layer decoders")
        self.decoders = decoders
        let gates = decoders.map(\.gate)
        var table = [UInt16](repeating: 0, count: 256)
        for (i, gate) in gates.enumerated() {
            let bytes = gate.firstBytes.map { Array($0.utf8) } ?? Array(0...255)
            for b in bytes { table[Int(b)] |= 1 << UInt16(i) }
        }
        byFirstByte = table
        let minimums = gates.map(\.minimumLength)
        byLength = (0...(minimums.max() ?? 0)).map { count in
            minimums.indices.reduce(UInt16(0)) { mask, i in minimums[i] <= count ? mask | 1 << UInt16(i) : mask }
        }
        requiring = gates.indices.reduce(UInt16(0)) { mask, i in gates[i].requiredByte == nil ? mask : mask | 1 << UInt16(i) }
        requiredBytes = gates.map { $0.requiredByte ?? 0 }
        minimumLength = minimums.min() ?? Int.max
    }

    /// The decoder called `name`, as a bit mask over `decoders` (0 when there is none).
    public func mask(named name: String?) -> UInt16 {
        guard let name, let index = decoders.firstIndex(where: { $0.name == name }) else { return 0 }
        return 1 << UInt16(index)
    }

    /// The decoders whose gate `value` passes, as a bit mask over `decoders`. Inlinable: the
    /// scan asks it of every string value (BENCHMARKS.md, "Targets and inlining"). The first
    /// byte and the length are two table lookups, not a branch for each decoder, which the
    /// processor mispredicted; only a required byte is searched for, decoder by decoder.
    @inlinable @inline(__always)
    public func candidates(_ value: UnsafeRawBufferPointer) -> UInt16 {
        guard value.count >= minimumLength else { return 0 }
        var mask = byFirstByte[Int(value[0])] & byLength[min(value.count, byLength.count - 1)]
        var searched = mask & requiring
        while searched != 0 {
            let i = searched.trailingZeroBitCount
            searched &= searched - 1
            if !value.containsByte(requiredBytes[i]) { mask &= ~(1 << UInt16(i)) }
        }
        return mask
    }
}

/// The decoders a scan tries, in order. Every decoder that accepts a value opens a layer; the
/// order only orders the findings. Base64 hands gzip, zlib and zstd data on as bytes, for the
/// gzip, deflate and zstd decoders.
public enum LayerDecoders {
    public static let standard: [any LayerDecoder] = [
        JSONLayerDecoder(), JWTLayerDecoder(), QueryLayerDecoder(), FragmentLayerDecoder(), UserinfoLayerDecoder(), FormLayerDecoder(),
        MultipartLayerDecoder(), BasicAuthLayerDecoder(), Base64LayerDecoder(), DataURLLayerDecoder(), PercentLayerDecoder(), GzipLayerDecoder(), DeflateLayerDecoder(),
        ZstdLayerDecoder(), XMLLayerDecoder(), HTTPLayerDecoder(),
    ]
}

