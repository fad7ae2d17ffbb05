#!/usr/bin/env python3
"""A forged run sent to tally serve's collector is not stored. Any local
user can find the server's loopback UDP port (here as such a user would:
the server's sockets in /proc/PID/fd, their ports in /proc/net/udp); the
collector takes only packets tagged with a key made at random when the
server started, handed to its workers through an inherited pipe. The
forged run is whole by docs/protocol.md's tables (RUN_START, one DATA
packet, FINAL with matching totals; built here with struct), so without
the key it would be stored complete.

usage: forge_packets.py TALLY WORK_DIR
"""
import os
import socket
import sqlite3
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_harness import Server, check, done, fresh_dir  # noqa: E402

NAME = b"<img src=x onerror=alert(1)>"


def packet(ptype, run, seq, payload):
    return b"TALY" + struct.pack("<BBHQIHH", 1, ptype, 0, run, seq, len(payload), 0) + payload


def forged_run(run):
    start = struct.pack("<HBBHHQIHH", 1, 32, 0, 0, 0, 1000, 0, len(NAME), 6) + NAME + b"tally5"
    data = struct.pack("<QQQHHB3x", 0, 0, 1000, 0, 1, 32) + b"\x00" + struct.pack("<I", 7)
    final = struct.pack("<QQQIIHHHBB", 1, 0, 1000, 1, 3, 1, 0, 1, 0, 0) + struct.pack("<Q", 7)
    return [packet(0x21, run, 0, start), packet(0x23, run, 1, data), packet(0x24, run, 2, final)]


def udp_ports(pid):
    """The loopback UDP ports the process holds."""
    inodes = set()
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            link = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    ports = []
    with open("/proc/net/udp") as f:
        for line in f.readlines()[1:]:
            cols = line.split()
            addr, port = cols[1].split(":")
            if cols[9] in inodes and addr == "0100007F":
                ports.append(int(port, 16))
    return ports


def main():
    tally, work = sys.argv[1:3]
    fresh_dir(work)
    srv = Server(tally, work)
    ports = udp_ports(srv.p.pid)
    check(len(ports) == 1, "the server's loopback UDP ports: %s" % ports)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for i, port in enumerate(ports):
        for pkt in forged_run(0x5EC0000000000001 + i):
            s.sendto(pkt, ("127.0.0.1", port))
            time.sleep(0.02)
    time.sleep(1.0)
    st, runs = srv.json("GET", "/api/runs")
    listed = runs if isinstance(runs, list) else runs.get("runs", [])
    check(st == 200, "/api/runs: %d %s" % (st, runs))
    check(not [r for r in listed if "onerror" in str(r.get("program"))], "a forged run is listed: %s" % listed)
    srv.p.terminate()
    srv.p.wait(10)
    err = srv.p.stderr.read()
    check("carries no tag and this collector has a key" in err, "no refusal said: %r" % err[-1000:])
    con = sqlite3.connect("file:%s?mode=ro" % srv.db, uri=True)
    n = con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    con.close()
    check(n == 0, "the store holds %d runs after forged packets only" % n)
    return done()


if __name__ == "__main__":
    sys.exit(main())
