"""What the scripts that watch a scan of the release binary with perf share (bench/shared-objects,
bench/serial-phases with uprobes, bench/thread-placement with scheduler events): their common
options, their HAR input, the scan they record, and the probes, removed however the run ends.
Root and perf are needed, and for probes a kernel with uprobes; each script's wrapper checks for
perf."""
import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parser():
    """Options every probing script takes: the binary, the workers, the input."""
    options = argparse.ArgumentParser()
    options.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "habiter-audit"))
    options.add_argument("--jobs", type=int, default=2)
    options.add_argument("file", nargs="?")
    return options


def har_input(path, megabytes):
    """`path`, or the bench HAR of `megabytes` MB in bench-data/, generated when missing."""
    path = path or os.path.join(ROOT, "bench-data", f"har-{megabytes}mb.har")
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "generate.py"), "har", str(megabytes), path], check=True,
                       stdout=subprocess.DEVNULL)
    return path


def scan_argv(binary, jobs, report, path):
    """The scan each script records: `jobs` workers on `path`, the JSON report written to `report`."""
    return [binary, "scan", "--quiet", "--no-config", "--jobs", str(jobs), "--format", "json", "--output", report, path]


@contextlib.contextmanager
def probes(program, group, binary, points):
    """Probes a copy of `binary` at `points` (event name: perf probe spec, `symbol` or
    `symbol%return`) in `group`, and yields the copy's path: the body runs the copy, since a
    uprobe belongs to the file it was placed in. The copy has no debugging information: perf
    probe looks a symbol up in the DWARF of a binary that has it, and in the release build's it
    fails ("Failed to find symbol at 0x...", for every symbol); without it, perf reads the
    symbol table, as the scripts' patterns do. The group is removed before and after, also
    when a probe fails."""
    def remove():
        subprocess.run(["perf", "probe", "-q", "-d", f"{group}:*"], stderr=subprocess.DEVNULL)

    if shutil.which("objcopy") is None:
        sys.exit(f"{program}: needs objcopy, to probe a copy of the binary without its debugging information: apt-get install binutils")
    remove()
    with tempfile.TemporaryDirectory() as directory:
        copy = os.path.join(directory, os.path.basename(binary))
        subprocess.run(["objcopy", "--strip-debug", binary, copy], check=True)
        try:
            for event, spec in points.items():
                added = subprocess.run(["perf", "probe", "-q", "-x", copy, "-a", f"{group}:{event}={spec}"], capture_output=True, text=True)
                if added.returncode != 0:
                    sys.exit(f"{program}: cannot probe {event} (root and a kernel with uprobes are needed): {added.stderr.strip()}")
            yield copy
        finally:
            remove()
