#!/usr/bin/env python3
"""Detection on the public rule sets' own examples (issue 21): recall and false alarms, all tools in one run.

Usage: bench/rule-examples.py [--markdown] [--details] [--binary PATH] [--no-install] [--tools a,b]
(bench/rule-examples builds habiter-audit in release mode first, then runs this script.)

The cases are bench/public-examples/cases.jsonl: the hand-written positive and negative examples of
Nosey Parker's rules (`examples`, `negative_examples`) and of gitleaks's rule generators (literal
`tps` and `fps`), copied verbatim; bench/public-examples/README.md says from which commits and under
which licences. Strings that gitleaks generates at run time are not cases.

Each case becomes one file, `corpus/<source>/<n>.json`, holding the case's text as a JSON string
value under a neutral key: {"text": "..."}. That is how such a string reaches us in practice: pasted
into a habit's note, a backup, a request body. Every tool scans the whole folder once, with its default
rules. A case counts as found (positive) or as a false alarm (negative) when the tool reports anything
in its file; nothing else is compared, so a tool is not penalised for naming a provider differently.

  recall        positives found / positives
  false alarms  negatives flagged / negatives

The peers are bench/peers.py's (gitleaks, betterleaks, kingfisher, detect-secrets by default), each
installed at its pin into .build/peers-venv/. Nothing is printed of a case but its source, rule and
label: the texts are secret-shaped.
"""
import argparse
import collections
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CASES = os.path.join(HERE, "public-examples", "cases.jsonl")
KEY = "text"
DEFAULT_TOOLS = ("habiter-audit", "gitleaks", "betterleaks", "kingfisher", "detect-secrets")

_spec = importlib.util.spec_from_file_location("peers", os.path.join(HERE, "peers.py"))
peers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(peers)


def say(message):
    print(f"bench/rule-examples: {message}", file=sys.stderr, flush=True)


def load_cases(path):
    with open(path, encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    for number, case in enumerate(cases):
        case["file"] = f"{case['source']}/{number:04d}.json"
    return cases


def write_corpus(cases, workdir):
    corpus = os.path.join(workdir, "corpus")
    for case in cases:
        path = os.path.join(corpus, case["file"])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            json.dump({KEY: case["text"]}, f, ensure_ascii=False)
            f.write("\n")
    return corpus


def run_habiter(binary, workdir, corpus, rule_dirs):
    """{file: set of rule ids}, and the number of inputs habiter-audit could not fully scan."""
    say("running habiter-audit scan corpus --format json -o out.json ...")
    extra = [argument for directory in rule_dirs for argument in ("--rules", directory)]
    result = subprocess.run([binary, "scan", "corpus", "--format", "json", "-o", "out.json", "--no-config"] + extra,
                            cwd=workdir, capture_output=True, text=True)
    report_path = os.path.join(workdir, "out.json")
    if result.returncode not in (0, 1) or not os.path.exists(report_path):
        raise SystemExit(f"bench/rule-examples: habiter-audit exited {result.returncode} without a report")
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    flagged = collections.defaultdict(set)
    for (path, _, rule) in peers.normalise([(f["artifact"], int(f["line"]), f["ruleId"])
                                            for f in report.get("findings", [])], corpus):
        flagged[path].add(rule)
    return flagged, len(report.get("errors", []))


def run_peer(peer, workdir, corpus):
    findings, error, _, _ = peers.run_peer(peer, workdir, corpus, 1)
    if error:
        return None, error
    flagged = collections.defaultdict(set)
    for path, _, rule in findings:
        flagged[path].add(rule)
    return flagged, None


def score(cases, flagged):
    positives = [c for c in cases if c["label"] == "positive"]
    negatives = [c for c in cases if c["label"] == "negative"]
    found = [c for c in positives if c["file"] in flagged]
    alarms = [c for c in negatives if c["file"] in flagged]
    return {"positives": positives, "negatives": negatives, "found": found, "alarms": alarms}


def ratio(part, whole):
    return f"{len(part) / len(whole):.2f}" if whole else "–"


def percent(part, whole):
    return f"{100.0 * len(part) / len(whole):.1f} %" if whole else "–"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print only the table and the commands")
    parser.add_argument("--details", action="store_true",
                        help="list habiter-audit's missed positives and false alarms by source rule")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "habiter-audit"))
    parser.add_argument("--cases", default=CASES)
    parser.add_argument("--rules", action="append", default=[], metavar="DIR",
                        help="also load habiter-audit's rule files from DIR (repeatable), to try rules before embedding them")
    parser.add_argument("--no-install", action="store_true", help="use the peers' venvs as they are")
    parser.add_argument("--tools", default=",".join(DEFAULT_TOOLS),
                        help=f"comma-separated, from habiter-audit and bench/peers.py's labels "
                             f"(default {','.join(DEFAULT_TOOLS)})")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    tools = [t for t in args.tools.split(",") if t]
    cases = load_cases(args.cases)

    rows, problems = [], []
    with tempfile.TemporaryDirectory(prefix="habiter-rule-examples-") as workdir:
        corpus = write_corpus(cases, workdir)
        for tool in tools:
            if tool == "habiter-audit":
                flagged, errors = run_habiter(args.binary, workdir, corpus, [os.path.abspath(d) for d in args.rules])
                if errors:
                    problems.append(f"habiter-audit: {errors} input(s) not fully scanned")
                version, stale = peers.habiter_version(args.binary)
                if stale:
                    problems.append("habiter-audit: the binary is older than Sources/ or rules/")
                rows.append({"tool": tool, "version": version, "flagged": flagged,
                             "command": "habiter-audit scan corpus --format json -o out.json --no-config"})
                continue
            peer = next((p for p in peers.PEERS if p.label == tool), None)
            if peer is None:
                raise SystemExit(f"bench/rule-examples: unknown tool {tool!r}")
            reason = (None if peers.installed_version(peer) == peer.version else "not installed") \
                if args.no_install else peers.install(peer)
            if reason:
                problems.append(f"{tool}: {reason}")
                continue
            flagged, error = run_peer(peer, workdir, corpus)
            if error:
                problems.append(f"{tool}: {error}")
                continue
            version = peers.tool_version(peer) or peers.installed_version(peer) or peer.version
            rows.append({"tool": tool, "version": version, "flagged": flagged, "command": peer.command})

    sources = sorted({c["source"] for c in cases})
    header = "| tool | version | recall | false alarms | " + " | ".join(
        f"{s} recall | {s} false alarms" for s in sources) + " |"
    table = [header, "|---" * (4 + 2 * len(sources)) + "|"]
    for row in rows:
        overall = score(cases, row["flagged"])
        row["score"] = overall
        cells = [row["tool"], row["version"],
                 f"{ratio(overall['found'], overall['positives'])} ({len(overall['found'])} / {len(overall['positives'])})",
                 f"{percent(overall['alarms'], overall['negatives'])} ({len(overall['alarms'])} / {len(overall['negatives'])})"]
        for source in sources:
            part = score([c for c in cases if c["source"] == source], row["flagged"])
            cells += [ratio(part["found"], part["positives"]), percent(part["alarms"], part["negatives"])]
        table.append("| " + " | ".join(cells) + " |")

    positives = sum(1 for c in cases if c["label"] == "positive")
    print(f"{len(cases)} cases ({positives} positive, {len(cases) - positives} negative) from "
          f"{', '.join(sources)}; each a JSON string value under \"{KEY}\", one file per case.\n")
    print("\n".join(table))
    print("\nCommands, run in a folder holding `corpus/`:\n")
    for row in rows:
        print(f"- {row['tool']}: `{row['command']}`")
    for problem in problems:
        print(f"- **Problem**: {problem}")
    if args.markdown or not args.details:
        return 0
    for row in rows:
        if row["tool"] != "habiter-audit":
            continue
        missed = collections.Counter((c["source"], c["rule"]) for c in row["score"]["positives"]
                                     if c["file"] not in row["flagged"])
        print(f"\n## habiter-audit: missed positives by source rule ({sum(missed.values())})\n")
        for (source, rule), count in sorted(missed.items()):
            print(f"- {source} {rule}: {count}")
        alarms = collections.Counter((c["source"], c["rule"], ", ".join(sorted(row["flagged"][c["file"]])))
                                     for c in row["score"]["alarms"])
        print(f"\n## habiter-audit: false alarms by source rule ({sum(alarms.values())})\n")
        for (source, rule, ours), count in sorted(alarms.items()):
            print(f"- {source} {rule} (negative) flagged by {ours}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
