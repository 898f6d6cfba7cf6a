package dev.sparseprof.measure.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sparseprof.util.SparseprofException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class Sparse24PackerTest {
    /** A random 2:4 matrix whose values are exact in fp16. */
    private static float[] random24(int rows, int cols, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        float[] a = new float[rows * cols];
        for (int g = 0; g < a.length / 4; g++) {
            int i0 = rnd.nextInt(4);
            int i1 = (i0 + 1 + rnd.nextInt(3)) % 4;
            a[4 * g + i0] = (rnd.nextInt(2047) - 1023) / 64f;
            a[4 * g + i1] = (rnd.nextInt(2047) - 1023) / 64f;
        }
        return a;
    }

    @Test
    void a24MatrixRoundTripsExactly() {
        float[] a = random24(48, 96, 7);
        Sparse24Operand op = Sparse24Packer.pack(a, 48, 96);
        assertEquals(48 * 48, op.values().length);
        assertEquals(48 * 96 / 32, op.metadata().length);
        assertArrayEquals(a, Sparse24Packer.unpack(op));
        assertEquals(2L * 48 * 48 + 4L * 48 * 3, op.sizeBytes());
    }

    @Test
    void everyMetadataNibbleIsAValidPair() {
        Sparse24Operand op = Sparse24Packer.pack(random24(32, 64, 3), 32, 64);
        for (int word : op.metadata()) {
            for (int j = 0; j < 8; j++) {
                int nibble = (word >>> (4 * j)) & 0xF;
                int i0 = nibble & 3;
                int i1 = nibble >>> 2;
                assertEquals(true, i0 < i1, "ordered pair, never 0b0000/0b0101/0b1010/0b1111: " + nibble);
            }
        }
        Sparse24Operand zeros = Sparse24Packer.pack(new float[16 * 32], 16, 32);
        for (int word : zeros.metadata()) assertEquals(0x44444444, word, "an all-zero group keeps positions 0 and 1");
    }

    @Test
    void metadataSitsWhereTheThreadPairReadsIt() {
        // Hand-placed: row 9 is g = 1 in the upper half (bits 16..31); logical columns 20 and 23 are
        // group 5 of the tile, so thread-pair member p = 1 (word 2*1+1 = 3), nibble j = 1 (bits 20..23).
        float[] a = new float[16 * 32];
        a[9 * 32 + 20] = 1.5f;
        a[9 * 32 + 23] = -2f;
        int[] meta = Sparse24Packer.pack(a, 16, 32).metadata();
        int nibble = (meta[3] >>> 20) & 0xF;
        assertEquals(0 | (3 << 2), nibble);
        assertEquals(0x4444, meta[3] & 0xFFFF, "row 1, groups 4..7: untouched zeros");
        short[] values = Sparse24Packer.pack(a, 16, 32).values();
        assertEquals(1.5f, Float.float16ToFloat(values[9 * 16 + 10]));
        assertEquals(-2f, Float.float16ToFloat(values[9 * 16 + 11]));
    }

    @Test
    void aDenseMatrixIsPrunedToTheTwoLargestPerGroup() {
        float[] a = new float[16 * 32];
        for (int i = 0; i < a.length; i++) a[i] = (i % 4) + 1; // 1,2,3,4: keep 3 and 4
        float[] kept = Sparse24Packer.unpack(Sparse24Packer.pack(a, 16, 32));
        assertEquals(0f, kept[0]);
        assertEquals(0f, kept[1]);
        assertEquals(3f, kept[2]);
        assertEquals(4f, kept[3]);
        assertNotEquals(0f, kept[a.length - 1]);
    }

    @Test
    void shapesMustTileExactly() {
        assertThrows(SparseprofException.class, () -> Sparse24Packer.pack(new float[16 * 30], 16, 30));
        assertThrows(SparseprofException.class, () -> Sparse24Packer.pack(new float[10], 16, 32));
    }
}
