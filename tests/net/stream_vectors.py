#!/usr/bin/env python3
"""The authenticated stream's test vectors of docs/protocol.md, made again
from the document's tables with Python's struct, hmac and hashlib (no code
of tally's): `stream_vectors.py` prints them; `stream_vectors.py --check
DOC` fails unless DOC holds each one, byte for byte, under its name.
"""
import hashlib
import hmac
import re
import struct
import sys

KEY = b"tally protocol test key 0001"   # the document's test key
RUN = 0x0123456789ABCDEF                 # the run id of every vector


def packet(ptype, seq, payload, auth):
    """Header (24 bytes), payload, and with auth the tag: the first 16 bytes
    of HMAC-SHA256(key, header || payload), the AUTH flag already set."""
    head = b"TALY" + struct.pack("<BBHQIHH", 1, ptype, 1 if auth else 0, RUN, seq, len(payload), 0)
    pkt = head + payload
    if auth:
        pkt += hmac.new(KEY, pkt, hashlib.sha256).digest()[:16]
    return pkt


def dump(b):
    """The document's hex layout: offset, then 16 bytes, 8 and 8."""
    lines = []
    for o in range(0, len(b), 16):
        chunk = b[o:o + 16]
        text = " ".join("%02x" % x for x in chunk[:8])
        if len(chunk) > 8:
            text += "  " + " ".join("%02x" % x for x in chunk[8:])
        lines.append("%04x  %s" % (o, text))
    return "\n".join(lines)


def vectors():
    # DATA (0x23): interval 3, cycles [300,000, 400,000), counters 0-3 at 12
    # bits (2 bytes each), counter 1 saturated (bit 1 of the bitmap)
    values = [17, 4095, 0, 1234]
    data = struct.pack("<QQQHHB3x", 3, 300000, 400000, 0, 4, 12) + bytes([0x02])
    data += b"".join(struct.pack("<H", v) for v in values)
    # FINAL_ACK (0x32): verdict 1 (complete), 13 packets held; seq 13, the stream's length
    ack = struct.pack("<B3xI", 1, 13)
    return [("final-ack", packet(0x32, 13, ack, False)),
            ("data-auth", packet(0x23, 5, data, True)),
            ("final-ack-auth", packet(0x32, 13, ack, True))]


def main():
    if len(sys.argv) == 1:
        for name, pkt in vectors():
            print("### Vector: %s\n\n```hex\n%s\n```\n" % (name, dump(pkt)))
        return 0
    if len(sys.argv) != 3 or sys.argv[1] != "--check":
        print("usage: stream_vectors.py [--check DOC]", file=sys.stderr)
        return 64
    doc = open(sys.argv[2], encoding="utf-8").read()
    bad = 0
    for name, pkt in vectors():
        m = re.search(r"### Vector: %s\n.*?```hex\n(.*?)\n```" % re.escape(name), doc, re.S)
        if not m:
            print("FAIL: no vector %s in %s" % (name, sys.argv[2]))
            bad += 1
        elif m.group(1).strip() != dump(pkt):
            print("FAIL: vector %s differs:\n document:\n%s\n made here:\n%s" % (name, m.group(1), dump(pkt)))
            bad += 1
    print("%d vectors, %d differ" % (len(vectors()), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
