@testable import AuditRules
import Testing

/// Issue 20: a token directly followed or preceded by punctuation (`sk_live_…:` in a backup's
/// entry note, `(ghp_…)`, `"AKIA…",`) is still found. Every positive example of every pattern
/// rule, with each of the 32 ASCII punctuation characters right after it and right before it,
/// through a real scan as in `RuleExampleTests`.
@Suite struct RulePunctuationTests {
    enum Side: String, Sendable, CaseIterable { case before, after }

    /// Characters that are part of a rule's token on one side, so that the example with one of
    /// them there is another (or no) token rather than the same one next to punctuation.
    struct Exception: Sendable {
        let ruleId: String
        let characters: String
        let side: Side
        let reason: String

        init(_ ruleId: String, _ characters: String, _ side: Side, _ reason: String) {
            self.ruleId = "secret." + ruleId
            self.characters = characters
            self.side = side
            self.reason = reason
        }
    }

    /// The ASCII punctuation characters (POSIX `[:punct:]`), in code order.
    static let punctuation = Array(##"!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"##)

    /// Only where the character belongs to the token's own alphabet at that end, so that the rule
    /// would have to guess where the token stops: after a fixed-length base64 or base64url part
    /// (`-`, `_`, `+`, `/`, `=` padding); before a token that may be the tail of a longer base64
    /// string, or a name that `_` makes longer. Everywhere else the boundaries refuse letters and
    /// digits only, and punctuation ends or starts the token: `_` after `ghp_…`, `-` after hex,
    /// `.` before `hvs.…`, `:` before a Telegram token. `everyExceptionIsNeeded` fails when one
    /// no longer changes the outcome.
    static let exceptions: [Exception] = [
        .init("anthropic-api-key", "-_", .after, "base64url: 93 random characters and `AA`, one more is no longer a key"),
        .init("aws-secret-access-key", "+/=", .after, "base64: exactly 40 characters, a 41st or padding is another string (counter-example 3)"),
        .init("aws-session-token", "+/", .before, "base64: the token opens with two random base64 characters, so this is inside a longer string"),
        .init("azure-shared-access-key", "+/=", .after, "base64: 43 characters and one `=` (32 bytes), more is another length"),
        .init("firebase-fcm-server-key", "-_", .after, "base64url: exactly 134 characters after `APA91b`, one more is another string"),
        .init("firebase-fcm-server-key", "-_", .before, "base64url: `…-AAAA…:APA91b…` may end a device registration token's instance id, left out by the rule"),
        .init("gitlab-token", "-_", .after, "base64url: a legacy `glpat-` token is exactly 20 characters (counter-example 3 is one more)"),
        .init("gitlab-runner-token", "-_", .after, "base64url: legacy `glrt-` and `GR1348941` tokens are exactly 20 characters"),
        .init("google-api-key", "-_", .after, "base64url: `AIza` and exactly 35 characters, one more is another string"),
        .init("google-oauth-client-secret", "-_", .after, "base64url: `GOCSPX-` and exactly 28 characters (counter-example 3 is one more)"),
        .init("grafana-token", "+/", .after, "base64: the JSON of a `glc_` token would go on"),
        .init("habiter-access-token", "-_", .after, "base64url: the signature is exactly 43 characters (32 bytes)"),
        .init("sendgrid-api-key", "-_", .after, "base64url: the last part is exactly 43 characters"),
        .init("sentry-org-token", "+/=", .after, "base64: the secret part is exactly 43 characters, unpadded (32 bytes)"),
        .init("telegram-bot-token", "-_", .after, "base64url: at most 33 characters after `:AA`, one more is another string"),
        .init("cloudflare-api-token", "-_", .after, "base64url: exactly 40 characters, one more is another string"),
        .init("aws-access-key-pair", "+/=", .after, "base64: exactly 40 characters, a 41st or padding is another string"),
        .init("azure-app-configuration-connection-string", "+/=", .after, "base64: 43 characters and one `=` (32 bytes), more is another length"),
        .init("azure-entra-client-secret", "-_~", .after, "the secret's own alphabet: exactly 34 characters after `Q~`, one more is another string"),
        .init("azure-logic-apps-trigger-url", "-_", .after, "base64url: the `sig` is exactly 43 characters (32 bytes)"),
        .init("google-cloud-storage-hmac-key", "+/=", .after, "base64: exactly 40 characters, a 41st or padding is another string"),
        .init("recaptcha-secret-key", "-_", .after, "base64url: `6L` and exactly 38 characters, one more is another string"),
        .init("docker-hub-token", "-_", .after, "base64url: `dckr_pat_` and exactly 27 characters (`dckr_oat_` 32), one more is another string"),
        .init("flyio-token", "-_", .after, "base64url: `fo1_` and exactly 43 characters, one more is another string"),
        .init("heroku-api-key", "-_", .after, "base64url: `HRKU-AA` and exactly 58 characters, one more is another string"),
        .init("new-relic-ingest-key", "-_", .after, "base64url: `NRII-` and exactly 32 characters, one more is another string"),
        .init("okta-api-token", "-_", .after, "base64url: `00` and exactly 40 characters, one more is another string"),
        .init("figma-token", "-_", .after, "base64url: `figd_` and exactly 40 characters, one more is another string"),
        .init("frameio-token", "-=_", .after, "base64url with `=`: `fio-u-` and exactly 64 characters, one more is another string"),
        .init("typeform-token", "-_", .after, "base64url: the last part is at most 14 characters, one more is another string"),
        .init("dropbox-token", "-_", .after, "base64url: a long-lived token ends in exactly 43 characters after `AAAAAAAAAA`"),
        .init("contentful-token", "-_", .after, "base64url: `CFPAT-` and exactly 43 characters, one more is another string"),
        .init("discord-bot-token", "-_", .after, "base64url: the HMAC part is at most 38 characters, one more is another string"),
        .init("square-token", "-_", .after, "base64url: `EAAA` + 60, `sq0atp-` + 22, `sq0csp-` + 43 exactly, one more is another string"),
        .init("duffel-api-token", "-_", .after, "base64url: `duffel_live_` and exactly 43 characters, one more is another string"),
        .init("basic-auth-url", "+-.", .before, "a URL scheme may hold `+`, `-` and `.` (RFC 3986): `x.sftp://` is another scheme"),
        .init("pkce-code-verifier", "_", .before, "snake_case: `_code_verifier` is part of a longer name (`hashed_code_verifier`)"),
        .init("adobe-client-secret", "-", .after, "`p8e-` and exactly 32 letters, digits and hyphens: one more `-` is another string"),
        .init("anthropic-oauth-token", "-_", .after, "base64url: `sk-ant-oat01-` and exactly 95 characters then `AA`, one more is another string"),
        .init("azure-data-factory-shir-key", "+/=", .after, "base64: exactly 43 characters and one `=` (32 bytes), more is another length"),
        .init("beamer-api-key", "-_", .after, "base64url alphabet: `b_` and exactly 44 characters, one more is another string"),
        .init("coinbase-api-secret", "-_", .after, "base64url: exactly 64 characters, one more is another string"),
        .init("confluent-api-secret", "+/=", .after, "base64: exactly 64 characters, a 65th or padding is another string"),
        .init("defined-networking-api-key", "-=_", .after, "the last part is exactly 52 of `[A-Za-z0-9=_-]`, one more is another string"),
        .init("fastly-api-token", "-_", .after, "base64url: exactly 32 characters, one more is another string"),
        .init("figma-legacy-token", "-", .after, "hex groups joined by `-` (a UUID after a short prefix): one more `-` is another group"),
        .init("gocardless-access-token", "-_", .after, "base64url alphabet: `live_` or `sandbox_` and exactly 40 characters, one more is another string"),
        .init("hubspot-api-key", "-", .after, "a UUID: one more `-` is another group"),
        .init("hubspot-private-app-token", "-", .after, "`pat-na1-` and a UUID: one more `-` is another group"),
        .init("ibm-cloud-api-key", "-_", .after, "base64url: exactly 44 characters, one more is another string"),
        .init("kraken-api-secret", "+/=", .after, "base64: 80 to 90 characters and their padding, the rule takes the whole string or none of it"),
        .init("kucoin-api-secret", "-", .after, "a UUID: one more `-` is another group"),
        .init("new-relic-query-key", "-_", .after, "base64url: `NRIQ-` and exactly 32 characters, one more is another string"),
        .init("okta-api-token-named", "-_", .after, "base64url alphabet: `00` and exactly 40 characters (the Terraform form), one more is another string"),
        .init("openshift-token", "-_", .after, "base64url: `sha256~` and exactly 43 characters, one more is another string"),
        .init("password-in-text", "([{", .after, "an unquoted value right before `(`, `[` or `{` is a call, an index or a block in code (`password = cfg.get(…)`), not a password"),
        .init("postmark-token", "-", .after, "a UUID: one more `-` is another group"),
        .init("rapidapi-key", "-_", .after, "base64url: exactly 50 characters, one more is another string"),
        .init("salesforce-access-token", "._", .after, "after `!` the token has exactly 96 of `[A-Za-z0-9._]`, one more is another string"),
        .init("scalingo-api-token", "-_", .after, "base64url: `tk-us-` and exactly 48 characters, one more is another string"),
        .init("squarespace-api-key", "-", .after, "a UUID: one more `-` is another group"),
        .init("stackhawk-api-key", "-_", .after, "base64url: `hawk.`, 20 characters, `.` and exactly 20 more, one more is another string"),
        .init("teamcity-token", "-_", .after, "base64url: the signature part is exactly 48 characters, one more is another string"),
        .init("yandex-cloud-iam-token", "-_", .after, "base64url: the signature is exactly 86 characters, one more is another string"),
        .init("yandex-cloud-static-key", "-_", .after, "base64url: `YC` and exactly 38 characters, one more is another string"),
    ]

    static let examples = RuleExample.all.filter { $0.kind == .pattern && $0.positive }

    static func isException(_ ruleId: String, _ character: Character, _ side: Side) -> Bool {
        exceptions.contains { $0.ruleId == ruleId && $0.characters.contains(character) && $0.side == side }
    }

    static func variant(_ text: String, _ character: Character, _ side: Side) -> String {
        side == .after ? text + String(character) : String(character) + text
    }

    static func found(_ text: String, ruleId: String) -> Bool {
        !RuleExampleTests.patternFindings(text, ruleId: ruleId).isEmpty
    }

    @Test func punctuationIsTheThirtyTwoASCIICharacters() {
        #expect(Self.punctuation.count == 32)
        #expect(Set(Self.punctuation).count == 32)
        let expected = (UInt8(0x21)...UInt8(0x7E)).map { Character(Unicode.Scalar($0)) }
            .filter { !$0.isLetter && !$0.isNumber }
        #expect(Self.punctuation == expected)
    }

    @Test(arguments: examples)
    func exampleNextToPunctuation(_ example: RuleExample) {
        for character in Self.punctuation {
            for side in Side.allCases where !Self.isException(example.ruleId, character, side) {
                let text = Self.variant(example.text, character, side)
                #expect(Self.found(text, ruleId: example.ruleId),
                        "\(example.testDescription): not found with '\(character)' \(side.rawValue) it")
            }
        }
    }

    /// An exception that no example needs any more is removed from the list.
    @Test func everyExceptionIsNeeded() {
        for exception in Self.exceptions {
            #expect(Self.examples.contains { $0.ruleId == exception.ruleId }, "\(exception.ruleId): no such pattern rule")
            #expect(exception.reason.count > 10, "\(exception.ruleId) \(exception.side.rawValue): give a reason")
            for character in exception.characters {
                #expect(Self.punctuation.contains(character), "\(exception.ruleId): '\(character)' is not ASCII punctuation")
                let missed = Self.examples.filter { $0.ruleId == exception.ruleId }.contains {
                    !Self.found(Self.variant($0.text, character, exception.side), ruleId: exception.ruleId)
                }
                #expect(missed, "\(exception.ruleId) '\(character)' \(exception.side.rawValue): every example is found, drop the exception")
            }
        }
    }

    @Test func exceptionsAreDistinct() {
        let keys = Self.exceptions.flatMap { e in e.characters.map { "\(e.ruleId) \($0) \(e.side.rawValue)" } }
        #expect(Set(keys).count == keys.count)
    }
}
