// The naive design the Statistics Module paper compares against: one
// saturating R-bit counter for every (signal, range) pair, S*P counters, no
// multiplexers. Same inputs, same shared range comparators, the same dispatch
// timer and reset-cycle rule; the counters are read out through a read port
// (counter s*P + r at reg_addr 0x4000 + 4*(s*P + r), low 32 bits) from the
// snapshot taken at each dispatch. Its cost grows as O(S*P*R): it is here to be
// synthesised beside tally_statmod (docs/rtl.md), not to be used.
`default_nettype none
module tally_statmod_naive #(
    parameter integer S = 8,
    parameter integer P = 4,
    parameter integer R = 32
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         cyc_en,
    input  wire [31:0]  pc,
    input  wire         pc_valid,
    input  wire [S-1:0] sig,
    input  wire         reg_we,
    input  wire [15:0]  reg_addr,
    input  wire [31:0]  reg_wdata,
    output reg  [31:0]  reg_rdata,
    output reg          dispatched   // a snapshot was taken this clock
);
  localparam integer C = S * P;
  localparam [R-1:0] MAXV = {R{1'b1}};
  reg [31:0]  period, remaining;
  reg         running;
  reg [31:0]  arr_lo[0:P-1];
  reg [31:0]  arr_hi[0:P-1];
  reg [R-1:0] cnt[0:C-1];
  reg [R-1:0] snap[0:C-1];

  wire [P-1:0] hit;
  genvar gi;
  generate
    for (gi = 0; gi < P; gi = gi + 1) begin : g_arr
      assign hit[gi] = pc_valid && pc >= arr_lo[gi] && pc < arr_hi[gi];
    end
  endgenerate

  integer i, s, r;
  always @* begin
    reg_rdata = 32'd0;
    for (i = 0; i < C; i = i + 1)
      if (reg_addr == 16'h4000 + 4 * i) reg_rdata = snap[i][(R > 32 ? 32 : R)-1:0];
  end

  always @(posedge clk) begin
    dispatched <= 1'b0;
    if (rst) begin
      period <= 32'd0; remaining <= 32'd0; running <= 1'b0;
      for (i = 0; i < P; i = i + 1) begin arr_lo[i] <= 32'd0; arr_hi[i] <= 32'd0; end
      for (i = 0; i < C; i = i + 1) begin cnt[i] <= {R{1'b0}}; snap[i] <= {R{1'b0}}; end
    end else begin
      if (cyc_en && running) begin
        if (remaining == 32'd0) begin
          remaining <= period - 32'd1; dispatched <= 1'b1;
          for (s = 0; s < S; s = s + 1)
            for (r = 0; r < P; r = r + 1) begin
              snap[s * P + r] <= cnt[s * P + r];
              cnt[s * P + r] <= (sig[s] && hit[r]) ? {{(R - 1) {1'b0}}, 1'b1} : {R{1'b0}};
            end
        end else begin
          remaining <= remaining - 32'd1;
          for (s = 0; s < S; s = s + 1)
            for (r = 0; r < P; r = r + 1)
              if (sig[s] && hit[r] && cnt[s * P + r] != MAXV)
                cnt[s * P + r] <= cnt[s * P + r] + {{(R - 1) {1'b0}}, 1'b1};
        end
      end
      if (reg_we) begin
        if (reg_addr == 16'h0004) period <= reg_wdata;
        if (reg_addr == 16'h0000) begin
          running <= reg_wdata[0]; remaining <= period;
          for (i = 0; i < C; i = i + 1) cnt[i] <= {R{1'b0}};
        end
        for (i = 0; i < P; i = i + 1) begin
          if (reg_addr == 16'h1000 + 8 * i) arr_lo[i] <= reg_wdata;
          if (reg_addr == 16'h1004 + 8 * i) arr_hi[i] <= reg_wdata;
        end
      end
    end
  end
endmodule
`default_nettype wire
