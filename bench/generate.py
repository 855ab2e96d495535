#!/usr/bin/env python3
"""Deterministic generator of large, realistic habiter-audit inputs.

Usage: generate.py KIND SIZE_MB OUTPUT
KIND: json (a 2-space indented push body of entity documents), compact (the same on one line),
      ndjson (one push operation per line), har (a browser-style HAR capture of sync calls with
      JSON bodies, headers, base64 response bodies and WebSocket frames), prefs (an Android
      FlutterSharedPreferences.xml export with every Flutter encoding).
The same arguments always give the same bytes. About one document in 20,000 carries a planted,
fake secret (a GitHub token in a description, an API key in a payload, a password in a note
that holds JSON), so every run has findings to report.
"""
import base64
import json
import random
import sys

BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
TITLES = ["Morning run", "Read 20 pages", "Drink water", "Meditate", "Stretch", "No sugar", "Journal",
          "Practice German", "Walk the dog", "Floss", "Sleep by 23:00", "Call mum", "Piano", "Cold shower"]
DESCRIPTIONS = ["Small steps every day.", "Track it even when it is hard.", "", "Before breakfast, 5 km loop.",
                "Streak goal: 30 days. Übung macht den Meister ✨", "Keep the phone in another room."]
ICONS = ["directions_run", "menu_book", "local_drink", "self_improvement", "fitness_center", "edit_note"]


def uuid(r):
    h = "%032x" % r.getrandbits(128)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:32]}"


def token(r, n):
    return "".join(r.choice(BASE62) for _ in range(n))


def habit_document(r, i):
    habit_id = uuid(r)
    payload = {
        "id": habit_id, "title": r.choice(TITLES), "description": r.choice(DESCRIPTIONS),
        "color": "#%06X" % r.getrandbits(24), "icon": r.choice(ICONS),
        "frequency": r.choice(["daily", "weekly", "custom"]), "target": r.randint(1, 10),
        "category": r.choice(["health", "mind", "social", "learning"]), "customDays": sorted(r.sample(range(1, 8), 3)),
        "createdAt": "2026-%02d-%02dT%02d:%02d:00.000Z" % (r.randint(1, 11), r.randint(1, 28), r.randint(0, 23), r.randint(0, 59)),
        "lifecycleState": r.choice(["active", "active", "paused", "archived"]), "pauses": [],
        "archivedAt": None, "restoredAt": None, "notificationEnabled": r.random() < 0.5,
        "notificationTime": "%02d:%02d" % (r.randint(6, 21), r.choice([0, 15, 30, 45])),
        "source": {"kind": "manual"},
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


def operation(r, i):
    document = habit_document(r, i) if i % 3 == 0 else entry_document(r)
    return {"operationId": "op-%08d" % i, "idempotencyKey": uuid(r), "baseRevision": 40 + i, "document": document}


def har_entry(r, i):
    ops = [operation(r, i * 4 + k) for k in range(4)]
    body = json.dumps({"protocolVersion": 1, "deviceId": "device-bench", "operations": ops}, separators=(",", ":"))
    pulled = json.dumps({"protocolVersion": 1, "changes": [{"serverRevision": 100 + i, "document": op["document"]} for op in ops[:2]],
                         "nextCursor": None, "hasMore": False}, separators=(",", ":"))
    headers = [{"name": "content-type", "value": "application/json"}, {"name": "user-agent", "value": "Habiter/1.8.0 (Android 14)"},
               {"name": "authorization", "value": "Bearer " + token(r, 40)}, {"name": "accept-encoding", "value": "gzip"}]
    entry = {
        "startedDateTime": "2026-11-30T07:%02d:%02d.000Z" % (i // 60 % 60, i % 60), "time": r.randint(20, 400),
        "request": {"method": "POST", "url": "https://sync.habiter.app/v1/sync/push", "httpVersion": "HTTP/2", "headers": headers,
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


def main():
    kind, size_mb, output = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    target = int(size_mb * 1024 * 1024)
    r = random.Random(20261130)
    with open(output, "w", encoding="utf-8") as f:
        if kind == "har":
            head = '{\n  "log": {\n    "version": "1.2",\n    "creator": {"name": "WebInspector", "version": "537.36"},\n    "pages": [],\n    "entries": ['
            f.write(head)
            written, i = len(head), 0
            while written < target:
                chunk = ("," if i else "") + "\n      " + json.dumps(har_entry(r, i), ensure_ascii=False)
                f.write(chunk)
                written += len(chunk.encode())
                i += 1
            f.write("\n    ]\n  }\n}\n")
            return
        if kind == "prefs":
            head = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n"
            f.write(head)
            written, i = len(head), 0
            while written < target:
                chunk = "\n".join(prefs_entries(r, i)) + "\n"
                f.write(chunk)
                written += len(chunk.encode())
                i += 1
            f.write("</map>\n")
            return
        if kind == "ndjson":
            written, i = 0, 0
            while written < target:
                line = json.dumps(operation(r, i), ensure_ascii=False, separators=(",", ":")) + "\n"
                f.write(line)
                written += len(line.encode())
                i += 1
            return
        indent = 2 if kind == "json" else None
        separators = (",", ": ") if kind == "json" else (",", ":")
        head = '{\n  "protocolVersion": 1,\n  "deviceId": "device-bench",\n  "operations": [' if indent else '{"protocolVersion":1,"deviceId":"device-bench","operations":['
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


if __name__ == "__main__":
    main()
