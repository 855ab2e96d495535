#!/usr/bin/env python3
"""Deterministic generator of large, realistic habiter-audit inputs, and of adversarial ones.

Usage: generate.py KIND SIZE_MB OUTPUT [--seed N]

Realistic kinds:
  json      a 2-space indented push body of entity documents
  compact   the same on one line
  ndjson    one push operation per line
  har       a browser-style HAR capture of sync calls: request bodies are JSON held in a JSON
            string, every other response body is base64 of JSON (`"encoding": "base64"`), the rest
            JSON in a string; `Authorization: Bearer` headers; a WebSocket frame every 50 entries
  har-browser
            the same capture with a browser's headers besides the app's: 16 more request headers
            (sec-ch-ua, accept-language, a user agent …) and 12 more response headers (alt-svc,
            cf-ray, strict-transport-security …) an entry, as a Chrome export carries 20 to 40
            where `har` has 6 (not in the throughput section; `bench/compare.py` takes it)
  prefs     an Android FlutterSharedPreferences.xml export with every Flutter encoding
  http      raw HTTP/1.1 exchanges of the same sync calls as `har` (a proxy's save): push requests
            with Content-Length, JSON responses, every fourth one chunked (the baseline of the raw
            HTTP adversarial kinds; not in the throughput section)
About one document in 20,000 carries a planted, fake secret (a GitHub token in a description, an
API key in a payload, a password in a note that holds JSON), so every 100 MB run has findings.

Adversarial kinds (JSON; same size as asked, to compare with `json` of that size):
  huge-string     one document whose single string value fills the file (prose with JSON escapes;
                  a planted GitHub token in the middle and one near the end)
  many-keys       objects of 1,000,000 short keys each (every key in the file distinct), one per line
                  in a top-level array
  deep-nesting    a top-level array of blocks nested 500 arrays deep (depth 502 with the top array
                  and the innermost object, under the default --max-depth 512); a planted GitHub
                  token in the innermost object of one block in 20,000
  near-miss       indented records whose values almost match the pattern rules: ghp_ + 35 chars,
                  AKIA + 15, sk_live_ too short, xoxb- broken, a BEGIN PRIVATE KEY header with too
                  little key and no END, eyJ that is no JWT, AIza + 34, npm_ + 35, glpat- short,
                  sk-...T3BlbkF, Bearer short, a Slack hook too short, SG. short, a bot token short,
                  a database URL without credentials, password: + 3 chars; none should be a finding
  sensitive-keys  indented records of sensitive names (token, apiKey, password, secret, ...) holding
                  values that are no credential (empty, null, placeholders, booleans, masks)
  large-payloads  a push body of habit creates whose payload's customDays holds 524,000 weekdays:
                  each payload is read whole by the contract checks, just under the 524,288
                  values a captured member may hold
Adversarial kinds of the other formats (each compared with the normal kind of its format, `http`,
`har` or `prefs`, of the same size): units of 1,000,000 items, as many as the size takes (the last
one, or a single one larger than the size, with fewer), every name distinct, short random values:
  many-headers                one raw HTTP request with 1,000,000 headers
  many-cookies                one raw HTTP request whose Cookie header holds 1,000,000 pairs
  many-query-parameters       one raw HTTP request whose target has 1,000,000 query parameters
  many-form-fields            one raw HTTP POST whose form body has 1,000,000 fields
  many-headers-har            a HAR entry with 1,000,000 request headers
  many-cookies-har            a HAR entry with a Cookie header of 1,000,000 pairs and a cookies
                              array of the same 1,000,000
  many-query-parameters-har   a HAR entry whose URL has 1,000,000 query parameters, and its
                              queryString array
  many-form-fields-har        a HAR entry whose postData has a form text of 1,000,000 fields and
                              its params array
  many-attributes             a prefs XML export whose <string> elements carry 1,000,000
                              attributes each
The same arguments always give the same bytes; --seed changes them (bench/run uses it to make the
files of its --jobs directory differ).
"""
import base64
import json
import random
import sys

DEFAULT_SEED = 20261130
BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
TITLES = ["Morning run", "Read 20 pages", "Drink water", "Meditate", "Stretch", "No sugar", "Journal",
          "Practice German", "Walk the dog", "Floss", "Sleep by 23:00", "Call mum", "Piano", "Cold shower"]
DESCRIPTIONS = ["Small steps every day.", "Track it even when it is hard.", "", "Before breakfast, 5 km loop.",
                "Streak goal: 30 days. Übung macht den Meister ✨", "Keep the phone in another room."]
ICONS = ["directions_run", "menu_book", "local_drink", "self_improvement", "fitness_center", "edit_note"]

REALISTIC_KINDS = ("json", "compact", "ndjson", "har", "prefs")
ADVERSARIAL_KINDS = ("huge-string", "many-keys", "deep-nesting", "near-miss", "sensitive-keys",
                     "many-headers", "many-cookies", "many-query-parameters", "many-form-fields",
                     "many-headers-har", "many-cookies-har", "many-query-parameters-har", "many-form-fields-har",
                     "many-attributes", "large-payloads")
EXTENSIONS = {"ndjson": "ndjson", "har": "har", "har-browser": "har", "prefs": "xml", "http": "http"}
# A browser's headers, added to every entry of `har-browser`.
BROWSER_REQUEST_HEADERS = [
    ("accept", "application/json, text/plain, */*"), ("accept-encoding", "gzip, deflate, br, zstd"),
    ("accept-language", "en-GB,en-US;q=0.9,en;q=0.8,de;q=0.7"), ("cache-control", "no-cache"),
    ("origin", "https://app.habiter.app"), ("pragma", "no-cache"), ("priority", "u=1, i"),
    ("referer", "https://app.habiter.app/habits"), ("sec-ch-ua", '"Chromium";v="131", "Not_A Brand";v="24"'),
    ("sec-ch-ua-mobile", "?0"), ("sec-ch-ua-platform", '"Linux"'), ("sec-fetch-dest", "empty"),
    ("sec-fetch-mode", "cors"), ("sec-fetch-site", "same-site"),
    ("user-agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"),
    ("x-request-id", "3f1c9a0e-7b2d-4e8f-9a6b-1c2d3e4f5a6b"),
]
BROWSER_RESPONSE_HEADERS = [
    ("access-control-allow-origin", "https://app.habiter.app"), ("alt-svc", 'h3=":443"; ma=86400'),
    ("cf-cache-status", "DYNAMIC"), ("cf-ray", "8f1e2d3c4b5a6978-FRA"), ("content-encoding", "br"),
    ("date", "Thu, 04 Dec 2026 10:21:33 GMT"), ("server", "cloudflare"),
    ("strict-transport-security", "max-age=31536000; includeSubDomains"), ("vary", "Origin, Accept-Encoding"),
    ("x-content-type-options", "nosniff"), ("x-frame-options", "DENY"),
    ("nel", '{"success_fraction":0,"report_to":"cf-nel","max_age":604800}'),
]
ITEMS_PER_UNIT = 1_000_000


def normal_kind(kind):
    """The realistic kind an adversarial kind is compared with: the same format."""
    if kind.endswith("-har") or kind == "har-browser":
        return "har"
    if kind in ("many-headers", "many-cookies", "many-query-parameters", "many-form-fields"):
        return "http"
    return "prefs" if kind == "many-attributes" else "json"


def extension(kind):
    return EXTENSIONS.get(kind if kind in EXTENSIONS else normal_kind(kind), "json")


def uuid(r):
    h = "%032x" % r.getrandbits(128)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:32]}"


def token(r, n, alphabet=BASE62):
    return "".join(r.choice(alphabet) for _ in range(n))


def habit_document(r, i):
    habit_id = uuid(r)
    # Habit.toMap, in its order (APP-FORMATS.md section 3).
    payload = {
        "id": habit_id, "name": r.choice(TITLES), "description": r.choice(DESCRIPTIONS),
        "color": "#%06X" % r.getrandbits(24), "icon": r.choice(ICONS),
        "frequency": r.choice(["daily", "weekly", "custom"]), "targetCount": r.randint(1, 10),
        "category": r.choice(["health", "mind", "social", "learning"]), "customDays": sorted(r.sample(range(1, 8), 3)),
        "createdAt": "2026-%02d-%02dT%02d:%02d:00.000Z" % (r.randint(1, 11), r.randint(1, 28), r.randint(0, 23), r.randint(0, 59)),
        "isActive": r.random() < 0.8, "notificationEnabled": r.random() < 0.5,
        "notificationTime": "%02d:%02d" % (r.randint(6, 21), r.choice([0, 15, 30, 45])),
        "source": {"kind": "local"},
    }
    if i % 20000 == 7:
        payload["description"] = "export GITHUB_TOKEN=ghp_" + token(r, 36)
    if i % 20000 == 13:
        payload["apiKey"] = "hk_" + token(r, 30)
    if i % 20000 == 17:
        payload["note"] = json.dumps({"password": token(r, 14), "v": 2})
    return {"schemaVersion": 1, "entityId": "habit/" + habit_id, "deleted": False, "payload": payload}


def entry_document(r):
    habit_id = uuid(r)
    day = "2026-%02d-%02d" % (r.randint(1, 11), r.randint(1, 28))
    payload = {"id": uuid(r), "habitId": habit_id, "date": day, "completed": r.random() < 0.7,
               "count": r.randint(0, 5), "timestamp": day + "T07:%02d:00.000Z" % r.randint(0, 59)}
    return {"schemaVersion": 1, "entityId": f"entry/{habit_id}/{day}", "deleted": False, "payload": payload}


# The app's device id: base64url of 18 random bytes (APP-FORMATS.md), here fixed ones. Not
# base64 of readable text, which the app never sends and which opens a layer on every operation.
DEVICE = "YQhsuc4ETSlS-Ej7nXjad6J0"


def operation(r, i):
    """PersonalSyncOperation.toMap: a create listing every payload key."""
    document = habit_document(r, i) if i % 3 == 0 else entry_document(r)
    return {"protocolVersion": 1, "operationId": "operation/%s/%d" % (DEVICE, i + 1), "kind": "create",
            "revision": {"deviceId": DEVICE, "sequence": i + 1}, "document": document,
            "changedFields": sorted(document["payload"]), "changedMetadataFields": []}


def har_entry(r, i, browser=False):
    ops = [operation(r, i * 4 + k) for k in range(4)]
    body = json.dumps({"operations": ops}, separators=(",", ":"))
    pulled = json.dumps({"operations": ops[:2], "cursor": "eyJ2ZXJzaW9uIjoxLCJnZW5lcmF0aW9uIjoxLCJvZmZzZXQiOjJ9", "headOffset": 100 + i,
                         "compactionFloor": 0, "requiresSnapshot": False, "recoveryReason": "none"}, separators=(",", ":"))
    headers = [{"name": "content-type", "value": "application/json"}, {"name": "user-agent", "value": "Habiter/1.8.0 (Android 14)"},
               {"name": "authorization", "value": "Bearer " + token(r, 40)}, {"name": "accept-encoding", "value": "gzip"}]
    entry = {
        "startedDateTime": "2026-11-30T07:%02d:%02d.000Z" % (i // 60 % 60, i % 60), "time": r.randint(20, 400),
        "request": {"method": "POST", "url": "https://sync.habiter.app/v1/push", "httpVersion": "HTTP/2", "headers": headers,
                    "queryString": [], "cookies": [], "headersSize": -1, "bodySize": len(body),
                    "postData": {"mimeType": "application/json", "text": body}},
        "response": {"status": 200, "statusText": "", "httpVersion": "HTTP/2",
                     "headers": [{"name": "content-type", "value": "application/json"}, {"name": "etag", "value": '"%032x"' % r.getrandbits(128)}],
                     "cookies": [], "content": {"size": len(pulled), "mimeType": "application/json",
                                                "text": base64.b64encode(pulled.encode()).decode() if i % 2 else pulled,
                                                **({"encoding": "base64"} if i % 2 else {})},
                     "redirectURL": "", "headersSize": -1, "bodySize": -1},
        "cache": {}, "timings": {"blocked": 1, "dns": -1, "connect": -1, "send": 0, "wait": 50, "receive": 2},
    }
    if browser:
        entry["request"]["headers"] += [{"name": n, "value": v} for n, v in BROWSER_REQUEST_HEADERS]
        entry["response"]["headers"] += [{"name": n, "value": v} for n, v in BROWSER_RESPONSE_HEADERS]
    if i % 50 == 3:
        entry["_resourceType"] = "websocket"
        entry["_webSocketMessages"] = [{"type": "send", "time": 1764486000.5, "opcode": 1, "data": json.dumps({"type": "ping", "n": i})}]
    return entry


def prefs_entries(r, i):
    habits = [habit_document(r, i * 3 + k)["payload"] for k in range(3)]
    text = json.dumps(habits, separators=(",", ":"))
    esc = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    items = [f'    <string name="flutter.habiter_habits_{i}">{esc}</string>',
             f'    <boolean name="flutter.habiter_onboarding_done_{i}" value="true" />',
             f'    <long name="flutter.habiter_habit_state_revision_{i}" value="{r.randint(1, 10**9)}" />',
             f'    <string name="flutter.settings_theme_{i}">dark</string>',
             '    <string name="flutter.recent_{}">VGhpcyBpcyB0aGUgcHJlZml4IGZvciBhIGxpc3Qu![&quot;{}&quot;,&quot;{}&quot;]</string>'.format(i, uuid(r), uuid(r)),
             f'    <string name="flutter.calibration_weight_{i}">VGhpcyBpcyB0aGUgcHJlZml4IGZvciBEb3VibGUu{r.random():.6f}</string>']
    return items


# --- realistic kinds ------------------------------------------------------------------------------

def write_har(f, r, target, browser=False):
    head = '{\n  "log": {\n    "version": "1.2",\n    "creator": {"name": "WebInspector", "version": "537.36"},\n    "pages": [],\n    "entries": ['
    f.write(head)
    written, i = len(head), 0
    while written < target:
        chunk = ("," if i else "") + "\n      " + json.dumps(har_entry(r, i, browser), ensure_ascii=False)
        f.write(chunk)
        written += len(chunk.encode())
        i += 1
    f.write("\n    ]\n  }\n}\n")


def write_prefs(f, r, target):
    head = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n"
    f.write(head)
    written, i = len(head), 0
    while written < target:
        chunk = "\n".join(prefs_entries(r, i)) + "\n"
        f.write(chunk)
        written += len(chunk.encode())
        i += 1
    f.write("</map>\n")


def write_ndjson(f, r, target):
    written, i = 0, 0
    while written < target:
        line = json.dumps(operation(r, i), ensure_ascii=False, separators=(",", ":")) + "\n"
        f.write(line)
        written += len(line.encode())
        i += 1


def write_push_body(f, r, target, indent):
    separators = (",", ": ") if indent else (",", ":")
    head = '{\n  "operations": [' if indent else '{"operations":['
    f.write(head)
    written, i = len(head), 0
    while written < target:
        text = json.dumps(operation(r, i), ensure_ascii=False, indent=indent, separators=separators)
        if indent:
            text = "\n" + "\n".join("    " + line for line in text.split("\n"))
        chunk = ("," if i else "") + text
        f.write(chunk)
        written += len(chunk.encode())
        i += 1
    f.write("\n  ]\n}\n" if indent else "]}")


def write_http(f, r, target):
    """The `har` kind's calls as a proxy saves them: request and response, CRLF line ends."""
    written, i = 0, 0
    while written < target:
        entry = har_entry(r, i)
        request = entry["request"]
        body = request["postData"]["text"]
        head = ["POST /v1/push HTTP/1.1", "Host: sync.habiter.app"] + [f"{h['name']}: {h['value']}" for h in request["headers"]]
        content = entry["response"]["content"]
        pulled = base64.b64decode(content["text"]).decode() if content.get("encoding") == "base64" else content["text"]
        response = ["HTTP/1.1 200 OK"] + [f"{h['name']}: {h['value']}" for h in entry["response"]["headers"]]
        if i % 4 == 3:
            middle = len(pulled) // 2
            chunks = [pulled[:middle], pulled[middle:]]
            framed = "".join(f"{len(c.encode()):x}\r\n{c}\r\n" for c in chunks) + "0\r\n\r\n"
            response.append("Transfer-Encoding: chunked")
        else:
            framed = pulled
            response.append(f"Content-Length: {len(pulled.encode())}")
        text = ("\r\n".join(head + [f"Content-Length: {len(body.encode())}", "", body]) + "\r\n".join(response + ["", framed])
                + ("" if i % 4 == 3 else "\r\n"))
        f.write(text)
        written += len(text.encode())
        i += 1


# --- adversarial kinds ----------------------------------------------------------------------------

WORDS = ("the habit streak was kept for days and the app synced every entry to the server while the "
         "phone stayed offline for a week then came back with a backlog of pushes Übung macht den "
         "Meister café naïve résumé ✨ 🚀 note remember to stretch before the morning run").split()
ESCAPES = ["\\n", "\\t", "\\\"", "\\\\", "\\u00fc", "\\u2728", "\\/"]


def write_huge_string(f, r, target):
    head = '{"protocolVersion": 1, "deviceId": "device-bench", "description": "'
    tail = '"}\n'
    f.write(head)
    written = len(head.encode())
    plants = [target // 2, target - 200_000]
    planted = 0
    while written < target - len(tail):
        # ~64 KiB of prose at a time: words, punctuation and JSON escapes (never a bare quote or
        # backslash), so the file stays one valid document; the last chunk may overshoot by < 64 KiB.
        parts = []
        for word in r.choices(WORDS, k=9000):
            parts.append(word)
            roll = r.random()
            parts.append(r.choice(ESCAPES) if roll < 0.03 else (". " if roll < 0.1 else " "))
        chunk = "".join(parts)
        if planted < len(plants) and written >= plants[planted]:
            chunk += " export GITHUB_TOKEN=ghp_" + token(r, 36) + " "
            planted += 1
        f.write(chunk)
        written += len(chunk.encode())
    f.write(tail)


def base36(n):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, d = divmod(n, 36)
        out = digits[d] + out
        if n == 0:
            return out


def write_many_keys(f, r, target, keys_per_object=1_000_000):
    f.write("[")
    written, n, first_object = 1, 0, True
    while written < target:
        f.write("\n" if first_object else ",\n")
        f.write("{")
        written += 2
        parts = []
        for k in range(keys_per_object):
            if written >= target:
                break
            value = r.choice(("0", "1", "true", "null", '"v"', '"on"', "42"))
            pair = f'"k{base36(n)}":{value}'
            parts.append(pair)
            written += len(pair) + 1
            n += 1
            if len(parts) >= 10000:
                f.write(",".join(parts) + ",")
                parts = []
        f.write(",".join(parts) + ',"end":0}' if parts else '"end":0}')
        written += 8
        first_object = False
    f.write("\n]\n")


def write_large_payloads(f, r, target, values=524_000):
    f.write('{"operations":[')
    written, i = 15, 0
    while written < target:
        op = operation(r, 3 * i)  # a habit's create
        op["document"]["payload"]["customDays"] = [r.randint(1, 7) for _ in range(values)]
        chunk = ("," if i else "") + json.dumps(op, ensure_ascii=False, separators=(",", ":"))
        f.write(chunk)
        written += len(chunk)
        i += 1
    f.write("]}")


def write_deep_nesting(f, r, target, depth=500):
    f.write("[")
    written, i = 1, 0
    while written < target:
        secret = ("ghp_" + token(r, 36)) if i % 20000 == 9999 else ("x" + token(r, 8))
        block = ("\n" if i == 0 else ",\n") + "[" * depth + '{"note":"' + secret + '","n":' + str(i) + "}" + "]" * depth
        f.write(block)
        written += len(block)
        i += 1
    f.write("\n]\n")


def near_miss_values(r):
    return {
        "github": "ghp_" + token(r, 35),
        "aws": "AKIA" + token(r, 15, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"),
        "stripe": "sk_live_" + token(r, 12),
        "slack": "xoxb-" + token(r, 7, "0123456789") + "-" + token(r, 5),
        "pem": "-----BEGIN RSA PRIVATE KEY-----\n" + token(r, 30) + "\n...",
        "jwtish": "eyJ" + token(r, 24) + "." + token(r, 12) + "-notajwt",
        "google": "AIza" + token(r, 34),
        "npm": "npm_" + token(r, 35),
        "gitlab": "glpat-" + token(r, 12),
        "openai": "sk-" + token(r, 20) + "T3BlbkF",
        "bearer": "Bearer " + token(r, 10),
        "hook": "https://hooks.slack.com/services/T" + token(r, 4, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") + "/B12/x",
        "sendgrid": "SG." + token(r, 22) + "." + token(r, 20),
        "telegram": token(r, 7, "0123456789") + ":AA" + token(r, 20),
        "database": "postgres://db.internal:5432/habits",
        "prose": "the password: " + token(r, 3) + " was too short, see ghp_" + token(r, 20) + " and AKIA" + token(r, 10, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"),
    }


def write_records(f, r, target, make):
    head = '{\n  "protocolVersion": 1,\n  "deviceId": "device-bench",\n  "records": ['
    f.write(head)
    written, i = len(head), 0
    while written < target:
        text = json.dumps(make(r, i), ensure_ascii=False, indent=2)
        chunk = ("," if i else "") + "\n" + "\n".join("    " + line for line in text.split("\n"))
        f.write(chunk)
        written += len(chunk.encode())
        i += 1
    f.write("\n  ]\n}\n")


def near_miss_record(r, i):
    return {"id": uuid(r), "n": i, "values": near_miss_values(r)}


SENSITIVE_NAMES = ["token", "apiKey", "api_key", "password", "passwd", "secret", "clientSecret", "accessToken",
                   "refreshToken", "id_token", "authorization", "auth", "sessionId", "privateKey", "credentials",
                   "x-api-key", "code_verifier", "secretKey", "bearer", "pin"]
NON_CREDIBLE = ["", "null", "none", "n/a", "<redacted>", "REDACTED", "***", "********", "xxxxxxxx", "${API_KEY}",
                "{{token}}", "your-api-key-here", "changeme", "example", "test", "true", "false", "0", "-", "TODO"]
NON_STRING = [None, False, True, 0, 1, [], {}]


def sensitive_record(r, i):
    values = {}
    for name in SENSITIVE_NAMES:
        roll = r.random()
        values[name] = r.choice(NON_STRING) if roll < 0.25 else r.choice(NON_CREDIBLE)
    return {"id": uuid(r), "n": i, "settings": values}


def many_values(r, prefix, count, start):
    """`count` distinct names (`prefix` and a base-36 number) with 8 random hex digits each."""
    return [(f"{prefix}{base36(start + k)}", "%08x" % r.getrandbits(32)) for k in range(count)]


def write_units(f, target, unit):
    """Units of ITEMS_PER_UNIT items until the target size; the last one has as many items as
    the rest of the size takes, at the bytes per item the first unit had."""
    written, n, item_bytes = 0, 0, None
    while written < target:
        count = ITEMS_PER_UNIT if item_bytes is None else min(ITEMS_PER_UNIT, max(1, int((target - written) / item_bytes)))
        text = unit(n, count)
        if item_bytes is None and len(text) > target:
            # A unit larger than the whole size: as many items as fit.
            item_bytes = len(text) / count
            continue
        f.write(text)
        written += len(text.encode())
        item_bytes = item_bytes or len(text) / count
        n += ITEMS_PER_UNIT


def http_unit(r, kind):
    def unit(n, count):
        pairs = many_values(r, {"many-headers": "x-trace-", "many-cookies": "c", "many-query-parameters": "p",
                                "many-form-fields": "f"}[kind], count, n)
        if kind == "many-headers":
            return "GET /v1/pull HTTP/1.1\r\nHost: sync.habiter.app\r\n" + "".join(f"{k}: {v}\r\n" for k, v in pairs) + "\r\n"
        joined = "&".join(f"{k}={v}" for k, v in pairs)
        if kind == "many-cookies":
            return "GET /v1/pull HTTP/1.1\r\nHost: sync.habiter.app\r\nCookie: " + "; ".join(f"{k}={v}" for k, v in pairs) + "\r\n\r\n"
        if kind == "many-query-parameters":
            return f"GET /v1/pull?{joined} HTTP/1.1\r\nHost: sync.habiter.app\r\n\r\n"
        return ("POST /v1/feedback HTTP/1.1\r\nHost: api.habiter.app\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                f"Content-Length: {len(joined)}\r\n\r\n{joined}\r\n")
    return unit


def write_har_units(f, r, target, kind):
    head = '{"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": ['
    f.write(head)

    def unit(n, count):
        pairs = many_values(r, {"many-headers-har": "x-trace-", "many-cookies-har": "c", "many-query-parameters-har": "p",
                                "many-form-fields-har": "f"}[kind], count, n)
        fields = [{"name": k, "value": v} for k, v in pairs]
        request = {"method": "GET", "url": "https://sync.habiter.app/v1/pull", "httpVersion": "HTTP/1.1",
                   "headers": [{"name": "host", "value": "sync.habiter.app"}], "queryString": [], "cookies": [],
                   "headersSize": -1, "bodySize": 0}
        if kind == "many-headers-har":
            request["headers"] += fields
        elif kind == "many-cookies-har":
            request["headers"].append({"name": "Cookie", "value": "; ".join(f"{k}={v}" for k, v in pairs)})
            request["cookies"] = fields
        elif kind == "many-query-parameters-har":
            request["url"] += "?" + "&".join(f"{k}={v}" for k, v in pairs)
            request["queryString"] = fields
        else:
            request.update(method="POST", url="https://api.habiter.app/v1/feedback",
                           postData={"mimeType": "application/x-www-form-urlencoded",
                                     "text": "&".join(f"{k}={v}" for k, v in pairs), "params": fields})
        entry = {"startedDateTime": "2026-11-30T07:00:00.000Z", "time": 42, "request": request,
                 "response": {"status": 204, "statusText": "No Content", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [],
                              "content": {"size": 0, "mimeType": "text/plain", "text": ""}, "redirectURL": "",
                              "headersSize": -1, "bodySize": 0},
                 "cache": {}, "timings": {"send": 0, "wait": 40, "receive": 2}}
        return ("," if n else "") + "\n" + json.dumps(entry, separators=(",", ":"))

    write_units(f, target - len(head), unit)
    f.write("\n]}}\n")


def write_many_attributes(f, r, target):
    head = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n"
    f.write(head)

    def unit(n, count):
        attributes = " ".join(f'{k}="{v}"' for k, v in many_values(r, "a", count, n))
        return f'    <string name="flutter.settings_theme_{n}" {attributes}>dark</string>\n'

    write_units(f, target - len(head), unit)
    f.write("</map>\n")


def generate(kind, size_mb, output, seed=DEFAULT_SEED):
    target = int(size_mb * 1024 * 1024)
    r = random.Random(seed)
    writers = {
        "json": lambda f: write_push_body(f, r, target, 2),
        "compact": lambda f: write_push_body(f, r, target, None),
        "ndjson": lambda f: write_ndjson(f, r, target),
        "har": lambda f: write_har(f, r, target),
        "har-browser": lambda f: write_har(f, r, target, browser=True),
        "prefs": lambda f: write_prefs(f, r, target),
        "http": lambda f: write_http(f, r, target),
        "huge-string": lambda f: write_huge_string(f, r, target),
        "many-keys": lambda f: write_many_keys(f, r, target),
        "deep-nesting": lambda f: write_deep_nesting(f, r, target),
        "large-payloads": lambda f: write_large_payloads(f, r, target),
        "near-miss": lambda f: write_records(f, r, target, near_miss_record),
        "sensitive-keys": lambda f: write_records(f, r, target, sensitive_record),
        "many-attributes": lambda f: write_many_attributes(f, r, target),
    }
    for adversarial in ("many-headers", "many-cookies", "many-query-parameters", "many-form-fields"):
        writers[adversarial] = lambda f, unit=http_unit(r, adversarial): write_units(f, target, unit)
        writers[adversarial + "-har"] = lambda f, k=adversarial + "-har": write_har_units(f, r, target, k)
    if kind not in writers:
        raise SystemExit(f"generate.py: unknown kind {kind!r}; kinds: {', '.join(writers)}")
    with open(output, "w", encoding="utf-8") as f:
        writers[kind](f)


def main():
    args = sys.argv[1:]
    seed = DEFAULT_SEED
    if "--seed" in args:
        at = args.index("--seed")
        seed = int(args[at + 1])
        del args[at:at + 2]
    if len(args) != 3:
        raise SystemExit(__doc__.split("\n\n")[1])
    kind, size_mb, output = args[0], float(args[1]), args[2]
    generate(kind, size_mb, output, seed)


if __name__ == "__main__":
    main()
