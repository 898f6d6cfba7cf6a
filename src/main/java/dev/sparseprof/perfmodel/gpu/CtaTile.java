package dev.sparseprof.perfmodel.gpu;

/**
 * One CTA (thread block) tile of a library's tensor-core GEMM: {@code rows x cols} of C, a main-loop
 * step of {@code kBytes} of one A row (logical K x element size: the same bytes for 16-bit, 8-bit
 * and fp8 kernels, whose K doubles as the type halves), {@code stages} copies of the step in shared
 * memory (0: as many as fit, CUTLASS 3's automatic stage count), and its math split over
 * {@code warpsM x warpsN} warps (SM80) or consumer warpgroups (SM90), each owning a
 * {@code rows/warpsM x cols/warpsN} part of C; {@code threads} per CTA.
 */
public record CtaTile(int rows, int cols, int kBytes, int stages, int warpsM, int warpsN, int threads) {
    public CtaTile {
        if (rows <= 0 || cols <= 0 || kBytes <= 0 || stages < 0 || warpsM <= 0 || warpsN <= 0 || threads <= 0) {
            throw new IllegalArgumentException("CTA tile " + rows + "x" + cols + ": sizes must be positive");
        }
    }

    /** {@code 128x256x64/3}: rows x cols x logical K per step (for {@code elementBytes}) / stages ({@code auto} when 0). */
    public String label(int elementBytes) {
        return rows + "x" + cols + "x" + kBytes / elementBytes + "/" + (stages == 0 ? "auto" : Integer.toString(stages));
    }
}
