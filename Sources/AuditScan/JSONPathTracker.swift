import AuditCore

/// Where a JSON scan is: the open containers, the member each is at, and the keys on the path,
/// from which every hit's location is made. The scan's other jobs keep their own facts about
/// each open container in `Notes`, carried beside it, so that one push and one pop per container
/// serve them all. A class with constant properties only (its state lives in `ValueStack`s): the
/// visitor and the closures that locate hits share one without copying it, and no access is
/// checked for exclusivity.
final class JSONPathTracker<Notes: BitwiseCopyable> {
    /// An open container and the member it is at: the path is the members of the open
    /// containers, outermost first.
    struct Container {
        var id: Int
        var isObject: Bool
        /// Arrays: the index of the next element (the current one is `nextIndex - 1`).
        var nextIndex = 0
        /// Objects: the current member's key, unescaped, as the bytes `keyStart..<keyEnd` of
        /// `keyArena`; set at the key, before its value begins. (Two integers, not a `Range`,
        /// which is not `BitwiseCopyable`.)
        var keyStart = 0
        var keyEnd = 0
        var key: Range<Int> { keyStart..<keyEnd }
        /// The current member's value has begun and not ended yet (so it is on the path).
        var memberBegun = false
        var notes: Notes
    }

    private let scan: ArtifactScan
    private var layer: LayerFrame
    /// The keys on the current path (and the pending key), unescaped, back to back. The input's
    /// bytes do not outlive the token, so keys are copied here.
    private let keyArena = ValueStack<UInt8>(capacity: 256)
    private let containers = ValueStack<Container>()

    init(scan: ArtifactScan, layer: LayerFrame) {
        self.scan = scan
        self.layer = layer
    }

    /// Tracks the path in another text, `layer`'s: the tracker is done with the one before.
    func retarget(to layer: LayerFrame) {
        precondition(containers.isEmpty, "a tracker done with its text")
        self.layer = layer
    }

    var isEmpty: Bool { containers.isEmpty }
    /// How many containers are open.
    var depth: Int { containers.count }

    /// The innermost open container, read and changed in place.
    var top: Container {
        _read { yield containers.top }
        _modify { yield &containers.top }
    }

    /// The innermost open container's address (`ValueStack.topAddress`): valid until a
    /// container opens.
    var topAddress: UnsafeMutablePointer<Container> { containers.topAddress }

    /// The open container at `index`, counted from the root.
    subscript(index: Int) -> Container { containers[index] }

    /// The id of the innermost open container.
    var currentContainerId: Int? { containers.isEmpty ? nil : containers.top.id }

    /// A fresh container id, unique within the scan.
    func nextId() -> Int {
        defer { scan.nextContainerId += 1 }
        return scan.nextContainerId
    }

    /// Opens a container with id `id` (from `nextId`), carrying `notes`.
    @inline(__always)
    func open(id: Int, isObject: Bool, notes: Notes) {
        containers.push(Container(id: id, isObject: isObject, notes: notes))
    }

    /// Closes the innermost container.
    func close() -> Container {
        containers.pop()
    }

    /// The innermost object's next member has key `key` (unescaped).
    @inline(__always)
    func setKey(_ key: UnsafeBufferPointer<UInt8>) {
        let start = keyArena.count
        keyArena.push(contentsOf: key)
        let top = containers.topAddress
        top.pointee.keyStart = start
        top.pointee.keyEnd = keyArena.count
    }

    /// Whether the innermost container's current key is `text`.
    func currentKeyIs(_ text: StaticString) -> Bool {
        keyArena.withElements(containers.top.key) { $0.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)) }
    }

    /// A value of the innermost container begins: an object's member, or an array's next element.
    @inline(__always)
    func beginValue() {
        guard !containers.isEmpty else { return }
        beginValue(in: containers.topAddress)
    }

    /// `beginValue` in the innermost container, `top` (`topAddress`), for a caller that has it.
    @inline(__always)
    func beginValue(in top: UnsafeMutablePointer<Container>) {
        top.pointee.memberBegun = true
        if !top.pointee.isObject { top.pointee.nextIndex += 1 }
    }

    /// The innermost array's next `count` elements are passed without a value begun.
    func passElements(_ count: Int) {
        precondition(!containers.top.isObject, "elements of an array")
        containers.top.nextIndex += count
    }

    /// The value ends: an object's key leaves the path.
    @inline(__always)
    func endValue() {
        guard !containers.isEmpty else { return }
        let top = containers.topAddress
        top.pointee.memberBegun = false
        if top.pointee.isObject { keyArena.truncate(to: top.pointee.keyStart) }
    }

    private func ancestry() -> [Int] {
        var ancestry = layer.ancestry
        ancestry.reserveCapacity(ancestry.count + containers.count)
        for index in 0..<containers.count { ancestry.append(containers[index].id) }
        return ancestry
    }

    /// A key on the path, as reported (masked if a pattern rule matched it).
    func keyText(_ range: Range<Int>) -> String {
        keyArena.withElements(range) { bytes in
            if !scan.maskedKeys.isEmpty && scan.maskedKeys.contains(Array(bytes)) { return Redaction.maskedKey }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The path token of the member a container is at.
    private func memberToken(_ container: Container) -> PathToken {
        container.isObject ? .key(keyText(container.key)) : .index(container.nextIndex - 1)
    }

    /// The key the innermost container sits under, when its parent is an object.
    func containerKey() -> String? {
        guard containers.count >= 2 else { return nil }
        let parent = containers[containers.count - 2]
        return parent.isObject ? keyText(parent.key) : nil
    }

    /// The nearest object key enclosing the current value.
    private func nearestKey() -> String? {
        for index in stride(from: containers.count - 1, through: 0, by: -1) {
            let container = containers[index]
            if container.isObject && container.memberBegun {
                return keyText(container.key)
            }
        }
        return layer.outerKey
    }

    /// The path of the innermost open container and the ids of the open containers (root: the
    /// input or layer itself).
    private func currentPlace() -> (containerPath: LayeredPath, ancestry: [Int]) {
        guard !containers.isEmpty else { return (layer.path, layer.ancestry) }
        let container = containers.top.id
        let place = scan.containerPlace
        if place.container != container {
            // The innermost container sits at the members of the ones around it.
            var path = layer.path
            path.layers[path.layers.count - 1].tokens.reserveCapacity(path.layers[path.layers.count - 1].tokens.count + containers.count)
            for index in 0..<containers.count - 1 { path.append(memberToken(containers[index])) }
            place.container = container
            place.containerPath = path
            place.ancestry = ancestry()
        }
        return (place.containerPath, place.ancestry)
    }

    /// The location of the current value: a value of the innermost container once it has begun,
    /// else the container itself.
    func location() -> HitLocation {
        let place = currentPlace()
        let (leaf, key) = leafAndKey()
        return HitLocation(key: key, containerPath: place.containerPath, token: leaf, ancestry: place.ancestry,
                           readerContext: layer.readerContext, carrier: layer.carrier)
    }

    /// The current value's own token (nil for a container not yet at a member) and its nearest
    /// key. Inlined: called, it cost the sensitive-keys input 1.1 % more instructions.
    @inline(__always)
    private func leafAndKey() -> (leaf: PathToken?, key: String?) {
        let leaf = !containers.isEmpty && containers.top.memberBegun ? memberToken(containers.top) : nil
        let key: String? = if case .key(let name)? = leaf { name } else { nearestKey() }
        return (leaf, key)
    }

    /// Appends a quiet name hit (on a value that is no secret) at the current value to `hits`,
    /// by the parts of `location()`: its place made only when the container is not the last
    /// place's (`QuietNameHits.append(…inContainer:…)`).
    func appendQuietHit(to hits: inout QuietNameHits, ruleIndex: Int, describesMetadata: Bool, valueDescription: String,
                        position: SourcePosition) {
        guard !containers.isEmpty else {
            return hits.append(ruleIndex: ruleIndex, describesMetadata: describesMetadata, valueDescription: valueDescription,
                               location: location(), position: position)
        }
        let (leaf, key) = leafAndKey()
        hits.append(ruleIndex: ruleIndex, describesMetadata: describesMetadata, valueDescription: valueDescription, key: key, token: leaf,
                    inContainer: containers.top.id, place: {
                        let place = currentPlace()
                        return QuietNameHits.Place(containerPath: place.containerPath, ancestry: place.ancestry,
                                                   readerContext: layer.readerContext, carrier: layer.carrier,
                                                   isProtocolField: false, isSecureStorage: false)
                    }, position: position)
    }

    /// The location of a member of the innermost container that has not begun yet (at its key).
    func memberLocation(_ token: PathToken, key: String?) -> HitLocation {
        let place = currentPlace()
        return HitLocation(key: key, containerPath: place.containerPath, token: token, ancestry: place.ancestry,
                           readerContext: layer.readerContext, carrier: layer.carrier)
    }
}
