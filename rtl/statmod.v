// tally statistics module as hardware (docs/rtl.md, docs/protocol.md).
//
// n counters of (signal, address range) events, each R bits wide and
// saturating; P address range registers [lo, hi) shared by the counters; a
// dispatch timer that snapshots and resets the counters every `period`
// observed cycles; a byte-stream packet output (valid/ready) carrying the
// DATA and FINAL packets of docs/protocol.md, so `tally collect` can store
// what the hardware sends (the host sends RUN_START/COUNTER_INFO itself and
// tells the module the first stream sequence number through SEQ_BASE).
//
// Cost is O(S + P + n*R) as in the Statistics Module paper: the P range
// comparators are shared, each counter has a signal mux (S inputs) and an
// ARR mux (P inputs) and its R-bit counter. The snapshot and 64-bit run
// totals (n*(R+64) flip-flops) are what the FINAL packet needs.
//
// Parameters: S signals, P ARRs (>= 1), N counters (1..160: one DATA and one
// FINAL packet per interval), R counter bits (1..64).
//
// Small builds (docs/rtl-area.md, "Small builds"; both 1 by default):
//   TOTALS = 0  no 64-bit run total per counter: the FINAL packet carries no
//               totals (n = 0) and the collector adds up the intervals
//               (docs/protocol.md, FINAL).
//   SNAP = 0    no snapshot: on a dispatch cycle the core is held (hold) while
//               the interval's DATA packet is sent from the counters
//               themselves; the packets are the same, only the core waits.
// ARR_RAM = 1 (0 by default): the 2P range bounds are kept in a RAM (iCE40
//               block RAM) and compared one per clock with a single comparator.
//               The module remembers the address region around the last PC in
//               which no bound falls (so every ARR's answer is the same there)
//               and which ARRs hold it; a counting cycle whose PC leaves that
//               region (or the first one after an ARR write) holds the core
//               (hold) for the 2P + 3 clocks of a new scan. The packets are
//               the same; the core waits at each crossing of a range bound.
//               pc and pc_valid must stay as they are while hold is high.
// COMPACT = 1 (0 by default): compact frames instead of protocol packets
//               (docs/protocol.md, "Compact stream"): a DATA frame is the
//               byte 0x26, the interval number mod 256, the saturation
//               bitmap and the values; a FINAL frame is 0x27 and the number
//               of intervals mod 256. The relay that puts them on the
//               network adds the run id, the sequence numbers and the FINAL
//               packet; the collector derives the cycle stamps. No run id,
//               sequence number, cycle counter or stamps are kept, and no
//               totals (TOTALS must be 0).
`default_nettype none
module tally_statmod #(
    parameter integer S = 8,
    parameter integer P = 4,
    parameter integer N = 4,
    parameter integer R = 32,
    parameter integer TOTALS = 1,
    parameter integer SNAP = 1,
    parameter integer ARR_RAM = 0,
    parameter integer COMPACT = 0
) (
    input  wire         clk,
    input  wire         rst,
    // the observed core: one cycle per clock with cyc_en high
    input  wire         cyc_en,
    input  wire [31:0]  pc,
    input  wire         pc_valid,
    input  wire [S-1:0] sig,
    output wire         hold,      // the core must not advance this clock (packet or ARR scan under way)
    // register interface (word writes), map in docs/rtl.md
    input  wire         reg_we,
    input  wire [15:0]  reg_addr,
    input  wire [31:0]  reg_wdata,
    output reg  [31:0]  reg_rdata,
    // packets
    output wire         out_valid,
    output wire [7:0]   out_data,
    output wire         out_last,
    input  wire         out_ready
);
  localparam integer B = (R + 7) / 8;             // bytes per DATA value
  localparam integer SB = (N + 7) / 8;            // saturation bitmap bytes
  localparam integer HDR = COMPACT ? 0 : 24;      // header bytes (none in a compact frame)
  localparam integer DOFF = COMPACT ? 2 : 32;     // where the saturation bitmap starts
  localparam integer DATA_LEN = DOFF + SB + N * B;  // payload bytes
  localparam integer FINAL_LEN = COMPACT ? 2 : TOTALS ? 40 + 8 * N : 40;
  localparam integer NT = TOTALS ? N : 0;           // totals in the FINAL packet
  localparam integer SW = S > 1 ? $clog2(S) : 1;    // signal selector bits
  localparam integer PW = P > 1 ? $clog2(P) : 1;    // ARR selector bits
  localparam [R-1:0] MAXV = {R{1'b1}};
  localparam integer PKT_MAX = HDR + (DATA_LEN > FINAL_LEN ? DATA_LEN : FINAL_LEN);
  localparam integer EW = $clog2(PKT_MAX + 1) + 1;  // packet byte position bits (with room)
  localparam integer CW = $clog2(N + 1) + 1;        // value index bits (with room)

  // ---- configuration registers --------------------------------------------
  reg [31:0] period;
  reg [63:0] run_id;
  reg [31:0] seq_base;
  reg        cut_short;
  reg [31:0] arr_lo[0:P-1];
  reg [31:0] arr_hi[0:P-1];
  // a counter's selectors as written (16 bits each, docs/rtl.md), kept as
  // what they mean: whether both name something the module has (a signal,
  // and any address or an ARR), the signal's index, any address, the ARR's
  // index
  reg          c_ok[0:N-1];
  reg [SW-1:0] c_sig_ix[0:N-1];
  reg          c_any[0:N-1];
  reg [PW-1:0] c_arr_ix[0:N-1];
  reg          c_en[0:N-1];

  // ---- run state ------------------------------------------------------------
  localparam [2:0] ST_IDLE = 0, ST_RUN = 1, ST_DRAIN = 2, ST_FINAL = 3, ST_DONE = 4;
  reg [2:0]  state;
  reg [63:0] cycle;       // number of the cycle presented now
  reg [63:0] run_begin, iv_begin;  // iv_begin is also the last interval's end
  reg [31:0] remaining;   // cycles to the next dispatch
  reg [63:0] iv_index;    // next interval number
  reg        overrun;     // sticky: a cycle arrived while hold was high
  reg [R-1:0] cnt[0:N-1];
  // a counter's saturation flag is whether it holds MAXV (it stops there)
  reg [63:0]  total[0:N-1];

  // snapshot of one interval, read by the packet emitter
  reg         snap_full;
  reg [R-1:0] snap_v[0:N-1];
  reg [63:0]  snap_index, snap_begin, snap_end;
  reg         final_pending;
  reg [31:0]  seq, data_packets;

  // ---- events: shared range comparators, per-counter muxes ---------------
  wire [P-1:0] hit;
  wire         scan_hold;   // ARR_RAM: the PC left the known region, a scan is due
  wire arr_w = reg_we && reg_addr >= 16'h1000 && reg_addr < 16'h1000 + 8 * P && reg_addr[1:0] == 2'd0;
  wire sel_w = reg_we && reg_addr >= 16'h2000 && reg_addr < 16'h2000 + 8 * N && reg_addr[2:0] == 3'd0;
  /* verilator lint_off UNDRIVEN */  // driven only with ARR_RAM = 1
  reg [N-1:0] chit;  // ARR_RAM: whether each counter's ARR holds the known region
  /* verilator lint_on UNDRIVEN */
  genvar gi;
  generate
    if (ARR_RAM == 0) begin : g_arrff
      for (gi = 0; gi < P; gi = gi + 1) begin : g_arr
        assign hit[gi] = pc_valid && pc >= arr_lo[gi] && pc < arr_hi[gi];
      end
      assign scan_hold = 1'b0;
    end else begin : g_arrram
      localparam integer QW = $clog2(2 * P) > 0 ? $clog2(2 * P) : 1;  // bound index bits
      // bound 2i is ARR i's lo, 2i+1 its hi (register 0x1000 + 4 * bound).
      // The answer is kept per counter (for the ARR it selects): no ARR
      // multiplexer per counter; a counter's selector written is a new scan.
      reg [31:0] bnd[0:2*P-1];
      reg [31:0] rd;
      reg [QW:0] sc_j;              // next bound to read
      reg [QW-1:0] sc_q;            // the bound in rd
      reg        sc_busy, sc_rd, lo_le;
      reg [31:0] sc_pc;             // the PC being scanned for
      reg        rg_ok, rg_end;     // the region [rg_lo, rg_hi) (rg_end: to 2^32) is known
      reg [31:0] rg_lo, rg_hi;
      integer j;
      initial for (j = 0; j < 2 * P; j = j + 1) bnd[j] = 32'd0;
      always @(posedge clk) begin
        if (arr_w) bnd[reg_addr[QW+1:2]] <= reg_wdata;
        rd <= bnd[sc_j[QW-1:0]];
      end
      wire in_rg = rg_ok && pc >= rg_lo && (rg_end || pc < rg_hi);
      assign scan_hold = state == ST_RUN && pc_valid && !in_rg;
      wire le = rd <= sc_pc;
      always @(posedge clk) begin
        if (rst || arr_w || sel_w) begin
          sc_busy <= 1'b0; sc_rd <= 1'b0; rg_ok <= 1'b0;
        end else if (!sc_busy) begin
          if (scan_hold) begin
            sc_busy <= 1'b1; sc_j <= 0; sc_rd <= 1'b0; sc_pc <= pc; rg_ok <= 1'b0;
            rg_lo <= 32'd0; rg_hi <= 32'd0; rg_end <= 1'b1;
          end
        end else begin
          sc_rd <= sc_j < 2 * P;
          sc_q <= sc_j[QW-1:0];
          if (sc_j < 2 * P) sc_j <= sc_j + 1'b1;
          if (sc_rd) begin
            // the region around sc_pc: the greatest bound at or below it, the least above
            if (le && rd > rg_lo) rg_lo <= rd;
            if (!le && (rg_end || rd < rg_hi)) begin rg_hi <= rd; rg_end <= 1'b0; end
            if (!sc_q[0]) lo_le <= le;
            else
              for (j = 0; j < N; j = j + 1)
                if (c_arr_ix[j] == sc_q >> 1) chit[j] <= lo_le && !le;
          end else if (sc_j == 2 * P) begin
            sc_busy <= 1'b0; rg_ok <= 1'b1;
          end
        end
      end
      assign hit = {P{1'b0}};
    end
  endgenerate

  wire [N-1:0] ev;
  wire [R:0]   inc[0:N-1];   // a counter plus one; the carry out says it holds MAXV
  generate
    for (gi = 0; gi < N; gi = gi + 1) begin : g_ev
      wire s_on = S == 1 ? sig[0] : sig[c_sig_ix[gi]];
      wire where = c_any[gi] ? pc_valid : ARR_RAM ? pc_valid && chit[gi] : (P == 1 ? hit[0] : hit[c_arr_ix[gi]]);
      assign ev[gi] = c_en[gi] && c_ok[gi] && s_on && where;
      assign inc[gi] = {1'b0, cnt[gi]} + 1'b1;
    end
  endgenerate

  wire timing = (state == ST_RUN) || (state == ST_DRAIN);
  wire dispatch_now = timing && remaining == 32'd0;
  // SNAP = 0: the interval's DATA packet goes out from the counters before
  // the dispatch cycle is taken (iv_sent: it has gone)
  reg  iv_sent;
  wire snap_busy = SNAP ? snap_full : 1'b0;
  assign hold = (SNAP ? (dispatch_now && snap_full) : (dispatch_now && !iv_sent)) || scan_hold;
  wire step = cyc_en && !hold;

  // where the run stands after this clock's cycle (if any): a write applies after it
  wire [63:0] cycle_next = step ? cycle + 64'd1 : cycle;
  // SNAP = 0: the run's first cycle is stamped on the clock after START
  // (the cycle counter holds it then; nothing reads the stamps before)
  reg start_late;
  // no cycle taken since START: the cycle is still the interval's beginning
  // (iv_begin <= cycle always, and a step makes them differ until the next START)
  reg at_begin;
  wire start_w = reg_we && reg_addr == 16'h0000 && reg_wdata[0] &&
                 (state == ST_IDLE || state == ST_DONE) && period != 32'd0;
  wire stop_w = reg_we && reg_addr == 16'h0000 && reg_wdata[1] && state == ST_RUN;

  // ---- packet emitter -------------------------------------------------------
  reg        em_busy, em_final;
  reg [EW-1:0] em_pos;     // byte of the packet being offered
  reg [CW-1:0] em_ci;      // counter index within the value/total section
  reg [3:0]  em_bi;        // byte within that value
  wire [15:0] em_len = em_final ? FINAL_LEN[15:0] : DATA_LEN[15:0];  // payload length
  wire [EW-1:0] em_total = em_final ? FINAL_LEN[EW-1:0] + HDR[EW-1:0] : DATA_LEN[EW-1:0] + HDR[EW-1:0];
  wire [EW-1:0] p = em_pos - HDR[EW-1:0];
  wire          in_pl = COMPACT ? 1'b1 : em_pos >= 24;  // past the header
  wire [EW-1:0] vstart = em_final ? 40 : DOFF + SB;
  wire [3:0]  vbytes = em_final ? 4'd8 : B[3:0];

  function [7:0] b8(input [63:0] v, input [2:0] k);
    b8 = v[8*k +: 8];
  endfunction

  reg [7:0] byte_o;
  reg [63:0] val_sel;
  reg [7:0] satbyte;
  integer k;
  always @* begin
    val_sel = 64'd0;
    for (k = 0; k < N; k = k + 1)
      if (em_ci == k) val_sel = em_final ? (TOTALS ? total[k] : 64'd0) : {{(64 - R) {1'b0}}, SNAP ? snap_v[k] : cnt[k]};
    satbyte = 8'd0;
    for (k = 0; k < N; k = k + 1)
      if (k / 8 == p - DOFF) satbyte[k%8] = SNAP ? snap_v[k] == MAXV : inc[k][R];
    byte_o = 8'd0;
    if (COMPACT) begin
      // compact frame: type, interval number mod 256, then as DATA's payload
      if (p == 0) byte_o = em_final ? 8'h27 : 8'h26;
      else if (p == 1) byte_o = SNAP ? snap_index[7:0] : iv_index[7:0];
      else if (!em_final && p >= vstart) byte_o = b8(val_sel, em_bi[2:0]);
      else byte_o = satbyte;
    end else if (em_pos < 24) begin
      case (em_pos[4:0])
        5'd0: byte_o = 8'h54; 5'd1: byte_o = 8'h41; 5'd2: byte_o = 8'h4C; 5'd3: byte_o = 8'h59;
        5'd4: byte_o = 8'd1;  5'd5: byte_o = em_final ? 8'h24 : 8'h23;
        5'd8, 5'd9, 5'd10, 5'd11, 5'd12, 5'd13, 5'd14, 5'd15: byte_o = b8(run_id, em_pos[2:0]);
        5'd16, 5'd17, 5'd18, 5'd19: byte_o = b8({32'd0, seq}, em_pos[2:0]);
        5'd20: byte_o = em_len[7:0]; 5'd21: byte_o = em_len[15:8];
        default: byte_o = 8'd0;
      endcase
    end else if (p >= vstart) begin
      byte_o = b8(val_sel, em_bi[2:0]);
    end else if (em_final) begin
      if (p < 8) byte_o = b8(SNAP ? snap_index : iv_index, p[2:0]);  // intervals
      else if (p < 16) byte_o = b8(run_begin, p[2:0]);
      else if (p < 24) byte_o = b8(iv_begin, p[2:0]);
      else if (p < 28) byte_o = b8(SNAP ? {32'd0, data_packets} : iv_index, p[2:0]);  // as many as intervals
      else if (p < 32) byte_o = b8({32'd0, seq + 32'd1}, p[1:0] + 3'd0); // total_packets: FINAL is last
      else if (p == 32) byte_o = N[7:0];
      else if (p == 33) byte_o = N[15:8];
      else if (p == 36) byte_o = NT[7:0];
      else if (p == 37) byte_o = NT[15:8];
      else if (p == 38) byte_o = {7'd0, cut_short};
      else byte_o = 8'd0;
    end else begin
      if (p < 8) byte_o = b8(SNAP ? snap_index : iv_index, p[2:0]);
      else if (p < 16) byte_o = b8(SNAP ? snap_begin : iv_begin, p[2:0]);
      else if (p < 24) byte_o = b8(SNAP ? snap_end : cycle, p[2:0]);
      else if (p == 26) byte_o = N[7:0];
      else if (p == 27) byte_o = N[15:8];
      else if (p == 28) byte_o = R[7:0];
      else if (p < 32) byte_o = 8'd0;
      else byte_o = satbyte;
    end
  end

  assign out_valid = em_busy;
  assign out_data = byte_o;
  assign out_last = em_busy && em_pos == em_total - 1'b1;

  // ---- register read-back: status -------------------------------------------
  always @* begin
    case (reg_addr)
      16'h0000: reg_rdata = {24'd0, overrun, 4'd0, state};
      16'h0004: reg_rdata = period;
      16'h0020: reg_rdata = {S[7:0], R[7:0], P[7:0], N[7:0]};
      16'h0024: reg_rdata = {28'd0, COMPACT != 0, ARR_RAM != 0, SNAP == 0, TOTALS == 0 || COMPACT != 0};  // a small build: what it lacks
      default: reg_rdata = 32'd0;
    endcase
  end

  // ---- sequential -------------------------------------------------------------
  integer i;
  always @(posedge clk) begin
    if (rst) begin
      state <= ST_IDLE; cycle <= 64'd0; at_begin <= 1'b1; start_late <= 1'b0; period <= 32'd0; run_id <= 64'd0; seq_base <= 32'd0;
      cut_short <= 1'b0; overrun <= 1'b0; snap_full <= 1'b0; iv_sent <= 1'b0; final_pending <= 1'b0;
      em_busy <= 1'b0; em_final <= 1'b0; em_pos <= 0; em_ci <= 0; em_bi <= 4'd0;
      remaining <= 32'd0; iv_index <= 64'd0; seq <= 32'd0; data_packets <= 32'd0;
      run_begin <= 64'd0; iv_begin <= 64'd0;
      snap_index <= 64'd0; snap_begin <= 64'd0; snap_end <= 64'd0;
      for (i = 0; i < P; i = i + 1) begin arr_lo[i] <= 32'd0; arr_hi[i] <= 32'd0; end
      for (i = 0; i < N; i = i + 1) begin
        c_ok[i] <= 1'b1; c_sig_ix[i] <= {SW{1'b0}}; c_any[i] <= 1'b1;
        c_arr_ix[i] <= {PW{1'b0}}; c_en[i] <= 1'b0;
        cnt[i] <= {R{1'b0}}; total[i] <= 64'd0; snap_v[i] <= {R{1'b0}};
      end
    end else begin
      if (cyc_en && hold) overrun <= 1'b1;
      start_late <= !SNAP && start_w;
      if (start_late) begin run_begin <= cycle; iv_begin <= cycle; end

      // counting and the dispatch timer, one observed cycle per step
      if (step) begin
        cycle <= cycle + 64'd1; at_begin <= 1'b0;
        if (dispatch_now) begin
          // the interval [iv_begin, cycle) is complete: snapshot, add to totals, reset.
          if (SNAP) begin snap_full <= 1'b1; snap_index <= iv_index; snap_begin <= iv_begin; snap_end <= cycle; end
          iv_sent <= 1'b0;
          iv_index <= iv_index + 64'd1; iv_begin <= cycle;
          remaining <= period - 32'd1;
          for (i = 0; i < N; i = i + 1) begin
            if (SNAP) snap_v[i] <= cnt[i];
            if (TOTALS) total[i] <= total[i] + {{(64 - R) {1'b0}}, cnt[i]};
            // the reset-cycle rule: an event on the dispatch cycle leaves 1, not 0
            cnt[i] <= (state == ST_RUN && ev[i]) ? {{(R - 1) {1'b0}}, 1'b1} : {R{1'b0}};
          end
          if (state == ST_DRAIN) begin state <= ST_FINAL; final_pending <= 1'b1; end
        end else if (timing) begin
          remaining <= remaining - 32'd1;
          if (state == ST_RUN)
            for (i = 0; i < N; i = i + 1)
              if (ev[i] && !inc[i][R]) cnt[i] <= inc[i][R-1:0];  // saturating: no carry out
        end
      end

      // register writes (after counting: a write takes effect from the next cycle)
      if (reg_we) begin
        case (reg_addr)
          16'h0004: period <= reg_wdata;
          16'h0010: run_id[31:0] <= reg_wdata;
          16'h0014: run_id[63:32] <= reg_wdata;
          16'h0018: seq_base <= reg_wdata;
          16'h001C: cut_short <= reg_wdata[0];
          default: ;
        endcase
        if (ARR_RAM == 0)
          for (i = 0; i < P; i = i + 1) begin
            if (reg_addr == 16'h1000 + 8 * i) arr_lo[i] <= reg_wdata;
            if (reg_addr == 16'h1004 + 8 * i) arr_hi[i] <= reg_wdata;
          end
        for (i = 0; i < N; i = i + 1) begin
          if (reg_addr == 16'h2000 + 8 * i) begin
            c_ok[i] <= reg_wdata[15:0] < S && (reg_wdata[31:16] == 16'hFFFF || reg_wdata[31:16] < P);
            c_sig_ix[i] <= reg_wdata[SW-1:0]; c_any[i] <= reg_wdata[31:16] == 16'hFFFF;
            c_arr_ix[i] <= reg_wdata[16 +: PW];
          end
          if (reg_addr == 16'h2004 + 8 * i) c_en[i] <= reg_wdata[0];
        end
      end
      if (start_w) begin
        state <= ST_RUN; remaining <= period; at_begin <= 1'b1;
        if (SNAP) begin run_begin <= cycle_next; iv_begin <= cycle_next; end
        iv_index <= 64'd0; seq <= seq_base; data_packets <= 32'd0; overrun <= 1'b0; final_pending <= 1'b0; iv_sent <= 1'b0;
        for (i = 0; i < N; i = i + 1) begin cnt[i] <= {R{1'b0}}; total[i] <= 64'd0; end
      end
      if (stop_w) begin
        // counters freeze; the timer runs down unless the run ends exactly on a dispatch
        if (!step && at_begin) begin state <= ST_FINAL; final_pending <= 1'b1; end
        else state <= ST_DRAIN;
      end

      // the emitter: a DATA snapshot first, then FINAL once the run is over
      if (!em_busy) begin
        if (snap_busy || (!SNAP && dispatch_now && !iv_sent)) begin
          em_busy <= 1'b1; em_final <= 1'b0; em_pos <= 0; em_ci <= 0; em_bi <= 4'd0;
        end else if (final_pending) begin
          em_busy <= 1'b1; em_final <= 1'b1; em_pos <= 0; em_ci <= 0; em_bi <= 4'd0;
          if (SNAP) snap_index <= iv_index;  // FINAL's "intervals" field
        end
      end else if (out_ready) begin
        if (em_pos == em_total - 1'b1) begin
          em_busy <= 1'b0; seq <= seq + 32'd1;
          if (em_final) begin final_pending <= 1'b0; state <= ST_DONE; end
          else begin snap_full <= 1'b0; iv_sent <= 1'b1; data_packets <= data_packets + 32'd1; end
        end else begin
          em_pos <= em_pos + 1'b1;
          if (in_pl && p >= vstart) begin
            if (em_bi == vbytes - 4'd1) begin em_bi <= 4'd0; em_ci <= em_ci + 1'b1; end
            else em_bi <= em_bi + 4'd1;
          end
        end
      end
    end
  end
endmodule
`default_nettype wire
