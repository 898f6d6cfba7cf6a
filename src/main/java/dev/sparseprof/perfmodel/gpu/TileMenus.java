package dev.sparseprof.perfmodel.gpu;

import java.util.List;

/**
 * The CTA tiles a library instantiates for a tensor-core GEMM, the menu its heuristic picks from.
 * Shapes and stage counts are those CUTLASS's generator emits (NVIDIA/cutlass,
 * python/cutlass_library/generator.py at 7107b05: {@code GenerateSM80_TensorOp_16816} for dense
 * 16-bit, {@code GenerateSM80_SparseTensorOp_16832} for 2:4; sm90_shapes.py: WGMMA m64nNk16 times
 * the MMA multipliers (2,1,4), (1,1,4), (4,1,4), with automatic stage counts). K is stored in bytes
 * of one A row: 32 fp16 = 64 B; the int8/fp8 menus of the same generator double K, the same bytes.
 * cuBLAS and cuSPARSELt ship their own, unpublished kernels; these menus stand in for them.
 */
public final class TileMenus {
    private TileMenus() {}

    private static CtaTile sm80(int rows, int cols, int k16, int stages, int warpsM, int warpsN) {
        return new CtaTile(rows, cols, 2 * k16, stages, warpsM, warpsN, 32 * warpsM * warpsN);
    }

    /** SM90 warp-specialised: {@code warpgroups} consumer warpgroups along M plus one producer warpgroup. */
    private static CtaTile sm90(int rows, int cols, int k16, int warpgroups) {
        return new CtaTile(rows, cols, 2 * k16, 0, warpgroups, 1, 128 * (warpgroups + 1));
    }

    /** Dense, SM80 (mma.sync m16n8k16): the 16816 list (warp counts as in the generator's warp_count). */
    public static final List<CtaTile> SM80_DENSE = List.of(
            sm80(256, 128, 32, 3, 4, 2), sm80(128, 256, 32, 3, 2, 4), sm80(256, 64, 32, 4, 4, 1), sm80(64, 256, 32, 4, 1, 4),
            sm80(128, 128, 32, 4, 2, 2), sm80(128, 128, 32, 5, 2, 2), sm80(128, 64, 32, 6, 2, 2), sm80(64, 128, 32, 6, 2, 2),
            sm80(64, 64, 32, 10, 2, 2), sm80(256, 128, 64, 3, 4, 2), sm80(128, 256, 64, 3, 2, 4), sm80(256, 64, 64, 4, 4, 1),
            sm80(64, 256, 64, 4, 1, 4), sm80(128, 128, 64, 4, 2, 2), sm80(128, 64, 64, 3, 2, 2), sm80(64, 128, 64, 3, 2, 2),
            sm80(64, 64, 64, 5, 2, 2));

    /** 2:4, SM80 (mma.sp m16n8k32): the 16832 list; K is logical (dense-equivalent). */
    public static final List<CtaTile> SM80_SPARSE = List.of(
            sm80(64, 128, 64, 6, 2, 2), sm80(256, 128, 64, 3, 4, 2), sm80(128, 256, 64, 3, 2, 4), sm80(128, 128, 64, 3, 2, 2),
            sm80(256, 64, 64, 3, 4, 1), sm80(64, 256, 64, 4, 1, 4), sm80(128, 64, 64, 3, 2, 2), sm80(64, 64, 64, 4, 2, 2),
            sm80(128, 128, 128, 3, 2, 4), sm80(256, 64, 128, 3, 4, 1), sm80(128, 64, 128, 4, 2, 2), sm80(64, 128, 128, 3, 2, 2),
            sm80(64, 64, 128, 3, 2, 2));

    /** Dense, SM90 (wgmma m64nNk16, N up to 256): CTA = multiplier x instruction shape. */
    public static final List<CtaTile> SM90_DENSE = List.of(
            sm90(128, 256, 64, 2), sm90(128, 128, 64, 2), sm90(128, 64, 64, 2), sm90(64, 256, 64, 1), sm90(64, 128, 64, 1),
            sm90(64, 64, 64, 1), sm90(256, 128, 64, 4), sm90(256, 64, 64, 4));

    /** 2:4, SM90 (sparse wgmma m64nNk32): the same CTA shapes with twice the logical K per step. */
    public static final List<CtaTile> SM90_SPARSE = List.of(
            sm90(128, 256, 128, 2), sm90(128, 128, 128, 2), sm90(128, 64, 128, 2), sm90(64, 256, 128, 1), sm90(64, 128, 128, 1),
            sm90(64, 64, 128, 1), sm90(256, 128, 128, 4));

    /** A SIMT tile: 8 fp32 (32 B) of K per step, 2 stages, {@code warpsM x warpsN} warps of 32 x 64 or 64 x 32 outputs. */
    private static CtaTile simt(int rows, int cols, int warpsM, int warpsN) {
        return new CtaTile(rows, cols, 32, 2, warpsM, warpsN, 32 * warpsM * warpsN);
    }

    /**
     * fp32 on the CUDA cores (SGEMM): {@code GenerateSM50_Simt}'s list, the one CUTLASS emits for
     * every architecture from SM50 on (the same generator.py): 128x128x8 with 4 x 2 warps,
     * 128x64x8, 64x128x8 (2 x 2), 64x64x8, 128x32x8 (2 x 1), 32x128x8 (1 x 2), 2 stages each; every
     * warp holds 2048 outputs, 8 x 8 per thread.
     */
    public static final List<CtaTile> SIMT = List.of(
            simt(128, 128, 4, 2), simt(128, 64, 2, 2), simt(64, 128, 2, 2), simt(64, 64, 2, 1), simt(128, 32, 2, 1), simt(32, 128, 1, 2));

    /**
     * A stack's single SM80 tile, 2 x 2 warps: {@code RxC} with 128 B of K per step (64 fp16, 128 int8) and 3 stages,
     * or {@code RxCxK/S} with K logical 16-bit elements per step and S stages (the runtime's {@code sparseTile}).
     */
    public static CtaTile fixed(String tile) {
        String[] stages = tile.split("/");
        String[] p = stages[0].split("x");
        int k16 = p.length > 2 ? Integer.parseInt(p[2]) : 64;
        return sm80(Integer.parseInt(p[0]), Integer.parseInt(p[1]), k16, stages.length > 1 ? Integer.parseInt(stages[1]) : 3, 2, 2);
    }

    /** The menu for a GPU generation ({@code hopperKernels}: SM90 kernels) and operand kind. */
    public static List<CtaTile> menu(boolean hopperKernels, boolean sparse) {
        if (hopperKernels) return sparse ? SM90_SPARSE : SM90_DENSE;
        return sparse ? SM80_SPARSE : SM80_DENSE;
    }
}
