// tally_pico_top -- PicoRV32 on a memory with W wait states, for the
// differential tests of docs/core-models.md (PicoRV32).
//
// The memory answers the native interface combinationally: a request
// (mem_valid) that rises in cycle c gets mem_ready high, with the read data,
// in cycle c + W (W = wait_states, 0..3) and the core takes it at the edge
// that ends that cycle. W = 0 is "a memory that can accommodate requests
// within one clock cycle" of PicoRV32's README (its CPI table). RAM: MEM_BYTES
// at RAM_BASE. A word store to FINISHER ends the run (0x5555: status 0;
// (code << 16) | 0x3333: status code); a byte store to UART prints it.
// The core's parameters are set by the `-G` options of build.sh.
`timescale 1ns/1ps
module tally_pico_top #(
  parameter [0:0] ENABLE_COUNTERS = 1,
  parameter [0:0] ENABLE_REGS_DUALPORT = 1,
  parameter [0:0] TWO_STAGE_SHIFT = 1,
  parameter [0:0] BARREL_SHIFTER = 0,
  parameter [0:0] COMPRESSED_ISA = 1,
  parameter [0:0] ENABLE_MUL = 1,
  parameter [0:0] ENABLE_FAST_MUL = 0,
  parameter [0:0] ENABLE_DIV = 1,
  parameter integer MEM_WORDS = 262144,
  parameter [31:0] RAM_BASE = 32'h8000_0000,
  parameter [31:0] FINISHER = 32'h0010_0000,
  parameter [31:0] UART = 32'h1000_0000
) (
  input clk,
  input resetn,
  input [1:0] wait_states,
  output reg finished,
  output reg [31:0] finish_value,
  output reg uart_valid,
  output reg [7:0] uart_byte,
  output reg bad_access,
  output trap,
  output launch,
  output [31:0] launch_pc,
  output xfer,
  output [31:0] xfer_addr,
  output xfer_write
);
  wire mem_valid, mem_instr;
  reg mem_ready;
  wire [31:0] mem_addr, mem_wdata;
  wire [3:0] mem_wstrb;
  reg [31:0] mem_rdata;

  picorv32 #(
    .ENABLE_COUNTERS(ENABLE_COUNTERS),
    .ENABLE_REGS_DUALPORT(ENABLE_REGS_DUALPORT),
    .TWO_STAGE_SHIFT(TWO_STAGE_SHIFT),
    .BARREL_SHIFTER(BARREL_SHIFTER),
    .COMPRESSED_ISA(COMPRESSED_ISA),
    .ENABLE_MUL(ENABLE_MUL),
    .ENABLE_FAST_MUL(ENABLE_FAST_MUL),
    .ENABLE_DIV(ENABLE_DIV),
    .PROGADDR_RESET(RAM_BASE)
  ) cpu (
    .clk(clk), .resetn(resetn), .trap(trap),
    .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(mem_ready),
    .mem_addr(mem_addr), .mem_wdata(mem_wdata), .mem_wstrb(mem_wstrb), .mem_rdata(mem_rdata),
    .pcpi_wr(1'b0), .pcpi_rd(32'b0), .pcpi_wait(1'b0), .pcpi_ready(1'b0),
    .irq(32'b0)
  );

  // The instruction the core starts (its fetch state with a decoded word).
  assign launch = cpu.launch_next_insn;
  assign launch_pc = cpu.reg_next_pc;
  // A bus transfer completes at the end of this cycle.
  assign xfer = mem_valid && mem_ready;
  assign xfer_addr = mem_addr;
  assign xfer_write = mem_wstrb != 0;

  reg [31:0] mem [0:MEM_WORDS-1] /*verilator public*/;
  reg [1:0] waited;
  wire [31:0] word = (mem_addr - RAM_BASE) >> 2;
  wire in_ram = mem_addr >= RAM_BASE && word < MEM_WORDS;

  // Combinational answer: mem_ready in the (W+1)-th cycle of a request.
  always @* begin
    mem_ready = resetn && mem_valid && waited == wait_states;
    mem_rdata = 32'h0;
    if (in_ram)
      mem_rdata = mem[word[17:0]];
    else if (mem_addr == UART + 4)
      mem_rdata = 32'h0000_6000;  // line status: transmitter empty
  end

  always @(posedge clk) begin
    uart_valid <= 0;
    if (!resetn) begin
      waited <= 0;
      finished <= 0;
      bad_access <= 0;
    end else if (mem_valid && !mem_ready) begin
      waited <= waited + 1;
    end else if (mem_valid && mem_ready) begin
      waited <= 0;
      if (in_ram) begin
        if (mem_wstrb[0]) mem[word[17:0]][ 7: 0] <= mem_wdata[ 7: 0];
        if (mem_wstrb[1]) mem[word[17:0]][15: 8] <= mem_wdata[15: 8];
        if (mem_wstrb[2]) mem[word[17:0]][23:16] <= mem_wdata[23:16];
        if (mem_wstrb[3]) mem[word[17:0]][31:24] <= mem_wdata[31:24];
      end else if (mem_addr == FINISHER && mem_wstrb != 0) begin
        finished <= 1;
        finish_value <= mem_wdata;
      end else if (mem_addr == UART && mem_wstrb != 0) begin
        uart_valid <= 1;
        uart_byte <= mem_wdata[7:0];
      end else if (!(mem_addr == UART + 4 && mem_wstrb == 0)) begin
        bad_access <= 1;
      end
    end
  end
endmodule
