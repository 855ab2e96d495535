#!/usr/bin/env python3
"""Benchmarks `habiter-audit scan` on generated inputs: median MB/s and peak RSS over several runs.

Usage: bench/run.py [--size MB] [--runs N] [--kinds json,compact,ndjson,har,prefs] [--binary PATH]
Builds nothing: run `swift build -c release` first (bench/run does both).
Inputs are generated once into bench-data/ by bench/generate.py (deterministic).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def generate(kind, size_mb):
    os.makedirs(os.path.join(ROOT, "bench-data"), exist_ok=True)
    extension = {"ndjson": "ndjson", "har": "har", "prefs": "xml"}.get(kind, "json")
    path = os.path.join(ROOT, "bench-data", f"{kind}-{size_mb:g}mb.{extension}")
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "generate.py"), kind, str(size_mb), path], check=True)
    return path


def warm(path):
    with open(path, "rb") as f:
        while f.read(1 << 24):
            pass


GNU_TIME = "/usr/bin/time"


def run_once(command, stdin_path=None):
    """Wall time in seconds, peak RSS in KiB, exit status.

    The peak RSS comes from GNU time, which forks the scanner from its own small process: a
    child forked from this Python process would inherit Python's peak RSS (Linux keeps the
    high-water mark across exec), which grows with the reports this script reads.
    """
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    with tempfile.NamedTemporaryFile(mode="r", suffix=".rss") as rss:
        start = time.perf_counter()
        status = subprocess.run([GNU_TIME, "-f", "%M", "-o", rss.name] + command, stdin=stdin,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        elapsed = time.perf_counter() - start
        peak = int(rss.read().strip().splitlines()[-1])
    if stdin_path:
        stdin.close()
    return elapsed, peak, status


def main():
    if not os.path.exists(GNU_TIME):
        sys.exit("bench/run needs GNU time for peak memory: apt-get install -y time")
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=float, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--kinds", default="json")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "habiter-audit"))
    args = parser.parse_args()

    print(f"habiter-audit scan, {args.runs} runs each, medians; {os.cpu_count()} CPUs; release build")
    print("floor: grep -cE 'AKIA[A-Z0-9]{16}|ghp_[A-Za-z0-9]{36}' FILE > out (cache warm), same runs")
    print(f"{'input':<28}{'MB':>8}{'MB/s':>9}{'peak RSS MiB':>14}{'RSS/size':>10}{'findings':>10}{'grep MB/s':>11}{'time/grep':>11}")
    for kind in args.kinds.split(","):
        path = generate(kind, args.size)
        size = os.path.getsize(path)
        warm(path)
        report = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name
        command = [args.binary, "scan", "--quiet", "--format", "json", "--output", report, path]
        times, rss, floor = [], [], []
        grep_out = tempfile.NamedTemporaryFile(delete=False).name
        for _ in range(args.runs):
            elapsed, peak, status = run_once(command)
            if status not in (0, 1):
                sys.exit(f"scan of {path} failed with exit status {status}")
            times.append(elapsed)
            rss.append(peak)
            # GNU grep stops at the first match when its output is /dev/null: write to a file.
            start = time.perf_counter()
            with open(grep_out, "w") as out:
                subprocess.run(["grep", "-cE", "AKIA[A-Z0-9]{16}|ghp_[A-Za-z0-9]{36}", path], stdout=out)
            floor.append(time.perf_counter() - start)
        os.unlink(grep_out)
        with open(report) as f:
            findings = json.load(f)["summary"]["findings"]
        os.unlink(report)
        t, r, g = statistics.median(times), statistics.median(rss), statistics.median(floor)
        mb = size / 1e6
        print(f"{os.path.basename(path):<28}{mb:>8.1f}{mb / t:>9.1f}{r / 1024:>14.1f}{r * 1024 / size:>10.2f}{findings:>10}"
              f"{mb / g:>11.1f}{t / g:>11.2f}")


if __name__ == "__main__":
    main()
