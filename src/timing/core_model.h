/*
 * A core model: the micro-architecture a program's cycles are counted on.
 * Read from a small INI file (one per model in cores/, see docs/core-models.md) and
 * `--set section.key=value` overrides. Everything the timing model needs to
 * know about the machine is here; nothing else holds a timing constant.
 */
#ifndef TALLY_TIMING_CORE_MODEL_H
#define TALLY_TIMING_CORE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum cache_replacement { REPL_LRU, REPL_LRR, REPL_RANDOM } cache_replacement;
typedef enum cache_write_policy { WRITE_BACK, WRITE_THROUGH } cache_write_policy;
typedef enum branch_prediction { PREDICT_NOT_TAKEN, PREDICT_BACKWARD_TAKEN, PREDICT_TAKEN } branch_prediction;
typedef enum shift_mode { SHIFT_BARREL, SHIFT_TWO_STAGE, SHIFT_SERIAL } shift_mode;
typedef enum muldiv_mode { MULDIV_FIXED, MULDIV_ITERATIVE } muldiv_mode;
typedef enum memory_kind { MEMORY_SRAM, MEMORY_SDRAM } memory_kind;
/* What a CSR of a hardware performance counter the core does not have does:
 * read as zero and ignore writes (the RISC-V privileged spec's choice), or
 * raise an illegal-instruction exception (a core with no such CSRs). */
typedef enum pmu_absent { PMU_ABSENT_ZERO, PMU_ABSENT_ILLEGAL } pmu_absent;
/* [pipeline] fence_i_late_flush: off, or when the refill of a missing
 * instruction after fence.i runs (timing_fence_i) */
typedef enum fence_i_flush_mode { FENCE_I_FLUSH_AT_ONCE, FENCE_I_REFILL_DURING, FENCE_I_REFILL_FIRST } fence_i_flush_mode;
/* How instruction times are made: `generic` from the per-class numbers
 * below and the caches and memory; `picorv32` by the rules of PicoRV32's
 * state machine (src/timing/picorv32.c), which also restricts the ISA to
 * what that core decodes. */
typedef enum micro_arch { MICRO_GENERIC, MICRO_PICORV32, MICRO_VEXMIN } micro_arch;
/* The standard extensions beyond RV32I the modelled core decodes, a set of
 * bits ([core] isa = rv32i, rv32im, ..., rv32imac): an instruction of one
 * it lacks is an illegal instruction in a timed run, as on the core, and
 * misa says so. The functional mode always has them all. */
typedef enum core_isa { ISA_EXT_M = 1, ISA_EXT_A = 2, ISA_EXT_C = 4, ISA_RV32IMAC = 7 } core_isa;

typedef struct cache_params {
  bool enabled;
  uint32_t size;            /* bytes, power of two */
  uint32_t ways;            /* 1 = direct mapped; size/line = fully associative */
  uint32_t line;            /* bytes, power of two, >= 4 */
  cache_replacement replacement;
  uint32_t seed;            /* for REPL_RANDOM: a fixed seed keeps runs identical */
  cache_write_policy write_policy;   /* D-cache only */
  uint32_t write_buffer;    /* write-through: entries in the write buffer (0 = stores wait for memory) */
  bool write_buffer_late_ready; /* dcache: a store waiting for room in the full write buffer enters it
                                   one cycle after the acknowledge that made the room (the buffer's
                                   ready is a register) */
  uint32_t store_load_replay; /* dcache: cycles a load that hits loses when a store 1 or 2 cycles ahead
                                 writes the same word of the data RAM (0: never) */
  uint32_t replay_decode_wait; /* dcache (with store_load_replay): cycles such a replay costs more when
                                  the third instruction after the load waits in decode for the late
                                  result of the second (block.c's replay_decode_wait_at) */
  bool replay_refill_line; /* dcache (with store_load_replay): the redo of a replayed load waits for the
                              refill of an instruction 1 to 3 after it, first on a line that misses,
                              sent out during the replay (timing_replay_line; with fetch_ahead_insns 2
                              k counts fetch words and the refill goes out a cycle sooner) */
  uint32_t refill_cycles;   /* core cycles a line fill stalls beyond the memory's transfer */
  bool refill_refetch;      /* dcache: a load that misses is refetched once its line is in, and the
                               refetch waits for an I-cache refill started during the fill
                               (timing_fetch_slow) */
  bool refill_refetch_wrong_path; /* dcache (with refill_refetch): a jump's wrong-path word within its
                               reach of the load is such a refill, not the jump's wait
                               (timing_wrong_path) */
  bool refill_refetch_jump; /* dcache (with refill_refetch): a jal first on the missing line right after
                               the load (its k = 1 word) takes the lead of a hold before the load as
                               any such word, and its target, fetched after the load's redo, is no
                               word of that reach (timing.c's fetch_fill) */
  bool refill_refetch_early_jump; /* dcache (with refill_refetch): a jump target fetched after a jump
                                     whose line was refilled within the reach of the load before
                                     (dmiss_early_line) is a word of this load's reach, the jump's
                                     early wait not counted (timing.c's fetch_fill) */
  bool refill_refetch_store; /* dcache (with refill_refetch): stores between the load and the word, and
                               loads to the load's own D-cache line, keep that word within its reach
                               (exec_loop.inc's refetch_ahead_line) */
  bool refill_refetch_wait; /* dcache (with refill_refetch_wrong_path): a branch's wrong-path word is
                               looked up as many cycles later as the instructions between it and the
                               load waited in decode during the fill (exec_loop.inc's
                               wait_after_load) */
  bool redo_refill_wait;    /* dcache (fetch_ahead_insns 2): a load that misses is redone from the
                               fetch: of the late results only its own is left, and the redo waits
                               for the refill of an instruction 2 or 3 after it begun during the
                               fill (exec_loop.inc's dmiss_redo_refill) */
  bool next_fill;           /* dcache (with redo_refill_wait): ... and, for a 32-bit load at 2 mod 4, for
                               the refill of the next line looked up 3 or 4 instructions on, 16-bit
                               ones or a predicted-taken branch between; and for one at 0 mod 4, 16-bit
                               ALU ops between, 3 or 4 on, not right after a branch or jump
                               (exec_loop.inc's dmiss_next_fill, dmiss_prev_rvc) */
  bool redo_refill_words;   /* dcache (with redo_refill_wait): ... the refill of the instruction 2 after a
                               32-bit load at 2 mod 4, an ALU op between, when that instruction reads a
                               late result (the load's): the redo refetches the load's two words, the
                               load retiring a cycle later (exec_loop.inc's dmiss_redo_refill) */
  bool redo_words_free;     /* dcache (with redo_refill_words): ... and so when that instruction reads
                               no late result (exec_loop.inc's dmiss_redo_refill; dmiss_words_free.S) */
  bool redo_words_store;    /* dcache (with redo_words_free): ... and so with a 16-bit store between,
                               reading nothing of the load (exec_loop.inc's dmiss_redo_refill;
                               dmiss_words_store.S) */
  bool next_fill_load;      /* dcache (with next_fill): ... and for one at 0 mod 4, a load among the
                               ones between, the 3rd split onto the next line (exec_loop.inc's
                               dmiss_next_fill; nettle-aes's lw at 0x40000314) */
  bool two_refill_after;    /* dcache (with fetch_ahead_data): dmiss_two_refill not within
                               refill_refetch's reach of a load that missed before (dmiss_after), at 0 mod 4:
                               that refill went out during the earlier fill (exec_loop.inc) */
  bool seq_div;             /* dcache (with redo_refill_wait): seq_refill takes a divide 2nd or 3rd after
                               the load or AMO on its line, reading its result or not (exec_loop.inc's
                               dmiss_seq_refill) */
  bool seq_sc;              /* dcache (with redo_refill_wait): seq_refill takes an sc.w right after an lr.w
                               that missed as a store (exec_loop.inc's dmiss_seq_refill) */
  bool seq_alu;             /* dcache (with redo_refill_wait): seq_refill takes multiplies among the ops
                               between, a run of ALU ops and multiplies alone when the missing word is
                               the 4th, and a reader of the load's result as the 3rd before a 4th
                               (exec_loop.inc's dmiss_seq_refill) */
  bool seq_covered;         /* dcache (with redo_refill_wait): seq_refill's refill, sent but covered by the
                               load's own wait (timing_replay_refill paying 0), is over before the redo:
                               the missing word waits for none of it (replay_seq; timing.c's fetch_fill) */
  uint32_t flush_cycles;    /* I-cache: cycles it spends invalidating itself after reset, before
                               the first fetch */
  bool fence_i_flush;       /* I-cache: fence.i invalidates every line */
} cache_params;

typedef struct core_model {
  char name[64];
  char description[200];
  char path[512];           /* file it came from, "" for built-in defaults */

  /* [core] */
  double frequency_mhz;
  double voltage;
  uint32_t triggers;        /* Sdtrig type-2 triggers, 0..16 (0: tselect and tdata* are illegal) */
  uint32_t pmp_entries;     /* 0 or 16 */
  uint32_t pmp_granularity; /* bytes, a power of two >= 4 */
  pmu_absent pmp_absent;    /* with no entries: the pmp CSRs read zero, or are illegal */
  micro_arch micro_arch;
  core_isa isa;             /* extensions decoded (ISA_EXT_*) */

  /* [pipeline]: cycles each instruction class occupies when nothing stalls */
  uint32_t cpi_alu, cpi_alu_reg, cpi_shift, cpi_load, cpi_store, cpi_branch, cpi_jal, cpi_jalr;
  uint32_t cpi_mul, cpi_mulh, cpi_div, cpi_csr, cpi_system, cpi_amo;
  shift_mode shift;         /* two-stage: + amount/4 + amount%4; serial: + amount */
  muldiv_mode mul_mode, div_mode;
  uint32_t mul_latency;     /* extra cycles (stall.muldiv) of mul; iterative: per significant bit / 32 */
  uint32_t div_latency;     /* extra cycles of div/rem; iterative: scaled by the dividend's bit length */
  branch_prediction predict;
  uint32_t branch_penalty;        /* bubbles when a branch goes against the prediction */
  uint32_t branch_taken_penalty;  /* bubbles when a branch is predicted taken and is taken */
  uint32_t jal_penalty, jalr_penalty;
  uint32_t load_use_penalty;      /* a load's result used by the very next instruction; a use n
                                     cycles later waits this much less */
  uint32_t mul_use_penalty;       /* likewise for a multiply's result (0: none) */
  uint32_t shift_use_penalty;     /* likewise for a shift's result (0: none) */
  uint32_t csr_use_penalty;       /* likewise for a CSR instruction's result (0: none) */
  uint32_t div_use_penalty;       /* likewise for a divide's or remainder's result (0: none) */
  uint32_t sc_use_penalty;        /* likewise for sc.w's result (0: none) */
  uint32_t amo_penalty;           /* cycles an AMO read-modify-write (not lr.w/sc.w) holds the pipeline
                                   * beyond cpi.amo (0: none) */
  bool fetch_ahead;               /* an I-cache refill starts while the instructions ahead of the missing
                                     one are still busy (timing_fetch_slow's `ahead`) */
  uint32_t fetch_ahead_insns;     /* with fetch_ahead: how many instructions ahead of the missing one the
                                     fetch stage looks the I-cache up (1 or 2) */
  bool wrong_path_jalr_over;      /* with fetch_ahead_data (fetch_ahead_insns 1): a jalr's wrong-path
                                     refill overlaps a device load's wait (a data-side stall not redone)
                                     one or two stages ahead of it (exec_loop.inc's wrong_path_jalr_over) */
  bool wrong_path_use_redo;       /* with fetch_ahead_data (fetch_ahead_insns 1): a branch that waits in
                                     decode for a late result gets no overlap of its wrong-path refill
                                     with a load's fill redone ahead of it, nor with a device load's
                                     wait (exec_loop.inc's wrong_path_branch_over) */
  bool replay_shift_wait;         /* with redirect_rvc_pair: a load replayed after a store, one of the three
                                     after it waiting in decode for a shift's result: the fetch stage holds
                                     the word after that one (block.c's replay_rvc_pair) */
  bool wrong_path_jalr_pair;      /* with fetch_ahead_insns 2: a 16-bit jalr at 0 mod 4 before a 16-bit
                                     instruction in its word, waiting in decode for the result of a load
                                     whose D-cache fill is redone: pc + 4 is looked up only as the jalr
                                     leaves decode, none of its refill during the fill (exec_loop.inc's
                                     jalr_pair_waits) */
  bool redirect_passes_late;      /* a branch taken or not against its prediction: the late results still on
                                     their way after it (a load's, a multiply's) pass during its penalty's
                                     bubbles, not only its own cycle (exec_loop.inc's T_BRANCH) */
  bool predicted_passes_late;     /* a branch predicted taken (in decode) and taken: the late results still on
                                     their way after it pass during its bubble (branch_taken_penalty), as
                                     they do during a jal's (exec_loop.inc's T_BRANCH) */
  bool wrong_path_dev_wait;       /* with fetch_ahead_data (fetch_ahead_insns 2): a branch taken against its
                                     prediction to pc + 4 on a line that misses, behind a device load's
                                     wait: its own wait in decode for a late result passes during that
                                     refill too (exec_loop.inc's wrong_path_branch_word_over) */
  bool wrong_path_use_reach;      /* with fetch_ahead_insns 2: a branch taken against its prediction whose
                                     first wrong-path word on a line that misses is within the fetch's reach
                                     (wrong_path_reach_hold): its own wait in decode for a late result passes
                                     during that refill, as a divide's hold does (wrong_path_use_wait) */
  bool wrong_path_use_split;      /* with wrong_path_use_hold: a 32-bit jump at 2 mod 4 too, unless
                                     redirect_rvc_pair holds a word after it (exec_loop.inc's
                                     wrong_path_use_hold) */
  bool branch_fill_waited;        /* with redirect_rvc_pair: a branch predicted taken and taken right behind a
                                     load whose D-cache fill was redone waited in decode during the fill and
                                     holds no word after it, as a jal there does (exec_loop.inc's
                                     branch_fill_waited) */
  bool fence_i_load_redo;         /* with fence_i_overlap, true (VexRiscv.v): the load right after fence.i that
                                     missed the D-cache and is redone after the flush costs a cycle more whatever
                                     follows it, not only a load (timing.c's fence_load_redo_cycle) */
  bool amo_hit_passes;            /* with fetch_ahead_data: an AMO's read-modify-write cycle on a D-cache
                                     hit (amo_penalty) is a data-side stall, placed as a device load's, when
                                     its write did not wait for the write buffer (timing_amo_hit) */
  bool amo_fill_first;            /* an AMO (not lr.w/sc.w) that misses the D-cache asks for its fill as a
                                     load does, its read-modify-write cycle (amo_penalty) after the fill: the
                                     fill's wait for the memory port (a write before it) counts from the
                                     AMO's issue less amo_penalty (timing.c's dmiss_wait) */
  bool csr_hold_reach;            /* with fetch_ahead_insns 2: a CSR instruction's wait right before a jump
                                     is a hold of the jump in decode, as a divide's is, for the word right
                                     after the jump's last (exec_loop.inc's csr_hold_ahead) */
  bool predicted_use_reach;       /* with taken_path_fill and fetch_ahead_insns 2: a branch predicted taken
                                     whose next instruction's last halfword is in the word right after the
                                     branch's last, on a line that misses: its own wait in decode for a late
                                     result passes during that refill (exec_loop.inc's predicted_use_hold) */
  uint32_t wrong_path_read_late;  /* with wrong_path_fill and fetch_ahead_insns 1: a branch taken against its
                                     prediction whose first wrong-path word reads a late result still on its
                                     way after the branch, the second word first on a line that misses: that
                                     refill goes out this many cycles after the redirect (0: none;
                                     exec_loop.inc's wrong_path_read_late) */
  bool wrong_path_use_hold;        /* with wrong_path_fill: a jalr, or a branch taken
                                     against its prediction, whose first wrong-path word is a load or a
                                     multiply and whose second reads its result, both on lines that hit:
                                     the redirect's target is fetched a cycle later (decode, holding the
                                     second word, is stuck by the hazard in the redirect's cycle;
                                     exec_loop.inc's wrong_path_use_hold) */
  bool fetch_ahead_data;          /* with fetch_ahead: the data-side stall of an instruction further ahead,
                                     still before write-back at the lookup, overlaps the refill too; a
                                     D-cache fill is redone from the fetch (exec_loop.inc, fetch_ahead) */
  bool wrong_path_fill;           /* a jalr's or mispredicted branch's sequential successors are fetched
                                     before it redirects: their line's refill, once started, is waited
                                     for (timing_wrong_path) */
  uint32_t wrong_path_words;      /* with wrong_path_fill: how many words after the jump the fetch has
                                     looked up when it redirects (2 or 3; an illegal one stops it) */
  uint32_t wrong_path_tail;       /* with wrong_path_fill: when the target misses too, the last cycles of
                                     the wrong-path wait, after its refill's last beat, that are the
                                     target's fetch wait, not the jump's (0: none) */
  bool wrong_path_jump;           /* with wrong_path_fill: a jal or a branch predicted taken first on a
                                     mispredicted branch's wrong path, on its line, is decoded before the
                                     branch redirects: its target's line, when it misses, is refilled and
                                     the branch's target waits for it (timing_wrong_path_jump) */
  bool wrong_path_jump_halts;     /* with wrong_path_fill: a jal or a branch predicted taken among a
                                     mispredicted branch's wrong-path words sends the fetch to its target
                                     from decode: the words after it are not looked up (wrong_path_scan) */
  bool wrong_path_jalr_jump_halts; /* with wrong_path_fill: a jal or a branch predicted taken right after a
                                     jalr (its first wrong-path instruction) does the same (wrong_path_scan) */
  bool wrong_path_jalr_jump_next; /* with wrong_path_jalr_jump_halts: such a jump ending at 0 mod 4 (its word
                                     not held by the decompressor) has the word after its own looked up too
                                     (wrong_path_scan) */
  bool wrong_path_held_pairs;     /* with wrong_path_fill and redirect_rvc_pair: a 16-bit jump at 0 mod 4 in a
                                     word of two, the word after it two 16-bit instructions too: the
                                     decompressor holds both, one word fewer looked up (wrong_path_scan) */
  bool taken_path_fill;           /* a jal's or predicted-taken branch's next instruction was looked up before
                                     it redirects: a refill of its line, once started, is waited for
                                     (timing_taken_path) */
  bool taken_path_held;          /* with taken_path_fill and fetch_ahead_data: the data-side stalls ahead of
                                     the jump, the last a wait for the write buffer ended before the one
                                     right before the jump (no D-cache fill redone from the fetch among
                                     them), pass during the refill of the word after it on top of the
                                     taken bubble, not in its place (exec_loop.inc's taken_path_ahead) */
  bool predicted_target_fill;     /* a branch predicted taken that falls through: the refill of its target's
                                     line, started when the target missed, is waited for
                                     (timing_predicted_path) */
  bool predicted_target_defer;    /* with predicted_target_fill: when the fall-through's line hits, that wait
                                     is the fall-through's, at its block's entry, not the branch's */
  bool predicted_target_next;     /* with predicted_target_fill: the word after the target's word is looked up
                                     too; when on the next line, which misses, that line is refilled and
                                     waited for as the target's own (timing_predicted_path) */
  int fence_i_late_flush;         /* fence_i_flush_mode: with [icache] fence_i_flush, the instruction after
                                     fence.i is fetched before the flush; its refill runs during the flush
                                     (true) or before it (refill-first) (timing_fence_i) */
  uint32_t fence_i_redo;          /* cycles a fence.i costs more when it follows within fence_i_redo_reach
                                     instructions a load whose D-cache miss redoes it from the fetch: the
                                     flush starts, the load is fetched again after it (timing_fence_i) */
  uint32_t fence_i_redo_reach;
  bool fence_i_redo_between;      /* with fence_i_redo: a cycle more for each cycle between the load's fill
                                     and fence.i (the instructions between run again) (fence_i_redo) */
  bool fence_i_jalr_flush;        /* with fence_i_late_flush: a fence.i right after a jalr, on its wrong path,
                                     reaches decode and flushes the I-cache before the jalr redirects, as
                                     after a mispredicted branch (timing_wrong_path_fence_i) */
  uint32_t fence_i_wrong_path_reach; /* with fence_i_late_flush: how many instructions after a mispredicted
                                     branch (or, with fence_i_jalr_flush, a jalr) a fence.i on its wrong
                                     path reaches decode before the redirect: 1 (the next) or 2
                                     (wrong_path_fence_i, timing_wrong_path_fence_i) */
  bool overwrite_keeps_wait;      /* a write to a register does not end a reader's wait for an older late
                                     result to it (VexRiscv's HazardSimplePlugin: each stage's writer is
                                     checked on its own) (timing_static) */
  bool fence_i_overlap;           /* with fence_i_late_flush: the instruction after fence.i, fetched before
                                     the flush, runs its execute stall (a divide, a device load) during the
                                     flush (timing_fence_overlap) */
  bool fence_i_csr_overlap;       /* with fence_i_overlap: so does a CSR instruction's hold there, and the
                                     next instruction's wait for its result (fence_overlap_enter,
                                     hazards_after) */
  bool fence_i_use_overlap;       /* with fence_i_overlap: the result of the instruction after fence.i (a load
                                     that hits the D-cache or reads a device, a multiply, a shift), run during
                                     the flush, is ready before any reader after it decodes: the reader's wait
                                     for it passes (fence_overlap_enter's fence_use_pass, through the next
                                     block's entry hazards: block.c's fence_use_cut ends the block there) */
  bool fence_i_csr_refetch;       /* with fence_i_overlap: a CSR instruction two after fence.i, on its line,
                                     fetched after the flush, pays no csr_penalty (fence_overlap_enter) */
  bool fence_i_csr_refetch_any;   /* with fence_i_csr_refetch: so after a branch not taken right after
                                     fence.i too, the CSR instruction on its line or first on the next
                                     (fence_overlap_enter) */
  bool fence_i_csr_refetch_next;  /* with fence_i_csr_refetch: so after a store or an ALU op right after
                                     fence.i, the CSR instruction first on the next line (block.c's
                                     fence_use_cut ends the block before it; fence_overlap_enter) */
  bool fence_i_csr_refetch_load;  /* with fence_i_csr_refetch: so after a load right after fence.i that hits
                                     the D-cache or reads a device, the CSR instruction on its line or first
                                     on the next (fence_use_cut ends the block after the load;
                                     fence_overlap_enter) */
  bool fence_i_hold_overlap;      /* with fence_i_late_flush: fence.i right after a divide asks for the flush
                                     from decode while the divide holds execute: that hold passes during the
                                     flush (T_FENCE_I) */
  bool fence_i_jal_wait;          /* with fence_i_overlap: a jal right after fence.i, fetched before the
                                     flush, redirects during it; its target is fetched after the flush as a
                                     jalr's: jalr_penalty rather than jal_penalty (timing_fence_jal) */
  bool fence_i_branch_halt;       /* with fence_i_overlap and wrong_path_fill: a branch right after fence.i,
                                     fetched before the flush and taken against its prediction, has no word
                                     after it looked up (the pending flush halts the fetch): no wrong-path
                                     refill, its target fetched after the flush (T_FENCE_I, T_BRANCH) */
  bool fence_i_wbuf_overlap;      /* with fence_i_late_flush: the write buffer's waits of the stores one and
                                     two instructions before fence.i pass during the flush: fence.i left
                                     decode before them and its flush began (T_FENCE_I) */
  bool fence_i_merge;             /* with fence_i_late_flush: a fence.i right after a fence.i whose next
                                     word was fetched before the flush asks for the same flush (its
                                     flushPending is still set): no flush of its own (timing_fence_i) */
  bool wbuf_div_overlap;          /* a divide right after a store that waits for the write buffer, not
                                     after fence.i: the store's wait passes during the divide's hold, as a
                                     device load's does (exec_loop.inc's device_div_overlap) */
  bool device_div_overlap;        /* with device_bus: a divide right after a load from a device, not reading
                                     its result, counts in the memory stage while the load waits for the
                                     device in write-back: the wait passes during the divide's hold
                                     (exec_loop.inc's device_div_overlap) */
  uint32_t redirect_rvc_pair;     /* cycles a jalr's or mispredicted branch's redirect costs more when the
                                     fetch stage holds a word of two 16-bit instructions then (0: none) */
  uint32_t redirect_split_target; /* cycles a redirect costs more when its target is a 32-bit instruction at
                                     2 mod 4 (two words to decompress; 0: none) */
  uint32_t held_refetch;          /* a fetch miss during a hold of the instruction ahead (a divide) costs at
                                     least this, less the missing instruction's own late-result wait
                                     (fetch_ahead's hold_floor) */
  bool refill_hides_next_use;     /* with fetch_ahead: the wait of the instruction after the missing one
                                     for a late result of one before it passes during the refill too */
  bool csr_drain;                 /* csr_penalty is a CSR instruction's wait in execute for the two stages
                                     after it to empty: less after a redirect's bubbles, and one on the
                                     wrong path of a redirect from memory (a jalr, a taken branch predicted
                                     not taken) holds decode and delays the redirect's fetch by a cycle
                                     (timing_csr_drain, timing_redirect_drain) */
  bool wrong_path_csr_miss;       /* with csr_drain and wrong_path_fill: a CSR instruction right after the
                                     jump, on the line its wrong path asked a refill for, never reaches
                                     execute: no cycle of timing_redirect_drain's */
  bool refill_drains_csr;         /* with csr_drain: a CSR instruction whose fetch waited for an I-cache
                                     refill finds the two stages after it empty: no csr_penalty
                                     (exec_loop.inc's refill_drains_csr) */
  bool csr_drain_refill;          /* with csr_drain and fetch_ahead_data: a CSR instruction's wait that passed
                                     whole in a redirect's bubbles (drain_back) does not pass again during the
                                     refill of the word after it, as with fetch_ahead_insns 2 (fetch_carry) */
  uint32_t csr_penalty, fence_i_penalty, trap_penalty, mret_penalty;
  uint32_t split_fetch_penalty;   /* no I-cache: a 32-bit instruction fetched as two bus words (at 2 mod 4
                                     on a 4-byte bus) costs this much more than its memory reads */

  /* [icache] [dcache] */
  cache_params icache, dcache;

  /* [memory]: latencies in nanoseconds on the memory's own clock */
  memory_kind memory;
  uint32_t bus_bytes;       /* bytes per beat */
  bool fetch_port;          /* instruction fetches have a port of their own (no contention with data) */
  bool device_bus;          /* a device access is a bus beat on the data port: a store through the write
                               buffer, a load after it drains (timing_device_load) */
  uint32_t device_read_cycles; /* device_bus: cycles a device load stalls beyond its beat */
  uint32_t exit_ack_cycles; /* device_bus: cycles from the finisher store's issue to the acknowledge
                               that ends the run, beyond its beat (timing_device_drain) */
  double read_first_ns;     /* first beat of a read */
  double read_beat_ns;      /* each further beat of a burst */
  double write_ns;          /* each beat written */
  uint32_t sdram_row_bytes, sdram_banks;
  double sdram_row_miss_ns; /* extra when the bank has another row open */
  /* on-chip SRAM at [sram_base, sram_base + sram_size): never cached, read
   * and written without a wait, like a cache hit (sram_size 0: none) */
  uint32_t sram_base, sram_size;
  /* micro_arch picorv32: cycles the memory waits before it answers a bus
   * request (mem_ready in the (W+1)-th cycle of mem_valid), 0..3 */
  uint32_t wait_states;

  /* [energy] at nominal_voltage; dynamic scales with (V/Vn)^2, static with V/Vn */
  double nominal_voltage;
  double core_pj_per_cycle;
  double icache_pj_per_access, dcache_pj_per_access;
  double mem_pj_per_read_beat, mem_pj_per_write_beat;
  double static_mw;

  /* [dvfs] */
  uint32_t pll_relock_cycles;
  double min_mhz, max_mhz;          /* the PLL's range: a switch outside it is refused */
  double min_voltage, max_voltage;  /* the regulator's range, likewise */
  char dvfs_points[128];            /* operating points for tally dvfs, "MHZ:V, ..." ("": derived) */

  /* [pmu]: mhpmcounter3 .. mhpmcounter(2 + pmu_counters) exist (docs/pmu.md) */
  uint32_t pmu_counters;    /* 0..29 */
  pmu_absent pmu_absent;    /* the others, and mcountinhibit when there are none */
} core_model;

/* The built-in default: a 5-stage in-order pipeline with 4 KiB I/D caches
 * (the same as cores/tally5.ini). */
void core_model_default(core_model *m);

/* Loads NAME: a path to an .ini file, or the name of a shipped model found
 * in dirs (colon-separated; typically the cores/ folder). Fields a file does
 * not set keep the defaults. On error returns -1 and writes "file:line: what"
 * into err. */
int core_model_load(core_model *m, const char *name, const char *dirs, char *err, size_t errlen);

/* Applies one "section.key=value" override; -1 with a message on error. */
int core_model_set(core_model *m, const char *assignment, char *err, size_t errlen);

/* Checks the model as a whole (powers of two, ways <= sets*ways...). */
int core_model_validate(const core_model *m, char *err, size_t errlen);

/* Writes the model back as INI text, every key, so a run can be reproduced. */
void core_model_write(const core_model *m, char *buf, size_t size);

/* Names of the shipped models found in dirs, for --help and errors. */
size_t core_model_list(const char *dirs, char names[][64], size_t max);

#endif
