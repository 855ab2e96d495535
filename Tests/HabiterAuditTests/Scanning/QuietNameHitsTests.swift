@testable import AuditCore
@testable import AuditScan
import Testing

/// The compact store of name hits on values that are no secret: each hit comes back as the
/// pending hit it was recorded from, hits of one container share a place, and a rolled-back
/// layer takes its hits with it.
@Suite struct QuietNameHitsTests {
    private struct Recorded {
        var ruleIndex: Int
        var describesMetadata: Bool
        var valueDescription: String
        var location: HitLocation
        var position: SourcePosition
    }

    private func recorded() -> [Recorded] {
        let settings = LayeredPath().appending(.key("settings"))
        let list = LayeredPath().appending(.key("tokens"))
        let ancestry = [0, 4]
        var secure = HitLocation(key: "pin", containerPath: settings, token: .key("pin"), ancestry: ancestry, readerContext: nil,
                                 carrier: nil)
        secure.isSecureStorage = true
        let locations = [
            HitLocation(key: "token", containerPath: settings, token: .key("token"), ancestry: ancestry, readerContext: nil, carrier: nil),
            HitLocation(key: "secret", containerPath: settings, token: .key("secret"), ancestry: ancestry, readerContext: nil, carrier: nil),
            HitLocation(key: "token", containerPath: settings, token: .key("token"), ancestry: ancestry, readerContext: nil, carrier: nil),
            secure,
            HitLocation(key: "tokens", containerPath: list, token: .index(0), ancestry: [0, 7], readerContext: .sync, carrier: .transport,
                        isProtocolField: true),
            HitLocation(key: "tokens", containerPath: list, token: .index(1), ancestry: [0, 7], readerContext: .sync, carrier: .transport,
                        isProtocolField: true),
            HitLocation(key: nil, path: LayeredPath(), ancestry: []),
        ]
        let descriptions = ["an empty string", "null", "an empty string", "a 4-character value", "a number", "a number", "an object"]
        return locations.indices.map { i in
            Recorded(ruleIndex: i % 3, describesMetadata: i == 2, valueDescription: descriptions[i], location: locations[i],
                     position: SourcePosition(line: i + 1, column: 3 * i + 1, byteOffset: 100 * i))
        }
    }

    private func summary(_ hit: PendingHit) -> String {
        guard case .name(let rule, let credible, let metadata, let description) = hit.detail else { return "not a name hit" }
        let location = hit.location
        return "\(rule) \(credible) \(metadata) \(description) \(location.key ?? "-") \(location.path) \(location.ancestry) "
            + "\(location.readerContext?.rawValue ?? "-") \(location.carrier?.rawValue ?? "-") \(location.isProtocolField) "
            + "\(location.isSecureStorage) \(hit.position.line):\(hit.position.column)@\(hit.position.byteOffset)"
    }

    private func expected(_ r: Recorded) -> String {
        summary(PendingHit(detail: .name(ruleIndex: r.ruleIndex, credible: false, describesMetadata: r.describesMetadata,
                                         valueDescription: r.valueDescription),
                           location: r.location, position: r.position))
    }

    private func store(of hits: [Recorded]) -> QuietNameHits {
        var store = QuietNameHits()
        for r in hits {
            store.append(ruleIndex: r.ruleIndex, describesMetadata: r.describesMetadata, valueDescription: r.valueDescription,
                         location: r.location, position: r.position)
        }
        return store
    }

    @Test func hitsComeBackAsRecorded() {
        let hits = recorded()
        let store = store(of: hits)
        #expect(store.count == hits.count)
        #expect(hits.indices.map { summary(store[$0]) } == hits.map(expected))
        #expect(hits.indices.map { store.pathDescription(of: $0) } == hits.map(\.location.path.description))
        // The settings hits share one place until secure storage differs; the list's two share one.
        #expect(store.places.count == 4)
        #expect(hits.indices.map(store.placeIndex(of:)) == [0, 0, 0, 1, 2, 2, 3])
    }

    @Test func truncateAndRemoveAll() {
        let hits = recorded()
        var store = store(of: hits)
        store.truncate(to: 2)
        #expect(store.count == 2)
        #expect((0..<2).map { summary(store[$0]) } == hits.prefix(2).map(expected))
        store.removeAll()
        #expect(store.isEmpty && store.places.isEmpty)
        let last = hits[hits.count - 1]
        store.append(ruleIndex: last.ruleIndex, describesMetadata: last.describesMetadata, valueDescription: last.valueDescription,
                     location: last.location, position: last.position)
        #expect(summary(store[0]) == expected(last))
        // Truncated to nothing (a rolled-back layer), the places remain until the document ends.
        store.truncate(to: 0)
        #expect(store.isEmpty && !store.places.isEmpty)
        store.removeAll()
        #expect(store.places.isEmpty)
        // Ended without a hit, it stays empty and takes the next document's hits.
        store.removeAll()
        store.append(ruleIndex: last.ruleIndex, describesMetadata: last.describesMetadata, valueDescription: last.valueDescription,
                     location: last.location, position: last.position)
        #expect(store.count == 1 && store.places.count == 1 && summary(store[0]) == expected(last))
    }

    /// A line or column past 32 bits is kept whole beside the compact hits, and goes with them.
    @Test func positionsPastThirtyTwoBits() {
        var hits = recorded()
        hits[1].position = SourcePosition(line: Int(UInt32.max), column: 2, byteOffset: 1 << 40)
        hits[4].position = SourcePosition(line: 3, column: Int(UInt32.max) + 5, byteOffset: (1 << 40) + 9)
        var store = store(of: hits)
        #expect(hits.indices.map { summary(store[$0]) } == hits.map(expected))
        store.truncate(to: 3)
        let last = hits[hits.count - 1]
        store.append(ruleIndex: last.ruleIndex, describesMetadata: last.describesMetadata, valueDescription: last.valueDescription,
                     location: last.location, position: last.position)
        store.append(ruleIndex: last.ruleIndex, describesMetadata: last.describesMetadata, valueDescription: last.valueDescription,
                     location: last.location, position: last.position)
        #expect((0..<5).map { summary(store[$0]) } == (hits.prefix(3) + [last, last]).map(expected))
    }

    @Test func manyLabelsAreInternedApart() {
        // Past several growths of the label table, every hit keeps its own label.
        var store = QuietNameHits()
        let container = LayeredPath().appending(.key("list"))
        for i in 0..<5_000 {
            let location = HitLocation(key: "k\(i % 700)", containerPath: container, token: .index(i % 900), ancestry: [1],
                                       readerContext: nil, carrier: nil)
            store.append(ruleIndex: i % 3, describesMetadata: false, valueDescription: Redaction.describeValue(length: i % 40),
                         location: location, position: SourcePosition(line: 1, column: i + 1, byteOffset: i))
        }
        for i in stride(from: 0, to: 5_000, by: 7) {
            let hit = store[i]
            guard case .name(let rule, _, _, let description) = hit.detail else { Issue.record("not a name hit"); return }
            #expect(rule == i % 3 && description == Redaction.describeValue(length: i % 40))
            #expect(hit.location.key == "k\(i % 700)" && hit.location.path == container.appending(.index(i % 900)))
        }
    }

    @Test func truncationAcrossChunks() {
        // Hits are kept in chunks of 16,384: truncate at, inside and past chunk boundaries,
        // then append again; every hit keeps its position.
        var store = QuietNameHits()
        let location = HitLocation(key: "pin", containerPath: LayeredPath(), token: .key("pin"), ancestry: [], readerContext: nil,
                                   carrier: nil)
        func append(_ range: Range<Int>) {
            for i in range {
                store.append(ruleIndex: 0, describesMetadata: false, valueDescription: "null", location: location,
                             position: SourcePosition(line: 1, column: i + 1, byteOffset: i))
            }
        }
        func offsets() -> [Int] { (0..<store.count).map { store[$0].position.byteOffset } }
        append(0..<40_000)
        for cut in [39_999, 32_768, 20_000, 16_384, 16_383, 1, 0] {
            store.truncate(to: cut)
            #expect(store.count == cut)
            #expect(offsets() == Array(0..<cut))
        }
        append(0..<16_385)
        #expect(offsets() == Array(0..<16_385))
        store.truncate(to: 16_384)
        append(16_384..<16_390)
        #expect(offsets() == Array(0..<16_390))
    }

    @Test func aRolledBackLayerForgetsItsHits() {
        // The first line is JSON with a sensitive name on null; the second is not, so the string
        // is no NDJSON layer and the name hit of its first line must go with it.
        let text = #"{"note": "{\"token\": null}\n{\"token\": null} and then prose"}"#
        #expect(TestSupport.scan(text, options: ScanOptions(context: .sync)).findings.isEmpty)
        let layer = #"{"note": "{\"token\": null}\n{\"token\": null}"}"#
        #expect(TestSupport.scan(layer, options: ScanOptions(context: .sync)).findings.map(\.path.description)
            == ["/note!ndjson/0/token", "/note!ndjson/1/token"])
    }
}
