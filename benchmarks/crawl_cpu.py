"""Where the CPU of a browser test goes: a pytest plugin for the crawls (tests/crawl.py).

    PYTHONPATH=benchmarks .venv/bin/python -m pytest -p crawl_cpu -p no:cacheprovider -n 0 \\
        tests/browser/test_site_crawl.py [-k visitor-de]

Per test (JSON lines in ``$CRAWL_CPU_OUT``, default test-artifacts/crawl-cpu.jsonl, and a table at
the end of the run):

- ``process``: the test process's CPU, split into ``main`` (the test's own thread: Playwright's
  client, the checks in Python) and ``server`` (the live server's request threads), the server's
  by kind of address with the number of requests: HTML pages, PDFs, CSV/XLSX/TRF exports, static
  files, the admin site;
- the processes the test process started, by kind: Playwright's driver (``node``) and Chromium's
  browser, renderer, GPU and utility processes, read from ``/proc`` four times a second (a process
  that ends between two readings loses at most its last quarter second);
- ``load``: the load average when the test ended.

Only single-process runs (``-n 0``) see the live server's threads. Run it alone on a test module:
the figures are CPU time, steadier than wall time on a shared machine, but still say the load.
"""

import collections
import json
import os
import re
import threading
import time
from pathlib import Path

import pytest

TICKS = os.sysconf("SC_CLK_TCK")
OUT = Path(os.environ.get("CRAWL_CPU_OUT", "test-artifacts/crawl-cpu.jsonl"))
_lock = threading.Lock()
_server = collections.defaultdict(lambda: [0, 0.0])  # kind of address -> [requests, CPU seconds]
_rows = []


def address_kind(path: str) -> str:
    route, _, query = path.partition("?")
    if route.startswith("/static/"):
        return "static"
    if route.startswith("/admin/"):
        return "admin"
    if route.endswith("pdf/") or "pdf=1" in query:
        return "pdf"
    if route.endswith(("csv/", "xlsx/", "trf/")) or "export" in route:
        return "export"
    return "html"


def _count_server_requests() -> None:
    from django.core.servers.basehttp import WSGIRequestHandler

    handle = WSGIRequestHandler.handle_one_request

    def timed(self):
        self.raw_requestline, start = b"", time.thread_time()
        handle(self)
        spent = time.thread_time() - start
        if self.raw_requestline:  # not a kept-alive connection closing
            with _lock:
                entry = _server[address_kind(getattr(self, "path", ""))]
                entry[0] += 1
                entry[1] += spent

    WSGIRequestHandler.handle_one_request = timed


class Children:
    """The CPU of every process below this one, by kind, as last read."""

    def __init__(self):
        self.me, self.ours, self.theirs, self.cpu = os.getpid(), {}, set(), {}
        threading.Thread(target=self._watch, daemon=True).start()

    def _kind(self, pid: int) -> str:
        try:
            # Chromium's child processes rewrite their command line as one string.
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").split()
        except OSError:
            return "gone"
        if not argv:
            return "gone"
        name = argv[0].decode(errors="replace").rsplit("/", 1)[-1]
        if name == "node":
            return "node"
        kind = next((a[7:].decode() for a in argv if a.startswith(b"--type=")), None)
        if "chrom" not in name and name != "exe":  # Chromium starts its helpers as /proc/self/exe
            return name
        return f"chromium {kind}" if kind else "chromium browser"

    def _watch(self) -> None:
        while True:
            for entry in os.listdir("/proc"):
                if not entry.isdigit() or int(entry) in self.theirs:
                    continue
                pid = int(entry)
                try:
                    stat = Path(f"/proc/{pid}/stat").read_text()
                except OSError:
                    continue
                fields = stat[stat.rindex(")") + 2:].split()
                if pid not in self.ours:
                    if int(fields[1]) != self.me and int(fields[1]) not in self.ours:
                        self.theirs.add(pid)
                        continue
                    self.ours[pid] = self._kind(pid)
                self.cpu[pid] = (int(fields[11]) + int(fields[12])) / TICKS
            time.sleep(0.25)

    def by_kind(self) -> collections.Counter:
        totals = collections.Counter()
        for pid, seconds in list(self.cpu.items()):
            totals[self.ours[pid]] += seconds
        return totals


_children = None


def pytest_configure(config):
    global _children
    _count_server_requests()
    _children = Children()


@pytest.fixture(autouse=True)
def _crawl_cpu(request):
    with _lock:
        _server.clear()
    time.sleep(0.3)  # one more reading of the processes
    before, main, process = _children.by_kind(), time.thread_time(), time.process_time()
    wall = time.monotonic()
    yield
    main, process, wall = time.thread_time() - main, time.process_time() - process, time.monotonic() - wall
    time.sleep(0.3)
    after = _children.by_kind()
    children = {kind: round(after[kind] - before.get(kind, 0), 2) for kind in after
                if after[kind] - before.get(kind, 0) >= 0.01}
    with _lock:
        server = {kind: [n, round(seconds, 2)] for kind, (n, seconds) in sorted(_server.items())}
    row = {"test": request.node.nodeid, "wall": round(wall, 1), "process": round(process, 2),
           "main": round(main, 2), "server": server, "children": children,
           "total": round(process + sum(children.values()), 2), "load": os.getloadavg()[0]}
    _rows.append(row)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("a") as out:
        out.write(json.dumps(row) + "\n")


def pytest_terminal_summary(terminalreporter):
    rows = [r for r in _rows if r["total"] >= 1]
    if not rows:
        return
    write = terminalreporter.write_line
    write("CPU seconds per test: total = process (main + server) + driver + Chromium")
    for r in rows:
        server = sum(seconds for _n, seconds in r["server"].values())
        chromium = sum(v for k, v in r["children"].items() if k.startswith("chromium"))
        parts = " ".join(f"{k}:{n}/{s}" for k, (n, s) in r["server"].items())
        name = re.sub(r"^.*::", "", r["test"])
        write(f"{name}: total {r['total']:.1f} = process {r['process']:.1f} (main {r['main']:.1f}, "
              f"server {server:.1f} [{parts}]) + node {r['children'].get('node', 0):.1f} "
              f"+ chromium {chromium:.1f}; wall {r['wall']} s, load {r['load']:.1f}")
