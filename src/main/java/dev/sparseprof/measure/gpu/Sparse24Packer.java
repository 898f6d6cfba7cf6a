package dev.sparseprof.measure.gpu;

import dev.sparseprof.util.SparseprofException;

/**
 * Packs a dense row-major fp32 matrix into the {@code mma.sp} m16n8k32 layout of
 * {@link Sparse24Operand}, and unpacks it (the CPU reference). In each group of four the two values
 * of largest magnitude are kept (ties: the lower index), so a 2:4 matrix packs exactly and any other
 * is pruned to 2:4. Metadata nibble per group: {@code idx0 | idx1 << 2}, {@code idx0 < idx1}
 * (PTX ISA 9.7.14.6.1); word {@code 2g + p} of a 16 x 32 tile: bits 0..15 row {@code g}, bits
 * 16..31 row {@code g + 8}, groups {@code 4p .. 4p + 3} of the tile, nibble {@code j} at bit
 * {@code 4j} (the thread pair T0/T1 of sparsity selector 0, PTX ISA 9.7.14.6.2.2, Figure 122).
 */
public final class Sparse24Packer {
    public static final int TILE_ROWS = 16;
    public static final int TILE_COLS = 32;

    private Sparse24Packer() {}

    /** {@code a} is {@code rows x cols} row-major with rows % 16 == 0 and cols % 32 == 0. */
    public static Sparse24Operand pack(float[] a, int rows, int cols) {
        if ((long) rows * cols != a.length) throw new SparseprofException("2:4 pack: " + a.length + " values for " + rows + " x " + cols);
        if (rows <= 0 || rows % TILE_ROWS != 0 || cols <= 0 || cols % TILE_COLS != 0) {
            throw new SparseprofException("2:4 pack: " + rows + " x " + cols + " must be a positive multiple of 16 x 32 (pad first)");
        }
        int half = cols / 2;
        short[] values = new short[rows * half];
        int[] meta = new int[rows * cols / 32];
        int tilesK = cols / TILE_COLS;
        for (int r = 0; r < rows; r++) {
            int tm = r / TILE_ROWS;
            int g = r % 8;
            int upper = (r % TILE_ROWS) >= 8 ? 16 : 0;
            for (int q = 0; q < cols / 4; q++) {
                int base = r * cols + 4 * q;
                int i0 = largest(a, base, -1);
                int i1 = largest(a, base, i0);
                if (i1 < i0) {
                    int s = i0;
                    i0 = i1;
                    i1 = s;
                }
                values[r * half + 2 * q] = Float.floatToFloat16(a[base + i0]);
                values[r * half + 2 * q + 1] = Float.floatToFloat16(a[base + i1]);
                int tk = q / 8;
                int local = q % 8;
                int word = (tm * tilesK + tk) * 16 + 2 * g + local / 4;
                meta[word] |= (i0 | (i1 << 2)) << (upper + 4 * (local % 4));
            }
        }
        return new Sparse24Operand(rows, cols, values, meta);
    }

    /** The dense fp32 matrix the operand stands for (fp16-rounded kept values, zeros elsewhere). */
    public static float[] unpack(Sparse24Operand op) {
        int rows = op.rows();
        int cols = op.cols();
        int half = cols / 2;
        int tilesK = cols / TILE_COLS;
        float[] out = new float[rows * cols];
        int[] meta = op.metadata();
        for (int r = 0; r < rows; r++) {
            int tm = r / TILE_ROWS;
            int g = r % 8;
            int upper = (r % TILE_ROWS) >= 8 ? 16 : 0;
            for (int q = 0; q < cols / 4; q++) {
                int local = q % 8;
                int word = (tm * tilesK + q / 8) * 16 + 2 * g + local / 4;
                int nibble = (meta[word] >>> (upper + 4 * (local % 4))) & 0xF;
                int i0 = nibble & 3;
                int i1 = nibble >>> 2;
                out[r * cols + 4 * q + i0] = Float.float16ToFloat(op.values()[r * half + 2 * q]);
                out[r * cols + 4 * q + i1] = Float.float16ToFloat(op.values()[r * half + 2 * q + 1]);
            }
        }
        return out;
    }

    /** Index in [0,4) of the largest |a[base+i]| other than {@code skip}; the lower index wins ties. */
    private static int largest(float[] a, int base, int skip) {
        int best = -1;
        float bestAbs = -1f;
        for (int i = 0; i < 4; i++) {
            if (i == skip) continue;
            float v = Math.abs(a[base + i]);
            if (v > bestAbs) {
                bestAbs = v;
                best = i;
            }
        }
        return best;
    }
}
