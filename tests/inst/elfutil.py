"""Just enough ELF for the instrumenter tests: read the program and section
headers of a 32-bit little-endian ELF, and write a small RV32 ELF from given
segments (for malformed fixtures such as overlapping segments). Written from
the ELF specification (System V gABI), independently of tally's loader.
"""
import struct

PT_LOAD = 1
PF_X, PF_W, PF_R = 1, 2, 4
SHF_ALLOC, SHF_EXECINSTR = 0x2, 0x4
EM_RISCV = 243


class Elf32:
    """Headers of a 32-bit little-endian ELF file (raises ValueError)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        d = self.data
        if len(d) < 52 or d[:4] != b"\x7fELF":
            raise ValueError("not an ELF file")
        if d[4] != 1 or d[5] != 1:
            raise ValueError("not a 32-bit little-endian ELF")
        (self.e_type, self.e_machine, _, self.e_entry, self.e_phoff, self.e_shoff, _, _,
         self.e_phentsize, self.e_phnum, self.e_shentsize, self.e_shnum,
         self.e_shstrndx) = struct.unpack_from("<HHIIIIIHHHHHH", d, 16)
        self.segments = []
        for i in range(self.e_phnum):
            off = self.e_phoff + i * self.e_phentsize
            p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags, p_align = \
                struct.unpack_from("<IIIIIIII", d, off)
            self.segments.append(dict(type=p_type, offset=p_offset, vaddr=p_vaddr, paddr=p_paddr,
                                      filesz=p_filesz, memsz=p_memsz, flags=p_flags))
        self.sections = []
        if self.e_shoff and self.e_shnum:
            raw = []
            for i in range(self.e_shnum):
                off = self.e_shoff + i * self.e_shentsize
                raw.append(struct.unpack_from("<IIIIIIIIII", d, off))
            strtab = raw[self.e_shstrndx] if self.e_shstrndx < len(raw) else None
            for (name, typ, flags, addr, offset, size, link, info, align, entsize) in raw:
                nm = ""
                if strtab:
                    start = strtab[4] + name
                    nm = d[start:d.index(b"\0", start)].decode("latin-1")
                self.sections.append(dict(name=nm, type=typ, flags=flags, addr=addr,
                                          offset=offset, size=size))

    def load_end(self):
        """The highest address any PT_LOAD segment occupies (exclusive)."""
        return max((s["vaddr"] + s["memsz"] for s in self.segments if s["type"] == PT_LOAD), default=0)

    def exec_ranges(self):
        """[lo, hi) of every allocated, executable section."""
        return [(s["addr"], s["addr"] + s["size"]) for s in self.sections
                if s["flags"] & SHF_ALLOC and s["flags"] & SHF_EXECINSTR and s["size"]]


def write_rv32(path, entry, segments):
    """Writes an RV32 executable. segments: list of (vaddr, flags, bytes,
    memsz or None); they are laid out one after the other in the file, each
    at an offset congruent to its address modulo 4 KiB. No sections."""
    ehsize, phentsize = 52, 32
    phoff = ehsize
    offset = phoff + phentsize * len(segments)
    body = b""
    phdrs = b""
    for vaddr, flags, data, memsz in segments:
        pad = (vaddr - offset) % 0x1000
        body += b"\0" * pad
        offset += pad
        phdrs += struct.pack("<IIIIIIII", PT_LOAD, offset, vaddr, vaddr, len(data),
                             memsz if memsz is not None else len(data), flags, 0x1000)
        body += data
        offset += len(data)
    ident = b"\x7fELF" + bytes([1, 1, 1, 0]) + b"\0" * 8
    hdr = ident + struct.pack("<HHIIIIIHHHHHH", 2, EM_RISCV, 1, entry, phoff, 0, 0,
                              ehsize, phentsize, len(segments), 40, 0, 0)
    with open(path, "wb") as f:
        f.write(hdr + phdrs + body)
