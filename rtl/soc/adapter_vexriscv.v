// tally_vex_adapter -- what tally_statmod sees of a VexRiscv (LiteX's
// standard VexRiscv.v; rtl/soc/soc_vexriscv.v, docs/rtl-soc.md "VexRiscv").
//
// From the core's write-back stage (an instruction retires when
// writeBack_arbitration_isFiring; its PC, word and, for a load or store, its
// address) and its two Wishbone buses only, it rebuilds cycle by cycle the
// PC and the signals of tally's catalog as tally's `vexriscv` core model lays
// them out (docs/statmod.md, "Which cycle of its instruction an event is
// on"), and presents them to the module one cycle per clock (cyc_en), a few
// instructions behind the core:
//
// - An instruction's cycles are the clocks after the previous retire up to
//   and including its own (the first instruction's from the core's first
//   clock out of reset), except the redirect bubbles: the bubbles after a
//   jal (1), a jalr (3), a branch predicted wrongly (3: a backward one not
//   taken, a forward one taken) or a backward one taken (1), the static
//   prediction of cores/vexriscv.ini, follow that instruction's retire in
//   the RTL and are its own in tally's model, so they move to it (at most
//   all but one of the next gap).
// - The run's last instruction is the finisher store (a store retiring
//   with the address FINISHER): its cycles run on to the clock the core
//   samples its ACK, inclusive; what retires after it is no part of the run.
// - Where in its cycles a signal is high is tally's layout: first the
//   cycles before issue (`stall` with `stall.icache` when the I-bus read
//   the instruction's own line during them, or a wrong-path line it waits
//   for, else `stall.load_use`), the issue cycle with the instruction's
//   pulses, then the cycles after issue (`stall.muldiv`, up to 33, for a
//   divide, `stall.system`, up to 2, for a CSR instruction, all of a load's
//   extra cycles as `stall.dcache` when the D-bus read or the D-cache sent
//   a load back during them, a store's as `stall.write_buffer` when the
//   D-bus wrote during them and the I-bus did not read the store's own
//   line (a store first on a line that misses waits for its fetch, the
//   buffer's writes going on meanwhile on the other port: stores.elf's sw
//   at 0x40000060, 19 clocks of the refill after three stores), and the
//   finisher store's wait for its ACK so
//   too), then the redirect (`stall.branch` after a branch,
//   `stall.jump` after a jump); `instret` on the last cycle.
//
// The cycles themselves (how many, which PC) are the RTL's; only how the
// bubbles of a redirect are shared between two instructions and their order
// within an instruction follow tally's convention.
//
// Signals (catalog numbers of `tally signals`): 0 cycle, 1 instret, 2 load,
// 3 store, 5 branch, 6 branch.taken, 7 branch.mispredict, 8 jump, 9 call,
// 10 ret, 11 mul, 12 div, 13 csr, 14 system, 15 compressed (IMAC), 26 stall, 27 stall.icache,
// 28 stall.load_use, 29 stall.muldiv, 30 stall.dcache, 31 stall.write_buffer, 32 stall.branch,
// 33 stall.jump, 34 stall.system; from the buses and the caches 16 icache.access
// (with each icache.miss and each icache.hit), 17 icache.hit (a lookup, below), 18 icache.miss,
// 19 dcache.read_hit, 20 dcache.read_miss, 21 dcache.write_hit, 22 dcache.write_miss
// (a store's, on its issue cycle), 23 writeback (always 0: the D-cache writes
// through), 24 mem.read, 25 mem.write; every other bit is 0 (SUPPORTED below).
//
// After the last instruction's last cycle the adapter writes STOP (stop_we,
// in the clock that presents that cycle) and then presents cycles with no
// valid PC for the dispatch timer to run down. `overflow` is sticky: a
// retire arrived with the queue full, or an instruction had more than 4095
// cycles; cycles were lost.
`default_nettype none
module tally_vex_adapter #(
    parameter integer S = 37,
    parameter [31:0] FINISHER = 32'hF000_0000,
    parameter [31:0] IO_BASE = 32'h8000_0000,   // from here on uncached: no D-cache hit or miss
    parameter integer DEPTH_LOG2 = 8,
    // the Min variant (VexRiscv_Min.v): tally's `vexriscv-min` model has
    // no stall cycles but the finisher's ACK wait, and an instruction's
    // pulses are on its first cycle
    parameter integer MIN = 0
) (
    input  wire         clk,
    input  wire         rst,          // the core's reset: the run starts when it is released
    // the core
    input  wire         wb_fire,      // writeBack_arbitration_isFiring
    input  wire         wb_trap,      // CsrPlugin_exception: the instruction in write-back traps
                                      // in this clock instead of retiring
    input  wire [3:0]   wb_tcode,     // ... its cause (exceptionContext_code; 2: illegal instruction)
    input  wire [31:0]  wb_pc,        // writeBack_PC
    input  wire [31:0]  wb_insn,      // writeBack_INSTRUCTION (a compressed one expanded)
    input  wire         wb_rvc,       // ... is a 16-bit (RVC) instruction (IMAC: soc_vexriscv.v)
    input  wire [31:0]  wb_addr,      // writeBack_REGFILE_WRITE_DATA: a load's or store's address
    input  wire         i_active,     // the I-bus has a transaction (CYC)
    input  wire [26:0]  i_line,       // ... for this 32-byte line (its address's bits 31:5)
    input  wire         d_read,       // the D-bus has a read transaction (CYC, not WE)
    input  wire         d_write,      // the D-bus has a write transaction (CYC and WE)
    input  wire         d_hit,        // the D-cache's write-back stage hits (DataCache's
                                      // stageB_waysHit; 0 on Min, which has none)
    input  wire         d_redo,       // the D-cache sends a load back to be fetched again
                                      // (DBusCachedPlugin_redoBranch_valid: after a miss's
                                      // refill, or a load that met a store in the data RAM)
    input  wire         fin_ack,      // the core samples the finisher store's ACK in this clock
    // the module
    input  wire         hold,
    output wire         cyc_en,
    output wire [31:0]  pc,
    output wire         pc_valid,
    output wire [S-1:0] sig,
    output wire         stop_we,
    output reg          done,
    output reg          overflow
);
  localparam [63:0] SUPPORTED = 64'h17_FFFF_FFEF;

  // ---- the gap since the last retire ---------------------------------------------
  reg [11:0] age;        // clocks since the last retire, before this one
  reg        g_i, g_d;   // the I-bus / a D-bus read or redo was busy in the gap (before this clock)
  reg        i_was;      // the I-bus had a transaction in the clock before
  reg [1:0]  g_nm;       // I-bus transactions (I-cache refills) begun in the gap (before this clock), at most 3
  reg        d_was, g_dr; // the D-bus read in the clock before; a D-bus read (a refill) began in the gap
  reg [26:0] g_line;     // the line the I-bus last read in the gap
  reg [26:0] g_first;    // ... and the first (a refill going on when the gap began, or begun in it)
  reg        g_fnew;     // ... that one began in the gap
  reg        g_w;        // the D-bus wrote in the gap
  reg        last_taken; // the finisher store has retired
  reg        fin_seen;   // the finisher's ACK has been sampled

  // ---- the instruction retired, waiting for the next one -----------------------
  reg        p_full, p_last, p_rvc, p_wh, p_wm, p_ih;
  reg        p_trap, p_ill;  // it trapped (did not retire); as an illegal instruction
  reg [26:0] f_line;     // the line the last instruction retired was fetched from
  reg        f_valid;
  reg [26:0] r_line;     // the line of the last refill begun, not yet fetched from by a retired instruction
  reg        r_pend;
  reg [31:0] p_pc, p_insn;
  reg [11:0] p_own;      // its cycles up to its retire, less the redirect of the one before
  reg        p_i, p_d, p_w;
  reg [1:0]  p_nm;       // the refills begun in its gap (icache.miss)
  reg        p_mv;       // the last refill of its gap was for another line (below)
  reg        p_tmv;      // (a jal or a branch) a refill began in its gap for another line ...
  reg [26:0] p_tline;    // ... this one: its target's, if the next instruction is on it (below)
  reg        m_pend;     // a refill ahead in sequence, whose miss is the next lookup's (below)
  reg [26:0] m_line;     // ... its line (m_move's)
  reg        p_dr;       // a D-bus read began in its gap (a load's: dcache.read_miss)
  reg        p_ackd;     // (the finisher store) its ACK was sampled by its retire

  wire [6:0] pop_ = p_insn[6:0];
  wire p_branch = pop_ == 7'b1100011;
  wire p_jal = pop_ == 7'b1101111;
  wire p_jalr = pop_ == 7'b1100111;
  wire p_back = p_insn[31];
  // a divide (MulDivIterativePlugin) or a CSR instruction: it holds execute
  wire p_hold = p_full && !p_trap && ((pop_ == 7'b0110011 && p_insn[31:25] == 7'b0000001 && p_insn[14]) ||
                                      (pop_ == 7'b1110011 && p_insn[14:12] != 3'b000));
  // (taken: the next retire is not at its fall-through, pc + 2 after a
  // 16-bit branch; a branch to its own fall-through reads as not taken)
  wire p_taken = p_branch && !p_trap && wb_pc != p_pc + (p_rvc ? 32'd2 : 32'd4);
  wire [1:0] p_pen = MIN != 0 || p_trap ? 2'd0 : p_jal ? 2'd1 : p_jalr ? 2'd3 : !p_branch ? 2'd0 :
                     p_taken ? (p_back ? 2'd1 : 2'd3) : (p_back ? 2'd3 : 2'd0);
  // at most all but one of the next gap (age + 1 clocks)
  wire [1:0] pen_eff = ({10'd0, p_pen} <= age) ? p_pen : age[1:0];

  // A jalr or a mispredicted branch whose target's line misses waits for
  // the refill the fetch stage had started for a line on the wrong path
  // (cores/vexriscv.ini wrong_path_fill): the clocks after its retire while
  // that refill is still on the I-bus are its own (fetch cycles before its
  // issue) when another I-bus transaction (the target's) follows before
  // the next retire.
  // The transaction that follows must be for the target's own line (the
  // line of the instruction retiring next, or the next one for a 32-bit
  // instruction in a line's last halfword): on IMAC a jal that falls
  // through a mispredicted branch redirects from decode and its target's
  // refill begins before the jal retires (icache.elf's bne at 0x4000102c,
  // the jal after it at 0x40001030: the refill of run's line 0x40005040
  // begins a clock before the jal retires); that refill is the jal's
  // target's, not this instruction's wait.
  reg        wp_run, wp_done, wp_second;
  reg [11:0] wp_cnt;
  reg [26:0] wp_line;    // the line of the transaction that followed
  wire w_spans = !wb_rvc && wb_pc[4:1] == 4'hF;
  wire       wp_own = wp_second && (wp_line == wb_pc[31:5] || (w_spans && wp_line == wb_pc[31:5] + 27'd1));
  wire       p_redirect = !p_trap && (p_jalr || (p_branch && (p_taken != p_back)));
  wire [11:0] wp_move = (MIN == 0 && p_redirect && wp_own && wp_cnt + {10'd0, pen_eff} < age) ? wp_cnt : 12'd0;

  // ---- the instruction being laid out (the clock after the next retire) --------
  reg        l_full, l_last, l_taken, l_i, l_d, l_w, l_rvc, l_wh, l_wm, l_ih, l_trap, l_ill;
  reg [1:0]  l_nm;
  reg        l_dr;
  reg [31:0] l_pc, l_insn;
  reg [11:0] l_own;
  reg [1:0]  l_pen;
  reg [11:0] l_ack;      // (the finisher store) its cycles from its retire to its ACK
  reg [11:0] l_wp;       // a wrong-path refill's cycles it waits for (below)
  wire [6:0] op = l_insn[6:0];
  wire [2:0] f3 = l_insn[14:12];
  wire [4:0] rd = l_insn[11:7];
  wire [4:0] rs1 = l_insn[19:15];
  wire is_load = op == 7'b0000011;
  wire is_store = op == 7'b0100011;
  wire is_branch = op == 7'b1100011;
  wire is_jal = op == 7'b1101111;
  wire is_jalr = op == 7'b1100111;
  wire is_muldiv = op == 7'b0110011 && l_insn[31:25] == 7'b0000001;
  wire is_mul = is_muldiv && !f3[2];
  wire is_div = is_muldiv && f3[2];
  wire is_csr = op == 7'b1110011 && f3 != 3'b000;
  wire is_system = (op == 7'b1110011 && f3 == 3'b000) || op == 7'b0001111;
  wire is_call = (is_jal || is_jalr) && (rd == 5'd1 || rd == 5'd5);
  wire is_ret = is_jalr && rd == 5'd0 && (rs1 == 5'd1 || rs1 == 5'd5) && l_insn[31:20] == 12'd0;
  // (the Min variant predicts none: every taken branch is mispredicted)
  wire mispredict = is_branch && (MIN != 0 ? l_taken : l_taken != l_insn[31]);
  wire [11:0] extra = l_own - 12'd1;
  wire [11:0] post = is_div ? (extra < 12'd33 ? extra : 12'd33) :
                     is_csr ? (extra < 12'd2 ? extra : 12'd2) :
                     (is_load && l_d) ? extra : l_last ? l_ack : (is_store && l_w && !l_i) ? extra : 12'd0;
  // muldiv, dcache, system, write_buffer
  wire [1:0] post_kind = is_div ? 2'd0 : is_csr ? 2'd2 : (is_store && !l_last) ? 2'd3 : 2'd1;
  wire [11:0] pre = extra - post;   // (a wrong-path wait: l_wp of them, with the I-bus busy)
  // (an instruction the core does not have, which traps as illegal, is
  // tally's `illegal` pseudo-instruction: a `system` pulse, none of its own)
  wire [12:0] pulses = l_ill ? {l_rvc, 12'h800} :
                       {l_rvc, is_system, is_csr, is_div, is_mul, is_ret, is_call, is_jal || is_jalr, mispredict,
                        is_branch && l_taken, is_branch, is_store, is_load};   // bits 15..2 less amo (4)

  // ---- the queue of laid-out instructions (soc_parts.v) -------------------------
  // {trap, I-cache hit, D-cache write hit, miss, D-bus read, refills, last, pen kind, pre kind, post kind,
  //  pulses, issue index, pen start, cycles, pc}
  localparam integer EW = 1 + 1 + 2 + 1 + 2 + 1 + 1 + 1 + 2 + 13 + 12 + 12 + 12 + 32;
  wire [EW-1:0] head;
  wire q_empty, q_lost;
  wire        h_trap = head[92];                  // trap (no instret)
  wire        h_ih = head[91];                    // icache.hit
  wire        h_wh = head[90], h_wm = head[89];   // dcache.write_hit, dcache.write_miss
  wire        h_dr = head[88];
  wire [1:0]  h_nm = head[87:86];
  wire        h_last = head[85];
  wire        h_penj = head[84];
  wire        h_pref = head[83];
  wire [1:0]  h_postk = head[82:81];
  wire [12:0] h_pul = head[80:68];
  wire [11:0] h_a = head[67:56], h_b = head[55:44], h_t = head[43:32];
  wire [EW-1:0] din = {l_trap, l_ih, l_wh, l_wm, l_dr, l_nm, l_last, is_jal || is_jalr, l_i, post_kind, pulses, pre, pre + 12'd1 + post,
                       l_own + {10'd0, l_pen}, l_pc};

  // ---- the feeder: one observed cycle per clock -------------------------------
  reg [11:0] j;
  reg        rundown;
  wire have = !q_empty && !done;
  assign cyc_en = (have || rundown) && !hold;
  assign pc_valid = have;
  assign pc = head[31:0];
  wire head_end = j == h_t - 12'd1;
  wire [63:0] st = 64'd1 << 26;
  wire [63:0] s_all =
      64'd1 |
      (head_end && !h_trap ? 64'd2 : 64'd0) |
      (j == h_a && h_trap ? 64'd1 << 36 : 64'd0) |
      (j < h_a ? st | (h_pref ? 64'd1 << 27 : 64'd1 << 28) : 64'd0) |
      (j == h_a ? {48'd0, h_pul[12:2], 1'b0, h_pul[1:0], 2'b00} | {38'd0, h_pul[1], 25'd0} : 64'd0) |
      ({10'd0, h_nm} > j ? (64'd1 << 18) | (64'd1 << 24) : 64'd0) |
      (j == h_a && h_pul[0] ? (h_dr ? (64'd1 << 20) | (64'd1 << 24) : 64'd1 << 19) : 64'd0) |
      (j == h_a ? {41'd0, h_wm, h_wh, 21'd0} : 64'd0) |
      // icache.access with each miss and with the hit, which follows them
      ({10'd0, h_nm} > j || (h_ih && j == {10'd0, h_nm}) ? 64'd1 << 16 : 64'd0) |
      (h_ih && j == {10'd0, h_nm} ? 64'd1 << 17 : 64'd0) |
      (j > h_a && j < h_b ? st | (h_postk == 2'd0 ? 64'd1 << 29 : h_postk == 2'd1 ? 64'd1 << 30 :
                                             h_postk == 2'd2 ? 64'd1 << 34 : 64'd1 << 31)
                          : 64'd0) |
      (j >= h_b ? st | (h_penj ? 64'd1 << 33 : 64'd1 << 32) : 64'd0);
  // (Min: the finisher store's cycles from its retire to the clock its ACK
  // is sampled, W of them at W wait states, are `stall.dcache` in the
  // vexriscv-min model)
  wire [63:0] s_min = 64'd1 | (head_end && !h_trap ? 64'd2 : 64'd0) | (j == 12'd0 && h_trap ? 64'd1 << 36 : 64'd0) |
                      (j == 12'd0 ? {48'd0, h_pul[12:2], 1'b0, h_pul[1:0], 2'b00} | {38'd0, h_pul[1], 25'd0}
                                  : 64'd0) |
                      (h_last && j > h_a && j < h_b ? st | 64'd1 << 30 : 64'd0);
  wire [63:0] s_masked = have ? ((MIN != 0 ? s_min : s_all) & SUPPORTED) : 64'd0;
  assign sig = s_masked[S-1:0];
  assign stop_we = have && !hold && head_end && h_last;
  wire pop = have && !hold && head_end;
  tally_soc_queue #(.EW(EW), .DEPTH_LOG2(DEPTH_LOG2)) queue (
    .clk(clk), .rst(rst), .push_req(l_full), .din(din), .pop(pop), .head(head), .empty(q_empty),
    .used(), .lost(q_lost));

  // a retire, or a trap, which ends its instruction's cycles as a retire does
  wire report = (wb_fire || wb_trap) && !last_taken;
  wire i_begin = i_active && !i_was;  // an I-bus transaction (a refill) begins
  wire r_fin = wb_fire && wb_insn[6:0] == 7'b0100011 && wb_addr == FINISHER;
  // the finisher store is laid out in the clock its ACK is sampled (or, the
  // ACK sampled before it retired, in the clock after it retires)
  wire lay_last = p_full && p_last && (fin_ack || p_ackd);
  wire w_store = wb_fire && wb_insn[6:0] == 7'b0100011;
  wire w_lookup = !f_valid || f_line != wb_pc[31:5] || (p_full && (p_jal || p_jalr || p_taken));
  // A refill begun in the gap of an instruction that does not redirect the
  // fetch (no jump, no branch taken or predicted taken), for a line other
  // than its own (the last refill of the gap: i_line or g_line), is the
  // fetch stage's lookup ahead in sequence while that instruction waits
  // (for a late result): its miss (icache.access, icache.miss, mem.read) is
  // the lookup's of the next instruction on a new line, as tally's models
  // count it, not the waiting one's (crc.elf: 0x40000060's line refilled
  // while 0x4000005c waits for 0x40000058's result; branch.elf: while a
  // forward branch not taken retires). A jump's or a redirecting branch's
  // is its wrong-path or taken-path fill ... (p_mv: the candidate, decided
  // when the next instruction retires, once a branch's outcome is known)
  wire [1:0]  w_nm = (i_begin && g_nm != 2'd3) ? g_nm + 2'd1 : g_nm;
  wire [26:0] w_aline = i_begin ? i_line : g_line;
  wire [6:0]  w_op = wb_insn[6:0];
  wire m_move = MIN == 0 && p_full && report && !p_last && p_mv && !(p_branch && (p_taken || p_back));
  // A jal, or a backward branch taken, redirects the fetch from decode
  // (the static prediction, IBusCachedPlugin's decodePrediction), so its
  // target's lookup, and the refill when it misses, begins while the jump
  // is still on its way to write-back: a refill begun in its gap for the
  // line the next instruction retires from is that target's miss, and the
  // wait for it the target's (its own line, not the jump's: jumps.elf's jal
  // to leaf1, icache.elf's calls, sort.elf's j)
  wire t_move = MIN == 0 && p_full && report && !p_last && !wb_trap && p_tmv && p_tline == wb_pc[31:5] &&
                (p_jal || (p_branch && p_taken && p_back));
  // (... or of a jalr's, whose wrong path it is: VexRiscv_IMAC.v asks for
  // pc + 12's line before the jalr's gap, crt.S's call into main)
  wire m_take = (m_pend || m_move || t_move) && (w_lookup || w_op == 7'b1100111);
  // ... and the other way round (IMAC, cores/vexriscv-imac.ini's
  // taken_path_fill): the fetch stage had looked up the word after such a
  // jump as the next in sequence, and when that is on another line, which
  // misses, the jump's target waits for that line's refill (alu.elf:
  // main's loop bne at 0x400000bc, in its line's last word; the refill of
  // 0x400000c0's line goes out as 0x400000b4 retires, the bne retires on
  // time and its target 0x4000005c, whose line hits, 19 clocks later).
  // That miss is the jump's lookup, as tally's models count it (not the
  // target's, the next lookup on a new line, m_pend above), and the
  // target's wait for it a fetch wait (`stall.icache`), not a late result's
  // (a refill of that line begun in the jump's own gap is counted there
  // already: icache.elf's jal at 0x4000101c, whose own line and next line
  // are refilled before it retires, and its target fd's after)
  wire [26:0] p_next = p_pc[31:5] + 27'd1;
  wire k_move = MIN == 0 && p_full && report && !p_last && !wb_trap && (p_jal || (p_branch && p_taken && p_back)) &&
                p_pc[4:2] == 3'd7 && wb_pc[31:5] != p_next &&
                ((m_pend && r_pend && r_line == p_next) ||
                 (w_nm != 2'd0 && (g_i ? g_fnew && g_first == p_next : i_begin && i_line == p_next)));
  // ... and a backward branch predicted taken that falls through
  // (cores/vexriscv.ini predicted_target_fill): the fetch stage had asked
  // for the predicted target's line, which misses, and the fall-through,
  // whose own line hits, waits for that refill after the branch retires
  // (icache.elf's bne at 0x4000102c: it retires 4 clocks after its issue,
  // the jal after it 18 of the refill later). The wait is a fetch wait
  // (`stall.icache`), not a late result's; the miss stays the branch's
  wire f_move = MIN == 0 && p_full && report && !p_last && !wb_trap && p_branch && p_back && !p_taken &&
                (wp_run || wp_done) && !wp_own;
  // ... whose predicted target's refill began before its gap (IMAC: in the
  // clock the instruction before it retires, icache.elf's addi at
  // 0x40001028) and was taken for a refill ahead in sequence (m_pend): the
  // miss is the branch's lookup of its target, as the model counts it
  wire [31:0] p_btgt = p_pc + {{20{p_insn[31]}}, p_insn[7], p_insn[30:25], p_insn[11:8], 1'b0};
  wire f_take = f_move && m_pend && m_line == p_btgt[31:5];
  always @(posedge clk) begin
    if (rst) begin
      age <= 12'd0; g_i <= 1'b0; g_d <= 1'b0; last_taken <= 1'b0; fin_seen <= 1'b0; i_was <= 1'b0; g_nm <= 2'd0; d_was <= 1'b0; g_dr <= 1'b0;
      wp_run <= 1'b0; wp_done <= 1'b0; wp_second <= 1'b0; wp_cnt <= 12'd0;
      p_full <= 1'b0; p_last <= 1'b0; l_full <= 1'b0; j <= 12'd0; rundown <= 1'b0; f_valid <= 1'b0;
      r_pend <= 1'b0; m_pend <= 1'b0; p_mv <= 1'b0;
      done <= 1'b0; overflow <= 1'b0;
    end else begin
      if (fin_ack) fin_seen <= 1'b1;
      // a refill ahead of the fetch is the miss of the next lookup if that
      // is of its line; else it was on a path not taken (a wrong-path fill)
      if (i_begin) begin r_line <= i_line; r_pend <= 1'b1; end
      else if (report && r_pend && (r_line == wb_pc[31:5] || w_lookup)) r_pend <= 1'b0;
      i_was <= i_active;
      d_was <= d_read;
      if (report) begin
        wp_run <= i_active; wp_done <= 1'b0; wp_second <= 1'b0; wp_cnt <= 12'd0;
      end else if (wp_run) begin
        if (i_active) wp_cnt <= wp_cnt + 12'd1;
        else begin wp_run <= 1'b0; wp_done <= 1'b1; end
      end else if (wp_done && i_active && !wp_second) begin wp_second <= 1'b1; wp_line <= i_line; end
      if (report) begin
        age <= 12'd0; g_i <= 1'b0; g_d <= 1'b0; g_w <= 1'b0; g_nm <= 2'd0; g_dr <= 1'b0;
        if (age == 12'd4095) overflow <= 1'b1;
      end else begin
        age <= age == 12'd4095 ? age : age + 12'd1;
        if (i_active) begin g_i <= 1'b1; g_line <= i_line; if (!g_i) begin g_first <= i_line; g_fnew <= i_begin; end end
        if (i_begin && g_nm != 2'd3) g_nm <= g_nm + 2'd1;
        if (d_read && !d_was) g_dr <= 1'b1;
        g_d <= g_d || d_read || d_redo;
        g_w <= g_w || d_write;
      end

      // the waiting instruction is laid out once the next one retires (or
      // it is the finisher store and its ACK came)
      l_full <= p_full && ((report && !p_last) || lay_last);
      if (p_full && report && !p_last) begin
        l_pc <= p_pc; l_insn <= p_insn; l_own <= p_own + wp_move; l_pen <= pen_eff; l_last <= 1'b0; l_ack <= 12'd0;
        l_taken <= p_taken; l_trap <= p_trap; l_ill <= p_ill; l_rvc <= p_rvc; l_wh <= p_wh; l_wm <= p_wm; l_ih <= p_ih; l_i <= p_i || wp_move != 12'd0; l_d <= p_d; l_w <= p_w; l_nm <= p_nm - {1'b0, m_move || t_move} + {1'b0, k_move || f_take}; l_dr <= p_dr;
        p_full <= 1'b0;
      end
      if (lay_last) begin
        l_pc <= p_pc; l_insn <= p_insn; l_last <= 1'b1; l_taken <= 1'b0; l_trap <= 1'b0; l_ill <= 1'b0; l_rvc <= p_rvc; l_wh <= 1'b0; l_wm <= 1'b0; l_ih <= p_ih; l_i <= p_i; l_d <= p_d; l_pen <= 2'd0;
        l_nm <= p_nm; l_dr <= p_dr;
        // its cycles run on to the ACK
        l_own <= p_own + (p_ackd ? 12'd0 : age + 12'd1);
        l_ack <= p_ackd ? 12'd0 : age + 12'd1;
        p_full <= 1'b0;
      end
      if (q_lost) overflow <= 1'b1;
      if (report) begin
        p_full <= 1'b1; p_pc <= wb_pc; p_insn <= wb_insn; p_rvc <= wb_rvc;
        p_trap <= wb_trap; p_ill <= wb_trap && wb_tcode == 4'd2;
        // a store to RAM: whether its line is in the D-cache (write-through,
        // no allocation: a miss writes memory only)
        p_wh <= MIN == 0 && w_store && wb_addr < IO_BASE && d_hit;
        p_wm <= MIN == 0 && w_store && wb_addr < IO_BASE && !d_hit;
        // the fetch looks the I-cache up for it when it is on another line
        // than the instruction before it or that one redirected the fetch
        // (as tally's models count lookups): a hit unless its line was
        // refilled in its gap or, ahead of the fetch, before it (the last
        // refill begun, for a line no instruction retired from since)
        // ... a lookup after a backward branch that fell through when the
        // predicted target's line was refilled (f_move: the fetch finds its
        // line gone from the fetch stage, as tally's models count it), and
        // none when the lookup is the miss moved to it (m_take: the refill
        // ahead during the wait of the instruction before it, whose own
        // lookup cleared r_pend; icache.elf's ret at 0x40001040 after the
        // lw missing the D-cache), a jalr's aside when that refill (the
        // last, g_line) was of another line (its wrong path's), or when it
        // is the jump's before it (k_move)
        p_ih <= MIN == 0 && (w_lookup || f_move) &&
                !(m_take && !k_move && (w_op != 7'b1100111 || g_line == wb_pc[31:5])) &&
                !((i_active && i_line == wb_pc[31:5]) || (g_i && (g_line == wb_pc[31:5] || g_first == wb_pc[31:5])) ||
                  (r_pend && r_line == wb_pc[31:5]));
        f_line <= wb_pc[31:5]; f_valid <= 1'b1;
        p_own <= age + 12'd1 - (p_full ? {10'd0, pen_eff} + wp_move : 12'd0);
        // its fetch waited when its own line was read in the gap (a refill
        // for a line ahead of it, while it waits for a result, is not its wait)
        // (a 32-bit instruction in a line's last halfword, IMAC, owns the
        // next line too: its upper half is fetched from there)
        // ... or, the instruction before a divide or a CSR instruction that
        // held execute, before its gap, ahead of the fetch (the last refill
        // begun, for its line, no lookup since): the fetch stage fetches it
        // again once that one moves on, and its wait is that refetch, a
        // late result it uses written during it (muldiv.elf: the add after
        // a div, and the remu after the next, which uses nothing of it,
        // their lines refilled during the divides, each issue 3 clocks
        // after the divide retires; cores/vexriscv.ini held_refetch)
        p_i <= k_move || f_move || (p_hold && w_lookup && r_pend && r_line == wb_pc[31:5]) ||
               (i_active && (i_line == wb_pc[31:5] || (w_spans && i_line == wb_pc[31:5] + 27'd1))) ||
               (g_i && (g_line == wb_pc[31:5] || g_first == wb_pc[31:5] ||
                        (w_spans && g_line == wb_pc[31:5] + 27'd1)));
        p_nm <= w_nm + {1'b0, m_take && w_nm != 2'd3} - {1'b0, k_move};
        m_pend <= (m_pend || m_move || t_move) && !m_take && !f_take;
        if (m_move) m_line <= p_tline;
        p_tmv <= !wb_trap && (w_op == 7'b1101111 || w_op == 7'b1100011) && w_nm != 2'd0 && w_aline != wb_pc[31:5];
        p_tline <= w_aline;
        p_mv <= !wb_trap && w_op != 7'b1101111 && w_op != 7'b1100111 && w_nm != 2'd0 && w_aline != wb_pc[31:5] &&
                !(w_spans && w_aline == wb_pc[31:5] + 27'd1);
        p_dr <= g_dr || (d_read && !d_was);
        p_d <= g_d || d_read || d_redo;
        p_w <= g_w || d_write;
        p_last <= r_fin;
        p_ackd <= fin_seen || fin_ack;
        if (r_fin) last_taken <= 1'b1;
      end

      if (have && !hold) begin
        if (head_end) begin
          j <= 12'd0;
          if (h_last) begin done <= 1'b1; rundown <= 1'b1; end
        end else j <= j + 12'd1;
      end
    end
  end
endmodule
`default_nettype wire
