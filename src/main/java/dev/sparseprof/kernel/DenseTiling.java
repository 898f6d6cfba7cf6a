package dev.sparseprof.kernel;

/**
 * The dense GEMM's blocking, a pure function of the vector width and the core's cache sizes
 * ({@link #choose}), so that an AVX2 core and an AVX-512 core each get a tile their registers hold.
 *
 * <p>Register tile ({@code rows} x {@code vectors} accumulators): per k it loads {@code vectors}
 * B vectors and broadcasts {@code rows} A values, then issues {@code rows * vectors} FMAs; it must
 * leave room in the register file for those B vectors and one broadcast. 32 registers (AVX-512):
 * 4 x 4 (16 accumulators + 4 + 1 = 21 registers, 8 loads per 16 FMAs). 16 registers (AVX2, or
 * any width below 512 bits): 6 x 2 (12 + 2 + 1 = 15, 8 loads per 12 FMAs; the shape of BLIS's
 * Haswell sgemm kernel, 6 x 16 floats): a 4 x 4 tile there needs 21 registers and spills.
 * Both keep at least 8 independent accumulators, the 2 FMA ports x 4 cycles of latency.
 *
 * <p>Blocks: {@code kc}, the K block, is the largest power of two (64..1024) with the
 * {@code rows x kc} sliver of A in an eighth of L1d (it is re-read from L1 for every panel of B);
 * {@code nc}, the C column block, the largest power-of-two multiple of the panel width with the
 * packed {@code kc x nc} block of B in a quarter of L2 (read from L2 by every row tile). On a
 * 48 KiB / 2 MiB core with 16 lanes: 4 x 4, kc 256, nc 512; on a 32 KiB / 512 KiB core with 8
 * lanes: 6 x 2, kc 128, nc 256.
 *
 * @param rows        C rows of the register tile (MR)
 * @param vectors     vectors of C columns of the register tile (NR = vectors x lanes)
 * @param lanes       fp32 lanes of one vector
 * @param kc          the K block
 * @param nc          the C column block
 */
public record DenseTiling(int rows, int vectors, int lanes, int kc, int nc) {
    /** Rows of the narrow micro-kernel (N of one vector): 8 accumulators + 1 B + 1 broadcast fit 16 registers. */
    public static final int NARROW_ROWS = 8;
    /**
     * Rows of the two-vector micro-kernel: 12 accumulators + 2 B + 1 broadcast fit 16 registers. On
     * 32 registers it runs the panels of two vectors that N leaves past its whole 4-vector panels.
     */
    public static final int TWO_VECTOR_ROWS = 6;

    public DenseTiling {
        if (rows < 1 || vectors < 1 || lanes < 1 || kc < 1 || nc < vectors * lanes) throw new IllegalArgumentException("bad tiling");
        if (nc % (vectors * lanes) != 0) throw new IllegalArgumentException("nc must be a multiple of the panel width");
    }

    /** {@code 4 x 4 vectors of 16 lanes, kc 256, nc 512}. */
    public String describe() {
        return rows + " x " + vectors + " vectors of " + lanes + " lanes, kc " + kc + ", nc " + nc;
    }

    /** Columns of one packed panel of B (NR). */
    public int panelColumns() { return vectors * lanes; }

    /**
     * Rows that run every K block of a C block before the next rows do, where {@link #packsWholeK}:
     * a multiple of every register tile's rows (4 or 6, {@link #TWO_VECTOR_ROWS}, {@link #NARROW_ROWS}),
     * so the tiles run as they would over all rows, and its C rows stay near between K blocks.
     */
    public static final int CHUNK_ROWS = 24;

    /**
     * Whether the packed B of all {@code k} rows of a C block of {@code nc} columns (whole panels) fits
     * half of an L2 of {@code l2Bytes}: then {@code DenseGemm} packs every K block of it first and runs
     * each {@link #CHUNK_ROWS} rows over all of them, rather than each K block over all rows, which sends
     * a C larger than L2 out to L3 and back once per K block.
     */
    public boolean packsWholeK(long k, long nc, long l2Bytes) {
        return k * paddedColumns(nc) * Float.BYTES <= l2Bytes / 2;
    }

    /** Columns of a C block of {@code nc} columns rounded up to whole {@link #panelColumns} panels: its packed B's width at most. */
    public long paddedColumns(long nc) {
        return (nc + panelColumns() - 1) / panelColumns() * panelColumns();
    }

    /** The tiling for a vector width and a core's L1d and L2 sizes. */
    public static DenseTiling choose(int vectorBits, long l1dBytes, long l2Bytes) {
        int lanes = vectorBits / Float.SIZE;
        boolean wideFile = KernelVectors.registers(vectorBits) >= 32;
        int rows = wideFile ? 4 : 6;
        int vectors = wideFile ? 4 : 2;
        int kc = floorPowerOfTwo(l1dBytes / 8 / ((long) rows * Float.BYTES), 64, 1024);
        int panel = vectors * lanes;
        long ncFit = l2Bytes / 4 / ((long) kc * Float.BYTES);
        int nc = panel * floorPowerOfTwo(ncFit / panel, 1, 64);
        return new DenseTiling(rows, vectors, lanes, kc, nc);
    }

    private static int floorPowerOfTwo(long value, int min, int max) {
        long v = Math.max(min, Math.min(max, value));
        return Integer.highestOneBit((int) v);
    }
}
