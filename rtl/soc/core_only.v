// tally_pico_core -- PicoRV32 alone, configured as in rtl/soc (cores/picorv32.ini),
// its native memory interface on pins: the reference of docs/rtl-area.md
// "The SoC" for the core's own size and Fmax.
`default_nettype none
module tally_pico_core (
    input  wire        clk,
    input  wire        resetn,
    output wire        trap,
    output wire        mem_valid,
    output wire        mem_instr,
    input  wire        mem_ready,
    output wire [31:0] mem_addr,
    output wire [31:0] mem_wdata,
    output wire [3:0]  mem_wstrb,
    input  wire [31:0] mem_rdata
);
  picorv32 #(
    .ENABLE_COUNTERS(1), .ENABLE_REGS_DUALPORT(1), .TWO_STAGE_SHIFT(1), .BARREL_SHIFTER(0),
    .COMPRESSED_ISA(1), .ENABLE_MUL(1), .ENABLE_FAST_MUL(0), .ENABLE_DIV(1), .PROGADDR_RESET(32'h8000_0000)
  ) cpu (
    .clk(clk), .resetn(resetn), .trap(trap),
    .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(mem_ready),
    .mem_addr(mem_addr), .mem_wdata(mem_wdata), .mem_wstrb(mem_wstrb), .mem_rdata(mem_rdata),
    .pcpi_wr(1'b0), .pcpi_rd(32'b0), .pcpi_wait(1'b0), .pcpi_ready(1'b0),
    .irq(32'b0)
  );
endmodule
`default_nettype wire
