// mmu_core's formal properties (SymbiYosys: formal/mmu_core.sby; docs/formal.md "mmu_core"),
// included inside the module under `ifdef FORMAL (simulation, lint and synthesis never read
// this file).

// ---- formal properties (SymbiYosys, formal/mmu_core.sby; docs/formal.md "mmu_core").
// A ghost of the model's accounting (models/mmu_pipe.py _commit: release first, split
// headroom -> shared -> reserved and queue shared -> reserved, each clamped at what is held;
// then the admitted amounts), kept from the interface only: the requests' and releases'
// indices delayed to their responses (RTL_RESP_LATENCY 9 clocks), the responses' amounts, and a
// shadow of the configuration writes (each pair sees the writes presented before its clock);
// the ghost is compared with the commit register (the entries the state RAMs are written
// with), the GLOBAL registers and pfc_xoff.  The ghost counts are FV_GW bits wide (2 more than
// the core's), so a counter of the core that wrapped would differ from its ghost.  Nothing is
// assumed about releases (any index, any number of cells: the core's clamp is modelled) or
// about the configuration (any field, any value, any clock); assumed: rst in the first FV_RST
// clocks and never after (from any initial state: one clock is not enough, docs/formal.md),
// and the scope below.
localparam FV_N = PORT_COUNT * 8;
localparam FV_GW = W + 2;
// the response is on m_resp_* from edge E9 (models.mmu_pipe.RTL_RESP_LATENCY), and a pair
// sampled at edge E0 is in the delay lines' slot d from edge E(d - 1) on
localparam FV_D = 10;
// rst for FV_RST clocks from the first, never after; fv_on: the properties apply (the clock
// after the last reset clock on)
localparam FV_RST = 2;
reg [3:0] fv_t = 4'd0;
always @(posedge clk) begin
    if (fv_t != 4'd15) begin
        fv_t <= fv_t + 4'd1;
    end
end
always @* begin
    assume (rst == (fv_t < FV_RST));
end
wire fv_on = fv_t >= FV_RST;
wire fv_on2 = fv_t >= FV_RST + 1;

// the requests and releases as the core must see them (index checks of mmu_core_carry)
wire fv_a_idx_ok = {{(32-PORT_W){1'b0}}, s_req_port} < PORT_COUNT
                   && {{(32-PORT_W){1'b0}}, s_req_eport} < PORT_COUNT
                   && {{(32-PG_W){1'b0}}, s_req_pg} < 8 && {{(32-Q_W){1'b0}}, s_req_queue} < 8;
wire fv_r_ok = s_rel_valid && {{(32-PORT_W){1'b0}}, s_rel_port} < PORT_COUNT
               && {{(32-PORT_W){1'b0}}, s_rel_eport} < PORT_COUNT
               && {{(32-PG_W){1'b0}}, s_rel_pg} < 8 && {{(32-Q_W){1'b0}}, s_rel_queue} < 8;

// the scope (small-scope hypothesis, docs/formal.md), lifted by FV_FULL (far slower):
// * the arrivals and releases with good indices name two PGs, port 0 PG 0 and port 1 PG 1
//   (entries 0 and 9), and two queues (0 and 9): every pair names one entry twice or two
//   entries of different ports; requests and releases with a bad index are free;
// * the configuration writes name those entries or a global field (any field, any value, any
//   clock), and a PG's or queue's threshold is static (dynamic 0): static_th takes any value,
//   so the decision can still go every way (shared admitted or not, headroom, drops), and the
//   properties are about what is admitted, not about T.
`ifndef FV_FULL
always @* begin
    if (s_req_valid && fv_a_idx_ok) begin
        assume (a_i_in == 0 || a_i_in == 9);
        assume (a_j_in == 0 || a_j_in == 9);
    end
    if (fv_r_ok) begin
        assume (r_i_in == 0 || r_i_in == 9);
        assume (r_j_in == 0 || r_j_in == 9);
    end
    // (no arrival or release from clock 10 on: in a run of 20 clocks a later pair is never
    // answered or committed, so this changes no property checked)
    if (fv_t >= 4'd10) begin
        assume (!s_req_valid && !s_rel_valid);
    end
    if (cfg_wr_valid && (cfg_wr_addr[15:13] == 3'd1 || cfg_wr_addr[15:13] == 3'd2)) begin
        assume (cfg_wr_addr[4 +: IW] == 0 || cfg_wr_addr[4 +: IW] == 9);
        assume (cfg_wr_addr[3:0] != 4'd10 || !cfg_wr_data[0]);
    end
end
`endif
// the headroom policy is static (headroom_policy 0, its initial value): the properties below
// are the static policy's (a PG's headroom limit, the headroom pool); dsh is checked against
// the model in simulation (tb/mmu_core), not here
always @* begin
    if (cfg_wr_valid && cfg_wr_addr[15:5] == 11'd1 && cfg_wr_addr[4:0] == 5'h07) begin
        assume (!cfg_wr_data[0]);
    end
    if (fv_t == 4'd0) begin
        assume (!g_dsh_reg);
    end
end

// configuration shadow: buffer_cells, hdrm_pool (0x0020, 0x0024), per PG reserved (field 9)
// and headroom (field 13), per queue reserved (field 9); decoded as mmu_core_cfg decodes
reg [W-1:0] fv_buf, fv_hp;
(* mem2reg *) reg [W-1:0] fv_cres [0:FV_N-1];
(* mem2reg *) reg [W-1:0] fv_chd [0:FV_N-1];
(* mem2reg *) reg [W-1:0] fv_cqres [0:FV_N-1];
integer fv_k0, fv_k1, fv_k2;
initial begin
    for (fv_k0 = 0; fv_k0 < FV_N; fv_k0 = fv_k0 + 1) begin
        fv_cres[fv_k0] = {W{1'b0}};
        fv_chd[fv_k0] = {W{1'b0}};
        fv_cqres[fv_k0] = {W{1'b0}};
    end
end
always @* begin
    // the global registers have no reset and no initial value: the shadow starts as they do
    if (fv_t == 4'd0) begin
        assume (fv_buf == g_buffer_reg);
        assume (fv_hp == g_hdrm_pool_reg);
    end
end
wire [IW-1:0] fv_cw_idx = cfg_wr_addr[4 +: IW];
always @(posedge clk) begin
    if (cfg_wr_valid && !rst) begin
        if (cfg_wr_addr[15:5] == 11'd1 && cfg_wr_addr[4:0] == 5'h00) begin
            fv_buf <= cfg_wr_data[W-1:0];
        end
        if (cfg_wr_addr[15:5] == 11'd1 && cfg_wr_addr[4:0] == 5'h04) begin
            fv_hp <= cfg_wr_data[W-1:0];
        end
        if (cfg_wr_addr[15:13] == 3'd1 && cfg_wr_addr[3:0] == 4'd9) begin
            fv_cres[fv_cw_idx] <= cfg_wr_data[W-1:0];
        end
        if (cfg_wr_addr[15:13] == 3'd1 && cfg_wr_addr[3:0] == 4'd13) begin
            fv_chd[fv_cw_idx] <= cfg_wr_data[W-1:0];
        end
        if (cfg_wr_addr[15:13] == 3'd2 && cfg_wr_addr[3:0] == 4'd9) begin
            fv_cqres[fv_cw_idx] <= cfg_wr_data[W-1:0];
        end
    end
end

// the pairs delayed to their responses (slot d: accepted d clocks ago), to the commit
// register (slot FV_D + 1)
reg [FV_D+1:1] fv_av, fv_rv;
reg [IW-1:0] fv_ai [1:FV_D+1];
reg [IW-1:0] fv_aj [1:FV_D+1];
reg [IW-1:0] fv_ri [1:FV_D+1];
reg [IW-1:0] fv_rj [1:FV_D+1];
reg [W-1:0] fv_rc [1:FV_D];
reg [TAG_W-1:0] fv_tag [1:FV_D];
reg [W-1:0] fv_kb [1:FV_D+1];
reg [W-1:0] fv_khp [1:FV_D+1];
reg [W-1:0] fv_kres [1:FV_D+1];
reg [W-1:0] fv_khd [1:FV_D+1];
reg [W-1:0] fv_kqres [1:FV_D+1];
integer fv_d;
always @(posedge clk) begin
    fv_av[1] <= s_req_valid && !rst;
    fv_rv[1] <= fv_r_ok && !rst;
    fv_ai[1] <= a_i_in;
    fv_aj[1] <= a_j_in;
    fv_ri[1] <= r_i_in;
    fv_rj[1] <= r_j_in;
    fv_rc[1] <= s_rel_cells;
    fv_tag[1] <= s_req_tag;
    fv_kb[1] <= fv_buf;
    fv_khp[1] <= fv_hp;
    fv_kres[1] <= fv_cres[a_i_in];
    fv_khd[1] <= fv_chd[a_i_in];
    fv_kqres[1] <= fv_cqres[a_j_in];
    for (fv_d = 2; fv_d <= FV_D + 1; fv_d = fv_d + 1) begin
        fv_av[fv_d] <= fv_av[fv_d-1];
        fv_rv[fv_d] <= fv_rv[fv_d-1];
        fv_ai[fv_d] <= fv_ai[fv_d-1];
        fv_aj[fv_d] <= fv_aj[fv_d-1];
        fv_ri[fv_d] <= fv_ri[fv_d-1];
        fv_rj[fv_d] <= fv_rj[fv_d-1];
        fv_kb[fv_d] <= fv_kb[fv_d-1];
        fv_khp[fv_d] <= fv_khp[fv_d-1];
        fv_kres[fv_d] <= fv_kres[fv_d-1];
        fv_khd[fv_d] <= fv_khd[fv_d-1];
        fv_kqres[fv_d] <= fv_kqres[fv_d-1];
    end
    for (fv_d = 2; fv_d <= FV_D; fv_d = fv_d + 1) begin
        fv_rc[fv_d] <= fv_rc[fv_d-1];
        fv_tag[fv_d] <= fv_tag[fv_d-1];
    end
    if (rst) begin
        fv_av <= 0;
        fv_rv <= 0;
    end
end

// ghost state after the pairs committed so far (pair k from the clock after its response, the
// clock its entries are in the commit register): per PG the segments and the cells (admitted
// minus released, clamped at zero, counted apart from the segments), per queue the same; the
// class of each entry as the core records it (from the commit register)
(* mem2reg *) reg [FV_GW-1:0] fv_res [0:FV_N-1];
(* mem2reg *) reg [FV_GW-1:0] fv_sh [0:FV_N-1];
(* mem2reg *) reg [FV_GW-1:0] fv_hd [0:FV_N-1];
(* mem2reg *) reg [FV_GW-1:0] fv_cells [0:FV_N-1];
(* mem2reg *) reg [FV_GW-1:0] fv_qres [0:FV_N-1];
(* mem2reg *) reg [FV_GW-1:0] fv_qsh [0:FV_N-1];
(* mem2reg *) reg [FV_GW-1:0] fv_qcells [0:FV_N-1];
reg [FV_N-1:0] fv_cls, fv_qcls;
reg [FV_N-1:0] fv_cls_now, fv_qcls_now;   // with the commit register's classes
reg fv_uf;                                // a release took more than held (sticky)

// this clock's pair (its response is on m_resp_*): the release, then the arrival
wire fv_adm = m_resp_valid && m_resp_admit;
wire [IW-1:0] fv_i = fv_ai[FV_D], fv_j = fv_aj[FV_D];
wire [IW-1:0] fv_ri9 = fv_ri[FV_D], fv_rj9 = fv_rj[FV_D];
wire [FV_GW-1:0] fv_c = {2'b00, fv_rc[FV_D]};
wire [FV_GW-1:0] fv_h0 = fv_hd[fv_ri9], fv_s0 = fv_sh[fv_ri9], fv_r0 = fv_res[fv_ri9];
wire [FV_GW-1:0] fv_fh = fv_c < fv_h0 ? fv_c : fv_h0;
wire [FV_GW-1:0] fv_fs = fv_c - fv_fh < fv_s0 ? fv_c - fv_fh : fv_s0;
wire [FV_GW-1:0] fv_fr = fv_c - fv_fh - fv_fs < fv_r0 ? fv_c - fv_fh - fv_fs : fv_r0;
wire [FV_GW-1:0] fv_qs0 = fv_qsh[fv_rj9], fv_qr0 = fv_qres[fv_rj9];
wire [FV_GW-1:0] fv_fqs = fv_c < fv_qs0 ? fv_c : fv_qs0;
wire [FV_GW-1:0] fv_fqr = fv_c - fv_fqs < fv_qr0 ? fv_c - fv_fqs : fv_qr0;
wire [FV_GW-1:0] fv_cl0 = fv_cells[fv_ri9], fv_qcl0 = fv_qcells[fv_rj9];
wire fv_rel = fv_rv[FV_D];
// the entries after the release (what the arrival adds to)
wire fv_ra = fv_rel && fv_ri9 == fv_i;
wire fv_rqa = fv_rel && fv_rj9 == fv_j;
wire [FV_GW-1:0] fv_res_a = fv_ra ? fv_r0 - fv_fr : fv_res[fv_i];
wire [FV_GW-1:0] fv_sh_a = fv_ra ? fv_s0 - fv_fs : fv_sh[fv_i];
wire [FV_GW-1:0] fv_hd_a = fv_ra ? fv_h0 - fv_fh : fv_hd[fv_i];
wire [FV_GW-1:0] fv_cl_a = fv_ra ? (fv_c < fv_cl0 ? fv_cl0 - fv_c : {FV_GW{1'b0}})
                                 : fv_cells[fv_i];
wire [FV_GW-1:0] fv_qres_a = fv_rqa ? fv_qr0 - fv_fqr : fv_qres[fv_j];
wire [FV_GW-1:0] fv_qsh_a = fv_rqa ? fv_qs0 - fv_fqs : fv_qsh[fv_j];
wire [FV_GW-1:0] fv_qcl_a = fv_rqa ? (fv_c < fv_qcl0 ? fv_qcl0 - fv_c : {FV_GW{1'b0}})
                                   : fv_qcells[fv_j];
// the entries of the pair before it, for the class rule below
reg [FV_GW-1:0] fv_cl_before;
reg [FV_GW-1:0] fv_qcl_before;
// for the covers: an admission to shared, a release that took cells (one clock later)
reg fv_sh_cover, fv_rel_cover;
always @(posedge clk) begin
    fv_sh_cover <= m_resp_valid && m_resp_shared != 0;
    fv_rel_cover <= fv_rel && fv_fh + fv_fs + fv_fr != 0;
end
// the response's amounts one clock later (with the commit register)
reg fv_adm10;
reg [W-1:0] fv_res10, fv_hd10, fv_eres10;

always @(posedge clk) begin
    fv_adm10 <= fv_adm && !rst;
    fv_res10 <= m_resp_res;
    fv_hd10 <= m_resp_hdrm;
    fv_eres10 <= m_resp_eres;
    fv_cl_before <= fv_cells[fv_i];
    fv_qcl_before <= fv_qcells[fv_j];
    if (fv_rel) begin
        fv_hd[fv_ri9] <= fv_h0 - fv_fh;
        fv_sh[fv_ri9] <= fv_s0 - fv_fs;
        fv_res[fv_ri9] <= fv_r0 - fv_fr;
        fv_cells[fv_ri9] <= fv_c < fv_cl0 ? fv_cl0 - fv_c : {FV_GW{1'b0}};
        fv_qsh[fv_rj9] <= fv_qs0 - fv_fqs;
        fv_qres[fv_rj9] <= fv_qr0 - fv_fqr;
        fv_qcells[fv_rj9] <= fv_c < fv_qcl0 ? fv_qcl0 - fv_c : {FV_GW{1'b0}};
        if (fv_c != fv_fh + fv_fs + fv_fr || fv_c != fv_fqs + fv_fqr) begin
            fv_uf <= 1'b1;
        end
    end
    if (fv_adm) begin
        fv_res[fv_i] <= fv_res_a + {2'b00, m_resp_res};
        fv_sh[fv_i] <= fv_sh_a + {2'b00, m_resp_shared};
        fv_hd[fv_i] <= fv_hd_a + {2'b00, m_resp_hdrm};
        fv_cells[fv_i] <= fv_cl_a + {2'b00, m_resp_cells};
        fv_qres[fv_j] <= fv_qres_a + {2'b00, m_resp_eres};
        fv_qsh[fv_j] <= fv_qsh_a + {2'b00, m_resp_eshared};
        fv_qcells[fv_j] <= fv_qcl_a + {2'b00, m_resp_cells};
    end
    // the class each entry records (the commit register's, see fv_cls_now)
    fv_cls <= fv_cls_now;
    fv_qcls <= fv_qcls_now;
    if (rst) begin
        for (fv_k1 = 0; fv_k1 < FV_N; fv_k1 = fv_k1 + 1) begin
            fv_res[fv_k1] <= 0;
            fv_sh[fv_k1] <= 0;
            fv_hd[fv_k1] <= 0;
            fv_cells[fv_k1] <= 0;
            fv_qres[fv_k1] <= 0;
            fv_qsh[fv_k1] <= 0;
            fv_qcells[fv_k1] <= 0;
        end
        fv_uf <= 1'b0;
    end
end

// the commit register now holds pair k (slot 0: the release's entries, slot 1: the
// arrival's); the ghost holds the state after pair k
wire fv_cr = fv_rv[FV_D+1];
wire [IW-1:0] fv_cri = fv_ri[FV_D+1], fv_crj = fv_rj[FV_D+1];
wire [IW-1:0] fv_cai = fv_ai[FV_D+1], fv_caj = fv_aj[FV_D+1];
wire [PGE_W-1:0] fv_cm_r = cm_pg_val_reg[0 +: PGE_W], fv_cm_a = cm_pg_val_reg[PGE_W +: PGE_W];
wire [QE_W-1:0] fv_cmq_r = cm_q_val_reg[0 +: QE_W], fv_cmq_a = cm_q_val_reg[QE_W +: QE_W];
reg [FV_GW-1:0] fv_sum_cells, fv_sum_hd, fv_sum_sh0, fv_sum_sh1, fv_sum_qcells, fv_sum_qsh0,
                fv_sum_qsh1;
reg [FV_N-1:0] fv_hd_nz;
always @* begin
    fv_cls_now = fv_cls;
    fv_qcls_now = fv_qcls;
    if (fv_cr) begin
        fv_cls_now[fv_cri] = fv_cm_r[3*W];
        fv_qcls_now[fv_crj] = fv_cmq_r[2*W];
    end
    if (fv_adm10) begin
        fv_cls_now[fv_cai] = fv_cm_a[3*W];
        fv_qcls_now[fv_caj] = fv_cmq_a[2*W];
    end
    fv_sum_cells = 0;
    fv_sum_hd = 0;
    fv_sum_sh0 = 0;
    fv_sum_sh1 = 0;
    fv_sum_qcells = 0;
    fv_sum_qsh0 = 0;
    fv_sum_qsh1 = 0;
    for (fv_k2 = 0; fv_k2 < FV_N; fv_k2 = fv_k2 + 1) begin
        fv_sum_cells = fv_sum_cells + fv_cells[fv_k2];
        fv_sum_hd = fv_sum_hd + fv_hd[fv_k2];
        // class 1 (lossless) is pool 0
        fv_sum_sh0 = fv_sum_sh0 + (fv_cls_now[fv_k2] ? fv_sh[fv_k2] : {FV_GW{1'b0}});
        fv_sum_sh1 = fv_sum_sh1 + (fv_cls_now[fv_k2] ? {FV_GW{1'b0}} : fv_sh[fv_k2]);
        fv_sum_qcells = fv_sum_qcells + fv_qcells[fv_k2];
        fv_sum_qsh0 = fv_sum_qsh0 + (fv_qcls_now[fv_k2] ? fv_qsh[fv_k2] : {FV_GW{1'b0}});
        fv_sum_qsh1 = fv_sum_qsh1 + (fv_qcls_now[fv_k2] ? {FV_GW{1'b0}} : fv_qsh[fv_k2]);
        fv_hd_nz[fv_k2] = fv_hd[fv_k2] != 0;
    end
end

// The assertions below come in groups: RESP (the response), GHOST (the ghost's own sums, no
// wrap), COMMIT_RP / COMMIT_RQ / COMMIT_A (the commit register against the ghost: a release's
// PG and queue, an admission), LIMIT (hard limits), GLOBAL (pool and total registers).  A BMC
// of one group carries only that group's cone and goes deeper than the conjunction (20 clocks
// against 18; docs/formal.md).  A task that checks groups apart defines FV_GROUP_SET and the
// groups it checks; without FV_GROUP_SET every group is checked.
`ifndef FV_GROUP_SET
`define FV_RESP
`define FV_GHOST
`define FV_COMMIT_RP
`define FV_COMMIT_RQ
`define FV_COMMIT_A
`define FV_LIMIT
`define FV_GLOBAL
`endif

genvar fv_e;
generate
for (fv_e = 0; fv_e < FV_N; fv_e = fv_e + 1) begin : fv_entry
    always @* begin
`ifndef FV_XOFF_ONLY
`ifdef FV_GHOST
        if (fv_on) begin
            assert (fv_res[fv_e] + fv_sh[fv_e] + fv_hd[fv_e] == fv_cells[fv_e]);
            assert (fv_qres[fv_e] + fv_qsh[fv_e] == fv_qcells[fv_e]);
        end
`endif  // FV_GHOST
`endif
    end
end
endgenerate

// the sums and the headroom vector of pair k, for the GLOBAL stage (a clock later) and for
// pfc_xoff (RTL_XOFF_LATENCY 14: four clocks after the commit register)
reg [FV_GW-1:0] fv_sum_cells_q, fv_sum_hd_q, fv_sum_sh0_q, fv_sum_sh1_q, fv_sum_qsh0_q,
                fv_sum_qsh1_q;
reg [FV_N-1:0] fv_hd_nz_q [1:4];
reg [4:1] fv_hd_nz_v = 4'd0;
reg fv_uf_q1, fv_uf_q2;
always @(posedge clk) begin
    fv_sum_cells_q <= fv_sum_cells;
    fv_sum_hd_q <= fv_sum_hd;
    fv_sum_sh0_q <= fv_sum_sh0;
    fv_sum_sh1_q <= fv_sum_sh1;
    fv_sum_qsh0_q <= fv_sum_qsh0;
    fv_sum_qsh1_q <= fv_sum_qsh1;
    fv_hd_nz_q[1] <= fv_hd_nz;
    fv_hd_nz_q[2] <= fv_hd_nz_q[1];
    fv_hd_nz_q[3] <= fv_hd_nz_q[2];
    fv_hd_nz_q[4] <= fv_hd_nz_q[3];
    fv_hd_nz_v <= {fv_hd_nz_v[3:1], !rst};
    fv_uf_q1 <= fv_uf;
    fv_uf_q2 <= fv_uf_q1;
    if (rst) begin
        fv_hd_nz_v <= 0;
    end
end

always @* begin
`ifndef FV_XOFF_ONLY  // (task xoff24: the XOFF property alone)
    if (fv_on) begin
        // -- the response: one per request, 9 clocks after it, tag passed through; an
        // admitted frame's segments hold its cells (one of shared and headroom), a dropped
        // frame has none
`ifdef FV_RESP
        assert (m_resp_valid == fv_av[FV_D]);
        if (m_resp_valid) begin
            assert (m_resp_tag == fv_tag[FV_D]);
        end
        if (fv_adm) begin
            assert ({2'b00, m_resp_res} + {2'b00, m_resp_shared} + {2'b00, m_resp_hdrm}
                    == {2'b00, m_resp_cells});
            assert ({2'b00, m_resp_eres} + {2'b00, m_resp_eshared} == {2'b00, m_resp_cells});
            assert (m_resp_shared == 0 || m_resp_hdrm == 0);
        end
        if (m_resp_valid && !m_resp_admit) begin
            assert (m_resp_res == 0 && m_resp_shared == 0 && m_resp_hdrm == 0
                    && m_resp_eres == 0 && m_resp_eshared == 0);
        end
`endif  // FV_RESP

        // -- the ghost's own arithmetic: per PG (queue) the segments sum to the cells held
        // (admitted minus released); the queues hold the cells the PGs hold, unless a
        // release took more than its PG or its queue held (the core clamps each side apart)
        // (per entry: the generate loop fv_entry below)
`ifdef FV_GHOST
        assert (fv_uf || fv_sum_cells == fv_sum_qcells);
        // -- no counter wraps: everything held fits the core's counter width
        assert (fv_sum_cells < (1 << W));
`endif  // FV_GHOST

        // -- the commit register (what the state RAMs are written with) equals the ghost
        // entries after pair k: segments, hence their sum, the cells held
`ifdef FV_COMMIT_RP
        if (fv_cr && !(fv_adm10 && fv_cai == fv_cri)) begin
            assert ({2'b00, fv_cm_r[0 +: W]} == fv_hd[fv_cri]);
            assert ({2'b00, fv_cm_r[W +: W]} == fv_sh[fv_cri]);
            assert ({2'b00, fv_cm_r[2*W +: W]} == fv_res[fv_cri]);
        end
`endif
`ifdef FV_COMMIT_RQ
        if (fv_cr && !(fv_adm10 && fv_caj == fv_crj)) begin
            assert ({2'b00, fv_cmq_r[0 +: W]} == fv_qsh[fv_crj]);
            assert ({2'b00, fv_cmq_r[W +: W]} == fv_qres[fv_crj]);
        end
`endif
`ifdef FV_COMMIT_A
        if (fv_adm10) begin
            assert ({2'b00, fv_cm_a[0 +: W]} == fv_hd[fv_cai]);
            assert ({2'b00, fv_cm_a[W +: W]} == fv_sh[fv_cai]);
            assert ({2'b00, fv_cm_a[2*W +: W]} == fv_res[fv_cai]);
            assert ({2'b00, fv_cmq_a[0 +: W]} == fv_qsh[fv_caj]);
            assert ({2'b00, fv_cmq_a[W +: W]} == fv_qres[fv_caj]);
            // a PG (queue) changes class only when it held no cell before the pair
            assert (fv_cm_a[3*W] == fv_cls[fv_cai] || fv_cl_before == 0);
            assert (fv_cmq_a[2*W] == fv_qcls[fv_caj] || fv_qcl_before == 0);
        end
`endif

        // -- hard limits of an admitted frame, on the state after its pair: the total buffer,
        // its PG's reserved and headroom limits, the headroom pool, its queue's reserved
        // (each as configured for the frame's clock)
`ifdef FV_LIMIT
        if (fv_adm10) begin
            assert (fv_sum_cells <= {2'b00, fv_kb[FV_D+1]});
            if (fv_res10 != 0) begin
                assert (fv_res[fv_cai] <= {2'b00, fv_kres[FV_D+1]});
            end
            if (fv_hd10 != 0) begin
                assert (fv_hd[fv_cai] <= {2'b00, fv_khd[FV_D+1]});
                assert (fv_khp[FV_D+1] == 0 || fv_sum_hd <= {2'b00, fv_khp[FV_D+1]});
            end
            if (fv_eres10 != 0) begin
                assert (fv_qres[fv_caj] <= {2'b00, fv_kqres[FV_D+1]});
            end
        end
`endif  // FV_LIMIT
    end
    if (fv_on) begin
        // (reachable within 18 clocks, task cover: each kind of admission, a frame that fills
        // the buffer, a release of more than held, a release of held cells)
        cover (fv_adm10 && fv_res10 != 0);
        cover (fv_adm10 && fv_hd10 != 0);
        cover (fv_adm10 && fv_sh_cover);
        cover (fv_adm10 && fv_sum_cells == {2'b00, fv_kb[FV_D+1]} && fv_sum_cells != 0);
        cover (fv_uf);
        cover (fv_rel_cover);
    end
    if (fv_on2) begin
        // -- GLOBAL (a clock after the commit register): total = every PG's cells, the
        // headroom pool = every PG's headroom, each pool = the shared segments of its class,
        // each egress pool = the queues' shared of its class
`ifdef FV_GLOBAL
        assert ({2'b00, total_reg} == fv_sum_cells_q);
        assert ({2'b00, hpool_reg} == fv_sum_hd_q);
        assert ({2'b00, pool_bus[0 +: W]} == fv_sum_sh0_q);
        assert ({2'b00, pool_bus[W +: W]} == fv_sum_sh1_q);
        assert ({2'b00, epool_bus[0 +: W]} == fv_sum_qsh0_q);
        assert ({2'b00, epool_bus[W +: W]} == fv_sum_qsh1_q);
`endif  // FV_GLOBAL
    end
`endif
`ifndef FV_NO_XOFF
    if (fv_hd_nz_v[4]) begin
        // -- a PG holding headroom after pair k is in XOFF from pair k's pfc_xoff on
        assert ((fv_hd_nz_q[4] & ~pfc_xoff) == 0);
`ifdef FV_XOFF_ONLY
        // (reachable: task xoff24c covers a PG in headroom at its XOFF clock, first at clock 20)
        cover (fv_hd_nz_q[4] != 0);
`endif
    end
`endif
end
