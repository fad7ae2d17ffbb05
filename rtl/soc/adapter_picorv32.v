// tally_pico_adapter -- what tally_statmod sees of a PicoRV32 (rtl/soc,
// docs/rtl-soc.md).
//
// From the core's trace port (RVFI: picorv32.v built with RISCV_FORMAL) and
// its memory interface only, it rebuilds, cycle by cycle, the PC and the
// signals of tally's catalog as tally's picorv32 core model lays them out
// (docs/cycle-trace.md, docs/statmod.md "Which cycle of its instruction an
// event is on"), and hands them to the module one observed cycle per
// clock (valid, ready: through tally_soc_stage, a register stage of
// soc_parts.v), a few instructions behind the core:
//
// - An instruction's cycles run from its launch to the next launch (the
//   measure of rtl/cores/picorv32 and of tally's model). PicoRV32 reports an
//   instruction on RVFI the clock after the next one launches, so a report
//   at clock r ends the instruction launched at the previous launch, with
//   r - 1 - that launch cycles. The first launch is not reported: it is
//   the clock after the first instruction word arrives (first_fetch).
// - The run's last instruction is the finisher store: its cycles end with
//   the store's transfer (finish), inclusive, as tally's run does.
// - Where in its cycles a signal is high is tally's layout: the fetch of
//   the next instruction's word first (stall, stall.icache), then the issue
//   cycles with the instruction's pulses on the first of them (load, store,
//   branch, branch.taken, jump, call, ret, mul, div, csr, system,
//   compressed), then the cycles beyond PicoRV32's README time for its
//   class (stall, with stall.muldiv for a shift, stall.branch for a taken
//   branch), instret on the last. At zero wait states an instruction waits
//   one cycle for its fetch when the instruction after it in sequence (the
//   jump target for jal and jalr) is a 32-bit one at 2 mod 4; a taken
//   branch's own fetch wait is what is left of its time beyond 3 + 2 and
//   its target's fetch. So an instruction is laid out once the next one
//   is reported. A branch is taken when the next instruction is not the
//   one in sequence, or (a branch to the next address) when it took 3 + 2
//   cycles or more.
// - For the clock rate, the layout is spread over the clocks around the
//   report (docs/rtl-area.md, "The SoC"): the address in sequence after an
//   instruction is added up when it is reported; when the next one is
//   reported, one clock decides whether it was a taken branch and its fetch
//   cycles, the next clock its issue end and its entry into the queue. An
//   instruction's cycles are counted from its launch (9 bits, held at 511)
//   rather than subtracted from a cycle number.
// - The laid-out instructions wait in a queue of 2^DEPTH_LOG2 entries (a
//   RAM: block RAM on an FPGA) while the module takes their cycles: after
//   a MULH (72 cycles) the next two dozen instructions are reported before
//   its last cycle is presented.
//
// - The core is held while the queue is half full or more (busy): the SoC
//   withholds mem_ready from the core's next load or store (held), where
//   PicoRV32 does nothing but wait for the transfer, so that each held
//   clock delays everything after it by exactly one clock and changes
//   nothing else. Held clocks are not the core's cycles: the count of an
//   instruction's cycles stops while the core is held, and the cycles
//   presented to the module are those of the core run at zero wait states
//   (tally's `picorv32` model). This is what lets a module that holds its
//   input (`hold`: SNAP = 0 while a DATA packet goes out, ARR_RAM = 1 while
//   the bounds are scanned) sit beside a core that cannot be paused
//   anywhere: the queue takes the cycles the module is not ready for, the
//   core waits once it is half full. Not paused: PicoRV32's own cycle
//   counter (rdcycle), which counts the held clocks too; and a program that
//   runs more instructions than half the queue without a load or store while
//   the module holds overflows it (`overflow`).
//
// The cycles themselves (how many, which PC) are the RTL's; only their
// order within an instruction follows tally's convention. Zero wait states
// only (the SoC's memory answers in the cycle of the request, but for the
// clocks the adapter holds the core).
//
// Signals (catalog numbers of `tally signals`): 0 cycle, 1 instret, 2 load,
// 3 store, 5 branch, 6 branch.taken, 8 jump, 9 call, 10 ret, 11 mul, 12 div,
// 13 csr, 14 system, 15 compressed, 26 stall, 27 stall.icache,
// 29 stall.muldiv, 32 stall.branch; every other bit is 0 (SUPPORTED below).
//
// The last instruction's last cycle is marked (last): the stage writes
// STOP in the clock after the module takes it, which presents no cycle, so
// STOP applies after it, as docs/rtl.md says; then (stopped) the adapter
// presents cycles with no valid PC for the dispatch timer to run down. `overflow` is sticky: a
// report arrived with the queue full (the module held the cycles back
// longer than the queue covers), and cycles were lost.
`default_nettype none
module tally_pico_adapter #(
    parameter integer S = 33,
    parameter integer DEPTH_LOG2 = 8
) (
    input  wire         clk,
    input  wire         rst,          // held until the run starts (the core is in reset too)
    // the core
    input  wire         first_fetch,  // the first instruction word arrives this clock
    input  wire         rvfi_valid,
    input  wire [31:0]  rvfi_insn,
    input  wire [31:0]  rvfi_pc_rdata,
    input  wire         finish,       // the finisher store's transfer is this clock
    input  wire         held,         // the core waits for busy this clock (not one of its cycles)
    output reg          busy,         // hold the core (its next load or store): the queue is half full
    // the module, through tally_soc_stage: a cycle is handed over in a clock
    // with valid and ready
    input  wire         ready,
    output wire         valid,
    output wire [31:0]  pc,
    output wire         pc_valid,
    output wire [S-1:0] sig,
    output wire         last,         // this cycle is the run's last
    input  wire         stopped,      // the module took the last cycle (STOP is written now)
    output reg          done,         // the last cycle has been handed over
    output reg          overflow
);
  localparam [63:0] SUPPORTED = 64'h1_2C00_FF6F;
  localparam integer D = 1 << DEPTH_LOG2;

  // ---- the core's clock, from its first launch ------------------------------
  reg        started;     // the first launch has happened
  reg        first_seen;  // the first word has arrived
  // the cycles of the instruction to be reported next, were it reported in
  // this clock (this clock - 1 - its launch): 9 bits, held at 511 (the
  // layout holds an instruction's cycles at 255)
  reg [8:0]  age;
  reg        fin_seen;    // the finisher store's transfer happened
  reg [8:0]  fin_t;       // ... ending the instruction to be reported next after this many cycles
  reg        last_taken;  // the instruction that ends the run has been reported

  // ---- the instruction reported, waiting for the next one --------------------
  reg        p_full;
  reg [31:0] p_pc, p_insn;
  reg [31:0] p_seq;       // the address of the instruction in sequence after it
  reg [7:0]  p_t;
  reg        p_last;
  // is it a branch (32-bit or compressed)
  wire p_branch = p_insn[1:0] == 2'b11 ? p_insn[6:0] == 7'b1100011
                                       : p_insn[1:0] == 2'b01 && p_insn[15:14] == 2'b11;

  // ---- the instruction being laid out (the clock after the next one is reported)
  reg        l_full;
  reg [31:0] l_pc, l_insn;
  reg [7:0]  l_t;
  reg [7:0]  l_f;         // its fetch cycles
  reg        l_last, l_taken;

  // decode of the instruction being laid out
  wire        c16 = l_insn[1:0] != 2'b11;
  wire [6:0]  op = l_insn[6:0];
  wire [2:0]  f3 = l_insn[14:12];
  wire [4:0]  rd = l_insn[11:7];
  wire [4:0]  rs1 = l_insn[19:15];
  wire [2:0]  cf3 = l_insn[15:13];
  wire [1:0]  cq = l_insn[1:0];
  wire [4:0]  crs2 = l_insn[6:2];
  wire [4:0]  crd = l_insn[11:7];
  // 32-bit classes
  wire i_load = !c16 && op == 7'b0000011;
  wire i_store = !c16 && op == 7'b0100011;
  wire i_branch = !c16 && op == 7'b1100011;
  wire i_jal = !c16 && op == 7'b1101111;
  wire i_jalr = !c16 && op == 7'b1100111;
  wire i_muldiv = !c16 && op == 7'b0110011 && l_insn[31:25] == 7'b0000001;
  wire i_mul = i_muldiv && !f3[2];
  wire i_mulh = i_mul && f3 != 3'b000;
  wire i_div = i_muldiv && f3[2];
  wire i_shimm = !c16 && op == 7'b0010011 && f3[1:0] == 2'b01;
  wire i_shreg = !c16 && op == 7'b0110011 && l_insn[31:25] != 7'b0000001 && f3[1:0] == 2'b01;
  wire i_system = !c16 && op == 7'b1110011;
  wire i_csr = i_system && f3 != 3'b000;
  wire i_fence = !c16 && op == 7'b0001111;
  // compressed classes (RV32C)
  wire c_load = c16 && ((cq == 2'b00 && cf3 == 3'b010) || (cq == 2'b10 && cf3 == 3'b010));
  wire c_store = c16 && ((cq == 2'b00 && cf3 == 3'b110) || (cq == 2'b10 && cf3 == 3'b110));
  wire c_branch = c16 && cq == 2'b01 && (cf3 == 3'b110 || cf3 == 3'b111);
  wire c_jal = c16 && cq == 2'b01 && (cf3 == 3'b001 || cf3 == 3'b101);      // c.jal (ra), c.j
  wire c_jr = c16 && cq == 2'b10 && cf3 == 3'b100 && crd != 0 && crs2 == 0;  // c.jr, c.jalr
  wire c_jalr_link = c_jr && l_insn[12];
  wire c_ebreak = c16 && cq == 2'b10 && cf3 == 3'b100 && l_insn[12] && crd == 0 && crs2 == 0;
  wire c_shimm = c16 && ((cq == 2'b10 && cf3 == 3'b000) ||
                         (cq == 2'b01 && cf3 == 3'b100 && l_insn[11:10] != 2'b11 && !l_insn[11]));
  wire is_load = i_load || c_load;
  wire is_store = i_store || c_store;
  wire is_branch = i_branch || c_branch;
  wire is_jal = i_jal || c_jal;
  wire is_jalr = i_jalr || c_jr;
  wire is_jump = is_jal || is_jalr;
  wire is_call = (i_jal || i_jalr) ? (rd == 5'd1 || rd == 5'd5) : (c_jal && !cf3[2]) || c_jalr_link;
  wire is_ret = (i_jalr && rd == 0 && (rs1 == 5'd1 || rs1 == 5'd5) && l_insn[31:20] == 12'd0) ||
                (c_jr && !l_insn[12] && (crd == 5'd1 || crd == 5'd5));
  wire is_system = (i_system && f3 == 3'b000) || i_fence || c_ebreak;
  wire is_shift = i_shimm || i_shreg || c_shimm;
  // README times (cores/picorv32.ini [pipeline] cpi.*)
  wire [7:0] base = is_load || is_store ? 8'd5 : is_jalr ? 8'd6 : i_mulh ? 8'd72 : (i_mul || i_div) ? 8'd40 :
                    is_shift || i_csr ? 8'd4 : 8'd3;

  // the next instruction (reported now)
  wire        n_c16 = rvfi_insn[1:0] != 2'b11;
  wire        n_split = rvfi_pc_rdata[1] && !n_c16;  // a 32-bit instruction at 2 mod 4: one more word
  // taken: the next instruction is not the one in sequence, or (a branch to
  // the next address) it took a taken branch's time, 3 + 2 at least
  wire        p_taken = p_branch && (rvfi_pc_rdata != p_seq || p_t >= 8'd5);
  // the fetch cycles first, at most all but one of its cycles: a taken
  // branch's are what is left beyond 3 + 2 + its target's fetch (both
  // cases worked out from p_t, the choice made by p_taken)
  wire [7:0]  f_taken = (p_t >= 8'd6 + {7'd0, n_split}) ? p_t - 8'd5 - {7'd0, n_split} : 8'd0;
  wire [7:0]  f_seq = {7'd0, n_split && !p_last && p_t != 8'd1};
  wire [7:0]  p_f = p_taken ? f_taken : f_seq;
  // (in the clock after) the issue cycles end at the README time, or with the instruction
  wire        taken = l_taken;
  wire [7:0]  f = l_f;
  wire [7:0]  issue_end = (f + base < l_t) ? f + base : l_t;  // cycles from here on: beyond the README time
  wire [63:0] pulses = ({63'd0, is_load} << 2) | ({63'd0, is_store} << 3) | ({63'd0, is_branch} << 5) |
                       ({63'd0, taken} << 6) | ({63'd0, is_jump} << 8) | ({63'd0, is_call} << 9) |
                       ({63'd0, is_ret} << 10) | ({63'd0, i_mul} << 11) | ({63'd0, i_div} << 12) |
                       ({63'd0, i_csr} << 13) | ({63'd0, is_system} << 14) | ({63'd0, c16} << 15);

  // ---- the queue of laid-out instructions (soc_parts.v) -------------------------
  // {last, post, pulses, issue end, fetch cycles, cycles, pc}
  localparam integer EW = 1 + 2 + 16 + 8 + 8 + 8 + 32;
  wire [EW-1:0] head;
  wire q_empty, q_lost;
  wire [DEPTH_LOG2:0] q_used;
  wire        h_last = head[74];
  wire [1:0]  h_post = head[73:72];
  wire [15:0] h_pul = head[71:56];
  wire [7:0]  h_ie = head[55:48], h_f = head[47:40], h_t = head[39:32];

  // ---- the feeder: one observed cycle per clock -------------------------------
  reg [7:0] j;             // cycle within the head instruction
  reg       rundown;       // after the last cycle: cycles without a PC
  wire have = !q_empty && !done;
  assign valid = have || rundown;
  assign pc_valid = have;
  assign pc = head[31:0];
  wire head_end = j == h_t - 8'd1;
  wire [63:0] s_all =
      64'd1 |
      (head_end ? 64'd2 : 64'd0) |
      (j < h_f ? ((64'd1 << 26) | (64'd1 << 27)) : 64'd0) |
      (j == h_f ? {48'd0, h_pul} : 64'd0) |
      (j >= h_ie ? ((64'd1 << 26) | (h_post == 2'd1 ? (64'd1 << 29) : h_post == 2'd2 ? (64'd1 << 32) : 64'd0))
                 : 64'd0);
  wire [63:0] s_masked = have ? (s_all & SUPPORTED) : 64'd0;
  assign sig = s_masked[S-1:0];
  wire pop = have && ready && head_end;
  assign last = have && head_end && h_last;
  wire [EW-1:0] din = {l_last, is_shift ? 2'd1 : taken ? 2'd2 : 2'd0, pulses[15:0], issue_end, f, l_t, l_pc};
  tally_soc_queue #(.EW(EW), .DEPTH_LOG2(DEPTH_LOG2)) queue (
    .clk(clk), .rst(rst), .push_req(l_full), .din(din), .pop(pop), .head(head), .empty(q_empty),
    .used(q_used), .lost(q_lost));

  // the reported instruction becomes the waiting one; the waiting one is laid out
  wire report = rvfi_valid && started && !last_taken;
  // (the reported instruction ended in the clock before last, the next
  // one launched in the last; the finisher store ends with its transfer)
  wire        r_last = fin_seen;
  wire [8:0]  r_t = fin_seen ? fin_t : age;

  integer i;
  always @(posedge clk) begin
    if (rst) begin
      started <= 1'b0; first_seen <= 1'b0; age <= 9'd0; fin_seen <= 1'b0; fin_t <= 9'd0;
      last_taken <= 1'b0; p_full <= 1'b0; p_last <= 1'b0; l_full <= 1'b0; j <= 8'd0; rundown <= 1'b0;
      done <= 1'b0; overflow <= 1'b0; busy <= 1'b0;
    end else begin
      busy <= q_used >= D / 2;
      // the core's cycle count: the first launch is the clock after the first word
      if (!started && first_seen) begin started <= 1'b1; age <= 9'd0; end
      else if (started) age <= report ? 9'd1 : (held || age == 9'd511) ? age : age + 9'd1;
      if (first_fetch && !first_seen) first_seen <= 1'b1;
      if (finish && started && !fin_seen) begin
        fin_seen <= 1'b1;
        fin_t <= report ? 9'd2 : age >= 9'd510 ? 9'd511 : age + 9'd2;
      end

      // once the next instruction is known (or it is the last), the waiting
      // one is taken to be laid out, with whether it was a taken branch and
      // whether the next one is a split fetch; it enters the queue a clock later
      l_full <= p_full && (report || p_last);
      if (p_full && (report || p_last)) begin
        l_pc <= p_pc; l_insn <= p_insn; l_t <= p_t; l_last <= p_last;
        l_taken <= p_taken; l_f <= p_f;
        p_full <= 1'b0;
      end
      if (q_lost) overflow <= 1'b1;
      if (report) begin
        p_full <= 1'b1; p_pc <= rvfi_pc_rdata; p_insn <= rvfi_insn;
        p_seq <= rvfi_pc_rdata + (n_c16 ? 32'd2 : 32'd4);
        p_t <= r_t[8] ? 8'd255 : r_t[7:0];
        if (r_t[8]) overflow <= 1'b1;
        p_last <= r_last;
        if (r_last) last_taken <= 1'b1;
      end

      // the rundown once the module has taken the last cycle (STOP goes
      // out in that clock, which presents none: tally_soc_stage)
      if (stopped) rundown <= 1'b1;
      // hand over the head's cycles
      if (have && ready) begin
        if (head_end) begin
          j <= 8'd0;
          if (h_last) done <= 1'b1;
        end else j <= j + 8'd1;
      end
    end
  end
endmodule
`default_nettype wire
