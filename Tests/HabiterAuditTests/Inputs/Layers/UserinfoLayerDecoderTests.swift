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
}
