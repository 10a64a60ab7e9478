"""A server process under replay (docs/vectors.md, "Replay"): started in
a process group of its own and killed whole, its stdin written by a
thread, its stdout read line by line with deadlines; the probes the
replay writes (server/discover with the ids mcp-vectors-open-N,
mcp-vectors-sync-N, mcp-vectors-sync-N-K, mcp-vectors-end-N) and how a
process is opened as a modern client opens a stdio connection.
"""

import json
import os
import queue
import signal
import subprocess
import threading
import time

from .judge import id_token, show
from .vectors import CannotRun

class Process:
    """The server: in a process group of its own (POSIX), so that killing
    it stops whatever a launcher (npx, uv run, a shell script) started too;
    its stdin fed by a writer thread, so a server that stops reading never
    blocks the replay; its stdout read by a reader thread."""

    def __init__(self, command):
        try:
            self.p = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL,
                                      start_new_session=(os.name == "posix"))
        except OSError as e:
            raise CannotRun("cannot start %s: %s" % (command[0], e.strerror))
        self.lines = queue.Queue()
        self.input = queue.Queue()
        self.closed = False
        self.answered = False
        self.exited = False
        self.early = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._write, daemon=True).start()

    def _read(self):
        try:
            for line in self.p.stdout:
                if line.endswith(b"\n"):
                    line = line[:-1]
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    def _write(self):
        stdin = self.p.stdin
        try:
            while True:
                data = self.input.get()
                if data is None:
                    break
                stdin.write(data)
                stdin.flush()
        except (OSError, ValueError):
            pass
        try:
            stdin.close()
        except (OSError, ValueError):
            pass

    def write(self, data):
        if not self.closed:
            self.input.put(data + b"\n")

    def close(self):
        if not self.closed:
            self.closed = True
            self.input.put(None)

    def read(self, o, end):
        return self.read_within(o.reply_timeout if self.answered else o.timeout, end)

    def read_within(self, wait, end):
        if self.exited:
            return ("exited", None)
        wait = max(0.0, min(wait, end - time.monotonic()))
        try:
            line = self.lines.get(timeout=wait)
        except queue.Empty:
            return ("timeout", wait)
        if line is None:
            # Every later read finds the end of its output too (a chain
            # writes its next step to a process that exited).
            self.exited = True
            return ("exited", None)
        self.answered = True
        return ("line", line)

    def kill(self):
        self.close()
        if os.name == "posix":
            try:
                os.killpg(self.p.pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            self.p.kill()
        except OSError:
            pass
        self.p.wait()


def missing(read):
    kind, value = read
    if kind == "line":
        return show(value)
    if kind == "exited":
        return "(no reply: the server exited)"
    return "(no reply within %d ms)" % int(round(value * 1000))


def sync_line(kind, n):
    """The probe written after each single vector's request (kind "sync"),
    and its id."""
    i = '"mcp-vectors-%s-%s"' % (kind, n)
    line = ('{"jsonrpc":"2.0","id":%s,"method":"server/discover","params":{"_meta":'
            '{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
            '"io.modelcontextprotocol/clientCapabilities":{}}}}' % i)
    return line.encode("utf-8"), i


def is_reply_to(line, i):
    """Whether a line is a reply whose id is the probe's."""
    return id_token(line) == "s:" + json.loads(i)


def grace(o):
    """The wait, after the probe's reply, for a reply to the request that a
    server answering concurrently may send after it."""
    return o.reply_timeout / 8


def open_process(p, n, o, end):
    """Opens a process for single vectors as a modern client opens a stdio
    connection: a valid server/discover (id "mcp-vectors-open-N") before
    any other request. Its reply is not judged: a dual-era server may
    choose its era from how the connection opens, and a single vector's
    request is judged on a connection a modern client opened, whether it
    shares the process or has one of its own (--fresh-each). The lines
    before the reply are kept for the first vector."""
    line, i = sync_line("open", n)
    p.write(line)
    while True:
        read = p.read(o, end)
        if read[0] != "line" or is_reply_to(read[1], i):
            return
        p.early.append(read[1])

