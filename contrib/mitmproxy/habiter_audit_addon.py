"""habiter-audit live QA: scan every flow as mitmproxy captures it.

    mitmdump -s contrib/mitmproxy/habiter_audit_addon.py

Each finished flow (on `response`, on `error` for a killed flow, on `websocket_end` for a
WebSocket) becomes a one-entry HAR 1.2 document that is piped to
`habiter-audit scan - --format json --fail-on never`. Each finding is printed at once, one line:

    [habiter-audit] error secret.github-token (secret) POST http://host/v1/push
        /request/postData/text!json/operations/0/document/payload/description: GitHub token ...

(on one line), never a value: the request's query shows its parameter names only, and the
scanner's messages and layered paths are redacted by design. Paths are relative to the HAR
entry (the scanner's path without `/log/entries/0`).

Options (`--set NAME=VALUE`):
    habiter_audit_binary   the scanner (default: habiter-audit on PATH, else the repository's
                           .build/release/ or .build/debug/ build beside this file)
    habiter_audit_args     extra scan arguments, e.g. "--context sync"
    habiter_audit_report   a file to append one JSON line per scanned flow to
    habiter_audit_filter   a mitmproxy filter expression: scan only the flows it matches
    habiter_audit_timeout  seconds one scan may take (default 30)

The conversion from a flow to HAR (`flow_to_har`) and the report handling (`process_report`)
are pure functions, testable without a running proxy; `flow_to_har` takes mitmproxy's HTTPFlow
or any object shaped like it.
"""

from __future__ import annotations

import asyncio
import base64
import codecs
import json
import logging
import os
import re
import shlex
import shutil
import sys
from datetime import datetime, timezone
from urllib.parse import parse_qsl, urlsplit

try:  # mitmproxy is there when the addon runs; the pure functions below do not need it.
    from mitmproxy import ctx, exceptions, flowfilter
except ImportError:  # pragma: no cover - exercised when imported outside mitmproxy
    ctx = exceptions = flowfilter = None

__all__ = ["flow_to_har", "har_entry", "display_request", "process_report", "dedupe_findings",
           "entry_path", "format_finding", "find_binary", "HabiterAudit"]

logger = logging.getLogger("habiter_audit")

CREATOR = {"name": "habiter-audit mitmproxy addon", "version": "1"}
ENTRY_PREFIX = "/log/entries/0"
LEVELS = {"error": logging.ERROR, "warning": logging.WARNING, "note": logging.INFO}
# Arguments the addon sets itself: the report must stay JSON on stdout.
RESERVED_ARGS = ("--format", "-o", "--output", "--fail-on")
HABITER_LINE = "habiter_audit_line"  # marks the addon's own log records


# ---------------------------------------------------------------------------------------------
# Flow -> HAR 1.2 (pure)
# ---------------------------------------------------------------------------------------------

def flow_to_har(flow) -> dict:
    """A HAR 1.2 document with the flow as its only entry."""
    return {"log": {"version": "1.2", "creator": dict(CREATOR), "pages": [],
                    "entries": [har_entry(flow)]}}


def har_entry(flow) -> dict:
    """The HAR 1.2 entry of an HTTP flow (mitmproxy's HTTPFlow or an object shaped like it).

    Bodies are decoded from their Content-Encoding; text goes in `text`, binary bodies as
    base64 with `"encoding": "base64"`. A flow without a response (killed, connection failed)
    gets status 0 and the error in `_error`, as mitmproxy's own HAR export does.
    """
    request = flow.request
    started = getattr(request, "timestamp_start", None) or 0.0
    req_body, req_raw = _bodies(request)
    entry_request = {
        "method": request.method,
        "url": _request_url(request),
        "httpVersion": request.http_version or "HTTP/1.1",
        "cookies": _pairs(lambda: request.cookies.items(multi=True)),
        "headers": _headers(request.headers),
        "queryString": _pairs(lambda: request.query.items(multi=True)),
        "headersSize": -1,
        "bodySize": len(req_raw) if req_raw is not None else -1,
    }
    if req_body:
        post = {"mimeType": _header(request.headers, "content-type")}
        post.update(_content_text(req_body, post["mimeType"]))
        entry_request["postData"] = post

    response = getattr(flow, "response", None)
    if response is not None:
        resp_body, resp_raw = _bodies(response)
        mime = _header(response.headers, "content-type")
        content = {"size": len(resp_body or b""), "mimeType": mime}
        if resp_raw is not None and resp_body is not None and len(resp_body) != len(resp_raw):
            content["compression"] = len(resp_body) - len(resp_raw)
        content.update(_content_text(resp_body or b"", mime))
        entry_response = {
            "status": int(response.status_code),
            "statusText": response.reason or "",
            "httpVersion": response.http_version or "HTTP/1.1",
            "cookies": _response_cookies(response),
            "headers": _headers(response.headers),
            "content": content,
            "redirectURL": _header(response.headers, "location"),
            "headersSize": -1,
            "bodySize": len(resp_raw) if resp_raw is not None else -1,
        }
        ended = getattr(response, "timestamp_end", None) or getattr(response, "timestamp_start", None)
    else:
        entry_response = {
            "status": 0, "statusText": "", "httpVersion": "", "cookies": [], "headers": [],
            "content": {"size": 0, "mimeType": ""}, "redirectURL": "", "headersSize": -1,
            "bodySize": -1,
        }
        ended = None
    error = getattr(flow, "error", None)
    if error is not None:
        entry_response["_error"] = str(getattr(error, "msg", error))

    entry = {
        "startedDateTime": datetime.fromtimestamp(started, timezone.utc).isoformat(),
        "time": max(0.0, (ended - started) * 1000.0) if ended and started else 0,
        "request": entry_request,
        "response": entry_response,
        "cache": {},
        "timings": {"send": 0, "wait": 0, "receive": 0},
    }
    websocket = getattr(flow, "websocket", None)
    if websocket is not None:
        entry["_resourceType"] = "websocket"
        entry["_webSocketMessages"] = [_websocket_message(m) for m in websocket.messages]
    return entry


def _request_url(request) -> str:
    if request.method == "CONNECT":
        return f"https://{request.pretty_url}/"
    return request.pretty_url


def _decode(raw: bytes) -> str:
    """Header bytes as text: UTF-8 when valid, else Latin-1 (every byte kept as one character)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _headers(headers) -> list:
    fields = getattr(headers, "fields", None)
    if fields is None:  # a plain mapping or list of pairs
        items = headers.items() if hasattr(headers, "items") else headers
        return [{"name": str(k), "value": str(v)} for k, v in items]
    return [{"name": _decode(k), "value": _decode(v)} for k, v in fields]


def _header(headers, name: str) -> str:
    try:
        value = headers.get(name)
    except Exception:
        value = None
    if value is None:
        for field in _headers(headers):
            if field["name"].lower() == name:
                return field["value"]
        return ""
    return _decode(value) if isinstance(value, bytes) else str(value)


def _pairs(items) -> list:
    """Name/value pairs from a multidict view; a header mitmproxy cannot parse gives none."""
    try:
        return [{"name": str(k), "value": str(v)} for k, v in items()]
    except Exception:
        return []


def _response_cookies(response) -> list:
    try:
        items = response.cookies.items(multi=True)
    except Exception:
        return []
    cookies = []
    for name, value in items:
        attrs = {}
        if isinstance(value, tuple):  # mitmproxy: (value, CookieAttrs)
            value, attrs = value
        cookie = {"name": str(name), "value": str(value)}
        try:
            lower = {str(k).lower(): v for k, v in attrs.items()}
        except Exception:
            lower = {}
        for har_name in ("path", "domain", "expires"):
            if har_name in lower and lower[har_name] is not None:
                cookie[har_name] = str(lower[har_name])
        cookie["httpOnly"] = "httponly" in lower
        cookie["secure"] = "secure" in lower
        cookies.append(cookie)
    return cookies


def _bodies(message) -> tuple:
    """(decoded body, raw body) of a request or response; decoding falls back to the raw bytes."""
    raw = getattr(message, "raw_content", None)
    try:
        decoded = message.get_content(strict=False)
    except Exception:
        decoded = raw
    if decoded is None:
        decoded = raw
    return decoded, raw


_CHARSET = re.compile(r";\s*charset\s*=\s*\"?([A-Za-z0-9._:-]+)", re.IGNORECASE)
_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f]")


def _content_text(body: bytes, mime: str) -> dict:
    """HAR `text` for a body: the text in its declared charset (else UTF-8), or base64."""
    if not body:
        return {"text": ""}
    charsets = ["utf-8"]
    match = _CHARSET.search(mime or "")
    if match:
        try:
            charsets.insert(0, codecs.lookup(match.group(1)).name)
        except LookupError:
            pass
    for charset in charsets:
        try:
            text = body.decode(charset)
        except (UnicodeDecodeError, LookupError):
            continue
        if not _CONTROL.search(text):
            return {"text": text}
        break
    return {"text": base64.b64encode(body).decode("ascii"), "encoding": "base64"}


def _websocket_message(message) -> dict:
    content = message.content
    is_text = getattr(message, "is_text", False)
    if is_text:
        data = content.decode("utf-8", "replace")
    else:
        data = base64.b64encode(content).decode("ascii")
    opcode = getattr(getattr(message, "type", None), "value", 1 if is_text else 2)
    return {"type": "send" if message.from_client else "receive",
            "time": getattr(message, "timestamp", 0), "opcode": opcode, "data": data}


# ---------------------------------------------------------------------------------------------
# Scanner report -> printed lines (pure)
# ---------------------------------------------------------------------------------------------

def entry_path(path) -> str:
    """The layered path relative to the HAR entry: `/request/...` instead of `/log/entries/0/request/...`."""
    if not path:
        return ""
    return path[len(ENTRY_PREFIX):] if path.startswith(ENTRY_PREFIX + "/") else path


_SAFE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-\[\]]{0,31}$")


def display_request(method: str, url: str, findings=()) -> str:
    """`METHOD scheme://host[:port]/path?name=…`: the query's values are never shown.

    Parameter names are shown only when they look like identifiers; the path is withheld when
    the scanner found something in the URL itself (a token in a path segment), and every name
    when a finding's key in the query is itself redacted.
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return f"{method} [unparsable URL]"
    netloc = parts.netloc.rpartition("@")[2]  # never userinfo
    paths = [entry_path(f.get("path")) for f in findings]
    in_url = any(p == "/request/url" or (p.startswith("/request/url!") and not p.startswith("/request/url!query"))
                 for p in paths)
    if in_url:
        return f"{method} {parts.scheme}://{netloc}/[path withheld: it holds a finding]"
    shown = f"{method} {parts.scheme}://{netloc}{parts.path or '/'}"
    if parts.query:
        redacted_key = any((p.startswith("/request/url!query") or p.startswith("/request/queryString"))
                           and "[REDACTED]" in p for p in paths)
        try:
            names = [name for name, _ in parse_qsl(parts.query, keep_blank_values=True)]
        except ValueError:
            names = []
        if redacted_key or not names:
            shown += "?…"
        else:
            shown += "?" + "&".join((n if _SAFE_NAME.match(n) else "…") + "=…" for n in names)
    return shown


_STRUCTURED = re.compile(r"^/(request|response)/(queryString|cookies)/(\d+)/value(.*)$")
_RAW_QUERY = re.compile(r"^/request/url!query/([^/!]*)(.*)$")
_RAW_COOKIE = re.compile(r"^/(request|response)/headers/(\d+)/value![a-z0-9-]+/([^/!]*)(.*)$")


def _unescape_pointer(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _alias(path: str, entry: dict):
    """The raw place a HAR's parsed `queryString`/`cookies` item repeats, as a comparable key."""
    match = _STRUCTURED.match(path)
    if match:
        side, kind, index, rest = match.group(1), match.group(2), int(match.group(3)), match.group(4)
        try:
            name = entry[side][kind][index]["name"]
        except (KeyError, IndexError, TypeError):
            return None
        return ("query" if kind == "queryString" else side + "-cookie", name, rest), True
    match = _RAW_QUERY.match(path)
    if match:
        return ("query", _unescape_pointer(match.group(1)), match.group(2)), False
    match = _RAW_COOKIE.match(path)
    if match:
        side, index, name, rest = match.group(1), int(match.group(2)), match.group(3), match.group(4)
        try:
            header = entry[side]["headers"][index]["name"].lower()
        except (KeyError, IndexError, TypeError):
            return None
        if header in ("cookie", "set-cookie"):
            return (side + "-cookie", _unescape_pointer(name), rest), False
    return None


def dedupe_findings(findings: list, har: dict) -> list:
    """Drops findings on a HAR's parsed `queryString` and `cookies` items that repeat a finding
    of the same rule on the URL's query or the Cookie/Set-Cookie header they were parsed from."""
    try:
        entry = har["log"]["entries"][0]
    except (KeyError, IndexError, TypeError):
        return list(findings)
    raw_seen = set()
    aliases = []
    for finding in findings:
        alias = _alias(entry_path(finding.get("path") or ""), entry)
        aliases.append(alias)
        if alias and not alias[1]:
            raw_seen.add((finding.get("ruleId"), alias[0]))
    return [f for f, alias in zip(findings, aliases)
            if not (alias and alias[1] and (f.get("ruleId"), alias[0]) in raw_seen)]


def format_finding(finding: dict, request_line: str) -> str:
    """One line per finding: level, rule id, family, request, layered path, redacted message."""
    message = (finding.get("message") or "").replace("\n", " ")
    return (f"[habiter-audit] {finding.get('level', '?')} {finding.get('ruleId', '?')} "
            f"({finding.get('family', '?')}) {request_line} {entry_path(finding.get('path'))}: {message}")


# Fields of a finding worth keeping in the JSON-lines report. Line, column and byte offset point
# into the temporary HAR document and mean nothing to the tester.
REPORT_FIELDS = ("ruleId", "level", "family", "key", "context", "inventoryClass", "confidence",
                 "preview", "message", "path")


def process_report(stdout: bytes, returncode: int, method: str, url: str, har: dict) -> dict:
    """What one scan found, from its JSON report and exit status.

    Returns `findings` (the active ones, deduplicated, paths relative to the entry; the fields of
    REPORT_FIELDS only), `suppressed` (how many a baseline or allowlist given in
    habiter_audit_args accepted), `errors` (the scanner's input errors, or the addon's when there
    is no report), `notices` and `request` (the request line to print).
    """
    try:
        report = json.loads(stdout.decode("utf-8"))
        findings = report.get("findings", [])
        errors = report.get("errors", [])
        notices = report.get("notices", [])
    except (ValueError, UnicodeDecodeError, AttributeError):
        findings, notices = [], []
        errors = [{"kind": "addon", "message": f"habiter-audit exited {returncode} without a JSON report"}]
    findings = [f for f in findings if isinstance(f, dict)] if isinstance(findings, list) else []
    active = [f for f in findings if not f.get("suppression")]
    active = dedupe_findings(active, har)
    kept = []
    for finding in active:
        item = {k: finding.get(k) for k in REPORT_FIELDS if k in finding}
        item["path"] = entry_path(finding.get("path"))
        kept.append(item)
    return {
        "findings": kept,
        "suppressed": len(findings) - len([f for f in findings if not f.get("suppression")]),
        "errors": [{"kind": e.get("kind"), "reason": e.get("reason"), "message": e.get("message")}
                   for e in errors if isinstance(e, dict)] if isinstance(errors, list) else [],
        "notices": [n for n in notices if isinstance(n, str)] if isinstance(notices, list) else [],
        "request": display_request(method, url, findings),
    }


def find_binary(option: str, addon_dir: str | None = None):
    """The scanner to run: the option, else habiter-audit on PATH, else the repository's build."""
    if option:
        path = shutil.which(option) if os.sep not in option else option
        return path if path and os.access(path, os.X_OK) and os.path.isfile(path) else None
    on_path = shutil.which("habiter-audit")
    if on_path:
        return on_path
    root = os.path.normpath(os.path.join(addon_dir or os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    for build in ("release", "debug"):
        candidate = os.path.join(root, ".build", build, "habiter-audit")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def split_args(value: str) -> list:
    """habiter_audit_args as a list; raises ValueError for unbalanced quotes or a reserved option."""
    args = shlex.split(value or "")
    for arg in args:
        name = arg.split("=", 1)[0]
        if name in RESERVED_ARGS:
            raise ValueError(f"{name} is set by the addon (it reads the JSON report)")
    return args


# ---------------------------------------------------------------------------------------------
# The addon
# ---------------------------------------------------------------------------------------------

class HabiterAudit:
    """Scans each finished flow with habiter-audit and prints its findings at once."""

    def __init__(self) -> None:
        self.binary: str | None = None
        self.args: list = []
        self.filter = None
        self.tasks: set = set()
        self.semaphore: asyncio.Semaphore | None = None
        self.scanned = 0
        self.with_findings = 0
        self._termlog_checked: bool | None = None
        self.notices_seen: set = set()

    # -- options ------------------------------------------------------------------------------

    def load(self, loader) -> None:
        loader.add_option("habiter_audit_binary", str, "",
                          "The habiter-audit binary (default: habiter-audit on PATH, else this "
                          "repository's .build/release/habiter-audit, then .build/debug/).")
        loader.add_option("habiter_audit_args", str, "",
                          "Extra arguments for 'habiter-audit scan', e.g. '--context sync'.")
        loader.add_option("habiter_audit_report", str, "",
                          "Append one JSON line per scanned flow (its findings, never values) to this file.")
        loader.add_option("habiter_audit_filter", str, "",
                          "Scan only the flows this mitmproxy filter expression matches (default: all).")
        loader.add_option("habiter_audit_timeout", int, 30, "Seconds one scan may take.")

    def configure(self, updated) -> None:
        if "habiter_audit_binary" in updated:
            self.binary = find_binary(ctx.options.habiter_audit_binary)
            if self.binary is None:
                where = ctx.options.habiter_audit_binary or "habiter-audit on PATH or in .build/release/"
                raise exceptions.OptionsError(
                    f"habiter-audit addon: no scanner binary ({where}). Build it with "
                    "'scripts/build-release' or set habiter_audit_binary=PATH.")
        if "habiter_audit_args" in updated:
            try:
                self.args = split_args(ctx.options.habiter_audit_args)
            except ValueError as error:
                raise exceptions.OptionsError(f"habiter_audit_args: {error}") from None
        if "habiter_audit_filter" in updated:
            expression = ctx.options.habiter_audit_filter
            try:
                self.filter = flowfilter.parse(expression) if expression else None
            except ValueError as error:
                raise exceptions.OptionsError(f"habiter_audit_filter: {error}") from None
        if "habiter_audit_timeout" in updated and ctx.options.habiter_audit_timeout <= 0:
            raise exceptions.OptionsError("habiter_audit_timeout must be a positive number of seconds")

    def running(self) -> None:
        logger.info(f"habiter-audit addon: scanning flows with {self.binary}")

    # -- hooks --------------------------------------------------------------------------------

    def response(self, flow) -> None:
        if getattr(flow, "websocket", None) is None:  # a WebSocket is scanned when it ends
            self._submit(flow)

    def error(self, flow) -> None:
        if getattr(flow, "request", None) is not None:
            self._submit(flow)

    def websocket_end(self, flow) -> None:
        self._submit(flow)

    async def done(self) -> None:
        if self.tasks:
            await asyncio.wait(set(self.tasks), timeout=ctx.options.habiter_audit_timeout + 5)
        if self.scanned:
            logger.info(f"habiter-audit addon: {self.scanned} flows scanned, {self.with_findings} with findings")

    # -- scanning -----------------------------------------------------------------------------

    def _submit(self, flow) -> None:
        metadata = flow.metadata
        if metadata.get("habiter_audit_scanned"):
            return
        if self.filter is not None and not self.filter(flow):
            return
        metadata["habiter_audit_scanned"] = True
        # The HAR is built now, from the flow as it is: later hooks may change it.
        har = flow_to_har(flow)
        status = flow.response.status_code if flow.response is not None else None
        error = str(flow.error.msg) if flow.error is not None else None
        if self.semaphore is None:
            self.semaphore = asyncio.Semaphore(max(1, min(4, os.cpu_count() or 1)))
        task = asyncio.get_running_loop().create_task(
            self._scan(flow.id, flow.request.method, har["log"]["entries"][0]["request"]["url"],
                       har, status, error))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _scan(self, flow_id, method, url, har, status, flow_error) -> None:
        command = [self.binary, "scan", "--format", "json", "--fail-on", "never", *self.args, "-"]
        data = json.dumps(har, ensure_ascii=False).encode("utf-8", "replace")  # lone surrogates
        timeout = ctx.options.habiter_audit_timeout
        async with self.semaphore:
            try:
                process = await asyncio.create_subprocess_exec(
                    *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE)
            except OSError as error:
                self._record(flow_id, display_request(method, url), status, flow_error, [],
                             [{"kind": "addon", "message": f"cannot run {self.binary}: {error.strerror}"}])
                return
            try:
                stdout, stderr = await asyncio.wait_for(process.communicate(data), timeout)
            except asyncio.TimeoutError:
                process.kill()
                await process.wait()
                self._record(flow_id, display_request(method, url), status, flow_error, [],
                             [{"kind": "addon", "message": f"scan timed out after {timeout} s"}])
                return
        if process.returncode not in (0, 1, 2):
            first = stderr.decode("utf-8", "replace").strip().splitlines()[:1]
            self._record(flow_id, display_request(method, url), status, flow_error, [],
                         [{"kind": "addon", "message": f"habiter-audit exited {process.returncode}"
                                                       + (f": {first[0]}" if first else "")}])
            return
        result = process_report(stdout, process.returncode, method, url, har)
        for notice in result["notices"]:
            if notice not in self.notices_seen:  # the same for every flow: say it once
                self.notices_seen.add(notice)
                self._say(logging.WARNING, f"[habiter-audit] notice: {notice}")
        self._record(flow_id, result["request"], status, flow_error, result["findings"], result["errors"],
                     result["suppressed"])

    def _record(self, flow_id, request_line, status, flow_error, findings, errors, suppressed=0) -> None:
        self.scanned += 1
        if findings:
            self.with_findings += 1
        for finding in findings:
            self._say(LEVELS.get(finding.get("level"), logging.WARNING), format_finding(finding, request_line))
        for error in errors:
            self._say(logging.ERROR, f"[habiter-audit] could not fully scan {request_line}: "
                                     f"{error.get('message') or error.get('reason')}")
        path = ctx.options.habiter_audit_report
        if path:
            record = {"time": datetime.now(timezone.utc).isoformat(), "flow": flow_id,
                      "request": request_line, "status": status, "flowError": flow_error,
                      "findings": findings, "suppressed": suppressed, "scanErrors": errors}
            with open(path, "a", encoding="utf-8") as report:
                report.write(json.dumps(record, ensure_ascii=False) + "\n")

    def _say(self, level: int, line: str) -> None:
        """Through mitmproxy's log (the event log of mitmproxy's console and mitmweb), and on a
        terminal master (mitmdump, mitmweb) straight to stderr, whatever the log verbosity (so
        also with mitmdump -q): one line per finding, the same way for every level."""
        terminal = self._terminal()  # first: it keeps the terminal log from printing the line too
        logger.log(level, line, extra={HABITER_LINE: True})
        if terminal:
            print(line, file=sys.stderr, flush=True)

    def _terminal(self) -> bool:
        """Whether the master writes its log to a terminal; if so, its terminal log handler is
        told to leave the addon's lines to the addon (else each would appear twice)."""
        if self._termlog_checked is not None:
            return self._termlog_checked
        master = getattr(ctx, "master", None)
        addons = getattr(master, "addons", None)
        if master is None or addons is None:
            self._termlog_checked = True  # no mitmproxy log to show it
        elif addons.get("termlog") is None:
            self._termlog_checked = False  # mitmproxy's console: stderr would garble its screen
        else:
            self._termlog_checked = True
            for handler in logging.getLogger().handlers:
                if type(handler).__name__ == "TermLogHandler":
                    handler.addFilter(lambda record: not getattr(record, HABITER_LINE, False))
        return self._termlog_checked


addons = [HabiterAudit()]
