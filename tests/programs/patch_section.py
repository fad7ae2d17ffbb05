#!/usr/bin/env python3
"""Overwrites the last byte of one section of an ELF32 file (little-endian):
patch_section.py IN OUT SECTION BYTE. Used to make damaged inputs, such as a
string section whose last string has no NUL byte."""
import struct
import sys


def main():
    src, dst, want, byte = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4], 0)
    data = bytearray(open(src, "rb").read())
    if data[:4] != b"\x7fELF" or data[4] != 1:
        sys.exit("not an ELF32 file")
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x2E)
    def header(i):
        return struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize)
    names_off = header(shstrndx)[4]
    for i in range(shnum):
        h = header(i)
        end = data.index(b"\0", names_off + h[0])
        if data[names_off + h[0]:end].decode() == want:
            data[h[4] + h[5] - 1] = byte
            open(dst, "wb").write(data)
            return
    sys.exit(f"no section {want}")


main()
