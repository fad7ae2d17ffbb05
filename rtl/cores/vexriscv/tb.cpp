// Verilator testbench for VexRiscv on a LiteX-like memory map.
//
// Memory: one RAM at 0x40000000 with a Wishbone port per bus (the buses never
// contend). A beat whose CYC&STB the slave first sees at rising edge c is
// acknowledged at edge c+1+W (the core samples ACK there); the slave drops
// ACK after that edge, so the next beat is seen no earlier than edge c+2+W.
// IO (0x80000000 and up): 0xF0001000 transmit register (a byte store prints
// it), 0xF0000000 SiFive-test finisher (0x5555: exit 0, (code << 16) |
// 0x3333: exit code). Other IO reads return 0, other IO writes are ignored.
//
// Cycles count rising edges from the first one after reset release up to and
// including the edge on which the core samples the finisher store's ACK.
//
// usage: tb PROGRAM.bin [-w W] [-m MAX_CYCLES] [-f PC] [-t] [-b]
// (-t: retire trace; -b: bus trace, a line per beat when the slave first sees
// it: the edge, the bus (i or d), r or w, the address and CTI)
// instret is the core's minstret just after the instruction at PC (the
// finisher store, -f, hex) retires: the instructions after it that retire
// while its ACK is awaited are not counted. Without -f: minstret at the end.
// prints one line: key=value pairs (see below), the program's UART output
// goes to stderr. Exit status: 0 when the program finished (whatever its
// code), 2 on a bad argument or an access outside RAM/IO, 3 on a timeout.
#include "Vtb_top.h"
#include "verilated.h"
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

const uint32_t kRamBase = 0x40000000u;
const uint32_t kRamSize = 1u << 20;
const uint32_t kIoBase = 0x80000000u;
const uint32_t kFinisher = 0xF0000000u;
const uint32_t kUartTx = 0xF0001000u;

struct Stats {
    uint64_t beats = 0, reads = 0, writes = 0, transactions = 0, bursts = 0;
};

struct Slave {
    int wait = 0;
    bool ack = false, busy = false, in_burst = false;
    int count = 0;
    uint32_t rdata = 0;
    Stats st;
};

std::vector<uint8_t> ram(kRamSize);
bool finished = false;
int exit_code = -1;
bool bad_access = false;

bool in_ram(uint32_t a) { return a >= kRamBase && a - kRamBase < kRamSize; }

uint32_t ram_read(uint32_t a) {
    uint32_t o = a - kRamBase;
    return (uint32_t)ram[o] | ((uint32_t)ram[o + 1] << 8) | ((uint32_t)ram[o + 2] << 16) |
           ((uint32_t)ram[o + 3] << 24);
}

// One beat is acknowledged now: do its read or write.
uint32_t transfer(const char *bus, uint32_t addr, bool we, uint32_t wdata, unsigned sel,
                  bool *done_finisher) {
    *done_finisher = false;
    if (in_ram(addr)) {
        if (!we) return ram_read(addr);
        for (int i = 0; i < 4; i++)
            if (sel & (1u << i)) ram[addr - kRamBase + i] = (uint8_t)(wdata >> (8 * i));
        return 0;
    }
    if (addr >= kIoBase) {
        if (we && addr == kUartTx) {
            fputc((int)(wdata & 0xff), stderr);
        } else if (we && addr == kFinisher) {
            uint32_t v = wdata;
            if ((v & 0xffff) == 0x5555) exit_code = 0;
            else if ((v & 0xffff) == 0x3333) exit_code = (int)(v >> 16);
            else exit_code = 1;
            *done_finisher = true;
        }
        return 0;
    }
    fprintf(stderr, "tb: %s bus %s at 0x%08x: outside RAM (0x%08x, %u bytes) and IO (>= 0x%08x)\n",
            bus, we ? "write" : "read", addr, kRamBase, kRamSize, kIoBase);
    bad_access = true;
    return 0;
}

// The slave's registered step at a rising edge, from the master's outputs as
// they were just before it. Returns true when a finisher write was acked
// (the core samples that ACK at the next edge).
bool slave_edge(Slave &s, const char *bus, bool cyc_stb, uint32_t addr, bool we, uint32_t wdata,
                unsigned sel, unsigned cti, uint64_t edge, bool trace) {
    bool fin = false;
    if (s.ack) {  // the core samples ACK at this edge: the beat ends
        s.ack = false;
        s.busy = false;
        return false;
    }
    if (!s.busy && cyc_stb) {
        s.busy = true;
        s.count = s.wait;
        s.st.beats++;
        if (trace)
            printf("beat %" PRIu64 " %c %c %08x cti=%u\n", edge, bus[0], we ? 'w' : 'r', addr, cti);
        if (we) s.st.writes++; else s.st.reads++;
        if (!s.in_burst) {
            s.st.transactions++;
            if (cti == 2) s.st.bursts++;
        }
        s.in_burst = (cti == 2);
    } else if (s.busy) {
        s.count--;
    }
    if (s.busy && s.count == 0) {
        s.ack = true;
        s.rdata = transfer(bus, addr, we, wdata, sel, &fin);
    }
    return fin;
}

}  // namespace

int main(int argc, char **argv) {
    const char *prog = nullptr;
    int wait = 0;
    uint64_t max_cycles = 50000000;
    bool trace = false, bus_trace = false;
    bool have_fin_pc = false;
    uint32_t fin_pc = 0;
    uint64_t fin_instret = 0;
    bool fin_retired = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-w") && i + 1 < argc) {
            char *end;
            long w = strtol(argv[++i], &end, 10);
            if (*end || w < 0 || w > 3) {
                fprintf(stderr, "tb: -w %s: wait states must be 0 to 3\n", argv[i]);
                return 2;
            }
            wait = (int)w;
        } else if (!strcmp(argv[i], "-m") && i + 1 < argc) {
            char *end;
            errno = 0;
            max_cycles = strtoull(argv[++i], &end, 10);
            if (*end || errno || max_cycles == 0) {
                fprintf(stderr, "tb: -m %s: not a positive cycle count\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "-f") && i + 1 < argc) {
            char *end;
            errno = 0;
            unsigned long pc = strtoul(argv[++i], &end, 16);
            if (*end || errno || pc > 0xffffffffUL) {
                fprintf(stderr, "tb: -f %s: not a 32-bit hex address\n", argv[i]);
                return 2;
            }
            fin_pc = (uint32_t)pc;
            have_fin_pc = true;
        } else if (!strcmp(argv[i], "-t")) {
            trace = true;
        } else if (!strcmp(argv[i], "-b")) {
            bus_trace = true;
        } else if (argv[i][0] != '-' && !prog) {
            prog = argv[i];
        } else {
            fprintf(stderr, "usage: tb PROGRAM.bin [-w 0..3] [-m MAX_CYCLES] [-f PC] [-t] [-b]\n");
            return 2;
        }
    }
    if (!prog) {
        fprintf(stderr, "usage: tb PROGRAM.bin [-w 0..3] [-m MAX_CYCLES] [-f PC] [-t] [-b]\n");
        return 2;
    }
    FILE *f = fopen(prog, "rb");
    if (!f) {
        fprintf(stderr, "tb: %s: %s\n", prog, strerror(errno));
        return 2;
    }
    size_t n = fread(ram.data(), 1, kRamSize, f);
    int more = fgetc(f);
    fclose(f);
    if (more != EOF) {
        fprintf(stderr, "tb: %s: larger than the RAM (%u bytes)\n", prog, kRamSize);
        return 2;
    }
    if (n == 0) {
        fprintf(stderr, "tb: %s: empty\n", prog);
        return 2;
    }

    Verilated::commandArgs(argc, argv);
    Vtb_top *top = new Vtb_top;
    Slave ib, db;
    ib.wait = db.wait = wait;

    top->clk = 0;
    top->reset = 1;
    top->ibus_ack = top->dbus_ack = 0;
    top->eval();
    for (int i = 0; i < 8; i++) {  // reset held over 8 rising edges
        top->clk = 1; top->eval();
        top->clk = 0; top->eval();
    }
    top->reset = 0;
    top->eval();

    uint64_t cycles = 0, last_ret = 0, end_cycles = 0, extra = 0;
    bool end_next = false;
    // After the finisher's ACK the clock keeps running (at most 64 edges,
    // counted apart) until the finisher store itself has retired: a store can
    // retire after its bus access ended.
    while (cycles < max_cycles) {
        // The master's outputs before the edge.
        bool icyc = top->ibus_cyc && top->ibus_stb;
        uint32_t iadr = (uint32_t)top->ibus_adr << 2;
        unsigned icti = top->ibus_cti;
        bool dcyc = top->dbus_cyc && top->dbus_stb;
        uint32_t dadr = (uint32_t)top->dbus_adr << 2;
        bool dwe = top->dbus_we;
        uint32_t dwd = top->dbus_dat_w;
        unsigned dsel = top->dbus_sel, dcti = top->dbus_cti;
        uint32_t wb_pc = top->wb_pc;  // the instruction that retires at this edge, if any

        // Rising edge: the core samples ACK/DAT as the slave drives them now.
        top->clk = 1;
        top->eval();
        if (end_cycles) extra++; else cycles++;
        if (end_next && !end_cycles) end_cycles = cycles;  // the finisher's ACK sampled
        if (top->minstret != last_ret && have_fin_pc && !fin_retired && wb_pc == fin_pc) {
            fin_retired = true;
            fin_instret = top->minstret;
        }
        if (trace && top->minstret != last_ret) {
            printf("retire %" PRIu64 " pc=%08x n=%" PRIu64 "\n", cycles + extra, wb_pc,
                   (uint64_t)top->minstret);
        }
        last_ret = top->minstret;
        if (bad_access) break;
        if (end_cycles && (!have_fin_pc || fin_retired || extra > 64)) break;
        // The slave's registers update at the same edge.
        uint64_t edge = cycles + extra;
        slave_edge(ib, "instruction", icyc, iadr, false, 0, 0xf, icti, edge, bus_trace);
        if (slave_edge(db, "data", dcyc, dadr, dwe, dwd, dsel, dcti, edge, bus_trace)) end_next = true;
        top->ibus_ack = ib.ack;
        top->ibus_dat_r = ib.rdata;
        top->dbus_ack = db.ack;
        top->dbus_dat_r = db.rdata;
        top->clk = 0;
        top->eval();
    }
    uint64_t instret = top->minstret;
    if (have_fin_pc) {
        if (!fin_retired) {
            fprintf(stderr, "tb: %s: the instruction at 0x%08x (-f) never retired\n", prog, fin_pc);
            return 2;
        }
        instret = fin_instret;
    }
    top->final();
    delete top;
    if (bad_access) return 2;
    if (!end_cycles) {
        fprintf(stderr, "tb: %s: no finisher store within %" PRIu64 " cycles\n", prog, max_cycles);
        return 3;
    }
    printf("cycles=%" PRIu64 " instret=%" PRIu64 " exit=%d"
           " ibus_beats=%" PRIu64 " ibus_transactions=%" PRIu64 " ibus_bursts=%" PRIu64
           " dbus_reads=%" PRIu64 " dbus_writes=%" PRIu64 " dbus_transactions=%" PRIu64
           " dbus_bursts=%" PRIu64 "\n",
           end_cycles, instret, exit_code, ib.st.beats, ib.st.transactions, ib.st.bursts,
           db.st.reads, db.st.writes, db.st.transactions, db.st.bursts);
    return 0;
}
