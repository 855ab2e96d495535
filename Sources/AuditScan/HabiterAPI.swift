import AuditInputs

/// The calls of Habiter's Personal Sync API as a capture shows them, and the sign-in material
/// they carry (`shared/APP-FORMATS.md`, section 2). The app calls the user's origin directly,
/// `https://host/v1/push` and so on, with no `/sync/` segment; a self-hosted origin may put a
/// prefix before `/v1/`, so calls are recognised by the end of their path (query and fragment
/// aside). A call to a path the app does not use can still show the sign-in by its body, whose
/// keys the server fixes (it refuses any other key).
enum HabiterAPI {
    /// What a call of the API carries, by the path it goes to.
    enum Route: Equatable {
        /// `/v1/push`, `/v1/pull`, `/v1/snapshot`: sync data, judged in `sync` context.
        case sync
        /// `/v1/token`, `/v1/refresh`, `/v1/authorize`: the sign-in. What its messages carry
        /// (verifier, proof, login challenge, tokens) is material the protocol needs: `transport`.
        case signIn
        /// `/v1/device`, `/v1/revoke`, `/v1/instance-info`, `/v1/capabilities`, `/v1/health`:
        /// protocol metadata, neither sync data nor credentials (its `Authorization` header aside).
        case metadata
    }

    private static let routes: [(suffix: [UInt8], route: Route)] = ([
        ("/v1/push", .sync), ("/v1/pull", .sync), ("/v1/snapshot", .sync),
        ("/v1/token", .signIn), ("/v1/refresh", .signIn), ("/v1/authorize", .signIn),
        ("/v1/device", .metadata), ("/v1/revoke", .metadata), ("/v1/instance-info", .metadata),
        ("/v1/capabilities", .metadata), ("/v1/health", .metadata),
    ] as [(String, Route)]).map { (Array($0.0.utf8), $0.1) }

    /// The route of a request path as `HTTPExchange.path(ofURL:)` gives it (lowercased, without
    /// scheme, host, query or fragment), if it is one of the app's.
    static func route(ofPath path: String) -> Route? {
        var path = path
        return path.withUTF8 { bytes in
            guard bytes.count >= 8 else { return nil }
            for (suffix, route) in routes where bytes.count >= suffix.count {
                if bytes[(bytes.count - suffix.count)...].elementsEqual(suffix) { return route }
            }
            return nil
        }
    }

    // MARK: Bodies

    /// A quoted key as it stands in a JSON body (`"grantType"`) and in a HAR string that holds
    /// the body (`\"grantType\"`).
    private struct Key {
        let plain: [UInt8]
        let escaped: [UInt8]

        init(_ name: String) {
            plain = Array("\"\(name)\"".utf8)
            escaped = Array("\\\"\(name)\\\"".utf8)
        }

        func occurs(in body: UnsafeRawBufferPointer, escapedJSON: Bool) -> Bool {
            (escapedJSON ? escaped : plain).withUnsafeBytes { body.containsBytes($0) }
        }
    }

    private static let grantType = Key("grantType"), codeVerifier = Key("codeVerifier"), refreshToken = Key("refreshToken")
    private static let challengeId = Key("challengeId"), proof = Key("proof"), action = Key("action"), attempt = Key("attempt")
    private static let csrf = Key("csrf"), tokenType = Key("tokenType"), accessToken = Key("accessToken"), salt = Key("salt")
    private static let iterations = Key("iterations")

    /// Whether a request body is one of the sign-in's: a code redemption (`grantType`,
    /// `codeVerifier`) or refresh (`grantType`, `refreshToken`), a login begin (`action`,
    /// `attempt`, `csrf`) or complete (`challengeId`, `proof`), or the authorization response
    /// the desktop loopback page posts as text (`code=…&state=…`). `escapedJSON`: the body as a
    /// HAR string holds it, its quotes escaped.
    static func isSignInRequest(_ body: UnsafeRawBufferPointer, escapedJSON: Bool) -> Bool {
        if grantType.occurs(in: body, escapedJSON: escapedJSON) {
            return codeVerifier.occurs(in: body, escapedJSON: escapedJSON) || refreshToken.occurs(in: body, escapedJSON: escapedJSON)
        }
        if challengeId.occurs(in: body, escapedJSON: escapedJSON) && proof.occurs(in: body, escapedJSON: escapedJSON) { return true }
        if attempt.occurs(in: body, escapedJSON: escapedJSON) && csrf.occurs(in: body, escapedJSON: escapedJSON)
            && action.occurs(in: body, escapedJSON: escapedJSON) {
            return true
        }
        return isAuthorizationResponseText(body)
    }

    /// Whether a response body is one of the sign-in's: a token pair (`tokenType`,
    /// `accessToken`) or a login challenge (`challengeId`, `salt`, `iterations`).
    static func isSignInResponse(_ body: UnsafeRawBufferPointer, escapedJSON: Bool) -> Bool {
        if tokenType.occurs(in: body, escapedJSON: escapedJSON) && accessToken.occurs(in: body, escapedJSON: escapedJSON) { return true }
        return challengeId.occurs(in: body, escapedJSON: escapedJSON) && salt.occurs(in: body, escapedJSON: escapedJSON)
            && iterations.occurs(in: body, escapedJSON: escapedJSON)
    }

    // MARK: Authorization responses

    /// Whether the named values are an OAuth authorization response: one `state` with one
    /// non-empty `code` (the authorization code flow, Habiter's callback fragment holds exactly
    /// these two), or with an `access_token` or `id_token` (the implicit flow).
    static func isAuthorizationResponse(_ pairs: PairList.Pairs) -> Bool {
        var codes = 0, states = 0, tokens = 0
        // Names only, the values not decoded. A decoded name starts with its first raw byte
        // unless that is `%` (an escape) or `+` (a space): only a name whose raw first byte is
        // `c`, `s`, `a`, `i` or `%` can be one of the four, and only such a name is decoded.
        var iterator = pairs.makeIterator()
        while let (decoded, valueIsEmpty) = iterator.nextName(decodingOnlyIf: mayStartResponseName) {
            guard let name = decoded else { continue }
            if name == codeName {
                codes += valueIsEmpty ? 2 : 1
            } else if name == stateName {
                states += 1
            } else if name == accessTokenName || name == idTokenName {
                tokens += 1
            }
        }
        return states == 1 && (codes == 1 || (codes == 0 && tokens > 0))
    }

    private static func mayStartResponseName(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "c") || byte == UInt8(ascii: "s") || byte == UInt8(ascii: "a") || byte == UInt8(ascii: "i") || byte == UInt8(ascii: "%")
    }

    static let codeName = Array("code".utf8), stateName = Array("state".utf8)
    private static let accessTokenName = Array("access_token".utf8), idTokenName = Array("id_token".utf8)

    /// Whether a text is an authorization response written as a form (`code=…&state=…`, the
    /// body of the desktop loopback POST, or an OAuth `form_post`).
    static func isAuthorizationResponseText(_ text: UnsafeRawBufferPointer) -> Bool {
        guard text.count >= 12, text.count <= 4096, let form = FormLayerDecoder().decode(text),
              case .pairs(let pairs) = form.content else { return false }
        return isAuthorizationResponse(pairs.pairs(in: text))
    }

    /// Whether a URL's fragment is an authorization response (`…/callback#code=…&state=…`).
    static func hasAuthorizationResponseFragment(_ url: UnsafeRawBufferPointer) -> Bool {
        guard let layer = FragmentLayerDecoder().decode(url), case .pairs(let pairs) = layer.content else { return false }
        return isAuthorizationResponse(pairs.pairs(in: url))
    }

    /// The layers whose pairs can be an authorization response.
    static let authorizationResponseLayers: Set<String> = ["fragment", "form"]
}
