@testable import AuditInputs
import Testing

@Suite struct UserinfoLayerDecoderTests {
    let decoder = UserinfoLayerDecoder()
    func pairs(_ text: String) -> [[String]]? { LayerTesting.pairs(decoder, text) }

    @Test func connectionStringGivesUserAndPassword() {
        let url = "postgres://app_user:fake-pass-0123@db.example.internal:5432/habits?sslmode=require"
        let layer = LayerTesting.decode(decoder, url)
        #expect(pairs(url) == [["username", "app_user"], ["password", "fake-pass-0123"]])
        #expect(layer?.replacesValue == false)
        #expect(decoder.name == "userinfo")
    }

    @Test(arguments: [
        ("mongodb+srv://admin:p%40ss%3Aword@cluster0.example.net/?retryWrites=true", ["admin", "p@ss:word"]),
        ("redis://:fake-redis-pass@cache.example.com:6379/0", ["", "fake-redis-pass"]),
        ("amqp://guest:guest@localhost", ["guest", "guest"]),
        ("mysql://root:fake+pw@db.example:3306", ["root", "fake+pw"]),  // `+` is not a space here
        ("jdbc:mysql://root:fake-jdbc-pw@db.example:3306/app", ["root", "fake-jdbc-pw"]),
        ("HTTPS://deploy:fake:with:colons@git.example.com/repo.git", ["deploy", "fake:with:colons"]),
        ("https://user:pa@ss@host.example/", ["user", "pa@ss"]),  // the last `@` ends the userinfo
        ("https://user:bad%zz@host.example#x", ["user", "bad%zz"]),
        ("smtp://mailer%40example.com:fake-smtp@smtp.example.com:587", ["mailer@example.com", "fake-smtp"]),
    ])
    func accepted(_ url: String, _ expected: [String]) {
        #expect(pairs(url) == [["username", expected[0]], ["password", expected[1]]])
    }

    @Test(arguments: [
        "https://user@host.example/",                       // no password part
        "https://user:@host.example/",                      // empty password
        "https://host.example/path?email=a:b@c.example",    // `@` outside the authority
        "https://host.example/#a:b@c",
        "postgres://app:fake-pass@",                        // no host
        "postgres://app:fake-pass@/db",
        "user:pass@host.example",                           // no scheme
        "see postgres://app:fake-pass@db.example",          // prose
        "postgres://app:fake pass@db.example",              // blank
        "postgres://app:fake-pass@db.example/a b",
        "1http://a:b@c",                                    // a scheme starts with a letter
        "https://example.com/",
        "mailto:user:pass@example.com",                     // no `//`
        "",
    ])
    func rejected(_ text: String) {
        #expect(LayerTesting.decode(decoder, text) == nil)
    }

    // Passwords with reserved characters written raw, as people type them in notes: the userinfo
    // ends at the last `@` that a host follows, before any `@` of the path or query.
    @Test(arguments: [
        ("https://jonas:Kz8!tq#x@nas.local:5006/", ["jonas", "Kz8!tq#x"]),
        ("https://jonas:Rb7?wq2Lm@wiki.home.arpa/login", ["jonas", "Rb7?wq2Lm"]),
        ("https://jonas:Tm4/pX9v@nas.local:5006/webdav", ["jonas", "Tm4/pX9v"]),
        ("sftp://jonas:Hq3@vN#8z@files.home.arpa:2222/", ["jonas", "Hq3@vN#8z"]),  // `@` and `#`: the last `@` wins
        ("https://jonas:Kz8!tq#x@nas.local", ["jonas", "Kz8!tq#x"]),
        ("https://jonas:Kz8!tq#x@10.0.0.5#top", ["jonas", "Kz8!tq#x"]),
        ("https://jonas:Kz8!tq#x@[fe80::1%25eth0]:5006/", ["jonas", "Kz8!tq#x"]),
        ("redis://:Vb6?Tr@n8Lq@redis.internal:6379/0", ["", "Vb6?Tr@n8Lq"]),
        ("mongodb://ops:Qm4#Lz8!w@h1.internal:27017,h2.internal:27017/habits?replicaSet=rs0", ["ops", "Qm4#Lz8!w"]),
        ("https://jonas:a&b=c#d@nas.local/", ["jonas", "a&b=c#d"]),  // `&` before any `?` is the password's
        ("https://jonas:Kz8#tq%40x@nas.local/", ["jonas", "Kz8#tq@x"]),  // still percent-decoded
        // The `@` of the path or query stops the search; the userinfo ends before it.
        ("https://jonas:Kz8#tqq@nas.local/share?to=ops@habiter.app", ["jonas", "Kz8#tqq"]),
        ("https://jonas:Kz8#tqq@nas.local/share?a=1&to=ops@habiter.app", ["jonas", "Kz8#tqq"]),
        ("https://jonas:Kz8#tqq@mastodon.social/@jonas", ["jonas", "Kz8#tqq"]),
        ("https://jonas:Kz8#tqq@mastodon.social/@jonas/x@habiter.app", ["jonas", "Kz8#tqq"]),
        ("postgres://app:fake-pass@db.internal/habits?contact=ops@habiter.app", ["app", "fake-pass"]),
        ("https://app:fake-pass@db.internal/@jonas", ["app", "fake-pass"]),
        // Ambiguous: `word@host` later in the path reads as part of the password (more, never less).
        ("https://jonas:Kz8#tqq@nas.local/users/a@habiter.app", ["jonas", "Kz8#tqq@nas.local/users/a"]),
    ])
    func rawReservedCharactersInThePassword(_ url: String, _ expected: [String]) {
        #expect(pairs(url) == [["username", expected[0]], ["password", expected[1]]])
    }

    @Test(arguments: [
        "https://habiter.app/account?email=jonas@habiter.app",     // no userinfo, an e-mail in the query
        "https://habiter.app:8443/share?to=jonas@nas.local",        // a port, not a password
        "https://habiter.app:8443/@jonas",
        "https://habiter.app/#/route@home",                         // a fragment route
        "https://habiter.app/#/settings:sync@home",                 // the "username" would hold `/` and `#`
        "https://habiter.app/search?q=a:b@nas.local",
        "http://[::1]:8080/users/jonas@nas.local",                  // `[` is no username
        "https://ops@habiter.app:8443/x@nas.local",                 // a username with `@` only as RFC 3986 reads it
        "https://cdn.habiter.app/npm/lodash@4.17.21/lodash.min.js", // a version is no host
        "https://habiter.app/react@18/umd",
        "https://www.google.com/maps/@52.5200,13.4050,15z",
        "mailto:jonas@habiter.app?cc=ops@habiter.app",
        "https://jonas:12345/x@nas.local/",                         // 1–5 digits before `/` read as a port
        "https://jonas:Kz8?a=b@nas.local/",                         // a password ending like a query parameter
        "https://jonas:Kz8/@nas.local/",                            // … or in `/`
        "https://jonas:Kz8!tq#x@nas.local!",                        // no `/`, `?`, `#` or end after the host
        "https://jonas:Kz8!tq#x@1.2.3/",                            // not a host
        "https://jonas:Kz8!tq#x@/",
        "https://jonas:Kz8!tq#x@",
        "https://jonas:Kz8!tq#x@nas.local/a b",                     // blank
    ])
    func ordinaryURLsStayClosed(_ text: String) {
        #expect(LayerTesting.decode(decoder, text) == nil)
    }

    @Test func randomURLsKeepTheRangeInvariants() {
        // Seeded random URL-shaped values: the ranges never leave the value, the username follows
        // `://`, a colon parts it from a non-empty password, and the password ends at an `@`; one
        // with a raw `/`, `?` or `#` at an `@` that a host follows, then the end, `/`, `?` or `#`.
        var random = SeededGenerator(seed: 20)
        let alphabet = Array("ab9Z:/?#@&=.,[]%-_!".utf8)
        var opened = 0
        var extended = 0
        for _ in 0..<20_000 {
            var bytes = Array("https://".utf8)
            for _ in 0..<Int.random(in: 1...24, using: &random) { bytes.append(alphabet.randomElement(using: &random)!) }
            bytes.withUnsafeBytes { value in
                guard let (username, password) = UserinfoLayerDecoder.credentials(in: value) else { return }
                opened += 1
                #expect(username.lowerBound == 8 && value[username.upperBound] == UInt8(ascii: ":"))
                #expect(password.lowerBound == username.upperBound + 1 && !password.isEmpty)
                #expect(password.upperBound < value.count && value[password.upperBound] == UInt8(ascii: "@"))
                // Past the RFC 3986 authority only where a host follows (within it, any host).
                if value[password].contains(where: UserinfoLayerDecoder.isPathStart) {
                    extended += 1
                    let end = UserinfoLayerDecoder.hostPortListEnd(value, from: password.upperBound + 1)
                    #expect(end.map { $0 == value.count || UserinfoLayerDecoder.isPathStart(value[$0]) } == true)
                }
                #expect(LayerTesting.pairs(decoder, String(decoding: Array(value), as: UTF8.self)) != nil)
            }
        }
        #expect(opened > 100)
        #expect(extended > 10, "\(extended) of \(opened) with a raw `/`, `?` or `#`")
    }

    @Test func theRangesCoverExactlyTheCredentials() {
        let url = "https://jonas:Kz8!tq#x@nas.local:5006/share?to=ops@habiter.app"
        let parts = Array(url.utf8).withUnsafeBytes { UserinfoLayerDecoder.credentials(in: $0) }
        let bytes = Array(url.utf8)
        #expect(parts.map { String(decoding: bytes[$0.username], as: UTF8.self) } == "jonas")
        #expect(parts.map { String(decoding: bytes[$0.password], as: UTF8.self) } == "Kz8!tq#x")
    }
}
