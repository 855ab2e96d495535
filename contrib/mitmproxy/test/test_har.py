#!/usr/bin/env python3
"""Unit tests of the addon's pure parts: flow -> HAR 1.2, the printed request line, report handling.

Run with the test virtualenv's Python (it has mitmproxy, whose test helpers build the flows):
    .build/mitmproxy-venv/bin/python contrib/mitmproxy/test/test_har.py
With HABITER_AUDIT_BIN set, the HARs are also scanned by that habiter-audit binary.
"""

import asyncio
import base64
import gzip
import json
import os
import subprocess
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import habiter_audit_addon as addon  # noqa: E402
from mitmproxy import http  # noqa: E402
from mitmproxy.test import taddons, tflow, tutils  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
SCANNER = os.environ.get("HABITER_AUDIT_BIN")


def fake_secret(kind="github-pat"):
    return subprocess.run([os.path.join(ROOT, "scripts", "fake-secret"), kind], check=True,
                          capture_output=True, text=True).stdout.strip()


def headers(*pairs):
    return http.Headers(tuple((k.encode(), v.encode()) for k, v in pairs))


def flow(method="GET", url_path="/v1/sync/pull", request_headers=(), request_body=b"",
         response=True, status=200, response_headers=(("content-type", "application/json"),),
         response_body=b"{}", error=False):
    request = tutils.treq(method=method.encode(), host="127.0.0.1", port=8080, path=url_path.encode(),
                          headers=headers(*request_headers), content=request_body)
    result = tflow.tflow(req=request, resp=False, err=error)
    if response:
        result.response = tutils.tresp(status_code=status, headers=headers(*response_headers),
                                       content=response_body)
    return result


def entry_of(f):
    har = addon.flow_to_har(f)
    json.dumps(har)  # always serialisable
    return har["log"]["entries"][0]


def scan(har, *args):
    result = subprocess.run([SCANNER, "scan", "--format", "json", "--fail-on", "never", *args, "-"],
                            input=json.dumps(har).encode(), capture_output=True, timeout=60)
    return result.returncode, json.loads(result.stdout)


class FlowToHar(unittest.TestCase):
    def test_document_shape(self):
        har = addon.flow_to_har(flow())
        log = har["log"]
        self.assertEqual(log["version"], "1.2")
        self.assertEqual(set(log["creator"]), {"name", "version"})
        self.assertEqual(len(log["entries"]), 1)
        entry = log["entries"][0]
        for key in ("startedDateTime", "time", "request", "response", "cache", "timings"):
            self.assertIn(key, entry)
        for key in ("method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"):
            self.assertIn(key, entry["request"])
        for key in ("status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL",
                    "headersSize", "bodySize"):
            self.assertIn(key, entry["response"])
        self.assertIn("size", entry["response"]["content"])
        self.assertIn("mimeType", entry["response"]["content"])
        self.assertEqual(entry["startedDateTime"], "1999-12-31T23:00:00+00:00")

    def test_query_cookies_headers(self):
        entry = entry_of(flow(url_path="/v1/sync/pull?cursor=c-1&limit=100&flag",
                              request_headers=(("Authorization", "Bearer abc"), ("Cookie", "sid=s1; theme=dark"),
                                               ("X-Dup", "1"), ("X-Dup", "2"))))
        request = entry["request"]
        self.assertEqual(request["method"], "GET")
        self.assertEqual(request["url"], "http://127.0.0.1:8080/v1/sync/pull?cursor=c-1&limit=100&flag")
        self.assertEqual(request["queryString"], [{"name": "cursor", "value": "c-1"},
                                                  {"name": "limit", "value": "100"},
                                                  {"name": "flag", "value": ""}])
        self.assertEqual(request["cookies"], [{"name": "sid", "value": "s1"}, {"name": "theme", "value": "dark"}])
        self.assertEqual([h["name"] for h in request["headers"]], ["Authorization", "Cookie", "X-Dup", "X-Dup"])
        self.assertEqual(request["headers"][0]["value"], "Bearer abc")
        self.assertNotIn("postData", request)

    def test_json_request_body(self):
        body = b'{"protocolVersion":1,"operations":[]}'
        entry = entry_of(flow("POST", "/v1/sync/push", (("Content-Type", "application/json"),), body))
        self.assertEqual(entry["request"]["postData"], {"mimeType": "application/json", "text": body.decode()})
        self.assertEqual(entry["request"]["bodySize"], len(body))

    def test_gzip_request_body_is_decoded(self):
        body = b'{"protocolVersion":1,"operations":[]}'
        entry = entry_of(flow("POST", "/v1/sync/push",
                              (("Content-Type", "application/json"), ("Content-Encoding", "gzip")),
                              gzip.compress(body)))
        self.assertEqual(entry["request"]["postData"]["text"], body.decode())
        self.assertNotIn("encoding", entry["request"]["postData"])

    def test_binary_bodies_are_base64(self):
        blob = gzip.compress(b'{"a": 1}')
        entry = entry_of(flow("PUT", "/upload", (("Content-Type", "application/octet-stream"),), blob,
                              response_headers=(("Content-Type", "image/png"),),
                              response_body=b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
        post = entry["request"]["postData"]
        self.assertEqual(post["encoding"], "base64")
        self.assertEqual(base64.b64decode(post["text"]), blob)
        content = entry["response"]["content"]
        self.assertEqual(content["encoding"], "base64")
        self.assertEqual(base64.b64decode(content["text"])[:4], b"\x89PNG")

    def test_gzip_response_is_decoded(self):
        f = flow()
        f.response.headers["content-encoding"] = "gzip"
        f.response.content = b'{"changes": [], "hasMore": false}'  # stored gzip-encoded
        entry = entry_of(f)
        content = entry["response"]["content"]
        self.assertEqual(content["text"], '{"changes": [], "hasMore": false}')
        self.assertEqual(content["size"], len(content["text"]))
        self.assertEqual(entry["response"]["bodySize"], len(f.response.raw_content))
        self.assertEqual(content["compression"], content["size"] - len(f.response.raw_content))

    def test_declared_charset(self):
        entry = entry_of(flow("POST", "/notes", (("Content-Type", "text/plain; charset=iso-8859-1"),),
                              "Grüße".encode("latin-1")))
        self.assertEqual(entry["request"]["postData"]["text"], "Grüße")

    def test_response_fields_and_cookies(self):
        entry = entry_of(flow(status=302, response_headers=(
            ("Location", "/v1/health"), ("Set-Cookie", "sess=s2; Path=/; HttpOnly; Secure"),
            ("Content-Type", "text/plain")), response_body=b""))
        response = entry["response"]
        self.assertEqual(response["status"], 302)
        self.assertEqual(response["redirectURL"], "/v1/health")
        self.assertEqual(response["content"]["text"], "")
        self.assertEqual(response["cookies"], [{"name": "sess", "value": "s2", "path": "/",
                                                "httpOnly": True, "secure": True}])

    def test_killed_flow_has_no_response(self):
        entry = entry_of(flow("POST", "/v1/sync/push", (("Content-Type", "application/json"),), b"{}",
                              response=False, error=True))
        response = entry["response"]
        self.assertEqual(response["status"], 0)
        self.assertEqual(response["_error"], "error")
        self.assertEqual(response["content"], {"size": 0, "mimeType": ""})
        self.assertEqual(entry["request"]["postData"]["text"], "{}")

    def test_websocket_messages(self):
        entry = entry_of(tflow.twebsocketflow())
        self.assertEqual(entry["_resourceType"], "websocket")
        messages = entry["_webSocketMessages"]
        self.assertEqual([m["type"] for m in messages], ["send", "send", "receive"])
        self.assertEqual(messages[0]["opcode"], 2)
        self.assertEqual(base64.b64decode(messages[0]["data"]), b"hello binary")
        self.assertEqual(messages[1], {"type": "send", "time": messages[1]["time"], "opcode": 1, "data": "hello text"})

    def test_duck_typed_flow(self):
        """No mitmproxy objects: plain attributes and a list of header pairs are enough."""
        request = types.SimpleNamespace(
            method="POST", pretty_url="http://h/v1/sync/push", http_version="HTTP/2.0",
            headers=[("content-type", "application/json")], timestamp_start=0, raw_content=b"{}",
            get_content=lambda strict=False: b"{}", cookies=None, query=None)
        entry = entry_of(types.SimpleNamespace(request=request, response=None, error=None))
        self.assertEqual(entry["request"]["headers"], [{"name": "content-type", "value": "application/json"}])
        self.assertEqual(entry["request"]["postData"], {"mimeType": "application/json", "text": "{}"})
        self.assertEqual(entry["request"]["queryString"], [])
        self.assertEqual(entry["response"]["status"], 0)


class RequestLine(unittest.TestCase):
    def test_query_values_never_shown(self):
        self.assertEqual(addon.display_request("GET", "http://127.0.0.1:8080/v1/sync/pull?cursor=c-9&limit=100"),
                         "GET http://127.0.0.1:8080/v1/sync/pull?cursor=…&limit=…")

    def test_odd_names_and_userinfo_withheld(self):
        token = "ghp_" + "A" * 36
        line = addon.display_request("GET", f"https://user:pw@h.example/p?{token}&a%20b=1&ok=2")
        self.assertEqual(line, "GET https://h.example/p?…=…&…=…&ok=…")

    def test_path_withheld_when_the_url_holds_a_finding(self):
        findings = [{"path": "/log/entries/0/request/url"}]
        self.assertEqual(addon.display_request("POST", "https://hooks.example/services/T0/B0/x?a=1", findings),
                         "POST https://hooks.example/[path withheld: it holds a finding]")

    def test_names_withheld_when_a_query_key_is_redacted(self):
        findings = [{"path": "/log/entries/0/request/url!query/[REDACTED]"}]
        self.assertEqual(addon.display_request("GET", "http://h/p?k=1", findings), "GET http://h/p?…")


class ReportHandling(unittest.TestCase):
    HAR = {"log": {"entries": [{"request": {
        "headers": [{"name": "Host", "value": "h"}, {"name": "Cookie", "value": "sid=x"}],
        "queryString": [{"name": "cursor", "value": "c"}, {"name": "access_token", "value": "t"}],
        "cookies": [{"name": "sid", "value": "x"}]},
        "response": {"headers": [{"name": "Set-Cookie", "value": "s=y"}], "cookies": [{"name": "s", "value": "y"}]}}]}}

    def finding(self, path, rule="secret.github-token"):
        return {"ruleId": rule, "level": "error", "family": "secret", "path": "/log/entries/0" + path}

    def test_parsed_query_and_cookies_repeat_the_raw_finding(self):
        findings = [self.finding("/request/url!query/access_token"),
                    self.finding("/request/queryString/1/value"),
                    self.finding("/request/headers/1/value!cookie/sid"),
                    self.finding("/request/cookies/0/value"),
                    self.finding("/response/headers/0/value!form/s"),
                    self.finding("/response/cookies/0/value")]
        kept = addon.dedupe_findings(findings, self.HAR)
        self.assertEqual([f["path"] for f in kept], [findings[0]["path"], findings[2]["path"], findings[4]["path"]])

    def test_parsed_item_alone_is_kept(self):
        findings = [self.finding("/request/queryString/1/value"),
                    self.finding("/request/url!query/access_token", rule="name.token")]
        self.assertEqual(addon.dedupe_findings(findings, self.HAR), findings)

    def test_process_report(self):
        report = {"findings": [dict(self.finding("/request/postData/text!json/a"), message="m", key="a",
                                    line=3, column=4, byteOffset=9, artifact="-")], "errors": []}
        result = addon.process_report(json.dumps(report).encode(), 0, "POST",
                                      "http://h/v1/sync/push?x=secret", self.HAR)
        findings, line = result["findings"], result["request"]
        self.assertEqual((result["errors"], result["suppressed"], result["notices"]), ([], 0, []))
        self.assertEqual(line, "POST http://h/v1/sync/push?x=…")
        self.assertEqual(findings, [{"ruleId": "secret.github-token", "level": "error", "family": "secret",
                                     "key": "a", "message": "m", "path": "/request/postData/text!json/a"}])
        self.assertEqual(addon.format_finding(findings[0], line),
                         "[habiter-audit] error secret.github-token (secret) POST http://h/v1/sync/push?x=… "
                         "/request/postData/text!json/a: m")

    def test_suppressed_findings_are_counted_not_printed(self):
        accepted = dict(self.finding("/request/postData/text!json/a"),
                        suppression={"source": "baseline", "justification": "known"})
        report = {"findings": [accepted, self.finding("/request/postData/text!json/b")],
                  "notices": ["allowlist entry 1 expired on 2025-01-01"]}
        result = addon.process_report(json.dumps(report).encode(), 0, "POST", "http://h/", self.HAR)
        self.assertEqual([f["path"] for f in result["findings"]], ["/request/postData/text!json/b"])
        self.assertEqual(result["suppressed"], 1)
        self.assertEqual(result["notices"], ["allowlist entry 1 expired on 2025-01-01"])

    def test_unreadable_report_is_an_error(self):
        result = addon.process_report(b"not json", 2, "GET", "http://h/", self.HAR)
        self.assertEqual(result["findings"], [])
        self.assertEqual(result["errors"][0]["kind"], "addon")

    def test_reserved_args(self):
        self.assertEqual(addon.split_args("--context sync --max-depth 8"), ["--context", "sync", "--max-depth", "8"])
        for bad in ("--format text", "-o out.json", "--output=x", "--fail-on warning"):
            with self.assertRaises(ValueError):
                addon.split_args(bad)


@unittest.skipUnless(SCANNER, "HABITER_AUDIT_BIN is not set")
class WithScanner(unittest.TestCase):
    def test_every_har_shape_scans_without_errors(self):
        shapes = [flow(), flow(response=False, error=True), tflow.twebsocketflow(),
                  flow("PUT", "/u", (("Content-Type", "application/octet-stream"),), b"\x00\x01\x02\xff" * 8)]
        for f in shapes:
            code, report = scan(addon.flow_to_har(f))
            self.assertEqual((code, report["errors"]), (0, []))

    def test_one_secret_one_printed_finding(self):
        token = fake_secret()
        f = flow(url_path=f"/v1/other?access_token={token}", request_headers=(("Cookie", f"sid={token}"),))
        har = addon.flow_to_har(f)
        code, report = scan(har)
        result = addon.process_report(json.dumps(report).encode(), code, "GET",
                                      har["log"]["entries"][0]["request"]["url"], har)
        findings, line = result["findings"], result["request"]
        paths = sorted(x["path"] for x in findings)
        # One secret, one finding per request: the query parameter is reported, the cookie is
        # its related location.
        self.assertEqual(len(paths), 1, paths)
        self.assertTrue(paths[0].startswith("/request/url!query/"), paths)
        related = [r["path"] for f in report["findings"] for r in f.get("relatedLocations", [])]
        self.assertTrue(any("/request/headers/0/value!" in p for p in related), related)
        self.assertNotIn(token, json.dumps(findings) + line)
        self.assertNotIn(token[4:], json.dumps(findings) + line)

    def test_base64_push_body_is_opened(self):
        token = fake_secret()
        body = json.dumps({"protocolVersion": 1, "deviceId": "d", "operations": [{"operationId": "o",
                           "idempotencyKey": "k", "baseRevision": 1, "document": {
                               "schemaVersion": 1, "entityId": "habit/h", "deleted": False,
                               "payload": {"id": "h", "description": token}}}]}).encode()
        f = flow("POST", "/v1/sync/push", (("Content-Type", "application/octet-stream"),), gzip.compress(body))
        _, report = scan(addon.flow_to_har(f))
        self.assertIn(("secret.github-token", "sync", "/log/entries/0/request/postData/text!base64!gzip!json"
                       "/operations/0/document/payload/description"),
                      [(x["ruleId"], x["context"], x["path"]) for x in report["findings"]])

    def test_addon_in_a_mitmproxy_context(self):
        """The hooks as mitmproxy calls them: one report line per flow, once, and a finding printed."""
        token = fake_secret()
        with tempfile.TemporaryDirectory() as tmp:
            report_path = os.path.join(tmp, "report.jsonl")

            async def run():
                scanner = addon.HabiterAudit()
                with taddons.context(scanner) as tctx:
                    tctx.configure(scanner, habiter_audit_binary=SCANNER, habiter_audit_report=report_path)
                    leaky = flow("POST", "/v1/sync/push", (("Content-Type", "application/json"),),
                                 json.dumps({"note": token}).encode())
                    scanner.response(leaky)
                    scanner.error(leaky)  # already scanned: not again
                    scanner.response(flow(url_path="/v1/health"))
                    await scanner.done()

            asyncio.run(run())
            with open(report_path) as source:
                records = [json.loads(line) for line in source]
        self.assertEqual(len(records), 2)
        by_request = {r["request"]: r for r in records}
        self.assertEqual(by_request["GET http://127.0.0.1:8080/v1/health"]["findings"], [])
        leak = by_request["POST http://127.0.0.1:8080/v1/sync/push"]
        self.assertEqual([(x["ruleId"], x["path"]) for x in leak["findings"]],
                         [("secret.github-token", "/request/postData/text!json/note")])
        self.assertNotIn(token[4:], json.dumps(records))


if __name__ == "__main__":
    runner = unittest.TextTestRunner(verbosity=1)
    result = runner.run(unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__]))
    failed = len(result.failures) + len(result.errors)
    print(f"test_har: {result.testsRun - failed - len(result.skipped)} passed, {failed} failed, "
          f"{len(result.skipped)} skipped")
    sys.exit(1 if failed or not result.wasSuccessful() else 0)
