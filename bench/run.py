#!/usr/bin/env python3
"""The performance suite (issue 7): throughput against the grep floor and a peer, adversarial
inputs, --jobs scaling, linearity and memory. Medians of several runs; every ratio is measured
in the same run, so the machine's noise hits both sides alike.

Usage: bench/run.py [--size MB] [--runs N] [--sections LIST] [--kinds LIST] [--adversarial LIST]
                    [--peer-size MB] [--big] [--markdown] [--binary PATH]
Sections (default: all but big; --big adds it):
  throughput   each realistic kind (json, compact, ndjson, har, prefs) at --size MB: MB/s, peak
               RSS, findings, and the floor `grep -cE 'AKIA[A-Z0-9]{16}|ghp_[A-Za-z0-9]{36}' FILE`
               (output to a file: GNU grep stops at the first match when writing to /dev/null)
  peer         detect-secrets 1.5.0 (PyPI, in .build/peers-venv/) and habiter-audit on the same
               --peer-size MB file of each kind (default 4: detect-secrets runs at ~0.15 MB/s,
               so 100 MB would take 11 minutes a kind); one run each
  adversarial  each adversarial kind of bench/generate.py (or those --adversarial names) at --size MB
               against the normal kind of its format (json, http, har, prefs) made as large: the
               time ratio against ≤ 3× and the peak RSS against the input's size + 64 MB (issue
               18's bounds); sensitive-keys with --max-document-hits 100000000 (its one document
               holds millions of hits, which the default limit stops at 250,000 with exit status 2)
  jobs         a directory of 100 files (json, ndjson, har, prefs; --size MB in all) with --jobs 1
               and --jobs 2
  onefile      one ndjson and one har file of --size MB, each with --jobs 1 and --jobs 2 (the
               file shared by two workers): speed-up, peak RSS, and whether the two reports are
               byte-identical; the ceiling is two `--jobs 1` scans of it at once
  reports      the har file of --size MB (the kind with the most findings) with each --format, the
               report written to a file: MB/s, the time against the JSON report's, the report's
               size and peak RSS
  linearity    json at --size/10 MB and at --size MB
  big          a 1 GB json file, scanned as a file and on stdin: peak RSS
Builds nothing: bench/run builds the release binary first. Inputs are generated once into
bench-data/ (deterministic; git-ignored).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "bench-data")
sys.path.insert(0, os.path.join(ROOT, "bench"))
import generate as generator  # noqa: E402
import peers  # noqa: E402

GNU_TIME = "/usr/bin/time"
FLOOR_PATTERN = "AKIA[A-Z0-9]{16}|ghp_[A-Za-z0-9]{36}"
TARGET_MBPS = {"json": 400, "compact": 400, "ndjson": 400, "har": 250, "prefs": 250}
# Issue 18's bounds for an adversarial input against a normal one of its format and size.
ADVERSARIAL_TIME_BOUND = 3
RSS_HEADROOM_MB = 64
SECTIONS = ("throughput", "peer", "adversarial", "jobs", "onefile", "reports", "linearity", "big")
REPORT_FORMATS = ("json", "sarif", "text", "html", "github")


def input_file(kind, size_mb, seed=None, directory=DATA):
    """The generated input of `kind` and size (made once, then reused)."""
    os.makedirs(directory, exist_ok=True)
    suffix = "" if seed is None else f"-seed{seed}"
    path = os.path.join(directory, f"{kind}-{size_mb:g}mb{suffix}.{generator.extension(kind)}")
    if not os.path.exists(path):
        partial = path + ".partial"
        generator.generate(kind, size_mb, partial, **({} if seed is None else {"seed": seed}))
        os.replace(partial, path)
    return path


def warm(path):
    paths = [path] if os.path.isfile(path) else [os.path.join(path, name) for name in sorted(os.listdir(path))]
    for p in paths:
        with open(p, "rb") as f:
            while f.read(1 << 24):
                pass


def run_once(command, stdin_path=None):
    """Wall time in seconds, peak RSS in KiB and exit status of one run.

    The peak RSS comes from GNU time, which forks the command from its own small process: a child
    forked from this Python process would inherit Python's peak RSS (Linux keeps the high-water
    mark across exec).
    """
    with tempfile.NamedTemporaryFile(mode="r", suffix=".rss") as rss:
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        start = time.perf_counter()
        status = subprocess.run([GNU_TIME, "-f", "%M", "-o", rss.name] + command, stdin=stdin,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        elapsed = time.perf_counter() - start
        if stdin_path:
            stdin.close()
        peak = int(rss.read().strip().splitlines()[-1])
    return elapsed, peak, status


def grep_floor(path):
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        subprocess.run(["grep", "-cE", FLOOR_PATTERN, path], stdout=out)
        return time.perf_counter() - start


class Suite:
    def __init__(self, args):
        self.args = args
        self.binary = args.binary
        self.rows = {}
        # With --markdown, stdout gets only the tables at the end; the rows go to stderr as they come.
        self.progress = sys.stderr if args.markdown else sys.stdout

    def scan_command(self, target, report, *options):
        """The command line of one scan of `target` with a JSON report written to `report`."""
        return [self.binary, "scan", "--quiet", "--no-config", "--format", "json", "--output", report, *options, target]

    def scan(self, target, *options, stdin_path=None):
        """One scan: (seconds, peak KiB, findings). Exit statuses other than 0/1 stop the suite."""
        with tempfile.NamedTemporaryFile(suffix=".json") as report:
            command = self.scan_command(target, report.name, *options)
            elapsed, peak, status = run_once(command, stdin_path)
            if status not in (0, 1):
                sys.exit(f"bench/run: {' '.join(command[1:])} failed with exit status {status}")
            with open(report.name) as f:
                findings = json.load(f)["summary"]["findings"]
        return elapsed, peak, findings

    def median_scan(self, target, *options, runs=None, stdin_path=None, floor=False):
        """Medians over runs: seconds, peak KiB, findings, and the grep floor's seconds if asked."""
        times, peaks, floors, findings = [], [], [], 0
        for _ in range(runs or self.args.runs):
            elapsed, peak, findings = self.scan(target, *options, stdin_path=stdin_path)
            times.append(elapsed)
            peaks.append(peak)
            if floor:
                floors.append(grep_floor(target))
        return (statistics.median(times), statistics.median(peaks), findings,
                statistics.median(floors) if floor else None)

    def add(self, section, header, row):
        self.rows.setdefault(section, (header, []))[1].append(row)
        print("  " + "  ".join(str(cell) for cell in row), file=self.progress, flush=True)

    def heading(self, section, text):
        print(f"\n{section}: {text}", file=self.progress, flush=True)

    # Sections

    def throughput(self):
        size = self.args.size
        self.heading("throughput", f"{size:g} MB inputs, medians of {self.args.runs} runs")
        header = ["input", "MB", "MB/s", "grep MB/s", "time / grep", "target MB/s", "peak RSS MiB", "findings"]
        for kind in self.args.kinds:
            path = input_file(kind, size)
            warm(path)
            mb = os.path.getsize(path) / 1e6
            t, peak, findings, g = self.median_scan(path, floor=True)
            self.add("throughput", header, [os.path.basename(path), f"{mb:.1f}", f"{mb / t:.0f}", f"{mb / g:.0f}",
                                            f"{t / g:.1f}×", TARGET_MBPS[kind], f"{peak / 1024:.0f}", findings])

    def peer(self):
        size = self.args.peer_size
        detect_secrets = next(p for p in peers.PEERS if p.name == "detect-secrets")
        problem = peers.install(detect_secrets)
        if problem:
            print(f"bench/run: peer section skipped: {problem}", file=sys.stderr)
            return
        self.heading("peer", f"detect-secrets {detect_secrets.version} and habiter-audit on {size:g} MB inputs, one run each")
        header = ["input", "MB", "detect-secrets MB/s", "habiter-audit MB/s", "habiter-audit / detect-secrets"]
        for kind in self.args.kinds:
            path = input_file(kind, size)
            warm(path)
            mb = os.path.getsize(path) / 1e6
            with tempfile.TemporaryFile() as out:
                start = time.perf_counter()
                status = subprocess.run([detect_secrets.binary, "scan", "--all-files", path], stdout=out,
                                        stderr=subprocess.DEVNULL, cwd=os.path.dirname(path)).returncode
                peer_seconds = time.perf_counter() - start
            if status != 0:
                sys.exit(f"bench/run: detect-secrets failed on {path} with exit status {status}")
            ours, _, _, _ = self.median_scan(path, runs=1)
            self.add("peer", header, [os.path.basename(path), f"{mb:.1f}", f"{mb / peer_seconds:.2f}", f"{mb / ours:.0f}",
                                      f"{peer_seconds / ours:.0f}×"])

    def adversarial(self):
        size = self.args.size
        self.heading("adversarial", f"{size:g} MB adversarial inputs against a normal input of the same format and size "
                                    f"(bounds: ≤ {ADVERSARIAL_TIME_BOUND:g}× its time, peak RSS ≤ input + {RSS_HEADROOM_MB} MB)")
        header = ["input", "MB", "MB/s", "compared with", "time / normal", "peak RSS MiB", "RSS bound MiB", "bounds", "findings"]
        for kind in self.args.adversarial:
            path = input_file(kind, size)
            # The normal input is made as large as the adversarial one came out.
            normal = input_file(generator.normal_kind(kind), round(os.path.getsize(path) / 2**20, 1))
            warm(path)
            warm(normal)
            mb = os.path.getsize(path) / 1e6
            options = ["--max-document-hits", "100000000"] if kind == "sensitive-keys" else []
            times, normal_times, peaks, findings = [], [], [], 0
            for _ in range(self.args.runs):  # interleaved with the normal input
                t, peak, findings = self.scan(path, *options)
                times.append(t)
                peaks.append(peak)
                normal_times.append(self.scan(normal)[0])
            t, n, peak = statistics.median(times), statistics.median(normal_times), statistics.median(peaks)
            bound_kib = (os.path.getsize(path) + RSS_HEADROOM_MB * 1e6) / 1024
            within = t / n <= ADVERSARIAL_TIME_BOUND and peak <= bound_kib
            self.add("adversarial", header, [os.path.basename(path), f"{mb:.1f}", f"{mb / t:.0f}", os.path.basename(normal),
                                             f"{t / n:.2f}×", f"{peak / 1024:.0f}", f"{bound_kib / 1024:.0f}",
                                             "within" if within else "OVER", findings])

    def jobs(self):
        size = self.args.size
        directory = os.path.join(DATA, f"jobs-{size:g}mb")
        kinds = ("json", "ndjson", "har", "prefs")
        for i in range(100):
            input_file(kinds[i % 4], size / 100, seed=1000 + i, directory=directory)
        warm(directory)
        mb = sum(os.path.getsize(os.path.join(directory, n)) for n in os.listdir(directory)) / 1e6
        self.heading("jobs", f"a directory of 100 files, {mb:.0f} MB in all (target: --jobs 2 ≥ 1.8× --jobs 1)")
        header = ["jobs", "MB", "MB/s", "speed-up", "peak RSS MiB", "findings"]
        times = {1: [], 2: []}
        peaks = {1: [], 2: []}
        pairs = []
        findings = 0
        for _ in range(self.args.runs):  # interleaved
            for jobs in (1, 2):
                t, peak, findings = self.scan(directory, "--jobs", str(jobs))
                times[jobs].append(t)
                peaks[jobs].append(peak)
            pairs.append(self.two_at_once(directory))
        one = statistics.median(times[1])
        for jobs in (1, 2):
            t = statistics.median(times[jobs])
            self.add("jobs", header, [jobs, f"{mb:.1f}", f"{mb / t:.0f}", f"{one / t:.2f}×",
                                      f"{statistics.median(peaks[jobs]) / 1024:.0f}", findings])
        # Two whole single-job scans at once do twice the work of one: 2 × one / pair is what two
        # busy cores give this workload here, with no serial part and nothing shared.
        pair = statistics.median(pairs)
        self.add("jobs", header, ["ceiling: two `--jobs 1` scans at once", f"{2 * mb:.1f}", f"{2 * mb / pair:.0f}",
                                  f"{2 * one / pair:.2f}×", "", ""])

    def onefile(self):
        size = self.args.size
        self.heading("onefile", f"one {size:g} MB file shared by --jobs 2 (target: ≥ 1.8× --jobs 1, byte-identical reports)")
        header = ["input", "MB", "jobs 1 MB/s", "jobs 2 MB/s", "speed-up", "ceiling", "peak RSS MiB (1 / 2)", "reports"]
        for kind in ("ndjson", "har"):
            path = input_file(kind, size)
            warm(path)
            mb = os.path.getsize(path) / 1e6
            times, peaks, pairs = {1: [], 2: []}, {1: [], 2: []}, []
            with tempfile.TemporaryDirectory() as reports:
                for run in range(self.args.runs):  # interleaved
                    for jobs in (1, 2):
                        report = os.path.join(reports, f"{jobs}-{run}.json")
                        elapsed, peak, status = run_once(self.scan_command(path, report, "--jobs", str(jobs)))
                        if status not in (0, 1):
                            sys.exit(f"bench/run: --jobs {jobs} on {path} failed with exit status {status}")
                        times[jobs].append(elapsed)
                        peaks[jobs].append(peak)
                    pairs.append(self.two_at_once(path))
                first = open(os.path.join(reports, "1-0.json"), "rb").read()
                identical = all(open(os.path.join(reports, name), "rb").read() == first for name in os.listdir(reports))
            one, two, pair = (statistics.median(times[1]), statistics.median(times[2]), statistics.median(pairs))
            self.add("onefile", header, [os.path.basename(path), f"{mb:.1f}", f"{mb / one:.0f}", f"{mb / two:.0f}", f"{one / two:.2f}×",
                                         f"{2 * one / pair:.2f}×", f"{statistics.median(peaks[1]) / 1024:.0f} / {statistics.median(peaks[2]) / 1024:.0f}",
                                         "identical" if identical else "DIFFER"])

    def two_at_once(self, directory):
        """Wall time of two `--jobs 1` scans of `directory` (or a file) started together."""
        with tempfile.TemporaryDirectory() as reports:
            commands = [self.scan_command(directory, os.path.join(reports, f"{i}.json"), "--jobs", "1") for i in range(2)]
            start = time.perf_counter()
            processes = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for c in commands]
            statuses = [p.wait() for p in processes]
            elapsed = time.perf_counter() - start
        if any(status not in (0, 1) for status in statuses):
            sys.exit(f"bench/run: a --jobs 1 scan of {directory} failed with exit status {max(statuses)}")
        return elapsed

    def reports(self):
        size = self.args.size
        path = input_file("har", size)
        warm(path)
        mb = os.path.getsize(path) / 1e6
        self.heading("reports", f"the {size:g} MB HAR in each report format, written to a file, medians of {self.args.runs} runs")
        header = ["format", "MB/s", "time / json", "report MB", "peak RSS MiB"]
        times = {fmt: [] for fmt in REPORT_FORMATS}
        peaks = {fmt: [] for fmt in REPORT_FORMATS}
        sizes = {}
        with tempfile.TemporaryDirectory() as reports:
            for _ in range(self.args.runs):  # interleaved
                for fmt in REPORT_FORMATS:
                    report = os.path.join(reports, f"report.{fmt}")
                    command = [self.binary, "scan", "--quiet", "--no-config", "--format", fmt, "--output", report, path]
                    elapsed, peak, status = run_once(command)
                    if status not in (0, 1):
                        sys.exit(f"bench/run: --format {fmt} on {path} failed with exit status {status}")
                    times[fmt].append(elapsed)
                    peaks[fmt].append(peak)
                    sizes[fmt] = os.path.getsize(report)
        reference = statistics.median(times["json"])
        for fmt in REPORT_FORMATS:
            t = statistics.median(times[fmt])
            self.add("reports", header, [fmt, f"{mb / t:.0f}", f"{t / reference:.2f}×", f"{sizes[fmt] / 1e6:.1f}",
                                         f"{statistics.median(peaks[fmt]) / 1024:.0f}"])

    def linearity(self):
        size = self.args.size
        self.heading("linearity", f"json at {size / 10:g} MB and {size:g} MB (target: 10× the input ≤ 11× the time)")
        header = ["input", "MB", "seconds", "MB/s", "time / smaller"]
        small, large = input_file("json", size / 10), input_file("json", size)
        warm(small)
        warm(large)
        times = {small: [], large: []}
        for _ in range(self.args.runs):
            for path in (small, large):
                times[path].append(self.scan(path)[0])
        base = statistics.median(times[small])
        for path in (small, large):
            t = statistics.median(times[path])
            mb = os.path.getsize(path) / 1e6
            self.add("linearity", header, [os.path.basename(path), f"{mb:.1f}", f"{t:.2f}", f"{mb / t:.0f}", f"{t / base:.2f}×"])

    def big(self):
        path = input_file("json", 1000)
        warm(path)
        mb = os.path.getsize(path) / 1e6
        self.heading("big", f"a {mb:.0f} MB json file (targets: RSS ≤ size + 64 MB as a file, < 128 MB on stdin)")
        header = ["input", "MB", "MB/s", "peak RSS MiB", "findings"]
        runs = min(self.args.runs, 3)
        for label, target, stdin_path in (("file", path, None), ("stdin", "-", path)):
            t, peak, findings, _ = self.median_scan(target, runs=runs, stdin_path=stdin_path)
            self.add("big", header, [f"{os.path.basename(path)} ({label})", f"{mb:.0f}", f"{mb / t:.0f}", f"{peak / 1024:.0f}", findings])

    def print_markdown(self):
        for section in SECTIONS:
            if section not in self.rows:
                continue
            header, rows = self.rows[section]
            print(f"\n{section}:\n")
            print("| " + " | ".join(header) + " |")
            print("|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|")
            for row in rows:
                print("| " + " | ".join(str(cell) for cell in row) + " |")


def main():
    if not os.path.exists(GNU_TIME):
        sys.exit("bench/run needs GNU time for peak memory: apt-get install -y time")
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=float, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sections", default=",".join(s for s in SECTIONS if s != "big"))
    parser.add_argument("--kinds", default=",".join(generator.REALISTIC_KINDS))
    parser.add_argument("--adversarial", default=",".join(generator.ADVERSARIAL_KINDS))
    parser.add_argument("--peer-size", type=float, default=4)
    parser.add_argument("--big", action="store_true", help="add the 1 GB memory section")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables at the end (progress on stderr)")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "habiter-audit"))
    args = parser.parse_args()
    args.kinds = args.kinds.split(",")
    for kind in args.kinds:
        if kind not in TARGET_MBPS:
            sys.exit(f"bench/run: unknown kind {kind!r} (one of {', '.join(TARGET_MBPS)})")
    args.adversarial = args.adversarial.split(",")
    for kind in args.adversarial:
        if kind not in generator.ADVERSARIAL_KINDS:
            sys.exit(f"bench/run: unknown adversarial kind {kind!r} (one of {', '.join(generator.ADVERSARIAL_KINDS)})")
    sections = args.sections.split(",") + (["big"] if args.big else [])
    for section in sections:
        if section not in SECTIONS:
            sys.exit(f"bench/run: unknown section {section!r} (one of {', '.join(SECTIONS)})")
    if not os.path.exists(args.binary):
        sys.exit(f"bench/run: no binary at {args.binary}: run bench/run (it builds one) or pass --binary")

    suite = Suite(args)
    if not args.markdown:
        print(f"habiter-audit scan (release build, default rule pack); {os.cpu_count()} CPUs; medians of {args.runs} runs")
    for section in SECTIONS:
        if section in sections:
            getattr(suite, section)()
    if args.markdown:
        suite.print_markdown()


if __name__ == "__main__":
    main()
