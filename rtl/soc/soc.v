// tally_soc -- PicoRV32, its memory, a UART and tally's statistics module
// watching the core (docs/rtl-soc.md).
//
//   picorv32 (RISCV_FORMAL: its RVFI trace port) -- memory: RAM at RAM_BASE,
//                                                   finisher, UART
//        |  RVFI, bus
//   tally_pico_adapter -- tally_statmod -- out_* (a byte stream of DATA and
//                                            FINAL packets, docs/rtl.md)
//   host register port (reg_*): the module's registers (docs/rtl.md), and
//   the SoC's status at 0x0F00
//
// The memory answers in the cycle of the request (PicoRV32's look-ahead
// interface, mem_la_*, addresses the synchronous RAM one clock early), so
// the core runs as on tally's `picorv32` core model (zero wait states).
// The core is held in reset until the host starts the module (a write of
// START to register 0x0000): the program starts with the run, as a board
// started by `tally run --control` waits for START. When the program stores
// to the finisher, the adapter ends the run after that store's cycle (STOP)
// and the module sends its last interval and FINAL; the core goes on in its
// final loop.
//
// Bus map (tally's `virt` board, the part the test programs use):
//   RAM_BASE..+4*MEM_WORDS  RAM (MEM_INIT: a $readmemh file, optional)
//   FINISHER (0x00100000)   word store: the program's end (0x5555: status 0,
//                           (code << 16) | 0x3333: status code)
//   UART (0x10000000)       byte store: transmit (8N1, CLK_DIV clocks a bit,
//                           a FIFO_LOG2-deep queue); UART + 4 reads 0x6000
//                           (transmitter empty, as tally's model answers: the
//                           program never waits, so its cycles are tally's; a
//                           byte stored with the queue full is dropped and
//                           uart_lost set)
// Any other access sets bad_access.
//
// STATMOD = 0 builds the same SoC without the adapter and the module (the
// reference for its area and Fmax, docs/rtl-area.md "The SoC").
//
// Status at 0x0F00 (read): bit 0 finished, bit 1 the adapter presented the
// run's last cycle, bit 2 adapter overflow (cycles lost), bit 3 bad access,
// bit 4 uart_lost, bit 5 trap, bit 6 the core runs; bits 31:16 the exit status.
// At 0x0F04 (read, simulation only): the clocks the adapter held the core.
`default_nettype none
module tally_soc #(
    parameter integer MEM_WORDS = 65536,
    parameter MEM_INIT = "",
    parameter [31:0] RAM_BASE = 32'h8000_0000,
    parameter [31:0] FINISHER = 32'h0010_0000,
    parameter [31:0] UART = 32'h1000_0000,
    parameter integer CLK_DIV = 104,
    parameter integer FIFO_LOG2 = 4,
    // the core: cores/picorv32.ini (rtl/cores/picorv32/config.sh imc)
    parameter [0:0] COMPRESSED_ISA = 1,
    parameter [0:0] ENABLE_MUL = 1,
    parameter [0:0] ENABLE_DIV = 1,
    parameter [0:0] TWO_STAGE_SHIFT = 1,
    parameter [0:0] BARREL_SHIFTER = 0,
    // the module (docs/rtl.md)
    parameter integer STATMOD = 1,
    parameter integer S = 33,
    parameter integer P = 4,
    parameter integer N = 8,
    parameter integer R = 32,
    parameter integer TOTALS = 1,
    parameter integer SNAP = 1,
    parameter integer ARR_RAM = 0,  // the ARRs in a RAM scanned while the core is held
    parameter integer COMPACT = 0   // compact frames (docs/protocol.md): the testbench relays them
) (
    input  wire        clk,
    input  wire        rst,
    output wire        uart_tx,
    // the module's packets
    output wire        out_valid,
    output wire [7:0]  out_data,
    output wire        out_last,
    input  wire        out_ready,
    // the host's register port
    input  wire        reg_we,
    input  wire [15:0] reg_addr,
    input  wire [31:0] reg_wdata,
    output wire [31:0] reg_rdata,
    // for a testbench (and LEDs)
    output reg         finished,
    output reg  [31:0] finish_value,
    output reg         uart_valid,
    output reg  [7:0]  uart_byte,
    output wire        trap
);
  localparam integer AW = $clog2(MEM_WORDS);

  // ---- the core ----------------------------------------------------------------
  reg go;  // the host started the run
  wire core_resetn = !rst && go;
  wire mem_valid, mem_instr;
  wire [31:0] mem_addr, mem_wdata;
  wire [3:0] mem_wstrb;
  reg  [31:0] mem_rdata;
  wire mem_la_read, mem_la_write;
  wire [31:0] mem_la_addr, mem_la_wdata;
  wire [3:0] mem_la_wstrb;
  // zero wait states, but for the clocks the adapter holds the core: its
  // loads and stores wait while the adapter is busy (tally_pico_adapter).
  // mem_ready is on the core's longest path (into mem_xfer, its look-ahead
  // read and the RAM's enable), so the hold is a register (hold_q), decided
  // a clock ahead: PicoRV32's trace port marks the clock in which it
  // computes a load's or store's address (trace_valid with TRACE_ADDR,
  // bit 33), the clock before that access's mem_valid; a held access stays
  // held while the adapter is busy. PicoRV32 reads mem_ready only with
  // mem_valid, so hold_q is true only with a load or store waiting.
  wire core_busy;
  wire trace_valid;
  wire [35:0] trace_data;
  reg  hold_q;
  always @(posedge clk)
    if (!core_resetn) hold_q <= 1'b0;
    else hold_q <= core_busy && (hold_q || (trace_valid && trace_data[33]));
  wire core_held = mem_valid && hold_q;
  wire mem_ready = mem_valid && !hold_q;
`ifndef SYNTHESIS
  // a fetch is never held: the held clocks are pure waits of the core
  always @(posedge clk)
    if (core_resetn && core_held && mem_instr) begin
      $display("tally_soc: an instruction fetch was held");
      $stop;
    end
`endif
  wire rvfi_valid;
  wire [31:0] rvfi_insn, rvfi_pc_rdata;

  picorv32 #(
    .ENABLE_COUNTERS(1), .ENABLE_REGS_DUALPORT(1),
    .TWO_STAGE_SHIFT(TWO_STAGE_SHIFT), .BARREL_SHIFTER(BARREL_SHIFTER), .COMPRESSED_ISA(COMPRESSED_ISA),
    .ENABLE_MUL(ENABLE_MUL), .ENABLE_FAST_MUL(0), .ENABLE_DIV(ENABLE_DIV), .PROGADDR_RESET(RAM_BASE),
    .ENABLE_TRACE(STATMOD != 0)
  ) cpu (
    .clk(clk), .resetn(core_resetn), .trap(trap),
    .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(mem_ready),
    .mem_addr(mem_addr), .mem_wdata(mem_wdata), .mem_wstrb(mem_wstrb), .mem_rdata(mem_rdata),
    .mem_la_read(mem_la_read), .mem_la_write(mem_la_write), .mem_la_addr(mem_la_addr),
    .mem_la_wdata(mem_la_wdata), .mem_la_wstrb(mem_la_wstrb),
    .pcpi_wr(1'b0), .pcpi_rd(32'b0), .pcpi_wait(1'b0), .pcpi_ready(1'b0),
    .irq(32'b0), .trace_valid(trace_valid), .trace_data(trace_data)
`ifdef RISCV_FORMAL
    , .rvfi_valid(rvfi_valid), .rvfi_insn(rvfi_insn), .rvfi_pc_rdata(rvfi_pc_rdata)
`endif
  );
`ifndef RISCV_FORMAL
  assign rvfi_valid = 1'b0;
  assign rvfi_insn = 32'd0;
  assign rvfi_pc_rdata = 32'd0;
`endif

  // ---- memory: read one clock early through the look-ahead interface ---------
  reg [31:0] mem [0:MEM_WORDS-1] /*verilator public*/;
  generate if (MEM_INIT != "") begin : g_init
    initial $readmemh(MEM_INIT, mem);
  end endgenerate
  wire [AW-1:0] la_word = mem_la_addr[AW+1:2];
  wire la_in_ram = mem_la_addr[31:AW+2] == RAM_BASE[31:AW+2];
  reg  [31:0] ram_q;
  always @(posedge clk) begin
    if (mem_la_write && la_in_ram) begin
      if (mem_la_wstrb[0]) mem[la_word][ 7: 0] <= mem_la_wdata[ 7: 0];
      if (mem_la_wstrb[1]) mem[la_word][15: 8] <= mem_la_wdata[15: 8];
      if (mem_la_wstrb[2]) mem[la_word][23:16] <= mem_la_wdata[23:16];
      if (mem_la_wstrb[3]) mem[la_word][31:24] <= mem_la_wdata[31:24];
    end
    if (mem_la_read && la_in_ram) ram_q <= mem[la_word];
  end
  wire in_ram = mem_addr[31:AW+2] == RAM_BASE[31:AW+2];
  always @* begin
    mem_rdata = 32'd0;
    if (in_ram) mem_rdata = ram_q;
    else if (mem_addr == UART + 32'd4) mem_rdata = 32'h0000_6000;
  end
  wire xfer = mem_valid && mem_ready;

  // ---- finisher, UART (soc_parts.v) -----------------------------------------------
  reg bad_access;
  wire uart_lost, io_mine;
  wire [15:0] exit_code;
  wire io_wr = xfer && core_resetn && mem_wstrb != 0;
  tally_soc_io #(.FINISHER(FINISHER), .UART(UART), .CLK_DIV(CLK_DIV), .FIFO_LOG2(FIFO_LOG2)) io (
    .clk(clk), .rst(rst), .wr(io_wr), .addr(mem_addr), .wdata(mem_wdata), .mine(io_mine),
    .finished(finished), .finish_value(finish_value), .exit_code(exit_code), .uart_valid(uart_valid),
    .uart_byte(uart_byte), .uart_lost(uart_lost), .uart_tx(uart_tx));
  always @(posedge clk)
    if (rst) bad_access <= 1'b0;
    else if (xfer && core_resetn && !(io_wr && io_mine) && !in_ram && !(mem_addr == UART + 32'd4 && mem_wstrb == 0))
      bad_access <= 1'b1;

  // ---- the host's writes; START releases the core ------------------------------
  always @(posedge clk)
    if (rst) go <= 1'b0;
    else if (reg_we && reg_addr == 16'h0000 && reg_wdata[0]) go <= 1'b1;

  // ---- the adapter and the module ------------------------------------------------
  wire ad_done, ad_overflow;
  wire [31:0] status;
  assign status = {exit_code, 9'd0, core_resetn, trap, uart_lost, bad_access, ad_overflow, ad_done, finished};
  generate if (STATMOD != 0) begin : g_sm
    wire cyc_en /*verilator public_flat_rd*/, pc_valid /*verilator public_flat_rd*/;
    wire hold, stop_we;
    wire [31:0] pc /*verilator public_flat_rd*/;
    wire [S-1:0] sig /*verilator public_flat_rd*/;
    // the adapter's side of the register stage (tally_soc_stage: the module
    // sees registers, the adapter a register's ready)
    wire a_valid, a_ready, a_pc_valid, a_last;
    wire [31:0] a_pc;
    wire [S-1:0] a_sig;
    tally_pico_adapter #(.S(S)) adapter (
      .clk(clk), .rst(!core_resetn),
      .first_fetch(xfer && mem_instr), .rvfi_valid(rvfi_valid), .rvfi_insn(rvfi_insn),
      .rvfi_pc_rdata(rvfi_pc_rdata), .finish(xfer && mem_addr == FINISHER && mem_wstrb != 0),
      .held(core_held), .busy(core_busy),
      .ready(a_ready), .valid(a_valid), .pc(a_pc), .pc_valid(a_pc_valid), .sig(a_sig), .last(a_last),
      .stopped(stop_we), .done(ad_done), .overflow(ad_overflow));
    tally_soc_stage #(.S(S)) stage (
      .clk(clk), .rst(!core_resetn), .a_valid(a_valid), .a_pc(a_pc), .a_pc_valid(a_pc_valid), .a_sig(a_sig),
      .a_last(a_last), .a_ready(a_ready), .hold(hold), .cyc_en(cyc_en), .pc(pc), .pc_valid(pc_valid), .sig(sig),
      .stop_we(stop_we));
    wire [31:0] held_clocks;
`ifndef SYNTHESIS
    reg [31:0] held_count;
    always @(posedge clk)
      if (rst) held_count <= 32'd0;
      else if (core_held) held_count <= held_count + 32'd1;
    assign held_clocks = held_count;
    localparam integer EXTRA = 1;
`else
    assign held_clocks = 32'd0;
    localparam integer EXTRA = 0;
`endif
    tally_soc_port #(.S(S), .P(P), .N(N), .R(R), .TOTALS(TOTALS), .SNAP(SNAP), .ARR_RAM(ARR_RAM),
                     .COMPACT(COMPACT), .EXTRA(EXTRA)) port (
      .clk(clk), .rst(rst), .cyc_en(cyc_en), .pc(pc), .pc_valid(pc_valid), .sig(sig), .stop_we(stop_we),
      .hold(hold), .reg_we(reg_we), .reg_addr(reg_addr), .reg_wdata(reg_wdata), .reg_rdata(reg_rdata),
      .status(status), .extra(held_clocks),
      .out_valid(out_valid), .out_data(out_data), .out_last(out_last), .out_ready(out_ready));
  end else begin : g_nosm
    assign out_valid = 1'b0; assign out_data = 8'd0; assign out_last = 1'b0;
    assign ad_done = 1'b0; assign ad_overflow = 1'b0; assign core_busy = 1'b0;
    assign reg_rdata = reg_addr == 16'h0F00 ? status : 32'd0;
  end endgenerate

endmodule
`default_nettype wire
