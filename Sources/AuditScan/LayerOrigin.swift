import AuditDetection

/// The location of the string value that carries a layer, made the first time something in the
/// layer asks for it: a hit, or a field a layer of pairs reads. Most layers hold no hit (a
/// capture's request and response bodies), and making the location for each (the outer path
/// with a string for every key, the ids of the containers around it, then the layer's path
/// copied from it) was some 5 % of a HAR's scan. The value's reader waits at the value while
/// its layers are scanned, so a location made later is the one it would have given at once;
/// `close()` ends that time, when `openLayers` returns.
final class LayerOrigin {
    private var locate: (() -> HitLocation)?
    private var made: HitLocation?
    /// What the string's name says of what the string encodes, read by the layers' frames
    /// (`LayerFrame.rootName`, `LayerFrame.context`), which share the origin: the name rule it
    /// matches, if any, which judges a list there element by element, and the context rules it
    /// speaks for. Kept here, not in each frame: a frame is copied for every location made in
    /// it, and a name's words would be retained with every copy.
    let name: NameMatch?
    let context: ContextMask

    init(_ locate: @escaping () -> HitLocation, name: NameMatch?, context: ContextMask) {
        self.locate = locate
        self.name = name
        self.context = context
    }

    var location: HitLocation {
        fact { $0 }
    }

    /// One fact of the location, read where the origin keeps it: `location` copies the whole of
    /// it, retaining each reference it holds, and a layer's frame asks a fact of its origin for
    /// every pair of a form and every hit in a body.
    @inline(__always)
    func fact<T>(_ read: (HitLocation) -> T) -> T {
        if made == nil {
            guard let locate else { preconditionFailure("a layer's origin located after its value was read") }
            made = locate()
        }
        return read(made.unsafelyUnwrapped)
    }

    /// Whether the location has been made.
    var isLocated: Bool { made != nil }

    /// The value has been read: `locate` is let go (it may not outlive `openLayers`' call).
    func close() {
        locate = nil
    }
}
