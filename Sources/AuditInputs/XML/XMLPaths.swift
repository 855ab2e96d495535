import AuditCore

/// The paths of an XML document's elements, attributes, text nodes and comments, as the scan
/// reports them and `redact` finds them again: an element by its qualified name, with its
/// position among same-named siblings from the second on (`/manifest/application/meta-data[2]`),
/// then `@android:value`, `text()` or `comment()`. Kept as the reader's events arrive.
public struct XMLPaths {
    /// An open element: its path, and how many children of each name it has had so far.
    private struct Level {
        var path: LayeredPath
        var children: [[UInt8]: Int] = [:]
    }

    /// The path the document's root element goes under.
    public let root: LayeredPath
    private var open: [Level] = []

    public init(root: LayeredPath) {
        self.root = root
    }

    /// Enters the element named `name`; returns its path.
    public mutating func enter(_ name: [UInt8]) -> LayeredPath {
        var token = String(decoding: name, as: UTF8.self)
        var parent = root
        if !open.isEmpty {
            let count = open[open.count - 1].children[name, default: 0] + 1
            open[open.count - 1].children[name] = count
            if count > 1 { token += "[\(count)]" }
            parent = open[open.count - 1].path
        }
        let path = parent.appending(.key(token))
        open.append(Level(path: path))
        return path
    }

    public mutating func leave() {
        open.removeLast()
    }

    /// The path of the attribute `name` of the element at `element`.
    public static func attribute(_ name: [UInt8], of element: LayeredPath) -> LayeredPath {
        element.appending(.key("@" + String(decoding: name, as: UTF8.self)))
    }

    /// The path of the innermost open element's text; nil outside the root element.
    public var text: LayeredPath? { open.last.map { $0.path.appending(.key("text()")) } }

    /// The path of a comment or processing instruction where the reader stands.
    public var comment: LayeredPath { (open.last?.path ?? root).appending(.key("comment()")) }
}
