#!/usr/bin/env python3
"""A bad network between a board and a collector, for tests.

    relay.py --listen 127.0.0.1:0 --to COLLECTOR_ADDR:PORT
             [--drop P] [--dup P] [--reorder P] [--seed S] [--hold-ms MS]
             [--each-first] [--idle-exit S]

The board sends to the relay's --listen address; the relay forwards to --to
from a second socket, and forwards what comes back (resend requests, final
acknowledgements) to the board, from the --listen socket. In both directions
each packet is, independently and from one seeded generator:

  dropped with probability --drop, else
  sent twice with probability --dup, and/or
  held back with probability --reorder, then released after 1 to 3 later
  packets in the same direction have gone by, or after --hold-ms.

With --each-first the first three packets of each direction are dropped,
sent twice and held back, in that order, before the generator takes over:
a short direction (the collector's few resend requests and final
acknowledgements) then meets every fault whatever the timing.

It prints "relay=ADDR:PORT" (its --listen address) on stdout when ready, and
on exit (SIGTERM, SIGINT, or --idle-exit seconds without a packet) one line
of counts per direction on stdout:

  up forwarded=N dropped=N duplicated=N reordered=N
  down forwarded=N dropped=N duplicated=N reordered=N

Timing on a real machine varies, so two runs with one seed may differ in
which packets they hit, but the proportions hold.
"""
import argparse
import random
import selectors
import signal
import socket
import sys
import time


def parse_addr(text):
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError("'%s' is not ADDR:PORT" % text)
    return (host.strip("[]"), int(port))


def probability(text):
    p = float(text)
    if not 0 <= p <= 1:
        raise argparse.ArgumentTypeError("'%s' is not a probability from 0 to 1" % text)
    return p


class Direction:
    def __init__(self, name, rng, args):
        self.name, self.rng, self.args = name, rng, args
        self.held = []          # [packets still to pass before release, deadline, bytes]
        self.counts = dict(forwarded=0, dropped=0, duplicated=0, reordered=0)
        self.seen = 0

    def forced(self, fault):
        # --each-first: packet 0 is dropped, 1 duplicated, 2 held back
        return self.args.each_first and self.seen - 1 == ("drop", "dup", "reorder").index(fault)

    def packet(self, data, send):
        self.release(send, passing=True)
        self.seen += 1
        early = self.args.each_first and self.seen <= 3
        if self.forced("drop") or (not early and self.rng.random() < self.args.drop):
            self.counts["dropped"] += 1
            return
        copies = 1
        if self.forced("dup") or (not early and self.rng.random() < self.args.dup):
            self.counts["duplicated"] += 1
            copies = 2
        for _ in range(copies):
            if self.forced("reorder") or (not early and self.rng.random() < self.args.reorder):
                self.counts["reordered"] += 1
                self.held.append([self.rng.randint(1, 3), time.monotonic() + self.args.hold_ms / 1000, data])
            else:
                send(data)
                self.counts["forwarded"] += 1

    def release(self, send, passing=False):
        now = time.monotonic()
        keep = []
        for h in self.held:
            if passing:
                h[0] -= 1
            if h[0] <= 0 or now >= h[1]:
                send(h[2])
                self.counts["forwarded"] += 1
            else:
                keep.append(h)
        self.held = keep

    def next_deadline(self):
        return min((h[1] for h in self.held), default=None)

    def report(self):
        c = self.counts
        return "%s forwarded=%d dropped=%d duplicated=%d reordered=%d" % (
            self.name, c["forwarded"], c["dropped"], c["duplicated"], c["reordered"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--listen", type=parse_addr, default=("127.0.0.1", 0))
    ap.add_argument("--to", type=parse_addr, required=True)
    ap.add_argument("--drop", type=probability, default=0.0)
    ap.add_argument("--dup", type=probability, default=0.0)
    ap.add_argument("--reorder", type=probability, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hold-ms", type=float, default=30.0)
    ap.add_argument("--each-first", action="store_true")
    ap.add_argument("--idle-exit", type=float, default=0.0)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    board_side = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    board_side.bind(args.listen)
    collector_side = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    collector_side.bind((args.listen[0], 0))
    for s in (board_side, collector_side):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        s.setblocking(False)
    up = Direction("up", rng, args)        # board -> collector
    down = Direction("down", rng, args)    # collector -> board
    board_addr = [None]

    def to_collector(data):
        try:
            collector_side.sendto(data, args.to)
        except OSError:
            pass

    def to_board(data):
        if board_addr[0]:
            try:
                board_side.sendto(data, board_addr[0])
            except OSError:
                pass

    stop = [False]

    def on_signal(signum, frame):
        stop[0] = True
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    sel = selectors.DefaultSelector()
    sel.register(board_side, selectors.EVENT_READ, "up")
    sel.register(collector_side, selectors.EVENT_READ, "down")
    host, port = board_side.getsockname()[:2]
    print("relay=%s:%d" % (host, port), flush=True)
    last = time.monotonic()
    while not stop[0]:
        deadlines = [d for d in (up.next_deadline(), down.next_deadline()) if d is not None]
        timeout = max(0.0, min(deadlines) - time.monotonic()) if deadlines else 0.2
        try:
            events = sel.select(min(timeout, 0.2))
        except InterruptedError:
            continue
        for key, _ in events:
            while True:
                try:
                    data, src = key.fileobj.recvfrom(65536)
                except (BlockingIOError, InterruptedError):
                    break
                except OSError:
                    break
                last = time.monotonic()
                if key.data == "up":
                    board_addr[0] = src
                    up.packet(data, to_collector)
                else:
                    down.packet(data, to_board)
        up.release(to_collector)
        down.release(to_board)
        if args.idle_exit and time.monotonic() - last > args.idle_exit:
            break
    print(up.report())
    print(down.report(), flush=True)


if __name__ == "__main__":
    sys.exit(main())
