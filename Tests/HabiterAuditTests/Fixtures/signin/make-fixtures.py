#!/usr/bin/env python3
"""Writes the sign-in and sync HAR fixtures of this directory, deterministically.

The captures follow what the real app and its server write (marius4lui/habiter):
the client `personal_sync_api_client.dart` @ 30b1c021 (routes under the origin, camelCase
token bodies, `accept`/`content-type`/`authorization` headers, package:http adding
`charset=utf-8`), the connection controller @ 0bbcacb2 (verifier of 64 random bytes, state of
32, attempt and device ids of 18, all unpadded base64url; the authorize URL's snake_case query),
the handoff @ 30b1c021 (redirect URIs, the desktop loopback `/callback` page that POSTs the
fragment as text/plain to `/complete`), sync-http @ 558dfd2a (routes, `POST /v1/authorize`
begin and complete bodies, JSON responses with `charset=utf-8` and its security headers) and
sync-auth @ aa41b7c4 (challenge of 32 random bytes, 16-byte salt, 600000 iterations, the HMAC
proof over the login message, codes and refresh tokens of 32 bytes, the token pair's key order,
`v1.<claims>.<HMAC-SHA256>` access tokens with their claims in order).

Every value is fake: drawn from a seeded generator, tokens signed with a made-up instance key,
the proof derived from a made-up password. The HTML pages are short stand-ins written here,
not the server's pages.

Run from anywhere: `python3 make-fixtures.py` rewrites the .har files beside it.
"""

import base64
import hashlib
import hmac
import json
import os
import random
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
ORIGIN = "https://sync.example.org"
DESKTOP_REDIRECT = "http://localhost:43823/callback"
AUDIENCE = "habiter-mobile"
USERNAME = "mia.k"
FAKE_PASSWORD = "not a real password, fixture only"
FAKE_INSTANCE_KEY = bytes(range(32))

rng = random.Random(20261201)


def random_bytes(n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def token(n):
    return b64url(random_bytes(n))


def compact(value):
    """JSON as JSON.stringify and Dart's jsonEncode write it: no blanks."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def iso(moment):
    """`Date.toISOString()`: milliseconds and `Z`."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


START = datetime(2026, 12, 1, 9, 30, 0, 0, tzinfo=timezone.utc)

# The app's pending authorization (connection controller).
device_id = token(18)
attempt_id = token(18)
state = token(32)
verifier = token(64)
challenge = b64url(hashlib.sha256(verifier.encode("ascii")).digest())

# The server's login challenge and the browser's proof (sync-auth, the login page's script).
challenge_id = token(32)
salt_bytes = random_bytes(16)
salt = b64url(salt_bytes)
iterations = 600000
password_key = hashlib.pbkdf2_hmac("sha256", FAKE_PASSWORD.encode(), salt_bytes, iterations, 32)
login_message = compact({
    "version": 1, "purpose": "habiter-login", "challengeId": challenge_id, "username": USERNAME,
    "codeChallenge": challenge, "state": state, "redirectUri": DESKTOP_REDIRECT, "attemptId": attempt_id,
    "deviceId": device_id,
})
proof = b64url(hmac.new(password_key, login_message.encode(), hashlib.sha256).digest())
code = token(32)

TOKEN_KEY = hmac.new(FAKE_INSTANCE_KEY, b"habiter-access-token-signing:v1", hashlib.sha256).digest()


def access_token(issued):
    issued_at = int(issued.timestamp())
    claims = {
        "version": 1, "issuer": ORIGIN, "audience": AUDIENCE, "subject": USERNAME, "deviceId": device_id,
        "passwordVersion": 1, "issuedAt": issued_at, "expiresAt": issued_at + 300, "tokenId": token(16),
    }
    unsigned = "v1." + b64url(compact(claims).encode())
    return unsigned + "." + b64url(hmac.new(TOKEN_KEY, unsigned.encode(), hashlib.sha256).digest()), issued_at + 300


def token_pair(issued, refresh_expires):
    access, expires_at = access_token(issued)
    # `{...accessPair, refreshToken, refreshExpiresAt}`: the access pair's keys first.
    return {
        "tokenType": "Bearer", "accessToken": access, "expiresIn": 300, "deviceId": device_id,
        "refreshToken": token(32), "refreshExpiresAt": iso(refresh_expires),
    }, expires_at


SERVER_HEADERS = [
    ("content-type", "application/json; charset=utf-8"),
    ("cache-control", "no-store"),
    ("content-security-policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"),
    ("cross-origin-embedder-policy", "require-corp"),
    ("cross-origin-opener-policy", "same-origin"),
    ("cross-origin-resource-policy", "same-origin"),
    ("permissions-policy", "camera=(), geolocation=(), microphone=(), payment=(), usb=()"),
    ("referrer-policy", "no-referrer"),
    ("strict-transport-security", "max-age=31536000; includeSubDomains"),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
]

clock = [START]


def headers(pairs):
    return [{"name": n, "value": v} for n, v in pairs]


def query_list(url):
    if "?" not in url:
        return []
    query = url.split("?", 1)[1].split("#", 1)[0]
    out = []
    for part in query.split("&"):
        name, _, value = part.partition("=")
        out.append({"name": name, "value": value})
    return out


def entry(method, url, request_headers, response_status, response_headers, response_text, response_mime,
          post=None, post_mime=None, resource="fetch", http_version="HTTP/1.1", status_text="OK"):
    started = clock[0]
    clock[0] = started + timedelta(milliseconds=rng.randint(120, 900))
    request = {
        "method": method, "url": url, "httpVersion": http_version, "headers": headers(request_headers),
        "queryString": query_list(url), "cookies": [], "headersSize": -1,
        "bodySize": len(post.encode()) if post is not None else 0,
    }
    if post is not None:
        request["postData"] = {"mimeType": post_mime, "text": post}
    content = {"size": len(response_text.encode()) if response_text else 0, "mimeType": response_mime}
    if response_text:
        content["text"] = response_text
    response = {
        "status": response_status, "statusText": status_text, "httpVersion": http_version,
        "headers": headers(response_headers + [("x-request-id", token(16))] if response_headers else []),
        "cookies": [], "content": content, "redirectURL": "", "headersSize": -1, "bodySize": -1,
        "_transferSize": (len(response_text.encode()) if response_text else 0) + 420, "_error": None,
    }
    return {
        "_initiator": {"type": "script" if resource == "fetch" else "other"},
        "_priority": "High", "_resourceType": resource, "cache": {},
        "connection": str(rng.randint(20000, 60000)),
        "request": request, "response": response,
        "serverIPAddress": "127.0.0.1" if "localhost" in url else "203.0.113.24",
        "startedDateTime": iso(started), "time": round(rng.uniform(20, 300), 3),
        "timings": {"blocked": 1.2, "dns": -1, "ssl": -1, "connect": -1, "send": 0.1, "wait": 40.5, "receive": 0.8,
                    "_blocked_queueing": 0.6},
    }


def dart_headers(host, access=None, body=False):
    pairs = [("user-agent", "Dart/3.5 (dart:io)"), ("accept", "application/json"), ("accept-encoding", "gzip"),
             ("host", host)]
    if body:
        pairs.insert(2, ("content-type", "application/json; charset=utf-8"))
    if access is not None:
        pairs.append(("authorization", "Bearer " + access))
    return pairs


def app_call(method, path, body=None, access=None, response=None, status=200, query=""):
    url = ORIGIN + path + query
    post = compact(body) if body is not None else None
    return entry(method, url, dart_headers("sync.example.org", access, body is not None), status, SERVER_HEADERS,
                 compact(response), "application/json", post=post, post_mime="application/json" if post else None)


CHROME_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"


def browser_headers(method, authority, path, extra):
    return [(":authority", authority), (":method", method), (":path", path), (":scheme", "https"),
            ("accept-language", "en-GB,en;q=0.9"), ("user-agent", CHROME_UA)] + extra


def har(entries, comment):
    return {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"},
                    "pages": [], "entries": entries, "comment": comment}}


def write(name, document):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as out:
        json.dump(document, out, indent=2, ensure_ascii=False)
        out.write("\n")


def encode_query(value):
    """Dart's `Uri.replace(queryParameters:)`: unreserved characters stay, the rest percent-encoded."""
    safe = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    return "".join(c if c in safe else "%{:02X}".format(ord(c)) for c in value)


# --- The desktop sign-in -------------------------------------------------------------------------

LOGIN_PAGE = (
    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Connect to Habiter</title></head>"
    "<body><main><h1>Connect to Habiter</h1><form id=\"login\"><label for=\"username\">Username</label>"
    "<input id=\"username\" autocomplete=\"username\" required><label for=\"password\">Password</label>"
    "<input id=\"password\" type=\"password\" autocomplete=\"current-password\" required>"
    "<button type=\"submit\">Sign in securely</button></form></main>"
    "<script nonce=\"" + token(18) + "\">/* stand-in: derives the key in the browser and posts begin, then complete */"
    "</script></body></html>"
)
LANDING_PAGE = (
    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Habiter</title></head>"
    "<body><p id=\"status\">Returning to Habiter</p><script>/* stand-in: posts location.hash to /complete */</script>"
    "</body></html>"
)

authorize_query = "&".join(f"{k}={encode_query(v)}" for k, v in [
    ("response_type", "code"), ("redirect_uri", DESKTOP_REDIRECT), ("code_challenge", challenge), ("state", state),
    ("attempt_id", attempt_id), ("device_id", device_id), ("lang", "en"),
])
authorize_path = "/v1/authorize?" + authorize_query
challenge_expires = START + timedelta(minutes=5, seconds=2)
# The page's attempt: the server's attempt without username, then the typed username appended.
attempt = {"codeChallenge": challenge, "state": state, "redirectUri": DESKTOP_REDIRECT, "attemptId": attempt_id,
           "deviceId": device_id, "username": USERNAME}
signin_pair, signin_access_expiry = token_pair(START + timedelta(seconds=9), START + timedelta(days=30, seconds=9))
fragment = f"code={code}&state={state}"

fetch_headers = [("accept", "*/*"), ("content-type", "application/json"), ("origin", ORIGIN),
                 ("sec-fetch-dest", "empty"), ("sec-fetch-mode", "cors"), ("sec-fetch-site", "same-origin"),
                 ("x-habiter-csrf", state)]
login_html_headers = [("content-type", "text/html; charset=utf-8"), ("content-language", "en"),
                      ("content-security-policy", "default-src 'none'; script-src 'nonce-…'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"),
                      ("cache-control", "no-store"), ("referrer-policy", "no-referrer"), ("x-content-type-options", "nosniff")]

signin = [
    app_call("GET", "/v1/instance-info", response={"protocolVersion": 1, "name": "Mia's Habiter", "baseUrl": ORIGIN,
                                                   "initialized": True}),
    entry("GET", ORIGIN + authorize_path,
          browser_headers("GET", "sync.example.org", authorize_path,
                          [("accept", "text/html,application/xhtml+xml"), ("sec-fetch-dest", "document"),
                           ("sec-fetch-mode", "navigate"), ("sec-fetch-site", "none"), ("upgrade-insecure-requests", "1")]),
          200, login_html_headers, LOGIN_PAGE, "text/html", resource="document", http_version="h2", status_text=""),
    entry("POST", ORIGIN + "/v1/authorize",
          browser_headers("POST", "sync.example.org", "/v1/authorize", fetch_headers),
          200, SERVER_HEADERS, compact({"challengeId": challenge_id, "salt": salt, "iterations": iterations,
                                         "expiresAt": iso(challenge_expires)}), "application/json",
          post=compact({"action": "begin", "csrf": state, "attempt": attempt}), post_mime="application/json",
          http_version="h2", status_text=""),
    entry("POST", ORIGIN + "/v1/authorize",
          browser_headers("POST", "sync.example.org", "/v1/authorize", fetch_headers),
          200, SERVER_HEADERS, compact({"code": code, "state": state, "redirectUri": DESKTOP_REDIRECT}),
          "application/json",
          post=compact({"action": "complete", "csrf": state, "challengeId": challenge_id, "proof": proof}),
          post_mime="application/json", http_version="h2", status_text=""),
    entry("GET", DESKTOP_REDIRECT + "#" + fragment,
          [("Host", "localhost:43823"), ("Connection", "keep-alive"), ("Upgrade-Insecure-Requests", "1"),
           ("User-Agent", CHROME_UA), ("Accept", "text/html,application/xhtml+xml"), ("Sec-Fetch-Site", "cross-site"),
           ("Sec-Fetch-Mode", "navigate"), ("Sec-Fetch-Dest", "document")],
          200, [("content-type", "text/html; charset=utf-8"), ("cache-control", "no-store"),
                ("referrer-policy", "no-referrer"), ("x-content-type-options", "nosniff"),
                ("content-security-policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'")],
          LANDING_PAGE, "text/html", resource="document"),
    entry("POST", "http://localhost:43823/complete",
          [("Host", "localhost:43823"), ("Connection", "keep-alive"), ("Content-Type", "text/plain"),
           ("Origin", "http://localhost:43823"), ("User-Agent", CHROME_UA), ("Accept", "*/*"),
           ("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Mode", "cors"), ("Sec-Fetch-Dest", "empty")],
          204, [("cache-control", "no-store"), ("referrer-policy", "no-referrer"), ("x-content-type-options", "nosniff")],
          "", "text/plain", post=fragment, post_mime="text/plain", status_text="No Content"),
    app_call("POST", "/v1/token", body={"grantType": "authorization_code", "code": code, "codeVerifier": verifier,
                                        "redirectUri": DESKTOP_REDIRECT, "attemptId": attempt_id},
             response=signin_pair),
    app_call("GET", "/v1/device", access=signin_pair["accessToken"],
             response={"deviceId": device_id, "accessExpiresAt": signin_access_expiry}),
]
write("sign-in-desktop.har", har(signin, "Desktop sign-in: instance info, the browser's authorize page, login begin and "
                                          "complete, the loopback callback and its POST, code redemption, device check."))

# --- A sync session ------------------------------------------------------------------------------

HABIT_ID = "4f6c1a2e-8b3d-4e5f-9a7b-2c1d0e9f8a6b"
habit_payload = {
    "id": HABIT_ID, "name": "Walk", "description": None, "color": "#6750A4", "icon": "walk", "frequency": "daily",
    "targetCount": 1, "category": "Health", "customDays": None, "createdAt": "2026-11-30T07:12:00.000Z",
    "isActive": True, "notificationEnabled": False, "notificationTime": None,
}
entry_payload = {"id": "0b7e3c9d-1f2a-4b6c-8d5e-7a9f1c3b2e4d", "habitId": HABIT_ID, "date": "2026-12-01",
                 "completed": True, "count": 1, "timestamp": "2026-12-01T08:05:13.000Z"}


def operation(sequence, entity_id, payload):
    return {
        "protocolVersion": 1, "operationId": f"operation/{device_id}/{sequence}", "kind": "create",
        "revision": {"deviceId": device_id, "sequence": sequence},
        "document": {"schemaVersion": 1, "entityId": entity_id, "deleted": False, "payload": payload},
        "changedFields": sorted(payload), "changedMetadataFields": [],
    }


generation = token(12)


def cursor(offset):
    return b64url(compact({"version": 1, "generation": generation, "offset": offset}).encode())


ops = [operation(1, f"habit/{HABIT_ID}", habit_payload),
       operation(2, f"entry/{HABIT_ID}/2026-12-01", entry_payload)]


def register(value, sequence):
    return {"value": value, "revision": {"deviceId": device_id, "sequence": sequence}}


snapshot = {
    "schemaVersion": 1, "cursor": cursor(2),
    "entities": [
        {"entityId": f"entry/{HABIT_ID}/2026-12-01", "lifecycleRevision": {"deviceId": device_id, "sequence": 2},
         "deleted": False, "payloadFields": {k: register(entry_payload[k], 2) for k in sorted(entry_payload)},
         "metadataFields": {}},
        {"entityId": f"habit/{HABIT_ID}", "lifecycleRevision": {"deviceId": device_id, "sequence": 1},
         "deleted": False, "payloadFields": {k: register(habit_payload[k], 1) for k in sorted(habit_payload)},
         "metadataFields": {}},
    ],
}


def sync_session(with_credentials):
    clock[0] = START + timedelta(minutes=20)
    access, expiry = access_token(clock[0])
    credential = access if with_credentials else None
    calls = [
        app_call("GET", "/v1/capabilities", response={
            "protocolVersion": 1,
            "authentication": {"authorizationCode": True, "pkceMethods": ["S256"], "refreshRotation": True},
            "sync": {"push": True, "pull": True, "snapshotRecovery": True, "maximumPushOperations": 100,
                     "maximumPullOperations": 500}}),
        app_call("GET", "/v1/device", access=credential, response={"deviceId": device_id, "accessExpiresAt": expiry}),
        app_call("POST", "/v1/push", body={"operations": ops}, access=credential, response={"receipts": [
            {"cursor": cursor(1), "offset": 1, "duplicate": False, "changed": True},
            {"cursor": cursor(2), "offset": 2, "duplicate": False, "changed": True}]}),
        app_call("GET", "/v1/pull", access=credential, query="?limit=100", response={
            "operations": ops, "cursor": cursor(2), "headOffset": 2, "compactionFloor": 0,
            "requiresSnapshot": False, "recoveryReason": "none"}),
        app_call("GET", "/v1/pull", access=credential, query=f"?cursor={cursor(2)}&limit=100", response={
            "operations": [], "cursor": cursor(2), "headOffset": 2, "compactionFloor": 0,
            "requiresSnapshot": False, "recoveryReason": "none"}),
        app_call("GET", "/v1/snapshot", access=credential, response=snapshot),
    ]
    if with_credentials:
        refresh_token = signin_pair["refreshToken"]
        pair, _ = token_pair(clock[0], START + timedelta(days=30, seconds=9))
        calls.append(app_call("POST", "/v1/refresh", body={"grantType": "refresh_token", "refreshToken": refresh_token},
                              response=pair))
        calls.append(app_call("POST", "/v1/revoke", body={"scope": "all"}, access=pair["accessToken"],
                              response={"revoked": 1}))
    else:
        calls.append(app_call("POST", "/v1/revoke", body={"scope": "all"}, response={"revoked": 1}))
    return calls


write("sync-session.har", har(sync_session(True), "Sync session through a proxy: capabilities, device check, push, "
                                                  "two pull pages, snapshot, token refresh and revoke."))
write("sync-session-sanitized.har", har(sync_session(False), "The same session exported sanitized (no Authorization "
                                                             "headers) and without the refresh call: clean."))

# Values the tests paste elsewhere (a log, a backup), to show they are secrets there.
write("sign-in-values.json", {
    "$comment": "The sign-in's credentials as a support log might hold them (not a capture of a sign-in call).",
    "entries": [
        {"level": "debug", "message": "login complete", "context": {"challengeId": challenge_id, "proof": proof}},
        {"level": "debug", "message": "redeeming", "context": {"codeVerifier": verifier}},
        {"level": "debug", "message": "connected", "context": {"session": signin_pair["accessToken"]}},
        {"level": "debug", "message": "challenge", "context": {"challengeId": challenge_id, "salt": salt,
                                                               "iterations": iterations}},
        {"level": "info", "message": "callback", "url": "https://mobile.habiter.dev/auth/callback#" + fragment},
    ],
})
