#!/usr/bin/env python3
"""The end of scripts/test: the skipped tests with their reasons, the failed ones, and one line of
passed, failed and skipped counts.

Usage: scripts/test-summary.py EVENTS STATUS [STEP=passed|failed ...]

EVENTS is the Swift Testing event stream (JSON lines, version 0) that
`swift test --event-stream-output-path EVENTS --event-stream-version 0` writes, and STATUS
its exit status (a crash fails the run even when no test recorded a failure). Its console
output prints a skipped or cancelled test among thousands of lines, and a test that returned
early as "passed"; the stream records each test's outcome, and each skip with its comment.
A test skips with a trait (`.enabled(if: …, "why")`, `.disabled("why")`) or, when it finds out
while running, with `try Test.cancel("why")`. Each STEP is one of the suite's scripts
(bench/guard, …), counted as one test. Exits 1 when anything failed.
"""
import json
import os
import sys


def reason(payload):
    """The comment a skip was given, else the message Swift Testing printed for it."""
    comments = [c for c in payload.get("_comments") or [] if c]
    if comments:
        return " ".join(comments)
    texts = [m.get("text", "") for m in payload.get("messages") or []]
    return " ".join(t for t in texts if t) or "no reason given"


def readable(test_id):
    """`Module.Suite/test()/File.swift:12:6` → `Module.Suite/test()`."""
    parts = test_id.split("/")
    if len(parts) > 1 and ".swift:" in parts[-1]:
        parts = parts[:-1]
    return "/".join(parts)


def swift_outcomes(path):
    """Per test function: its outcome; the skipped tests and cases with their reasons."""
    functions, outcome, known = set(), {}, set()
    skipped, skipped_cases = {}, []
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            if not line.strip():
                continue
            record = json.loads(line)
            payload = record.get("payload", {})
            if record.get("kind") == "test":
                if payload.get("kind") == "function":
                    functions.add(payload["id"])
                continue
            kind, test = payload.get("kind"), payload.get("testID")
            if kind == "testSkipped":
                skipped[test] = reason(payload)
            elif kind == "testCancelled":
                skipped.setdefault(test, reason(payload))
            elif kind == "testCaseCancelled" and payload.get("_testCase"):
                # One argument of a parameterized test that otherwise ran.
                case = payload["_testCase"].get("displayName", "?")
                skipped_cases.append((test, case, reason(payload)))
            elif kind == "testEnded":
                symbols = {m.get("symbol") for m in payload.get("messages") or []}
                if "fail" in symbols:
                    outcome[test] = "failed"
                elif "skip" in symbols:
                    outcome[test] = "skipped"
                else:
                    outcome[test] = "passed"
                    if "passWithKnownIssue" in symbols:
                        known.add(test)
    for test in skipped:
        outcome[test] = "skipped"
    # A skipped parameterized test ends a case, not itself: its cases' cancellations are its own.
    skipped_cases = [c for c in skipped_cases if c[0] not in skipped]
    results = {t: outcome[t] for t in functions if t in outcome}
    return results, skipped, skipped_cases, known


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    events, status, steps = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    failed_names, skipped, skipped_cases, known = [], {}, [], set()
    swift_total = 0
    if os.path.exists(events) and os.path.getsize(events) > 0:
        results, skipped, skipped_cases, known = swift_outcomes(events)
        swift_total = len(results)
        for test, result in results.items():
            counts[result] += 1
            if result == "failed":
                failed_names.append(readable(test))
    else:
        counts["failed"] += 1
        failed_names.append(f"swift test (no event stream at {events}: the test run did not start or crashed)")
    if status != 0 and not failed_names:
        counts["failed"] += 1
        failed_names.append(f"swift test exited {status} with no failed test (a crash, or an error outside the tests)")
    for step in steps:
        name, _, result = step.rpartition("=")
        counts["passed" if result == "passed" else "failed"] += 1
        if result != "passed":
            failed_names.append(name)

    if skipped or skipped_cases:
        print(f"\nSkipped ({len(skipped) + len(skipped_cases)}):")
        for test in sorted(skipped, key=readable):
            print(f"  {readable(test)}: {skipped[test]}")
        for test, case, why in sorted(skipped_cases):
            print(f"  {readable(test)} case {case}: {why}")
    if failed_names:
        print(f"\nFailed ({len(failed_names)}):")
        for name in sorted(failed_names):
            print(f"  {name}")
    cases = f", {len(skipped_cases)} more test case{'s' if len(skipped_cases) != 1 else ''} skipped" if skipped_cases else ""
    with_known = f" ({len(known)} with known issues)" if known else ""
    print(f"\nscripts/test: {counts['passed']} passed{with_known}, {counts['failed']} failed, "
          f"{counts['skipped']} skipped{cases} ({swift_total} Swift tests, {len(steps)} scripts)")
    sys.exit(1 if counts["failed"] else 0)


if __name__ == "__main__":
    main()
