// tally_soc (VexRiscv) -- LiteX's standard VexRiscv, its memory, a UART and
// tally's statistics module watching the core (docs/rtl-soc.md, "VexRiscv").
//
//   VexRiscv (VexRiscv.v of pythondata-cpu-vexriscv) -- Wishbone I-bus and
//        |  write-back stage, buses                     D-bus: RAM, finisher, UART
//   tally_vex_adapter -- tally_statmod -- out_* (DATA and FINAL packets)
//   host register port (reg_*): the module's registers (docs/rtl.md), and
//   the SoC's status at 0x0F00
//
// The same ports as rtl/soc/soc.v's tally_soc (the same testbench, tb.cpp
// built with SOC_VEXRISCV), on tally's `litex` board map (boards/litex.ini)
// as the VexRiscv programs of tests/cores/vexriscv use it:
//   RAM_BASE..+4*MEM_WORDS  RAM, a Wishbone port per bus; a beat the slave
//                           first sees at edge c is acknowledged at edge
//                           c + 1 + W (W wait states, the memory of
//                           rtl/cores/vexriscv/tb.cpp), the slave drops ACK
//                           after the edge that samples it
//   FINISHER (0xF0000000)   word store: the program's end (0x5555: status 0,
//                           (code << 16) | 0x3333: status code)
//   UART (0xF0001000)       byte store: transmit (8N1, CLK_DIV clocks a bit, a
//                           FIFO_LOG2-deep queue; a byte stored with it full sets uart_lost)
//   other IO (0x80000000 up) reads 0, writes ignored (as the reference
//                           testbench); below RAM: bad_access
// The core is held in reset until the host writes START to the module; when
// the finisher store's ACK is sampled the adapter ends the run (STOP after
// that cycle).
//
// Status at 0x0F00 (read): as soc.v (bit 0 finished, 1 the last cycle
// presented, 2 adapter overflow, 3 bad access, 4 uart_lost, 5 0 (VexRiscv
// has no trap output), 6 the core runs; bits 31:16 the exit status); 0x0F04
// reads 0 (this adapter never holds the core).
`default_nettype none
module tally_soc #(
    parameter integer MEM_WORDS = 65536,
    parameter [31:0] RAM_BASE = 32'h4000_0000,
    parameter [31:0] IO_BASE = 32'h8000_0000,
    parameter [31:0] FINISHER = 32'hF000_0000,
    parameter [31:0] UART = 32'hF000_1000,
    parameter integer W = 0,
    parameter integer CLK_DIV = 104,
    parameter integer FIFO_LOG2 = 8,   // 256 bytes: io.S prints faster than 8N1 sends
    // the module (docs/rtl.md)
    parameter integer STATMOD = 1,
    parameter integer S = 37,
    parameter integer P = 4,
    parameter integer N = 8,
    parameter integer R = 32,
    parameter integer TOTALS = 1,
    parameter integer SNAP = 1,
    parameter integer COMPACT = 0
) (
    input  wire        clk,
    input  wire        rst,
    output wire        uart_tx,
    output wire        out_valid,
    output wire [7:0]  out_data,
    output wire        out_last,
    input  wire        out_ready,
    input  wire        reg_we,
    input  wire [15:0] reg_addr,
    input  wire [31:0] reg_wdata,
    output wire [31:0] reg_rdata,
    output reg         finished,
    output reg  [31:0] finish_value,
    output reg         uart_valid,
    output reg  [7:0]  uart_byte,
    output wire        trap
);
  localparam integer AW = $clog2(MEM_WORDS);
  assign trap = 1'b0;

  // ---- the core ----------------------------------------------------------------
  reg go;
  wire core_reset = rst || !go;
  wire        i_cyc, i_stb, d_cyc, d_stb, d_we;
  wire [29:0] i_adr, d_adr;
  wire [2:0]  i_cti, d_cti;
  wire [31:0] d_wdat;
  wire [3:0]  d_sel;
  reg         i_ack, d_ack;
  reg  [31:0] i_rdat, d_rdat;
  VexRiscv cpu (
    .externalResetVector(RAM_BASE), .timerInterrupt(1'b0), .softwareInterrupt(1'b0),
    .externalInterruptArray(32'h0),
    .iBusWishbone_CYC(i_cyc), .iBusWishbone_STB(i_stb), .iBusWishbone_ACK(i_ack), .iBusWishbone_WE(),
    .iBusWishbone_ADR(i_adr), .iBusWishbone_DAT_MISO(i_rdat), .iBusWishbone_DAT_MOSI(),
    .iBusWishbone_SEL(), .iBusWishbone_ERR(1'b0), .iBusWishbone_CTI(i_cti), .iBusWishbone_BTE(),
    .dBusWishbone_CYC(d_cyc), .dBusWishbone_STB(d_stb), .dBusWishbone_ACK(d_ack), .dBusWishbone_WE(d_we),
    .dBusWishbone_ADR(d_adr), .dBusWishbone_DAT_MISO(d_rdat), .dBusWishbone_DAT_MOSI(d_wdat),
    .dBusWishbone_SEL(d_sel), .dBusWishbone_ERR(1'b0), .dBusWishbone_CTI(d_cti), .dBusWishbone_BTE(),
    .clk(clk), .reset(core_reset));

  // ---- memory: a port per bus, W wait states ------------------------------------
  reg [31:0] mem [0:MEM_WORDS-1] /*verilator public*/;
  wire [31:0] ia = {i_adr, 2'b00}, da = {d_adr, 2'b00};
  wire i_in_ram = ia[31:AW+2] == RAM_BASE[31:AW+2];
  wire d_in_ram = da[31:AW+2] == RAM_BASE[31:AW+2];
  reg        i_busy, d_busy;
  reg [3:0]  i_cnt, d_cnt;
  wire i_go = !i_ack && (i_busy ? i_cnt == 4'd1 : (i_cyc && i_stb && W == 0));
  wire d_go = !d_ack && (d_busy ? d_cnt == 4'd1 : (d_cyc && d_stb && W == 0));
  always @(posedge clk) begin
    if (core_reset) begin
      i_ack <= 1'b0; d_ack <= 1'b0; i_busy <= 1'b0; d_busy <= 1'b0; i_cnt <= 4'd0; d_cnt <= 4'd0;
    end else begin
      // I-bus
      if (i_ack) begin i_ack <= 1'b0; i_busy <= 1'b0; end
      else if (!i_busy && i_cyc && i_stb) begin i_busy <= 1'b1; i_cnt <= W[3:0]; end
      else if (i_busy) i_cnt <= i_cnt - 4'd1;
      if (i_go) begin i_ack <= 1'b1; i_rdat <= i_in_ram ? mem[ia[AW+1:2]] : 32'd0; end
      // D-bus
      if (d_ack) begin d_ack <= 1'b0; d_busy <= 1'b0; end
      else if (!d_busy && d_cyc && d_stb) begin d_busy <= 1'b1; d_cnt <= W[3:0]; end
      else if (d_busy) d_cnt <= d_cnt - 4'd1;
      if (d_go) begin
        d_ack <= 1'b1;
        d_rdat <= d_in_ram && !d_we ? mem[da[AW+1:2]] : 32'd0;
        if (d_in_ram && d_we) begin
          if (d_sel[0]) mem[da[AW+1:2]][ 7: 0] <= d_wdat[ 7: 0];
          if (d_sel[1]) mem[da[AW+1:2]][15: 8] <= d_wdat[15: 8];
          if (d_sel[2]) mem[da[AW+1:2]][23:16] <= d_wdat[23:16];
          if (d_sel[3]) mem[da[AW+1:2]][31:24] <= d_wdat[31:24];
        end
      end
    end
  end
  // the transfer the core samples in this clock (ACK high)
  wire d_xfer = d_ack;
  reg [31:0] d_xa;       // its address and data, kept from the clock the slave took it
  reg [31:0] d_xd;
  reg        d_xwe;
  always @(posedge clk) if (d_go) begin d_xa <= da; d_xd <= d_wdat; d_xwe <= d_we; end
  wire fin_ack = d_xfer && d_xwe && d_xa == FINISHER;

  // ---- finisher, UART (soc_parts.v), bad accesses ------------------------------------
  reg bad_access;
  wire uart_lost, io_mine;
  wire [15:0] exit_code;
  wire io_wr = d_xfer && !core_reset && d_xwe;
  tally_soc_io #(.FINISHER(FINISHER), .UART(UART), .CLK_DIV(CLK_DIV), .FIFO_LOG2(FIFO_LOG2)) io (
    .clk(clk), .rst(rst), .wr(io_wr), .addr(d_xa), .wdata(d_xd), .mine(io_mine),
    .finished(finished), .finish_value(finish_value), .exit_code(exit_code), .uart_valid(uart_valid),
    .uart_byte(uart_byte), .uart_lost(uart_lost), .uart_tx(uart_tx));
  always @(posedge clk)
    if (rst) bad_access <= 1'b0;
    else if ((d_xfer && !core_reset && !(io_wr && io_mine) && d_xa < IO_BASE && d_xa[31:AW+2] != RAM_BASE[31:AW+2]) ||
             (i_ack && !core_reset && !i_in_ram))
      bad_access <= 1'b1;

  // ---- the host's writes; START releases the core ------------------------------
  always @(posedge clk)
    if (rst) go <= 1'b0;
    else if (reg_we && reg_addr == 16'h0000 && reg_wdata[0]) go <= 1'b1;

  // ---- the adapter and the module ------------------------------------------------
  wire ad_done, ad_overflow;
  wire [31:0] status = {exit_code, 9'd0, !core_reset, trap, uart_lost, bad_access, ad_overflow, ad_done, finished};
  generate if (STATMOD != 0) begin : g_sm
    wire cyc_en /*verilator public_flat_rd*/, pc_valid /*verilator public_flat_rd*/;
    wire hold, stop_we;
    wire [31:0] pc /*verilator public_flat_rd*/;
    wire [S-1:0] sig /*verilator public_flat_rd*/;
    // the write-back stage (VexRiscv.v's names), the buses' CYC; the Min
    // variant (VEX_MIN: VexRiscv_Min.v) has no D-cache to send a load back
`ifdef VEX_MIN
    wire d_redo = 1'b0;
    wire d_hit = 1'b0;
    localparam integer MIN = 1;
`else
    wire d_redo = cpu.DBusCachedPlugin_redoBranch_valid;
    wire d_hit = cpu.dataCache_1.stageB_waysHit;
    localparam integer MIN = 0;
`endif
    // a compressed instruction (VEX_IMAC: VexRiscv_IMAC.v). The core keeps
    // IS_RVC to the execute stage only; these two registers carry it on to
    // write-back with the enables of the core's own memory and write-back
    // stage registers (memory_to_writeBack_PC's), so it stays with its
    // instruction's writeBack_PC.
`ifdef VEX_IMAC
    reg m_rvc, w_rvc;
    always @(posedge clk) begin
      if (!cpu.memory_arbitration_isStuck) m_rvc <= cpu.execute_IS_RVC;
      if (!cpu.writeBack_arbitration_isStuck && !cpu.CsrPlugin_exceptionPortCtrl_exceptionValids_writeBack)
        w_rvc <= m_rvc;
    end
    wire wb_rvc = w_rvc;
`else
    wire wb_rvc = 1'b0;
`endif
    tally_vex_adapter #(.S(S), .FINISHER(FINISHER), .IO_BASE(IO_BASE), .MIN(MIN)) adapter (
      .clk(clk), .rst(core_reset),
      .wb_fire(cpu.writeBack_arbitration_isFiring), .wb_pc(cpu.writeBack_PC),
      .wb_trap(cpu.CsrPlugin_exception), .wb_tcode(cpu.CsrPlugin_exceptionPortCtrl_exceptionContext_code),
      .wb_insn(cpu.writeBack_INSTRUCTION), .wb_rvc(wb_rvc), .wb_addr(cpu.writeBack_REGFILE_WRITE_DATA),
      .i_active(i_cyc), .i_line(i_adr[29:3]), .d_read(d_cyc && !d_we), .d_write(d_cyc && d_we), .d_redo(d_redo), .d_hit(d_hit),
      .fin_ack(fin_ack),
      .hold(hold), .cyc_en(cyc_en), .pc(pc), .pc_valid(pc_valid), .sig(sig), .stop_we(stop_we),
      .done(ad_done), .overflow(ad_overflow));
    // 0x0F04: the clocks the adapter held the core (soc.v): never, here
    tally_soc_port #(.S(S), .P(P), .N(N), .R(R), .TOTALS(TOTALS), .SNAP(SNAP), .COMPACT(COMPACT)) port (
      .clk(clk), .rst(rst), .cyc_en(cyc_en), .pc(pc), .pc_valid(pc_valid), .sig(sig), .stop_we(stop_we),
      .hold(hold), .reg_we(reg_we), .reg_addr(reg_addr), .reg_wdata(reg_wdata), .reg_rdata(reg_rdata),
      .status(status), .extra(32'd0),
      .out_valid(out_valid), .out_data(out_data), .out_last(out_last), .out_ready(out_ready));
  end else begin : g_nosm
    assign out_valid = 1'b0; assign out_data = 8'd0; assign out_last = 1'b0;
    assign ad_done = 1'b0; assign ad_overflow = 1'b0;
    assign reg_rdata = reg_addr == 16'h0F00 ? status : 32'd0;
  end endgenerate

endmodule
`default_nettype wire
