import AuditCore

/// `--root DIR`: the directory SARIF artifact URIs are relative to, so that a scan given absolute
/// paths (or run from elsewhere) still names files as the repository does.
public struct SARIFRoot: Sendable, Equatable {
    /// The root, absolute, without `.` or `..` segments, ending with `/`.
    public var directory: String
    /// Against which relative input paths are resolved.
    public var currentDirectory: String

    public init(_ directory: String, currentDirectory: String) {
        self.currentDirectory = SARIFArtifactLocations.absolute(currentDirectory, in: "/")
        let root = SARIFArtifactLocations.absolute(directory, in: self.currentDirectory)
        self.directory = root.hasSuffix("/") ? root : root + "/"
    }
}

/// Where a SARIF log places an input: its index among the run's artifacts and its URI. A relative
/// path stays a relative reference (GitHub resolves it against the checkout); an absolute path is
/// a `file://` URI, not a bare path a consumer would read as relative to something. Under a
/// `SARIFRoot`, a path inside the root is relative to the base id `SRCROOT`, which the run's
/// `originalUriBaseIds` maps to the root's `file://` URI (SARIF 2.1.0 §3.4.4, §3.14.14).
struct SARIFArtifactLocations {
    static let rootBaseId = "SRCROOT"

    let root: SARIFRoot?
    /// Each artifact's place, made once: a path's URI is built a character at a time, and every
    /// result names its artifact (4,200 instructions a result when made each time).
    private var places: [String: Place] = [:]

    private struct Place {
        var uri: String
        var baseId: String?
        /// The first index of the artifact in the run's artifacts.
        var index: Int?
    }

    /// The locations of the run's `artifacts` (their names, in the run's order).
    init(artifacts: [String], root: SARIFRoot?) {
        self.root = root
        for (i, path) in artifacts.enumerated() where places[path] == nil {
            places[path] = place(path, index: i)
        }
    }

    /// Writes the `artifactLocation` of `path`, with its index in the run's artifacts when
    /// `indexed`.
    func write(_ path: String, indexed: Bool = true, into writer: inout JSONStreamWriter) {
        let place = places[path] ?? place(path, index: nil)
        writer.open("{")
        writer.key("uri"); writer.string(place.uri)
        if let baseId = place.baseId { writer.key("uriBaseId"); writer.string(baseId) }
        if indexed, let index = place.index { writer.key("index"); writer.int(index) }
        writer.close("}")
    }

    private func place(_ path: String, index: Int?) -> Place {
        let (uri, baseId) = reference(path)
        return Place(uri: uri, baseId: baseId, index: index)
    }

    /// The run's `originalUriBaseIds`: the root, when there is one.
    var originalUriBaseIds: JSONOutput? {
        root.map { .object([(Self.rootBaseId, .object([("uri", .string("file://" + Self.encoded($0.directory)))]))]) }
    }

    private func reference(_ path: String) -> (uri: String, baseId: String?) {
        if path == "-" { return ("stdin", nil) }
        guard let root else {
            return path.hasPrefix("/") ? ("file://" + Self.encoded(Self.absolute(path, in: "/")), nil) : (Self.encoded(path), nil)
        }
        let absolute = Self.absolute(path, in: root.currentDirectory)
        if absolute.hasPrefix(root.directory) {
            return (Self.encoded(String(absolute.dropFirst(root.directory.count))), Self.rootBaseId)
        }
        return ("file://" + Self.encoded(absolute), nil)
    }

    /// `path` made absolute against `directory`, its `.` and `..` segments and repeated slashes
    /// removed (lexically: links are not resolved).
    static func absolute(_ path: String, in directory: String) -> String {
        var segments: [Substring] = []
        for segment in ((path.hasPrefix("/") ? "" : directory + "/") + path).split(separator: "/") {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(segment)
            }
        }
        return "/" + segments.joined(separator: "/")
    }

    /// A path as a URI reference: percent-encodes what a URI cannot hold as it is.
    static func encoded(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}
