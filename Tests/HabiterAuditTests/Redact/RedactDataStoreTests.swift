@testable import AuditInputs
@testable import AuditRedact
import Foundation
import TestHelpers
import Testing

private typealias F = RedactFixtures
private typealias D = DataStoreFixture

private let storeName = "FlutterSharedPreferences.preferences_pb"

/// DataStore files: a redacted copy is valid protobuf with every length recomputed, written as
/// DataStore writes it, and only the entries that held a secret change.
@Suite struct RedactDataStoreTests {
    /// `entries` with the string under `key` rewritten by `change`.
    private func replacing(_ key: String, in entries: [(String, D.Value)], _ change: (String) -> String) -> [(String, D.Value)] {
        entries.map { name, value in
            guard name == key, case .string(let text) = value else { return (name, value) }
            return (name, .string(change(text)))
        }
    }

    @Test func theKeyInTheEnvelopeIsReplacedAndEveryLengthRecomputed() throws {
        let entries = D.habiterStoreEntries(apiKey: F.google)
        let result = try F.redact(D.file(entries), name: storeName)
        #expect(result.format == "datastore")
        #expect(result.replacements["secret.google-api-key"] == 1)
        // Byte for byte what DataStore writes for the redacted value: the envelope's entry
        // (shorter by the placeholder) and nothing else changed; its migratedAt is no secret.
        let expected = D.file(replacing("habiter_storage_envelope", in: entries) { envelope in
            envelope.replacingOccurrences(of: F.google, with: "[REDACTED:google-api-key]")
        })
        let same = result.output == expected
        #expect(same, "the copy is not the store with its key redacted")
        expectClean(result, leaking: [F.google])
    }

    @Test func setMembersBytesAndListsAreRedactedInside() throws {
        let legacy = FlutterPrefsEncoding.listPrefix + Data(JavaStringListWriter.serialize([Array("fine".utf8), Array(F.github2.utf8)])).base64EncodedString()
        let entries: [(String, D.Value)] = [
            ("launch_count", .integer(7)),
            ("tags", .stringSet(["clean", "token \(F.github)"])),
            ("blob", .bytes(Array("raw \(F.stripe)".utf8))),
            ("recent", .string(D.flutterList(["a", F.aws]))),
            ("old", .string(legacy)),
            ("volume", .double(0.5)),
        ]
        let result = try F.redact(D.file(entries), name: storeName)
        let redactedLegacy = FlutterPrefsEncoding.listPrefix
            + Data(JavaStringListWriter.serialize([Array("fine".utf8), Array("[REDACTED:github-token]".utf8)])).base64EncodedString()
        let expected = D.file([
            ("launch_count", .integer(7)),
            ("tags", .stringSet(["clean", "token [REDACTED:github-token]"])),
            ("blob", .bytes(Array("raw [REDACTED:stripe-secret-key]".utf8))),
            ("recent", .string(D.flutterList(["a", "[REDACTED:aws-access-key-id]"]))),
            ("old", .string(redactedLegacy)),
            ("volume", .double(0.5)),
        ])
        let same = result.output == expected
        #expect(same, "the copy is not the store with its values redacted: replacements \(result.replacements)")
        expectClean(result, leaking: [F.github, F.github2, F.stripe, F.aws])
    }

    @Test func aSecretUsedAsAKeyIsRedactedAndTheEntryWrittenAgain() throws {
        // A string under it goes too: it shares the key's masked path, as in JSON.
        for (value, kept) in [(D.Value.boolean(true), D.Value.boolean(true)), (.integer(-7), .integer(-7)), (.long(1_764_489_600_000), .long(1_764_489_600_000)),
                              (.float(0.25), .float(0.25)), (.double(-1.5), .double(-1.5)), (.string("kept"), .string("[REDACTED:github-token]"))] {
            let result = try F.redact(D.file([("launch_count", .integer(3)), (F.github, value)]), name: storeName)
            let same = result.output == D.file([("launch_count", .integer(3)), ("[REDACTED:github-token]", kept)])
            #expect(same, "the copy is not the store with its key redacted (\(value))")
            expectClean(result, leaking: [F.github])
        }
    }

    @Test func aCleanStoreIsCopiedUnchanged() throws {
        let store = D.file([("habiter_onboarding_v2", .boolean(true)), ("recent_icons", .string(D.flutterList(["school"])))])
        let result = try F.redact(store, name: storeName)
        #expect(result.output == store)
        #expect(result.rounds == 0 && result.replacements.isEmpty)
    }

    @Test func aCompressedStoreGivesACompressedCopy() throws {
        let store = D.entry("note", .string("token \(F.github)"))
        let result = try F.redact(try #require(GzipEncoder.compress(store, headerFrom: [])), name: storeName + ".gz")
        #expect(result.format == "datastore+gzip")
        guard case .success(let inflated) = GzipLayerDecoder.inflate(result.output) else {
            Issue.record("the copy is not gzip")
            return
        }
        let same = inflated == D.entry("note", .string("token [REDACTED:github-token]"))
        #expect(same)
    }

    @Test func aMalformedStoreIsRefusedWithItsPosition() {
        let store = D.entry("note", .string("token \(F.github)")) + [0x0A, 0x7F, 0x0A]
        do {
            _ = try F.redact(store, name: storeName)
            Issue.record("a malformed store was redacted")
        } catch {
            guard case .input(let errors) = error else {
                Issue.record("not an input error")
                return
            }
            #expect(errors.map(\.description) == ["\(storeName):1:60: a length of 127 bytes runs past the end of the input (1 left)"])
            let leaked = F.holds(error.description, F.github)
            #expect(!leaked)
        }
    }
}
