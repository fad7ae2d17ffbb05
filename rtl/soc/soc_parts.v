// The parts both SoCs share (rtl/soc/soc.v on PicoRV32, soc_vexriscv.v on
// VexRiscv; docs/rtl-soc.md): the finisher and the UART on the core's
// data side, and the host's port to the statistics module.
`default_nettype none

// tally_soc_io -- the finisher and the UART. `wr`: a write transfer of the
// running core completes in this clock, to `addr` with `wdata`.
//   FINISHER  word store: the program's end (0x5555: status 0,
//             (code << 16) | 0x3333: status code, anything else 1)
//   UART      byte store: transmit (8N1, CLK_DIV clocks a bit, a
//             FIFO_LOG2-deep queue; a byte stored with it full is dropped
//             and uart_lost set)
// `mine`: addr is one of the two (the SoC flags other accesses itself).
module tally_soc_io #(
    parameter [31:0] FINISHER = 32'h0010_0000,
    parameter [31:0] UART = 32'h1000_0000,
    parameter integer CLK_DIV = 104,
    parameter integer FIFO_LOG2 = 4
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        wr,
    input  wire [31:0] addr,
    input  wire [31:0] wdata,
    output wire        mine,
    output reg         finished,
    output reg  [31:0] finish_value,
    output wire [15:0] exit_code,
    output reg         uart_valid,
    output reg  [7:0]  uart_byte,
    output reg         uart_lost,
    output wire        uart_tx
);
  localparam integer FD = 1 << FIFO_LOG2;
  reg [7:0] fifo [0:FD-1];
  reg [FIFO_LOG2:0] f_wr, f_rd;
  reg [9:0] shift;      // start bit, 8 data bits, stop bit (LSB first)
  reg [3:0] bits_left;
  reg [15:0] baud;
  assign uart_tx = bits_left == 0 ? 1'b1 : shift[0];
  assign mine = addr == FINISHER || addr == UART;
  assign exit_code = (finish_value[15:0] == 16'h5555) ? 16'd0 :
                     (finish_value[15:0] == 16'h3333) ? finish_value[31:16] : 16'd1;
  always @(posedge clk) begin
    uart_valid <= 1'b0;
    if (rst) begin
      finished <= 1'b0; finish_value <= 32'd0; uart_lost <= 1'b0;
      f_wr <= 0; f_rd <= 0; bits_left <= 4'd0; baud <= 16'd0; shift <= 10'h3FF;
    end else begin
      if (wr && addr == FINISHER) begin
        if (!finished) finish_value <= wdata;
        finished <= 1'b1;
      end else if (wr && addr == UART) begin
        uart_valid <= 1'b1; uart_byte <= wdata[7:0];
        if (f_wr - f_rd == FD[FIFO_LOG2:0]) uart_lost <= 1'b1;
        else begin fifo[f_wr[FIFO_LOG2-1:0]] <= wdata[7:0]; f_wr <= f_wr + 1'b1; end
      end
      if (bits_left == 0) begin
        if (f_wr != f_rd) begin
          shift <= {1'b1, fifo[f_rd[FIFO_LOG2-1:0]], 1'b0}; f_rd <= f_rd + 1'b1;
          bits_left <= 4'd10; baud <= CLK_DIV[15:0] - 16'd1;
        end
      end else if (baud == 0) begin
        shift <= {1'b1, shift[9:1]}; bits_left <= bits_left - 4'd1; baud <= CLK_DIV[15:0] - 16'd1;
      end else baud <= baud - 16'd1;
    end
  end
endmodule

// tally_soc_port -- tally_statmod behind the host's register port: the
// adapter's STOP (stop_we) goes first, a host write in that clock waits one
// clock; reads of 0x0F00 give `status`, with EXTRA 1 those of 0x0F04
// `extra` (the clocks the adapter held the core, simulation only), the rest
// the module's registers.
module tally_soc_port #(
    parameter integer S = 33,
    parameter integer P = 4,
    parameter integer N = 8,
    parameter integer R = 32,
    parameter integer TOTALS = 1,
    parameter integer SNAP = 1,
    parameter integer ARR_RAM = 0,
    parameter integer COMPACT = 0,
    parameter integer EXTRA = 1
) (
    input  wire         clk,
    input  wire         rst,
    // the adapter
    input  wire         cyc_en,
    input  wire [31:0]  pc,
    input  wire         pc_valid,
    input  wire [S-1:0] sig,
    input  wire         stop_we,
    output wire         hold,
    // the host
    input  wire         reg_we,
    input  wire [15:0]  reg_addr,
    input  wire [31:0]  reg_wdata,
    output wire [31:0]  reg_rdata,
    input  wire [31:0]  status,
    input  wire [31:0]  extra,
    // the module's packets
    output wire         out_valid,
    output wire [7:0]   out_data,
    output wire         out_last,
    input  wire         out_ready
);
  wire [31:0] sm_rdata;
  reg         hb_full;
  reg  [15:0] hb_addr;
  reg  [31:0] hb_data;
  wire        h_we = hb_full || reg_we;
  wire [15:0] h_addr = hb_full ? hb_addr : reg_addr;
  wire [31:0] h_data = hb_full ? hb_data : reg_wdata;
  always @(posedge clk) begin
    if (rst) hb_full <= 1'b0;
    else if (stop_we) begin
      if (h_we) begin hb_full <= 1'b1; hb_addr <= h_addr; hb_data <= h_data; end
    end else if (hb_full) begin
      hb_full <= reg_we; hb_addr <= reg_addr; hb_data <= reg_wdata;
    end
  end
  tally_statmod #(.S(S), .P(P), .N(N), .R(R), .TOTALS(TOTALS), .SNAP(SNAP), .ARR_RAM(ARR_RAM),
                  .COMPACT(COMPACT)) sm (
    .clk(clk), .rst(rst), .cyc_en(cyc_en), .pc(pc), .pc_valid(pc_valid), .sig(sig), .hold(hold),
    .reg_we(stop_we || h_we), .reg_addr(stop_we ? 16'h0000 : h_addr), .reg_wdata(stop_we ? 32'd2 : h_data),
    .reg_rdata(sm_rdata),
    .out_valid(out_valid), .out_data(out_data), .out_last(out_last), .out_ready(out_ready));
  assign reg_rdata = reg_addr == 16'h0F00 ? status : (EXTRA != 0 && reg_addr == 16'h0F04) ? extra : sm_rdata;
endmodule

// tally_soc_stage -- a register stage between an adapter and the module, for
// the clock rate (docs/rtl-area.md, "The SoC"): the adapter's cycles (a_*,
// one a clock while a_valid and a_ready) reach the module (cyc_en, pc,
// pc_valid, sig) a clock later, in the same order, none lost or repeated.
// Without it the module's hold, decided from the PC (the region compare of
// ARR_RAM = 1) and the dispatch timer, ran back through the adapter's
// feeder (the queue's pop and read address) in the same clock, and the PC
// came straight from the queue's RAM through the compares into the
// counters. Here the module sees registers, and the adapter sees a_ready,
// a register too: a second entry (skid) takes the cycle the adapter handed
// over in the clock the module held. The cycle marked a_last (the run's
// last) ends the run: STOP (stop_we) in the clock after the module takes
// it, a clock that presents no cycle (the adapter presents the run-down
// cycles only once it sees stop_we). While the module holds, the cycle it
// holds stays as it is (tally_statmod's rule for pc and pc_valid).
module tally_soc_stage #(
    parameter integer S = 33
) (
    input  wire         clk,
    input  wire         rst,
    // the adapter
    input  wire         a_valid,
    input  wire [31:0]  a_pc,
    input  wire         a_pc_valid,
    input  wire [S-1:0] a_sig,
    input  wire         a_last,
    output wire         a_ready,
    // the module
    input  wire         hold,
    output wire         cyc_en,
    output wire [31:0]  pc,
    output wire         pc_valid,
    output wire [S-1:0] sig,
    output reg          stop_we
);
  localparam integer W = S + 34;  // {last, pc_valid, pc, sig}
  reg         m_v, k_v;
  reg [W-1:0] m, k;
  wire [W-1:0] a = {a_last, a_pc_valid, a_pc, a_sig};
  assign a_ready = !k_v;
  assign cyc_en = m_v && !hold;
  assign pc_valid = m_v && m[W-2];
  assign pc = m[S+31:S];
  assign sig = m[S-1:0];
  wire m_free = !m_v || !hold;  // the module takes m this clock, or m is empty
  always @(posedge clk) begin
    if (m_free) m <= k_v ? k : a;
    if (!m_free && !k_v) k <= a;
  end
  always @(posedge clk)
    if (rst) begin
      m_v <= 1'b0; k_v <= 1'b0; stop_we <= 1'b0;
    end else begin
      stop_we <= cyc_en && m[W-1];
      if (m_free) begin
        m_v <= k_v || a_valid;
        k_v <= 1'b0;
      end else if (!k_v) k_v <= a_valid;
    end
endmodule

// tally_soc_queue -- an adapter's queue of laid-out instructions (a RAM:
// block RAM on an FPGA), 2^DEPTH_LOG2 entries of EW bits. The head is read
// one clock ahead (show-ahead), bypassed when it is being written; `pop`
// takes it. An entry offered (push_req) with the queue full is dropped and
// `lost` is high in that clock.
module tally_soc_queue #(
    parameter integer EW = 8,
    parameter integer DEPTH_LOG2 = 8
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  push_req,
    input  wire [EW-1:0]         din,
    input  wire                  pop,
    output reg  [EW-1:0]         head,
    output wire                  empty,
    output wire [DEPTH_LOG2:0]   used,   // (DEPTH_LOG2 + 1 bits: the pointers wrap)
    output wire                  lost
);
  localparam integer D = 1 << DEPTH_LOG2;
  reg [EW-1:0] qm[0:D-1];
  reg [DEPTH_LOG2:0] wr, rd_;
  assign empty = wr == rd_;
  assign used = wr - rd_;
  wire full = used == D[DEPTH_LOG2:0];
  wire push = push_req && !full;
  assign lost = push_req && full;
  wire [DEPTH_LOG2:0] rd_next = pop ? rd_ + 1'b1 : rd_;
  always @(posedge clk) begin
    if (push) qm[wr[DEPTH_LOG2-1:0]] <= din;
    head <= (push && wr[DEPTH_LOG2-1:0] == rd_next[DEPTH_LOG2-1:0]) ? din : qm[rd_next[DEPTH_LOG2-1:0]];
  end
  always @(posedge clk)
    if (rst) begin
      wr <= 0; rd_ <= 0;
    end else begin
      if (push) wr <= wr + 1'b1;
      rd_ <= rd_next;
    end
endmodule
`default_nettype wire
