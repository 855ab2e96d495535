#!/usr/bin/env python3
"""A loopback stand-in for the Personal Sync server, for the addon's end-to-end test.

    sync_server.py --port-file FILE     binds 127.0.0.1 on a free port, writes the port to FILE

Plays a sign-in and sync session (standard library only):
    GET  /v1/health                      {"status": "ok"}, no credentials: the clean exchange
    POST /v1/oauth/token                 a token response with fake, freshly random tokens
    POST /v1/push                   accepts an entity-document push (Bearer token required);
                                         with "X-Test-Drop: 1" it closes the connection unanswered
    GET  /v1/pull?cursor=…&limit=100  the operations since the cursor, gzip-encoded
Runs until killed (SIGTERM/SIGINT).
"""

import argparse
import base64
import gzip
import json
import os
import secrets
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

STATE = {"access_tokens": set(), "revision": 41}
LOCK = threading.Lock()


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def fake_jwt() -> str:
    header = b64url(json.dumps({"alg": "RS256", "typ": "JWT", "kid": "test"}).encode())
    claims = b64url(json.dumps({"iss": "http://127.0.0.1/", "sub": "user-" + secrets.token_hex(4),
                                "aud": "habiter-sync", "scope": "sync", "iat": 1764500000,
                                "exp": 1764503600}).encode())
    return f"{header}.{claims}.{b64url(secrets.token_bytes(64))}"


def habit_document(habit_id: str, name: str) -> dict:
    """An entity document as the app writes it (Habit.toMap, APP-FORMATS.md section 3)."""
    return {"schemaVersion": 1, "entityId": f"habit/{habit_id}", "deleted": False,
            "payload": {"id": habit_id, "name": name, "description": "Ten minutes after lunch",
                        "color": "#4CAF50", "icon": "directions_walk", "frequency": "daily",
                        "targetCount": 1, "category": "health", "customDays": None,
                        "createdAt": "2025-11-02T08:15:00.000Z", "isActive": True,
                        "notificationEnabled": True, "notificationTime": "12:45",
                        "source": {"kind": "local"}}}


def operation(document: dict, sequence: int, device: str = "mitmTestDevice0123456789") -> dict:
    """PersonalSyncOperation.toMap: a create listing every payload key, or a delete."""
    deleted = document.get("deleted") is True
    return {"protocolVersion": 1, "operationId": f"operation/{device}/{sequence}",
            "kind": "delete" if deleted else "create", "revision": {"deviceId": device, "sequence": sequence},
            "document": document, "changedFields": [] if deleted else sorted(document["payload"]),
            "changedMetadataFields": []}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "habiter-sync-test/1"

    def log_message(self, format, *args):  # quiet: the test reads only the addon's output
        pass

    def send_json(self, status: int, body: dict, gzip_body: bool = False) -> None:
        data = json.dumps(body).encode()
        if gzip_body:
            data = gzip.compress(data)
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        if gzip_body:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def authorized(self) -> bool:
        scheme, _, token = (self.headers.get("Authorization") or "").partition(" ")
        with LOCK:
            ok = scheme == "Bearer" and token in STATE["access_tokens"]
        if not ok:
            self.send_json(401, {"error": "invalid_token"})
        return ok

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path == "/v1/health":
            self.send_json(200, {"status": "ok", "protocolVersion": 1})
        elif url.path == "/v1/pull":
            if not self.authorized():
                return
            query = parse_qs(url.query)
            if "cursor" not in query or query.get("limit") != ["100"]:
                self.send_json(400, {"error": "cursor and limit=100 are required"})
                return
            with LOCK:
                revision = STATE["revision"]
            operations = [operation(habit_document("h-walk", "Walk"), revision + 1),
                          operation({"schemaVersion": 1, "entityId": "habit/h-old", "deleted": True}, revision + 2)]
            cursor = b64url(json.dumps({"version": 1, "generation": 1, "offset": revision + 2}).encode())
            self.send_json(200, {"operations": operations, "cursor": cursor, "headOffset": revision + 2,
                                 "compactionFloor": 0, "requiresSnapshot": False, "recoveryReason": "none"},
                           gzip_body=True)
        else:
            self.send_json(404, {"error": "not_found"})

    def do_POST(self):
        path = urlsplit(self.path).path
        body = self.read_body()
        if path == "/v1/oauth/token":
            form = parse_qs(body.decode())
            if form.get("grant_type") != ["authorization_code"] or not form.get("code_verifier"):
                self.send_json(400, {"error": "invalid_request"})
                return
            access = fake_jwt()
            with LOCK:
                STATE["access_tokens"].add(access)
            self.send_json(200, {"access_token": access, "token_type": "Bearer", "expires_in": 3600,
                                 "refresh_token": b64url(secrets.token_bytes(48)), "scope": "sync"})
        elif path == "/v1/push":
            if self.headers.get("X-Test-Drop") == "1":
                self.close_connection = True  # no answer: the proxy sees a killed flow
                self.connection.shutdown(2)
                return
            if not self.authorized():
                return
            try:
                push = json.loads(body)
                operations = push["operations"]
                assert set(push) == {"operations"} and isinstance(operations, list)
                assert all(op["protocolVersion"] == 1 for op in operations)
            except (ValueError, KeyError, TypeError, AssertionError):
                self.send_json(400, {"error": "invalid_push"})
                return
            receipts = []
            with LOCK:
                for _ in operations:
                    STATE["revision"] += 1
                    cursor = b64url(json.dumps({"version": 1, "generation": 1, "offset": STATE["revision"]}).encode())
                    receipts.append({"cursor": cursor, "offset": STATE["revision"], "duplicate": False, "changed": True})
            self.send_json(200, {"receipts": receipts})
        else:
            self.send_json(404, {"error": "not_found"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port-file", required=True)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    temporary = args.port_file + ".tmp"
    with open(temporary, "w") as out:
        out.write(str(server.server_address[1]))
    os.replace(temporary, args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()
    sys.exit(0)


if __name__ == "__main__":
    main()
