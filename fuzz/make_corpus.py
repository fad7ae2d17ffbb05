#!/usr/bin/env python3
"""Writes the test vectors of docs/protocol.md as a seed corpus, one file each.

    make_corpus.py docs/protocol.md OUT_DIR
"""
import os
import re
import sys

doc, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
name, n = None, 0
hexlines = None
for line in open(doc, encoding="utf-8"):
    if line.startswith("### Vector: "):
        name = line[12:].strip()
    elif line.startswith("```hex"):
        hexlines = []
    elif hexlines is not None and line.startswith("```"):
        data = bytes(int(b, 16) for l in hexlines for b in l.split()[1:])
        with open(os.path.join(out, re.sub(r"[^a-z0-9-]", "_", name)), "wb") as f:
            f.write(data)
        n += 1
        hexlines = None
    elif hexlines is not None:
        hexlines.append(line)
if n == 0:
    sys.exit("no vectors in " + doc)
print("%d seeds from %s" % (n, doc))
