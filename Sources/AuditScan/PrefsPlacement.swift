import AuditCore

/// Where the hits of a SharedPreferences export sit: in an input, where they stand; in an export
/// held in a string or carried as a body (`!xml` with a `<map>` root), at the string that carries
/// it, with the layer's place, depth and facts, as a JSON layer's hits are.
struct PrefsPlacement {
    /// The layer's frame, boxed: an entry's value scanner carries one reference, and none for an
    /// input, where the frame's own fields would be copied (and retained) at every entry.
    private final class Layer {
        let frame: LayerFrame
        init(_ frame: LayerFrame) { self.frame = frame }
    }

    private let layer: Layer?
    /// The layer's offset and depth, held apart from the frame: every value asks for them.
    private let outerOffset: Int?
    /// How many layers are open around the export.
    let depth: Int

    static var input: PrefsPlacement { PrefsPlacement(layer: nil, outerOffset: nil, depth: 0) }

    private init(layer: Layer?, outerOffset: Int?, depth: Int) {
        self.layer = layer
        self.outerOffset = outerOffset
        self.depth = depth
    }

    init(layer frame: LayerFrame) {
        self.init(layer: Layer(frame), outerOffset: frame.outerOffset, depth: frame.depth)
    }

    /// The export is the input itself: each entry is a document of its own.
    var isInput: Bool { layer == nil }

    /// The offset a hit at `offset` in the export is reported at.
    func offset(_ offset: Int) -> Int { outerOffset ?? offset }

    /// The path the export's entries go under.
    func root(in scan: ArtifactScan) -> LayeredPath { layer?.frame.path ?? scan.rootPath }

    /// Where a hit under `key` at `path` sits.
    func location(key: String?, at path: LayeredPath) -> HitLocation {
        layer?.frame.location(key: key, at: path) ?? HitLocation(key: key, path: path, ancestry: [])
    }
}
