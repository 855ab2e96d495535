#!/usr/bin/env python3
"""Writes flows.mitm with mitmproxy's own serialiser (mitmproxy.io.FlowWriter, as `mitmdump -w`
writes): an HTTP flow with WebSocket messages, a TCP flow, a UDP flow and a DNS flow, each
carrying a fake, format-valid token where a QA capture could hold one.

    python3 -m venv venv && venv/bin/pip install mitmproxy==11.0.2 && venv/bin/python make-fixtures.py

With mitmproxy 7.0.4 (flow format 14, before UDP and DNS flows), `make-fixtures.py --old` writes
flows-mitmproxy7.mitm instead: the HTTP and TCP flows.

proxy-capture.mitm beside it is a real capture: `mitmdump --listen-port 8089 --ssl-insecure -w
proxy-capture.mitm`, then curl through it (`--proxy http://127.0.0.1:8089 -k`) to a local
server: a POST of corpus/sync/entity-entry.json to https://localhost:8443/v1/push and a GET of
/v1/pull answered with a gzip body, both with `Authorization: Bearer` and the GitHub token below,
and a form POST to http://127.0.0.1:8080/v1/push; stopped with SIGINT. proxy-capture.http is
its flows as raw HTTP, written here by mitmproxy's HTTP/1 assembler (bodies as sent, still
gzip-compressed): the scan must find the same in both.
"""
import sys

from mitmproxy import io
from mitmproxy.net.http.http1 import assemble
from mitmproxy.test import tflow

GITHUB = "ghp_" + "Wd4Hs8Bf2Jg6Ua0EiZ3Qk7vTLm9Xc2Vb5Nz1"
SLACK = "xoxb-" + "123456789012-1234567890123-" + "AbCdEfGhIjKlMnOpQrStUvWx"
AWS = "AKIA" + "QWERTYUIOPASDFGH"

old = sys.argv[1:] == ["--old"]
web = tflow.twebsocketflow() if old else tflow.tflow(resp=True, ws=True)
web.request.path = "/v1/events"
web.websocket.messages[1].content = ('{"type": "auth", "token": "%s"}' % SLACK).encode()
web.comment = "replayed with " + GITHUB
web.metadata = {"qa-note": "key " + AWS}

tcp = tflow.ttcpflow()
tcp.messages[0].content = ("AUTH " + GITHUB + "\r\n").encode()

flows = (web, tcp) if old else (web, tcp, tflow.tudpflow(), tflow.tdnsflow(resp=True))
with open("flows-mitmproxy7.mitm" if old else "flows.mitm", "wb") as out:
    writer = io.FlowWriter(out)
    for flow in flows:
        writer.add(flow)
if old:
    sys.exit(0)

with open("proxy-capture.mitm", "rb") as capture, open("proxy-capture.http", "wb") as out:
    for flow in io.FlowReader(capture).stream():
        out.write(assemble.assemble_request(flow.request))
        out.write(assemble.assemble_response(flow.response))
