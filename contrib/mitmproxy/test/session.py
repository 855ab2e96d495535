#!/usr/bin/env python3
"""Drives a Personal Sync session through the proxy, then checks what the addon reported.

    session.py drive --proxy URL --server URL --workdir DIR --report FILE
    session.py check --workdir DIR --report FILE --log FILE

`drive` sends, through mitmdump and one at a time, the exchanges listed in EXCHANGES, and after
each one waits until the addon has appended that flow's record to the report (so record i is
exchange i, and each flow is reported while the proxy runs on). The values that must never be
shown (fake tokens, the PKCE verifier, the query's values) go to DIR/secrets.json.
`check` runs after mitmdump has stopped and asserts, for each exchange, the findings the addon
printed and recorded, and that no secret value appears in its output or its report.
Standard library only: urllib with an explicit ProxyHandler, plain HTTP on loopback.
"""

import argparse
import base64
import gzip
import json
import os
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
from sync_server import habit_document, operation  # noqa: E402  (the server's own clean habit)

# label, method, path (the order of the session)
EXCHANGES = [
    ("health", "GET", "/v1/health"),
    ("token", "POST", "/v1/oauth/token"),
    ("push-clean", "POST", "/v1/push"),
    ("push-github-token", "POST", "/v1/push"),
    ("push-api-key", "POST", "/v1/push"),
    ("pull", "GET", "/v1/pull"),
    ("push-killed", "POST", "/v1/push"),
]
RECORD_TIMEOUT = 30.0


def fake_secret(kind: str) -> str:
    return subprocess.run([os.path.join(ROOT, "scripts", "fake-secret"), kind], check=True,
                          capture_output=True, text=True).stdout.strip()


def push_body(document: dict) -> bytes:
    return json.dumps({"operations": [operation(document, 41)]}).encode()


def count_records(report: str) -> int:
    try:
        with open(report, encoding="utf-8") as lines:
            return sum(1 for line in lines if line.strip())
    except FileNotFoundError:
        return 0


def drive(args) -> None:
    # An explicit proxy for every request, loopback included: no_proxy must not bypass it.
    for name in ("no_proxy", "NO_PROXY"):
        os.environ.pop(name, None)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({"http": args.proxy}))
    server = args.server.rstrip("/")
    github_token = fake_secret("github-pat")
    npm_token = fake_secret("npm")
    verifier = b64(secrets.token_bytes(48))
    code = "ac-" + secrets.token_hex(16)
    cursor = "cur-" + secrets.token_hex(12)
    values = {"github_token": github_token, "npm_token": npm_token, "code_verifier": verifier,
              "authorization_code": code, "cursor": cursor}
    state = {}

    def send(method, path, body=None, headers=None, expect=200):
        request = urllib.request.Request(server + path, data=body, method=method, headers=headers or {})
        try:
            with opener.open(request, timeout=20) as response:
                status, data = response.status, response.read()
                if response.headers.get("Content-Encoding") == "gzip":
                    data = gzip.decompress(data)
        except urllib.error.HTTPError as error:
            status, data = error.code, error.read()
        if status != expect:
            sys.exit(f"session: {method} {path.split('?')[0]} answered {status}, expected {expect}")
        return data

    def bearer():
        return {"Authorization": "Bearer " + state["access_token"], "Content-Type": "application/json",
                "Accept-Encoding": "gzip"}

    def leaky_habit(habit_id, **fields):
        document = habit_document(habit_id, "Read")
        document["payload"].update(fields)
        return document

    def exchange(label):
        if label == "health":
            send("GET", "/v1/health")
        elif label == "token":
            form = urllib.parse.urlencode({"grant_type": "authorization_code", "code": code,
                                           "code_verifier": verifier, "client_id": "habiter-android",
                                           "redirect_uri": "app.habiter:/oauth2redirect"}).encode()
            tokens = json.loads(send("POST", "/v1/oauth/token", form,
                                     {"Content-Type": "application/x-www-form-urlencoded"}))
            state["access_token"] = values["access_token"] = tokens["access_token"]
            values["refresh_token"] = tokens["refresh_token"]
        elif label == "push-clean":
            send("POST", "/v1/push", push_body(habit_document("h-walk", "Walk")), bearer())
        elif label == "push-github-token":
            body = push_body(leaky_habit("h-read", description=f"CI token for the backup job: {github_token}"))
            send("POST", "/v1/push", body, bearer())
        elif label == "push-api-key":
            send("POST", "/v1/push", push_body(leaky_habit("h-coach", apiKey="")), bearer())
        elif label == "pull":
            changes = json.loads(send("GET", f"/v1/pull?cursor={cursor}&limit=100", None, bearer()))
            assert changes["operations"], "the pull returned no operations"
        elif label == "push-killed":
            body = push_body(leaky_habit("h-npm", description=f"publish with {npm_token}"))
            send("POST", "/v1/push", body, {**bearer(), "X-Test-Drop": "1"}, expect=502)

    os.makedirs(args.workdir, exist_ok=True)
    secrets_file = os.path.join(args.workdir, "secrets.json")
    for index, (label, method, path) in enumerate(EXCHANGES, start=1):
        started = time.monotonic()
        exchange(label)
        with open(secrets_file, "w") as out:  # written as the session goes: check needs it even after a failure
            json.dump(values, out)
        while count_records(args.report) < index:
            if time.monotonic() - started > RECORD_TIMEOUT:
                sys.exit(f"session: the addon recorded no report line for exchange {index} ({label}: "
                         f"{method} {path}) within {RECORD_TIMEOUT:.0f} s")
            time.sleep(0.05)
        print(f"session: {label}: {method} {path} reported after {time.monotonic() - started:.2f} s")


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class Check:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def that(self, condition, description):
        if condition:
            self.passed += 1
        else:
            self.failures.append(description)
        return condition


def check(args) -> None:
    with open(os.path.join(args.workdir, "secrets.json")) as source:
        values = json.load(source)
    with open(args.report, encoding="utf-8") as source:
        records = [json.loads(line) for line in source if line.strip()]
    with open(args.log, encoding="utf-8", errors="replace") as source:
        log = source.read()
    with open(args.report, encoding="utf-8") as source:
        report_text = source.read()
    c = Check()
    c.that(len(records) == len(EXCHANGES), f"{len(EXCHANGES)} report records (one per flow), got {len(records)}")

    by_label = {}
    for (label, method, path), record in zip(EXCHANGES, records):
        by_label[label] = record
        c.that(record["request"].startswith(f"{method} {args.server.rstrip('/')}{path}"),
               f"{label}: record is for {method} {path} (got {record['request']!r})")
        c.that(not record["scanErrors"], f"{label}: no scan errors (got {record['scanErrors']})")

    def findings(label, family=None, exclude_family=None):
        return [f for f in by_label.get(label, {}).get("findings", [])
                if (family is None or f["family"] == family)
                and (exclude_family is None or f["family"] != exclude_family)]

    def has(label, rule, family, path_prefix=None, path_suffix=None, context=None):
        return any(f["ruleId"] == rule and f["family"] == family
                   and (path_prefix is None or f["path"].startswith(path_prefix))
                   and (path_suffix is None or f["path"].endswith(path_suffix))
                   and (context is None or f["context"] == context)
                   for f in findings(label))

    def brief(label):
        return [(f["ruleId"], f["family"], f["path"]) for f in findings(label)]

    # The clean exchange: nothing at all.
    c.that(by_label.get("health", {}).get("findings") == [], f"health: no findings (got {brief('health')})")
    c.that("/v1/health" not in log, "health: the clean exchange printed nothing")
    # Sign-in: the token exchange's credentials are transport findings; the app did nothing wrong.
    c.that(bool(findings("token")), "token: findings for the token exchange")
    c.that(not findings("token", exclude_family="transport"),
           f"token: only transport findings (got {brief('token')})")
    c.that(any(f["path"].startswith("/response/content/text!json/") for f in findings("token")),
           f"token: the token response is reported (got {brief('token')})")
    # Every authorized sync call: the Authorization header, as transport, in sync context.
    for label in ("push-clean", "push-github-token", "push-api-key", "pull", "push-killed"):
        c.that(any(f["family"] == "transport" and f["path"].startswith("/request/headers/")
                   and (f.get("key") or "").lower() == "authorization" and f["context"] == "sync"
                   for f in findings(label)),
               f"{label}: transport finding for the Authorization header (got {brief(label)})")
    # The clean push and the pull: nothing but the Authorization header.
    for label in ("push-clean", "pull"):
        c.that(not findings(label, exclude_family="transport"),
               f"{label}: no secret or policy findings (got {brief(label)})")
        c.that(all(f["path"].startswith("/request/headers/") for f in findings(label)),
               f"{label}: transport findings only on the request headers (got {brief(label)})")
    # The leaks.
    c.that(has("push-github-token", "secret.github-token", "secret", context="sync",
               path_prefix="/request/postData/text!json/operations/0/document/payload/description"),
           f"push-github-token: secret.github-token in the push body's description (got {brief('push-github-token')})")
    c.that([f["ruleId"] for f in findings("push-github-token", exclude_family="transport")] == ["secret.github-token"],
           f"push-github-token: the token is the only non-transport finding (got {brief('push-github-token')})")
    c.that(has("push-api-key", "name.api-key", "policy", context="sync",
               path_prefix="/request/postData/text!json/operations/0/document/payload/apiKey"),
           f"push-api-key: name.api-key policy finding in sync (got {brief('push-api-key')})")
    c.that([f["ruleId"] for f in findings("push-api-key", exclude_family="transport")] == ["name.api-key"],
           f"push-api-key: the apiKey field is the only non-transport finding (got {brief('push-api-key')})")
    killed = by_label.get("push-killed", {})
    c.that(killed.get("status") is None and bool(killed.get("flowError")),
           f"push-killed: scanned on the error hook, without a response (status {killed.get('status')!r})")
    c.that(has("push-killed", "secret.npm-token", "secret", path_prefix="/request/postData/text!json/"),
           f"push-killed: secret.npm-token in the killed request's body (got {brief('push-killed')})")

    # What the tester saw: one line per finding, level, rule, family, request and path.
    # (Counted wherever they stand: a copy through mitmproxy's own log would carry a timestamp.)
    finding_lines = [line for line in log.splitlines() if "[habiter-audit] " in line
                     and "[habiter-audit] could not" not in line]
    total = sum(len(r["findings"]) for r in records)
    c.that(len(finding_lines) == total, f"one printed line per finding: {len(finding_lines)} lines, {total} findings")
    for record in records:
        for f in record["findings"]:
            expected = f"[habiter-audit] {f['level']} {f['ruleId']} ({f['family']}) {record['request']} {f['path']}: "
            c.that(any(line.startswith(expected) for line in finding_lines), f"printed: {expected!r}")
    pull = by_label.get("pull", {}).get("request", "")
    c.that(pull.endswith("/v1/pull?cursor=…&limit=…"), f"pull: the query shows its names only (got {pull!r})")
    c.that("could not fully scan" not in log, "no scan failures printed")
    c.that("Traceback" not in log, "no addon exception in mitmdump's output")

    # Never a value: not whole, and not the part after a public prefix.
    for name, value in values.items():
        for where, text in (("mitmdump output", log), ("report", report_text)):
            pieces = {value, value[4:], value[-16:]} if len(value) > 20 else {value}
            c.that(not any(piece in text for piece in pieces), f"no {name} value in the {where}")

    for failure in c.failures:
        print(f"FAIL: {failure}")
    print(f"{c.passed} passed, {len(c.failures)} failed")
    sys.exit(1 if c.failures else 0)


def masked_log(args) -> None:
    """Prints mitmdump's output with every fake secret of the session masked (for a failed run)."""
    try:
        with open(os.path.join(args.workdir, "secrets.json")) as source:
            values = json.load(source)
    except (OSError, ValueError):
        values = {}
    with open(args.log, encoding="utf-8", errors="replace") as source:
        text = source.read()
    for name, value in sorted(values.items(), key=lambda item: -len(item[1])):
        if value:
            text = text.replace(value, f"[{name}]")
    sys.stdout.write(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("drive")
    d.add_argument("--proxy", required=True)
    d.add_argument("--server", required=True)
    d.add_argument("--workdir", required=True)
    d.add_argument("--report", required=True)
    k = sub.add_parser("check")
    k.add_argument("--server", required=True)
    k.add_argument("--workdir", required=True)
    k.add_argument("--report", required=True)
    k.add_argument("--log", required=True)
    m = sub.add_parser("masked-log")
    m.add_argument("--workdir", required=True)
    m.add_argument("--log", required=True)
    args = parser.parse_args()
    {"drive": drive, "check": check, "masked-log": masked_log}[args.command](args)


if __name__ == "__main__":
    main()
