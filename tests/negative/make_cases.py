#!/usr/bin/env python3
"""Writes the negative-suite PTX files (cases/*.ptx) from the compact list below.

Each case is invalid PTX that ptxas rejects. run_negative.py runs ptxas and optxas on every
file and compares exit code and the line of the first error. A case's first line
`// arch: sm_XX` gives the -arch to use (default sm_90). Re-run this script after editing
the list; the .ptx files are committed so the suite needs no generator to run.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

KERNEL = """.version {ver}
.target {tgt}
.address_size 64

.visible .entry k(.param .u64 k_p)
{{
\t.reg .b32 %r<10>;
\t.reg .pred %p<5>;
\t.reg .f32 %f<10>;
\t.reg .b64 %rd<10>;
\t.reg .f64 %fd<5>;
\t.reg .b16 %rs<5>;
{body}
\tret;
}}
"""

# (name, arch, body) -- body goes inside a kernel; arch also sets the .target
BODY_CASES = [
    # ---- lexical ----
    ("lex_bad_char", "sm_90", "\tmov.u32 %r1, #;"),
    ("lex_hex_no_digits", "sm_90", "\tmov.u32 %r1, 0x;"),
    ("lex_bad_octal", "sm_90", "\tmov.u32 %r1, 09;"),
    ("lex_short_hex_float", "sm_90", "\tmov.f32 %f1, 0f3F80;"),
    ("lex_long_hex_float", "sm_90", "\tmov.f64 %fd1, 0d3FF00000;"),
    ("lex_string_operand", "sm_90", "\tmov.u32 %r1, \"abc\";"),
    ("lex_constant_overflow", "sm_90", "\tmov.u32 %r1, 99999999999999999999999;"),
    ("lex_lone_percent", "sm_90", "\tmov.u32 %r1, %;"),
    ("lex_backslash", "sm_90", "\tadd.s32 %r1, %r2, \\%r3;"),
    ("lex_ident_digit_start", "sm_90", "\t1abc: ret;"),
    # ---- syntax ----
    ("syn_missing_operand", "sm_90", "\tadd.s32 %r1, %r2, ;"),
    ("syn_missing_comma", "sm_90", "\tadd.s32 %r1 %r2, %r3;"),
    ("syn_missing_semicolon", "sm_90", "\tadd.s32 %r1, %r2, %r3\n\tadd.s32 %r1, %r2, %r3;"),
    ("syn_extra_operand_token", "sm_90", "\tadd.s32 %r1, %r1, 1 2;"),
    ("syn_unclosed_bracket", "sm_90", "\tld.global.u32 %r1, [%rd1;"),
    ("syn_unclosed_vector", "sm_90", "\tld.global.v2.u32 {%r1, %r2, [%rd1];"),
    ("syn_empty_vector_elem", "sm_90", "\tld.global.v2.u32 {%r1, , %r2}, [%rd1];"),
    ("syn_guard_without_instr", "sm_90", "\t@%p1;"),
    ("syn_double_guard", "sm_90", "\t@%p1 @%p2 ret;"),
    ("syn_reg_without_type", "sm_90", "\t.reg %x;"),
    ("syn_reg_name_missing_after_comma", "sm_90", "\t.reg .b32 %x,;"),
    ("syn_reg_two_types", "sm_90", "\t.reg .b32 .f32 %x;"),
    ("syn_bad_vector_width", "sm_90", "\t.reg .v3 .f32 %v;"),
    ("syn_unknown_type", "sm_90", "\t.reg .u33 %x;"),
    ("syn_label_directive", "sm_90", "\tL0: .foo;"),
    ("syn_address_two_regs", "sm_90", "\tld.global.u32 %r1, [%rd1+%rd2];"),
    ("syn_address_float_offset", "sm_90", "\tld.global.u32 %r1, [%rd1+1.5];"),
    ("syn_pair_after_imm", "sm_90", "\tsetp.eq.s32 1|%p1, %r1, %r2;"),
    ("syn_loc_missing_column", "sm_90", "\t.loc 1 2;"),
    ("syn_pragma_without_string", "sm_90", "\t.pragma nounroll;"),
    ("syn_directive_in_operand", "sm_90", "\tadd.s32 %r1, .global, %r2;"),
    ("syn_close_brace_extra", "sm_90", "\t}"),
    ("syn_call_unclosed_args", "sm_90", "\tcall.uni foo, (%r1;"),
    ("syn_nesting_exhausted", "sm_90", "\tmov.u32 %r1, " + "(" * 10000 + "1" + ")" * 10000 + ";"),
    ("syn_block_nesting_exhausted", "sm_90", "{" * 2000 + "}" * 2000),
    # ---- unknown names ----
    ("sem_unknown_opcode", "sm_90", "\taddx.s32 %r1, %r2, %r3;"),
    ("sem_unknown_modifier", "sm_90", "\tadd.foo.s32 %r1, %r2, %r3;"),
    ("sem_unknown_register", "sm_90", "\tadd.s32 %r1, %r2, %q;"),
    ("sem_register_out_of_range", "sm_90", "\tadd.s32 %r1, %r2, %r10;"),
    ("sem_unknown_label", "sm_90", "\tbra L_missing;"),
    ("sem_unknown_guard", "sm_90", "\t@%q1 ret;"),
    ("sem_unknown_sreg_component", "sm_90", "\tmov.u32 %r1, %tid.q;"),
    ("sem_unknown_call_target", "sm_90", "\tcall.uni foo, ();"),
    ("sem_unknown_mod_type", "sm_90", "\tadd.f64x2 %r1, %r2, %r3;"),
    # ---- redeclaration ----
    ("decl_duplicate_register", "sm_90", "\t.reg .b32 %r1;"),
    ("decl_duplicate_label", "sm_90", "L: L: ret;"),
    ("decl_duplicate_local", "sm_90", "\t.local .u32 x;\n\t.local .u32 x;"),
    ("decl_param_shadow_dup", "sm_90", "\t.reg .b64 k_p;"),
    ("decl_local_initializer", "sm_90", "\t.local .u32 x = 1;"),
    ("decl_shared_initializer_in_body", "sm_90", "\t.shared .u32 x = 1;"),
    # ---- instruction types and modifiers ----
    ("type_add_b32", "sm_90", "\tadd.b32 %r1, %r2, %r3;"),
    ("type_add_none", "sm_90", "\tadd %r1, %r2, %r3;"),
    ("type_add_two", "sm_90", "\tadd.s32.s32 %r1, %r2, %r3;"),
    ("type_mul_no_mode", "sm_90", "\tmul.s32 %r1, %r2, %r3;"),
    ("type_mad_no_mode", "sm_90", "\tmad.s32 %r1, %r2, %r3, %r4;"),
    ("type_mul_lo_float", "sm_90", "\tmul.lo.f32 %f1, %f2, %f3;"),
    ("type_neg_b32", "sm_90", "\tneg.b32 %r1, %r2;"),
    ("type_abs_unsigned", "sm_90", "\tabs.u32 %r1, %r2;"),
    ("type_neg_unsigned", "sm_90", "\tneg.u32 %r1, %r2;"),
    ("type_not_signed", "sm_90", "\tnot.s32 %r1, %r2;"),
    ("type_and_signed", "sm_90", "\tand.s32 %r1, %r2, %r3;"),
    ("type_brev_unsigned", "sm_90", "\tbrev.u32 %r1, %r2;"),
    ("type_sin_f64", "sm_90", "\tsin.approx.f64 %fd1, %fd2;"),
    ("type_set_one_type", "sm_90", "\tset.eq.s32 %r1, %r2, %r3;"),
    ("type_ld_no_type", "sm_90", "\tld.global %r1, [%rd1];"),
    ("type_mov_two_types", "sm_90", "\tmov.u32.u32 %r1, %r2;"),
    ("type_atom_cas_unsigned", "sm_90", "\tatom.global.cas.u32 %r1, [%rd2], %r3, %r4;"),
    ("mod_add_space", "sm_90", "\tadd.global.s32 %r1, %r2, %r3;"),
    ("mod_add_rounding_int", "sm_90", "\tadd.rn.s32 %r1, %r2, %r3;"),
    ("mod_add_sat_unsigned", "sm_90", "\tadd.sat.u32 %r1, %r2, %r3;"),
    ("mod_add_ftz_int", "sm_90", "\tadd.ftz.s32 %r1, %r2, %r3;"),
    ("mod_add_sync", "sm_90", "\tadd.sync.s32 %r1, %r2, %r3;"),
    ("mod_mul_rounding_int", "sm_90", "\tmul.lo.rn.s32 %r1, %r2, %r3;"),
    ("mod_div_f32_no_rounding", "sm_90", "\tdiv.f32 %f1, %f2, %f3;"),
    ("mod_sqrt_no_rounding", "sm_90", "\tsqrt.f32 %f1, %f2;"),
    ("mod_rcp_no_rounding", "sm_90", "\trcp.f32 %f1, %f2;"),
    ("mod_sin_no_approx", "sm_90", "\tsin.f32 %f1, %f2;"),
    ("mod_cvt_f32_f64_no_rounding", "sm_90", "\tcvt.f32.f64 %f1, %fd1;"),
    ("mod_cvt_s32_f32_no_rounding", "sm_90", "\tcvt.s32.f32 %r1, %f1;"),
    ("mod_cvt_int_rounding", "sm_90", "\tcvt.rn.s32.s32 %r1, %r2;"),
    ("mod_cvt_widen_rounding", "sm_90", "\tcvt.rn.f64.f32 %fd1, %f1;"),
    ("mod_setp_no_cmp", "sm_90", "\tsetp.s32 %p1, %r2, %r3;"),
    ("mod_membar_gpu", "sm_90", "\tmembar.gpu;"),
    ("mod_exit_uni", "sm_90", "\texit.uni;"),
    ("mod_shfl_no_mode", "sm_90", "\tshfl.sync.b32 %r1, %r2, 1, 31, 0xffffffff;"),
    ("mod_shfl_no_sync", "sm_90", "\tshfl.down.b32 %r1, %r2, 1, 31;"),
    ("mod_vote_no_sync", "sm_90", "\tvote.all.pred %p1, %p2;"),
    ("mod_vote_ballot_pred", "sm_90", "\tvote.sync.ballot.pred %p2, %p1, 0xffffffff;"),
    ("mod_vote_any_b32", "sm_90", "\tvote.sync.any.b32 %r1, %p1, 0xffffffff;"),
    ("mod_atom_no_op", "sm_90", "\tatom.global.u32 %r1, [%rd2], %r3;"),
    ("mod_atom_two_ops", "sm_90", "\tatom.global.add.min.u32 %r1, [%rd2], %r3;"),
    ("mod_atom_and_float", "sm_90", "\tatom.global.and.f32 %f1, [%rd1], %f2;"),
    ("mod_atom_add_s64", "sm_90", "\tatom.global.add.s64 %rd1, [%rd2], %rd3;"),
    ("mod_atom_exch_unsigned", "sm_90", "\tatom.global.exch.u32 %r1, [%rd2], %r3;"),
    ("mod_atom_inc_signed", "sm_90", "\tatom.global.inc.s32 %r1, [%rd2], %r3;"),
    ("mod_atom_min_f32", "sm_90", "\tatom.global.min.f32 %f1, [%rd2], %f3;"),
    ("mod_atom_f16_no_noftz", "sm_90", "\tatom.global.add.f16 %rs1, [%rd2], %rs3;"),
    ("mod_atom_const_space", "sm_90", "\tatom.const.add.u32 %r1, [%rd2], %r3;"),
    ("mod_ld_two_spaces", "sm_90", "\tld.global.shared.u32 %r1, [%rd1];"),
    ("mod_st_const", "sm_90", "\tst.const.u32 [%rd1], %r1;"),
    # ---- operands ----
    ("opnd_add_wide_reg", "sm_90", "\tadd.u64 %rd1, %r2, %r3;"),
    ("opnd_add_float_reg", "sm_90", "\tadd.s32 %r1, %f2, %r3;"),
    ("opnd_add_imm_dest", "sm_90", "\tadd.s32 1, %r2, %r3;"),
    ("opnd_add_float_imm", "sm_90", "\tadd.s32 %r1, %r2, 1.5;"),
    ("opnd_addf_int_imm", "sm_90", "\tadd.f32 %f1, %f2, 1;"),
    ("opnd_add_too_many", "sm_90", "\tadd.s32 %r1, %r2, %r3, %r4;"),
    ("opnd_add_too_few", "sm_90", "\tadd.s32 %r1, %r2;"),
    ("opnd_add_sreg", "sm_90", "\tadd.u32 %r1, %tid.x, 1;"),
    ("opnd_add_symbol", "sm_90", "\tadd.u64 %rd1, k_p, 4;"),
    ("opnd_add_u16_r32", "sm_90", "\tadd.u16 %r1, %r2, %r3;"),
    ("opnd_setp_nonpred_dest", "sm_90", "\tsetp.eq.s32 %r1, %r2, %r3;"),
    ("opnd_selp_nonpred", "sm_90", "\tselp.b32 %r1, %r2, %r3, %r4;"),
    ("opnd_shl_wide_shift", "sm_90", "\tshl.b64 %rd1, %rd2, %rd3;"),
    ("opnd_bfe_wide_pos", "sm_90", "\tbfe.u32 %r1, %r2, %rd1, 8;"),
    ("opnd_popc_wide_dest", "sm_90", "\tpopc.b64 %rd1, %rd2;"),
    ("opnd_mul_wide_narrow_dest", "sm_90", "\tmul.wide.u32 %r1, %r2, %r3;"),
    ("opnd_cvta_narrow_src", "sm_90", "\tcvta.to.global.u64 %rd1, %r2;"),
    ("opnd_ld_wide_type", "sm_90", "\tld.global.u64 %r1, [%rd1];"),
    ("opnd_ld_vector_size", "sm_90", "\tld.global.v4.u32 {%r1, %r2}, [%rd1];"),
    ("opnd_ld_imm_dest", "sm_90", "\tld.global.u32 5, [%rd1];"),
    ("opnd_ld_no_address", "sm_90", "\tld.global.u32 %r1, %rd1;"),
    ("opnd_st_no_address", "sm_90", "\tst.global.u32 %rd1, %r1;"),
    ("opnd_ld_float_address", "sm_90", "\tld.global.u32 %r1, [%f1];"),
    ("opnd_ld_imm_address", "sm_90", "\tld.global.u32 %r1, [16];"),
    ("opnd_mov_f32_int", "sm_90", "\tmov.f32 %f1, 1;"),
    ("opnd_mov_u16_r32", "sm_90", "\tmov.u16 %r1, 1;"),
    ("opnd_mov_vector_sreg", "sm_90", "\tmov.u32 %r1, %tid;"),
    ("opnd_mov_sreg_wide", "sm_90", "\tmov.u64 %rd1, %tid.x;"),
    ("opnd_mov_symbol_float", "sm_90", "\tmov.f32 %f1, k_p;"),
    ("opnd_mov_imm_dest", "sm_90", "\tmov.u32 1, %r1;"),
    ("opnd_mov_pack_three", "sm_90", "\tmov.b64 %rd1, {%r1, %r2, %r3};"),
    ("opnd_mov_label", "sm_90", "\tmov.u64 %rd1, L1;\nL1:"),
    ("opnd_guard_not_pred", "sm_90", "\t@%r1 add.s32 %r1, %r2, %r3;"),
    ("opnd_negate_not_pred", "sm_90", "\tand.b32 %r1, !%r2, %r3;"),
    ("opnd_bra_variable", "sm_90", "\tbra k_p;"),
    ("opnd_ret_operand", "sm_90", "\tret %r1;"),
    ("opnd_shfl_missing_mask", "sm_90", "\tshfl.sync.down.b32 %r1, %r2, 1, 31;"),
    ("opnd_atom_cas_missing", "sm_90", "\tatom.global.cas.b32 %r1, [%rd2], %r3;"),
    ("opnd_atom_extra", "sm_90", "\tatom.global.add.u32 %r1, [%rd2], %r3, %r4;"),
    ("opnd_atom_wide_dest", "sm_90", "\tatom.global.add.u32 %rd1, [%rd2], %r3;"),
    ("opnd_red_with_dest", "sm_90", "\tred.global.add.u32 %r1, [%rd2], %r3;"),
    ("opnd_bar_id_range", "sm_90", "\tbar.sync 16;"),
    ("opnd_bar_thread_count", "sm_90", "\tbar.sync 1, 33;"),
    # ---- target gating ----
    ("gate_bf16_add_sm80", "sm_80", "\tadd.rn.bf16 %rs1, %rs2, %rs3;"),
    ("gate_mma_shape_sm75", "sm_75", "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f1,%f2,%f3,%f4};"),
    ("gate_cp_async_sm75", "sm_75", "\tcp.async.ca.shared.global [%r1], [%rd1], 4;"),
    ("gate_redux_sm75", "sm_75", "\tredux.sync.add.s32 %r1, %r2, 0xffffffff;"),
    ("gate_wgmma_sm90", "sm_90", "\twgmma.fence.sync.aligned;"),
    ("gate_setmaxnreg_sm90", "sm_90", "\tsetmaxnreg.inc.sync.aligned.u32 64;"),
    ("gate_tcgen05_sm90", "sm_90", "\ttcgen05.fence::before_thread_sync;"),
    ("gate_cluster_sreg_sm80", "sm_80", "\tmov.u32 %r1, %cluster_ctarank;"),
    ("gate_shared_cluster_sm80", "sm_80", "\tld.shared::cluster.u32 %r1, [%r2];"),
    ("gate_mapa_sm80", "sm_80", "\tmapa.shared::cluster.u32 %r1, %r2, %r3;"),
    ("gate_fence_proxy_async_sm80", "sm_80", "\tfence.proxy.async;"),
    ("gate_mbarrier_sm75", "sm_75", "\tmbarrier.init.shared.b64 [%r1], %r2;"),
    ("gate_ld_v8_sm90", "sm_90", "\tld.global.v8.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, [%rd1];"),
    ("gate_add_f32x2_sm90", "sm_90", "\tadd.f32x2 %rd1, %rd2, %rd3;"),
    ("gate_cvt_bf16x2_sm75", "sm_75", "\tcvt.rn.bf16x2.f32 %r1, %f1, %f2;"),
    ("gate_max_relu_sm80", "sm_80", "\tmax.relu.s32 %r1, %r2, %r3;"),
    ("gate_max_nan_sm75", "sm_75", "\tmax.NaN.f32 %f1, %f2, %f3;"),
    ("gate_st_async_sm80", "sm_80", "\tst.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];"),
    ("gate_elect_sm80", "sm_80", "\telect.sync %r1|%p1, 0xffffffff;"),
    ("gate_griddepcontrol_sm80", "sm_80", "\tgriddepcontrol.wait;"),
    ("gate_stmatrix_sm80", "sm_80", "\tstmatrix.sync.aligned.m8n8.x1.shared.b16 [%r1], {%r2};"),
    # sm_90 features sm_8x lacks (issue 4: these were internal errors or wrong cubins)
    ("gate_min_s16x2_sm80", "sm_80", "\tmin.s16x2 %r1, %r2, %r3;"),
    ("gate_max_relu_s16x2_sm80", "sm_80", "\tmax.relu.s16x2 %r1, %r2, %r3;"),
    ("gate_add_u16x2_sm86", "sm_86", "\tadd.u16x2 %r1, %r2, %r3;"),
    ("gate_red_bf16_generic_sm80", "sm_80", "\tred.add.noftz.bf16 [%rd1], %rs1;"),
    ("gate_atom_bf16x2_global_sm80", "sm_80", "\tatom.global.add.noftz.bf16x2 %r2, [%rd1], %r1;"),
    ("gate_red_bf16x2_shared_sm89", "sm_89", "\tred.shared.add.noftz.bf16x2 [%r1], %r2;"),
    ("gate_atom_v2_f32_sm80", "sm_80", "\tatom.global.v2.f32.add {%f1,%f2}, [%rd1], {%f3,%f4};"),
    ("gate_red_v4_f32_sm89", "sm_89", "\tred.global.v4.f32.add [%rd1], {%f3,%f4,%f5,%f6};"),
    ("gate_red_v2_scalar_operand_sm80", "sm_80", "\tred.global.v2.f32.add [%rd1], %rd2;"),
    ("gate_cvt_s64_bf16_sm80", "sm_80", "\tcvt.rzi.s64.bf16 %rd1, %rs1;"),
    ("gate_cvt_bf16_f16_sm80", "sm_80", "\tcvt.rn.bf16.f16 %rs1, %rs2;"),
    ("gate_cvt_tf32_rn_sm80", "sm_80", "\tcvt.rn.tf32.f32 %r1, %f1;"),
    ("gate_cvt_fp8_sm80", "sm_80", "\tcvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;"),
    ("gate_cvt_fp8_unpack_sm86", "sm_86", "\tcvt.rn.f16x2.e5m2x2 %r1, %rs1;"),
    ("gate_ex2_bf16_sm80", "sm_80", "\tex2.approx.ftz.bf16 %rs1, %rs2;"),
    ("gate_tanh_bf16x2_sm80", "sm_80", "\ttanh.approx.bf16x2 %r1, %r2;"),
    ("gate_setp_bf16_sm80", "sm_80", "\tsetp.eq.bf16 %p1, %rs1, %rs2;"),
    ("gate_min_xorsign_sm80", "sm_80", "\tmin.xorsign.abs.f16 %rs1, %rs2, %rs3;"),
    ("gate_fma_oob_sm80", "sm_80", "\tfma.rn.oob.bf16 %rs1, %rs2, %rs3, %rs4;"),
    ("gate_fence_cluster_sm80", "sm_80", "\tfence.acq_rel.cluster;"),
    ("gate_barrier_cluster_wait_sm80", "sm_80", "\tbarrier.cluster.wait.aligned;"),
    ("gate_multimem_sm80", "sm_80", "\tmultimem.ld_reduce.relaxed.sys.global.add.u32 %r1, [%rd1];"),
]


# Cases written without first running ptxas on them (a check of how well the rules generalize):
# on first run 39 of 48 matched ptxas's exit code and error line, 35 its message; the checker
# was then fixed for the rest.
BLIND_CASES = [
    ("blind_sub_f16_imm_int", "sm_90", "\tsub.f16 %rs1, %rs2, 1;"),
    ("blind_fma_no_rounding", "sm_90", "\tfma.f32 %f1, %f2, %f3, %f4;"),
    ("blind_fma_int", "sm_90", "\tfma.rn.s32 %r1, %r2, %r3, %r4;"),
    ("blind_mad_f64_no_rounding", "sm_90", "\tmad.f64 %fd1, %fd2, %fd3, %fd1;"),
    ("blind_rem_float", "sm_90", "\trem.f32 %f1, %f2, %f3;"),
    ("blind_shl_signed", "sm_90", "\tshl.s32 %r1, %r2, 1;"),
    ("blind_shr_float", "sm_90", "\tshr.f32 %f1, %f2, 1;"),
    ("blind_selp_pred_type", "sm_90", "\tselp.pred %p1, %p2, %p3, %p4;"),
    ("blind_not_float", "sm_90", "\tnot.f32 %f1, %f2;"),
    ("blind_popc_s32", "sm_90", "\tpopc.s32 %r1, %r2;"),
    ("blind_clz_imm_dest", "sm_90", "\tclz.b32 3, %r2;"),
    ("blind_bfe_b32", "sm_90", "\tbfe.b32 %r1, %r2, 1, 2;"),
    ("blind_cvta_u16", "sm_90", "\tcvta.global.u16 %rs1, %rs2;"),
    ("blind_cvt_one_type", "sm_90", "\tcvt.f32 %f1, %f2;"),
    ("blind_cvt_three_types", "sm_90", "\tcvt.rn.f32.f64.f16 %f1, %fd1;"),
    ("blind_ld_param_vector_mismatch", "sm_90", "\tld.param.v2.u32 {%r1, %r2, %r3}, [k_p];"),
    ("blind_st_dest_imm_addr", "sm_90", "\tst.global.u32 [5], %r1;"),
    ("blind_st_v4_scalar", "sm_90", "\tst.global.v4.u32 [%rd1], %r1;"),
    ("blind_ld_pred_type", "sm_90", "\tld.global.pred %p1, [%rd1];"),
    ("blind_atom_no_operands", "sm_90", "\tatom.global.add.u32;"),
    ("blind_red_cas", "sm_90", "\tred.global.cas.b32 [%rd1], %r1, %r2;"),
    ("blind_bra_two_labels", "sm_90", "\tbra L1, L2;\nL1:\nL2:"),
    ("blind_bra_register", "sm_90", "\tbra %r1;"),
    ("blind_call_variable", "sm_90", "\tcall.uni k_p, ();"),
    ("blind_mov_sink_src", "sm_90", "\tmov.u32 %r1, _;"),
    ("blind_add_sink_src", "sm_90", "\tadd.s32 %r1, _, %r2;"),
    ("blind_label_as_operand", "sm_90", "\tadd.s32 %r1, L1, 1;\nL1:"),
    ("blind_reg_bad_count", "sm_90", "\t.reg .b32 %x<-1>;"),
    ("blind_reg_pred_vector", "sm_90", "\t.reg .v2 .pred %pv;"),
    ("blind_shared_in_nested_dup", "sm_90", "\t{ .shared .u32 s; .shared .u32 s; }"),
    ("blind_mov_u8", "sm_90", "\tmov.u8 %rs1, 1;"),
    ("blind_add_u8", "sm_90", "\tadd.u8 %rs1, %rs2, %rs3;"),
    ("blind_vote_no_mask", "sm_90", "\tvote.sync.any.pred %p1, %p2;"),
    ("blind_activemask_u64", "sm_90", "\tactivemask.b64 %rd1;"),
    ("blind_nanosleep_float", "sm_90", "\tnanosleep.u32 %f1;"),
    ("blind_trap_operand", "sm_90", "\ttrap %r1;"),
    ("blind_exit_operand", "sm_90", "\texit 1;"),
    ("blind_membar_operand", "sm_90", "\tmembar.gl %r1;"),
    ("blind_tanh_f64", "sm_90", "\ttanh.approx.f64 %fd1, %fd2;"),
    ("blind_ex2_no_approx", "sm_90", "\tex2.f32 %f1, %f2;"),
    ("blind_copysign_s32", "sm_90", "\tcopysign.s32 %r1, %r2, %r3;"),
    ("blind_prmt_two_sources", "sm_90", "\tprmt.b32 %r1, %r2, %r3;"),
    ("blind_lop3_no_lut", "sm_90", "\tlop3.b32 %r1, %r2, %r3, %r4;"),
    ("blind_shf_no_dir", "sm_90", "\tshf.wrap.b32 %r1, %r2, %r3, %r4;"),
    ("blind_mul24_s64", "sm_90", "\tmul24.lo.s64 %rd1, %rd2, %rd3;"),
    ("blind_sad_float", "sm_90", "\tsad.f32 %f1, %f2, %f3, %f4;"),
    ("blind_div_approx_f64", "sm_90", "\tdiv.approx.f64 %fd1, %fd2, %fd3;"),
    ("blind_rsqrt_no_approx", "sm_90", "\trsqrt.f32 %f1, %f2;"),
]

HEADER = ".version 9.0\n.target sm_90\n.address_size 64\n"
# (name, arch, full text). Cases about older .targets compile them with -arch=sm_75, the oldest
# ptxas 13.0 accepts (optxas also takes sm_50..sm_72 as an extension, which ptxas refuses).
FILE_CASES = [
    ("hdr_empty", "sm_90", ""),
    ("hdr_missing_version", "sm_90", ".target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n"),
    ("hdr_missing_target", "sm_90", ".version 9.0\n.address_size 64\n.visible .entry k() { ret; }\n"),
    ("hdr_version_unsupported", "sm_90", ".version 9.9\n.target sm_90\n.visible .entry k() { ret; }\n"),
    ("hdr_version_integer", "sm_90", ".version 9\n.target sm_90\n.visible .entry k() { ret; }\n"),
    ("hdr_target_unknown", "sm_90", ".version 9.0\n.target sm_91\n.visible .entry k() { ret; }\n"),
    ("hdr_target_option_unknown", "sm_90", ".version 9.0\n.target sm_90, foo\n.visible .entry k() { ret; }\n"),
    ("hdr_target_list_no_comma", "sm_90", ".version 9.0\n.target sm_90 sm_80\n.visible .entry k() { ret; }\n"),
    ("hdr_version_too_old_for_target", "sm_90", ".version 7.0\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n"),
    ("hdr_version_too_old_sm100", "sm_100", ".version 8.0\n.target sm_100\n.address_size 64\n.visible .entry k() { ret; }\n"),
    ("hdr_duplicate_version", "sm_90", HEADER + ".version 9.0\n.visible .entry k() { ret; }\n"),
    ("hdr_duplicate_target", "sm_90", HEADER + ".target sm_90\n.visible .entry k() { ret; }\n"),
    ("hdr_duplicate_address_size", "sm_90", HEADER + ".address_size 64\n.visible .entry k() { ret; }\n"),
    ("hdr_address_size_16", "sm_90", ".version 9.0\n.target sm_90\n.address_size 16\n.visible .entry k() { ret; }\n"),
    ("hdr_address_size_before_target", "sm_90", ".version 9.0\n.address_size 64\n.target sm_90\n.visible .entry k() { ret; }\n"),
    ("arch_target_newer_than_arch", "sm_80", ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n"),
    ("arch_target_a_on_plain", "sm_90", ".version 9.0\n.target sm_90a\n.address_size 64\n.visible .entry k() { ret; }\n"),
    ("arch_target_a_future", "sm_100", ".version 9.0\n.target sm_90a\n.address_size 64\n.visible .entry k() { ret; }\n"),
    ("arch_target_f_other_family", "sm_120", ".version 9.0\n.target sm_100f\n.address_size 64\n.visible .entry k() { ret; }\n"),
    ("lex_unterminated_comment", "sm_90", HEADER + "/* never closed\n.visible .entry k() { ret; }\n"),
    ("syn_eof_in_body", "sm_90", HEADER + ".visible .entry k() {\n\tret;\n"),
    ("syn_extra_close_brace", "sm_90", HEADER + ".visible .entry k() {\n\tret;\n}\n}\n"),
    ("syn_unknown_directive", "sm_90", HEADER + ".foo .u32 a;\n"),
    ("syn_instruction_at_module_scope", "sm_90", HEADER + "add.s32 %r1, %r2, %r3;\n"),
    ("syn_entry_return_params", "sm_90", HEADER + ".visible .entry (.param .b32 r) k() { ret; }\n"),
    ("syn_func_maxntid", "sm_90", HEADER + ".visible .func f() .maxntid 128 { ret; }\n"),
    ("syn_param_at_module_scope", "sm_90", HEADER + ".param .u32 p;\n"),
    ("syn_entry_missing_name", "sm_90", HEADER + ".visible .entry () { ret; }\n"),
    ("syn_two_linkages", "sm_90", HEADER + ".visible .extern .global .u32 a;\n"),
    ("syn_global_vector_v3", "sm_90", HEADER + ".global .v3 .u32 a;\n"),
    ("syn_file_missing_name", "sm_90", HEADER + ".file 1\n.visible .entry k() { ret; }\n"),
    ("syn_section_unclosed", "sm_90", HEADER + ".section .debug_info {\n.b8 1\n"),
    ("syn_section_bad_width", "sm_90", HEADER + ".section .debug_info {\n.b24 1\n}\n"),
    ("decl_duplicate_global", "sm_90", HEADER + ".global .u32 a;\n.global .u32 a;\n"),
    ("decl_variable_then_function", "sm_90", HEADER + ".global .u32 a;\n.visible .entry a() { ret; }\n"),
    ("decl_duplicate_entry", "sm_90", HEADER + ".visible .entry k() { ret; }\n.visible .entry k() { ret; }\n"),
    ("decl_inconsistent_prototype", "sm_90", HEADER + ".visible .func f(.param .b32 a);\n.visible .func f() { ret; }\n"),
    ("decl_module_reg", "sm_90", HEADER + ".reg .b32 r;\n.visible .entry k() { ret; }\n"),
    ("decl_too_many_initializers", "sm_90", HEADER + ".global .u32 a[2] = {1, 2, 3};\n"),
    ("decl_bad_initializer_symbol", "sm_90", HEADER + ".global .u32 a = b;\n"),
    ("decl_float_var_int_init", "sm_90", HEADER + ".global .f32 a = 1;\n"),
    ("decl_int_var_float_init", "sm_90", HEADER + ".global .u32 a = 1.5;\n"),
    ("decl_incomplete_array", "sm_90", HEADER + ".global .u32 a[];\n"),
    ("decl_alignment_not_pow2", "sm_90", HEADER + ".global .align 3 .u32 a;\n"),
    ("decl_shared_initializer", "sm_90", HEADER + ".shared .u32 a = 5;\n"),
    ("decl_extern_resolved_static", "sm_90", HEADER + ".extern .global .u32 a;\n.global .u32 a;\n"),
    ("decl_entry_reg_param", "sm_90", HEADER + ".visible .entry f(.reg .u32 a) { ret; }\n"),
    ("decl_maxntid_and_reqntid", "sm_90", HEADER + ".visible .entry f() .maxntid 128 .reqntid 64 { ret; }\n"),
    ("decl_cluster_directive_sm80", "sm_80", ".version 9.0\n.target sm_80\n.address_size 64\n.visible .entry f() .reqnctapercluster 2,1,1 { ret; }\n"),
    ("decl_noreturn_old_version", "sm_75", ".version 6.0\n.target sm_70\n.address_size 64\n.visible .func f() .noreturn { ret; }\n"),
    ("decl_noreturn_with_result", "sm_90", HEADER + ".func (.param .b32 r) f()\n.noreturn\n{\n\tret;\n}\n"),
    ("decl_mask_init_untyped", "sm_90", HEADER + ".global .b8 g[4];\n.global .b8 m[2] = {0xFF(g), 0};\n"),
    ("decl_address_init_float", "sm_90", HEADER + ".global .b8 g[4];\n.global .f64 p = g;\n"),
    ("decl_alias_unknown", "sm_90", HEADER + ".visible .func f() { ret; }\n.alias g, f;\n"),
    ("decl_common_old_version", "sm_75", ".version 4.0\n.target sm_50\n.address_size 64\n.common .global .u32 a;\n"),
    ("gate_elect_old_version", "sm_90", ".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k() { .reg .b32 %r<2>; .reg .pred %p<2>; elect.sync %r1|%p1, 0xffffffff; ret; }\n"),
    ("gate_bf16_old_version", "sm_90", ".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k() { .reg .b16 %rs<4>; add.rn.bf16 %rs1, %rs2, %rs3; ret; }\n".replace("7.8", "7.7").replace(".target sm_90", ".target sm_89").replace("sm_90", "sm_89")),
    ("gate_cvt_fp8_ptx78_sm89", "sm_89", ".version 7.8\n.target sm_89\n.address_size 64\n.visible .entry k() { .reg .b16 %rs<2>; .reg .f32 %f<3>; cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2; ret; }\n"),
    ("gate_dp4a_sm60", "sm_75", ".version 6.0\n.target sm_60\n.address_size 64\n.visible .entry k() { .reg .b32 %r<4>; dp4a.u32.u32 %r1, %r2, %r3, %r1; ret; }\n"),
    ("gate_shfl_sync_old_version", "sm_75", ".version 5.0\n.target sm_61\n.address_size 64\n.visible .entry k() { .reg .b32 %r<4>; shfl.sync.down.b32 %r1, %r2, 1, 31, 0xffffffff; ret; }\n"),
    ("gate_ld_nc_sm30", "sm_90", ".version 7.0\n.target sm_30\n.address_size 64\n.visible .entry k() { .reg .b32 %r<4>; .reg .b64 %rd<2>; ld.global.nc.u32 %r1, [%rd1]; ret; }\n"),
    ("multi_errors_first_line", "sm_90", HEADER + ".visible .entry k() {\n\t.reg .b32 %r<3>;\n\tadd.s32 %r1, %r1, %r2;\n\tsub.s32 %r1, %q, 1;\n\tmul.s32 %r1, %r1, %r1;\n\tret;\n}\n"),
    ("error_in_second_function", "sm_90", HEADER + ".visible .func f() { ret; }\n.visible .entry k() {\n\t.reg .b32 %r<3>;\n\tadd.u64 %r1, %r1, %r2;\n\tret;\n}\n"),
    ("error_after_debug_sections", "sm_90", HEADER + ".visible .entry k() {\n\t.loc 1 1 1\n\tret;\n}\n.file 1 \"a.cu\"\n.section .debug_info {\n.b8 1\n}\nmov.u32 x;\n"),
]


def main():
    out = os.path.join(HERE, "cases")
    os.makedirs(out, exist_ok=True)
    for old in os.listdir(out):
        if old.endswith(".ptx"):
            os.remove(os.path.join(out, old))
    names = set()
    for name, arch, body in BODY_CASES + BLIND_CASES:
        assert name not in names, name
        names.add(name)
        text = f"// arch: {arch}\n" + KERNEL.format(ver="9.0", tgt=arch, body=body)
        open(os.path.join(out, name + ".ptx"), "w").write(text)
    for name, arch, text in FILE_CASES:
        assert name not in names, name
        names.add(name)
        open(os.path.join(out, name + ".ptx"), "w").write((f"// arch: {arch}\n" if text else "") + text)
    print(f"wrote {len(names)} cases")


if __name__ == "__main__":
    main()
