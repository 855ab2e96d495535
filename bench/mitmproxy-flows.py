#!/usr/bin/env python3
"""Writes the same sync pushes as a mitmproxy flow file and as raw HTTP, for comparing the two
readers (BENCHMARKS.md, "mitmproxy's flow files, binary HTTP bodies, small gzip bodies, wrapped
base64 and unmarked UTF-16").

    python3 -m venv /tmp/mitm && /tmp/mitm/bin/pip install mitmproxy==11.0.2
    python3 bench/generate.py ndjson 4 ops.ndjson
    /tmp/mitm/bin/python bench/mitmproxy-flows.py 100 ops.ndjson flows.mitm flows.http

Each flow is a POST of one operation of OPS as a push body (`{"operations": [op]}`), with an
`Authorization: Bearer` header (a fake GitHub token in one call of a hundred), answered with a
small gzip body; mitmproxy's `tflow` gives each its connections as a proxy records them. Flows
are written by mitmproxy's own `FlowWriter` until the file holds SIZE_MB megabytes (10^6 bytes),
and each call by its HTTP/1 assembler to the raw file, bodies as sent.
"""
import gzip
import json
import sys

from mitmproxy import io
from mitmproxy.net.http.http1 import assemble
from mitmproxy.test import tflow


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: mitmproxy-flows.py SIZE_MB OPS.ndjson FLOWS_OUT RAW_OUT")
    size = int(sys.argv[1]) * 1_000_000
    with open(sys.argv[2]) as source:
        operations = source.read().splitlines()
    response = gzip.compress(json.dumps({"accepted": 1, "cursor": "eyJvIjozfQ"}).encode())
    token = "ghp_" + "Wd4Hs8Bf2Jg6Ua0EiZ3Qk7vTLm9Xc2Vb5Nz1"
    count = 0
    with open(sys.argv[3], "wb") as flows, open(sys.argv[4], "wb") as raw:
        writer = io.FlowWriter(flows)
        while flows.tell() < size:
            flow = tflow.tflow(resp=True)
            request = flow.request
            request.method, request.host, request.path = "POST", "sync.habiter.app", "/v1/push"
            request.headers.clear()
            request.headers["Host"] = "sync.habiter.app"
            request.headers["Authorization"] = "Bearer " + (token if count % 100 == 0 else f"session-{count}")
            request.headers["Content-Type"] = "application/json"
            request.content = ('{"operations":[%s]}' % operations[count % len(operations)]).encode()
            flow.response.headers.clear()
            flow.response.headers["Content-Type"] = "application/json"
            flow.response.headers["Content-Encoding"] = "gzip"
            flow.response.headers["Content-Length"] = str(len(response))
            flow.response.raw_content = response
            writer.add(flow)
            raw.write(assemble.assemble_request(request))
            raw.write(assemble.assemble_response(flow.response))
            count += 1
        print(f"{count} calls: {flows.tell()} bytes of flows, {raw.tell()} bytes of raw HTTP")


if __name__ == "__main__":
    main()
