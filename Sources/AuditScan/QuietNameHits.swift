import AuditBytes
import AuditCore

/// Name hits on values that are no secret (empty, a placeholder, a number, a boolean, null, a
/// container), waiting for the end of their document like every `PendingHit`. They become
/// findings in sync data only, yet a document can hold millions of them while its context is
/// open: as a full `PendingHit` each (176 bytes and four references, in one array that doubles),
/// they made such a document cost several times the time and memory of its text. Here a hit
/// is 24 bytes without references: its position (line and column in 32 bits each), the place it
/// shares with the other hits of its container, and its label (name, value description and
/// rule), interned. Hits are kept in chunks, so that appending never copies the ones before.
struct QuietNameHits {
    private struct Hit {
        var byteOffset: Int
        /// `UInt32.max` when the line or column does not fit: the position is in `outsized`.
        var line: UInt32
        var column: UInt32
        var place: Int32
        var label: Int32
    }

    /// What the hits of one container share.
    struct Place: Equatable {
        var containerPath: LayeredPath
        var ancestry: [Int]
        var readerContext: ScanContext?
        var carrier: Family?
        var isProtocolField: Bool
        var isSecureStorage: Bool
    }

    /// What is a hit's own, besides its position.
    private struct Label {
        var key: String?
        var token: PathToken?
        var ruleIndex: Int
        var describesMetadata: Bool
        var valueDescription: String

        /// The strings' UTF-8 hashed eight bytes at a time, combined with the numbers: `Hasher`
        /// on a `String` hashes its normalized form and cost several hundred instructions a hit.
        static func fingerprint(key: String?, token: PathToken?, ruleIndex: Int, describesMetadata: Bool,
                                valueDescription: String) -> UInt64 {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            @inline(__always) func mix(_ value: UInt64) { h = (h ^ value) &* 0x0000_0100_0000_01B3 }
            mix(key.map { WordHash.hash($0) } ?? 1)
            switch token {
            case .key(let name)?: mix(name == key ? 2 : WordHash.hash(name))
            case .index(let index)?: mix(UInt64(bitPattern: Int64(index)))
            case nil: mix(3)
            }
            mix(UInt64(ruleIndex) << 1 | (describesMetadata ? 1 : 0))
            mix(WordHash.hash(valueDescription))
            return h
        }

        /// Whether this is the label of these parts.
        func matches(key: String?, token: PathToken?, ruleIndex: Int, describesMetadata: Bool, valueDescription: String) -> Bool {
            self.ruleIndex == ruleIndex && self.describesMetadata == describesMetadata && self.key == key && self.token == token
                && self.valueDescription == valueDescription
        }
    }

    private var chunks: [[Hit]] = []
    /// The positions of hits past line or column 4,294,967,294, by hit index.
    private var outsized: [Int: SourcePosition] = [:]
    private static let chunkShift = 14
    private static let chunkSize = 1 << chunkShift
    /// The number of hits.
    private(set) var count = 0
    private(set) var places: [Place] = []
    /// The container whose place the last place is, when a hit in a JSON text's container made
    /// or found it (`append(…inContainer:…)`).
    private var lastPlaceContainer: Int?
    private var labels: [Label] = []
    private var labelFingerprints: [UInt64] = []
    /// Open addressing over `labels`: a label's number, or -1 for a free slot.
    private var labelSlots = [Int32](filling: -1, count: QuietNameHits.initialSlotCount)
    private static let initialSlotCount = 64

    var isEmpty: Bool { count == 0 }

    mutating func append(ruleIndex: Int, describesMetadata: Bool, valueDescription: String, location: HitLocation,
                         position: SourcePosition) {
        // The hits of one container come together and share its path and ancestry arrays, so
        // comparing with the last place (in place) is mostly two identity checks.
        if places.isEmpty || !places[places.count - 1].holds(location) {
            places.append(Place(containerPath: location.containerPath, ancestry: location.ancestry, readerContext: location.readerContext,
                                carrier: location.carrier, isProtocolField: location.isProtocolField,
                                isSecureStorage: location.isSecureStorage))
            lastPlaceContainer = nil
        }
        appendHit(ruleIndex: ruleIndex, describesMetadata: describesMetadata, valueDescription: valueDescription, key: location.key,
                  token: location.token, position: position)
    }

    /// A hit in the open container `container` of a JSON text, whose place `place` makes: asked
    /// only when the last place is not known to be that container's. A container's id is its
    /// own in the whole scan and its ancestry ends with it, so a place made for another
    /// container is never this one's. Made as a `HitLocation`, the location of a quiet hit was
    /// copied once more and destroyed twice, each retaining and releasing its path and ancestry
    /// (`JSONPathTracker.appendQuietHit`).
    mutating func append(ruleIndex: Int, describesMetadata: Bool, valueDescription: String, key: String?, token: PathToken?,
                         inContainer container: Int, place: () -> Place, position: SourcePosition) {
        if places.isEmpty || lastPlaceContainer != container {
            let made = place()
            if places.isEmpty || places[places.count - 1] != made { places.append(made) }
            lastPlaceContainer = container
        }
        appendHit(ruleIndex: ruleIndex, describesMetadata: describesMetadata, valueDescription: valueDescription, key: key,
                  token: token, position: position)
    }

    /// A hit of the last place.
    private mutating func appendHit(ruleIndex: Int, describesMetadata: Bool, valueDescription: String, key: String?, token: PathToken?,
                                    position: SourcePosition) {
        let label = number(key: key, token: token, ruleIndex: ruleIndex, describesMetadata: describesMetadata,
                           valueDescription: valueDescription)
        var hit = Hit(byteOffset: position.byteOffset, line: UInt32.max, column: UInt32.max, place: Int32(places.count - 1), label: label)
        if let line = UInt32(exactly: position.line), let column = UInt32(exactly: position.column), line < .max, column < .max {
            hit.line = line
            hit.column = column
        } else {
            outsized[count] = position
        }
        let chunk = count >> QuietNameHits.chunkShift
        if chunk == chunks.count {
            chunks.append([])
            chunks[chunk].reserveCapacity(QuietNameHits.chunkSize)
        }
        chunks[chunk].append(hit)
        count += 1
    }

    private func hit(_ index: Int) -> Hit {
        chunks[index >> QuietNameHits.chunkShift][index & (QuietNameHits.chunkSize - 1)]
    }

    private func position(of index: Int, _ hit: Hit) -> SourcePosition {
        if hit.line == .max { return outsized[index]! }
        return SourcePosition(line: Int(hit.line), column: Int(hit.column), byteOffset: hit.byteOffset)
    }

    /// The number of the label of these parts, interned: a label is made only when it is new.
    private mutating func number(key: String?, token: PathToken?, ruleIndex: Int, describesMetadata: Bool,
                                 valueDescription: String) -> Int32 {
        let fingerprint = Label.fingerprint(key: key, token: token, ruleIndex: ruleIndex, describesMetadata: describesMetadata,
                                            valueDescription: valueDescription)
        let mask = labelSlots.count - 1
        var slot = Int(truncatingIfNeeded: fingerprint) & mask
        while labelSlots[slot] >= 0 {
            let known = Int(labelSlots[slot])
            if labelFingerprints[known] == fingerprint
                && labels[known].matches(key: key, token: token, ruleIndex: ruleIndex, describesMetadata: describesMetadata,
                                         valueDescription: valueDescription) {
                return Int32(known)
            }
            slot = (slot + 1) & mask
        }
        let number = Int32(labels.count)
        labels.append(Label(key: key, token: token, ruleIndex: ruleIndex, describesMetadata: describesMetadata,
                            valueDescription: valueDescription))
        labelFingerprints.append(fingerprint)
        labelSlots[slot] = number
        if labels.count * 2 > labelSlots.count { rebuildSlots(count: labelSlots.count * 2) }
        return number
    }

    private mutating func rebuildSlots(count: Int) {
        labelSlots = [Int32](filling: -1, count: count)
        let mask = count - 1
        for (number, fingerprint) in labelFingerprints.enumerated() {
            var slot = Int(truncatingIfNeeded: fingerprint) & mask
            while labelSlots[slot] >= 0 { slot = (slot + 1) & mask }
            labelSlots[slot] = Int32(number)
        }
    }

    /// The index in `places` of hit `index`.
    func placeIndex(of index: Int) -> Int { Int(hit(index).place) }

    /// The path of hit `index`, as reports write it.
    func pathDescription(of index: Int) -> String {
        let hit = hit(index)
        return places[Int(hit.place)].containerPath.description(appending: labels[Int(hit.label)].token)
    }

    /// Hit `index` as the pending hit it stands for.
    subscript(index: Int) -> PendingHit {
        let hit = hit(index)
        let place = places[Int(hit.place)]
        let label = labels[Int(hit.label)]
        var location = HitLocation(key: label.key, containerPath: place.containerPath, token: label.token, ancestry: place.ancestry,
                                   readerContext: place.readerContext, carrier: place.carrier,
                                   isProtocolField: place.isProtocolField)
        location.isSecureStorage = place.isSecureStorage
        return PendingHit(detail: .name(ruleIndex: label.ruleIndex, credible: false, describesMetadata: label.describesMetadata,
                                        valueDescription: label.valueDescription),
                          location: location, position: position(of: index, hit))
    }

    /// Forgets the hits from `count` on (a layer that turned out not to be one).
    mutating func truncate(to count: Int) {
        precondition(count <= self.count)
        let chunksKept = (count + QuietNameHits.chunkSize - 1) >> QuietNameHits.chunkShift
        chunks.removeSubrange(chunksKept...)
        if count & (QuietNameHits.chunkSize - 1) != 0 {
            chunks[chunksKept - 1].removeSubrange((count & (QuietNameHits.chunkSize - 1))...)
        }
        self.count = count
        if !outsized.isEmpty { outsized = outsized.filter { $0.key < count } }
    }

    /// Forgets everything, at the end of a document.
    mutating func removeAll() {
        // Most documents end without a quiet hit, place or label (a layer's rollback can leave
        // places and labels without hits): nothing to free, and the label table stays as it is
        // (a new one at the end of every document took an allocation and its release).
        guard count > 0 || !places.isEmpty || !labels.isEmpty else { return }
        chunks.removeAll()
        outsized.removeAll()
        count = 0
        places.removeAll()
        lastPlaceContainer = nil
        labels.removeAll()
        labelFingerprints.removeAll()
        labelSlots = [Int32](filling: -1, count: QuietNameHits.initialSlotCount)
    }
}

extension QuietNameHits.Place {
    /// Whether this is the place of `location`.
    func holds(_ location: HitLocation) -> Bool {
        readerContext == location.readerContext && carrier == location.carrier && isProtocolField == location.isProtocolField
            && isSecureStorage == location.isSecureStorage && ancestry == location.ancestry && containerPath == location.containerPath
    }
}
