@testable import AuditCore
@testable import AuditReport
import Foundation
import Testing

/// A planted secret: a public part every value of its kind shares (`ghp_`, a JWT header) and the
/// secret material. No output may hold any 8-character piece that overlaps the material.
struct PlantedSecret {
    var publicPrefix: String
    var material: String
    var text: String { publicPrefix + material }

    /// Every 8-character window of `text` that covers at least one character of the material.
    var pieces: [String] {
        let characters = Array(text)
        let start = max(0, publicPrefix.count - 7)
        return (start...(characters.count - 8)).map { String(characters[$0..<$0 + 8]) }
    }
}

enum SecretFactory {
    static let base62 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    static func random<G: RandomNumberGenerator>(_ n: Int, from alphabet: [Character] = base62, using generator: inout G) -> String {
        String((0..<n).map { _ in alphabet.randomElement(using: &generator)! })
    }

    static func base64url(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// One fresh secret of each kind the starter pack knows.
    static func all() -> [String: PlantedSecret] {
        var generator = SystemRandomNumberGenerator()
        return all(using: &generator)
    }

    /// One secret of each kind, drawn from `generator` (seeded, for a reproducible property test).
    static func all<G: RandomNumberGenerator>(using g: inout G) -> [String: PlantedSecret] {
        [
            "github": PlantedSecret(publicPrefix: "ghp_", material: random(36, using: &g)),
            // Sixteen distinct symbols: drawn with repeats, one key in 6,000 falls under the
            // rule's entropy floor of 3 bits (and is rightly not reported), which made the tests
            // that expect every planted secret fail that often.
            "aws": PlantedSecret(publicPrefix: "AKIA", material: String(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567").shuffled(using: &g).prefix(16))),
            "google": PlantedSecret(publicPrefix: "AIza", material: random(35, using: &g)),
            "slack": PlantedSecret(publicPrefix: "xoxb-", material: random(12, from: Array("0123456789"), using: &g) + "-" + random(13, from: Array("0123456789"), using: &g) + "-" + random(24, using: &g)),
            "stripe": PlantedSecret(publicPrefix: "sk_live_", material: random(28, using: &g)),
            "jwt": PlantedSecret(publicPrefix: base64url(#"{"alg":"HS256","typ":"JWT"}"#) + ".",
                                 material: base64url(#"{"sub":"\#(random(12, using: &g))","iat":1764547200}"#) + "." + random(43, using: &g)),
            "pem": PlantedSecret(publicPrefix: "-----BEGIN PRIVATE KEY-----\n", material: random(64, using: &g)),
            "password": PlantedSecret(publicPrefix: "", material: random(6, using: &g) + "-" + random(7, using: &g)),
            "bearer": PlantedSecret(publicPrefix: "", material: random(32, using: &g)),
            "textPassword": PlantedSecret(publicPrefix: "", material: random(14, using: &g)),
            "keySecret": PlantedSecret(publicPrefix: "ghp_", material: random(36, using: &g)),
        ]
    }
}

/// No report format, no message on stderr and no report file contains a planted secret or an
/// 8-character piece of one, also when the input is malformed around the secret.
@Suite struct RedactionTests {
    static func inputs(_ s: [String: PlantedSecret]) -> [(String, String)] {
        func js(_ text: String) -> String {
            String(JSONOutput.string(text).rendered().dropLast())
        }
        let push = """
        {"protocolVersion": 1, "operations": [{"operationId": "o1", "document": {"schemaVersion": 1, "entityId": "habit/h1", "deleted": false,
          "payload": {"id": "h1", "title": \(js("my aws " + s["aws"]!.text)), "password": \(js(s["password"]!.text)),
          "meta": \(js("{\"k\": \(js(s["google"]!.text)), \"pem\": \(js(s["pem"]!.text + "\n-----END PRIVATE KEY-----"))}"))}}}]}
        """
        let ndjson = """
        {"log": \(js("curl -H 'Authorization: Bearer \(s["bearer"]!.text)'"))}
        {"seen": {\(js(s["keySecret"]!.text)): true}, "jwt": \(js(s["jwt"]!.text))}
        {"broken": \(js(s["stripe"]!.text)), }
        """
        let truncated = "{\"note\": \(js("wifi password: " + s["textPassword"]!.text)), \"slack\": \(js(s["slack"]!.text)), \"x\": [\n"
        let badEscape = "{\"gh\": \"\(s["github"]!.text)\\q\"}"
        return [("push.json", push), ("log.ndjson", ndjson), ("truncated.json", truncated), ("bad-escape.json", badEscape)]
    }

    @Test(arguments: ["text", "json", "sarif"])
    func noOutputHoldsAPlantedSecret(_ format: String) throws {
        for _ in 0..<5 {
            let secrets = SecretFactory.all()
            let directory = TestSupport.temporaryDirectory()
            for (name, text) in Self.inputs(secrets) {
                try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
            let toStdout = TestSupport.runCLI(["scan", "--format", format, directory.path])
            let reportFile = directory.appendingPathComponent("report.out").path
            let toFile = TestSupport.runCLI(["scan", "--format", format, "-o", reportFile, directory.path + "/push.json",
                                             directory.path + "/log.ndjson", directory.path + "/truncated.json", directory.path + "/bad-escape.json"])
            let written = try String(contentsOfFile: reportFile, encoding: .utf8)
            #expect(toStdout.status == ExitStatus.inputError)
            // The scan found what was planted (so that the test cannot pass by finding nothing).
            for rule in ["secret.github-token", "secret.jwt", "secret.private-key", "secret.stripe-secret-key", "secret.aws-access-key-id",
                         "secret.google-api-key", "secret.slack-token", "secret.bearer-token", "secret.password-in-text", "name.password"] {
                #expect(toStdout.stdout.contains(rule), "no \(rule) finding in the \(format) report")
            }
            for output in [toStdout.stdout, toStdout.stderr, toFile.stdout, toFile.stderr, written] {
                for (kind, secret) in secrets {
                    // Only a boolean reaches the test log, never the output that holds the piece.
                    let leaked = secret.pieces.contains { output.contains($0) }
                    #expect(!leaked, "a piece of the \(kind) secret leaked into the \(format) output")
                }
            }
        }
    }
}
