package dev.sparseprof.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.sparse.stats.MatrixStats;
import dev.sparseprof.sparse.stats.ScanOptions;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Progress;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The stored-bits bitmap path of the scan agrees exactly with testing the decoded floats. */
class StoredBitsTest {
    private static final short[] SPECIAL16 = {0, (short) 0x8000, 0x7e00, (short) 0xfe00, 0x7c00, 0x0001, (short) 0x8001, 0x3c00};
    private static final int[] SPECIAL32 = {0, 0x80000000, 0x7fc00000, 0x7f800000, 0x00000001, 0x80000001, 0x3f800000};

    @ParameterizedTest
    @CsvSource({"F16, 37, 1", "F16, 37, 31", "F16, 20, 64", "BF16, 33, 100", "BF16, 9, 4100", "F32, 37, 17", "F32, 16, 64", "F32, 5, 1000", "BF16, 140000, 2", "BF16, 300, 4100", "F16, 40, 30000"})
    void theBitmapOfStoredBitsIsTheBitmapOfTheDecodedRow(DType dtype, int rows, int cols) {
        SplittableRandom r = new SplittableRandom(rows * 31L + cols);
        int size = dtype.sizeBytes();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment seg = arena.allocate((long) rows * cols * size + 3, 8).asSlice(3, (long) rows * cols * size); // unaligned
            for (long i = 0; i < (long) rows * cols; i++) {
                boolean special = r.nextInt(4) == 0;
                if (size == 2) {
                    short v = special ? SPECIAL16[r.nextInt(SPECIAL16.length)] : r.nextBoolean() ? 0 : (short) r.nextInt();
                    seg.set(LittleEndian.I16, i * 2, v);
                } else {
                    int v = special ? SPECIAL32[r.nextInt(SPECIAL32.length)] : r.nextBoolean() ? 0 : r.nextInt();
                    seg.set(LittleEndian.I32, i * 4, v);
                }
            }
            Tensor t = new Tensor("w", dtype, new long[] {rows, cols}, seg);
            TensorMatrix view = TensorMatrix.rowMajor(t, rows, cols);
            float[] row = new float[cols];
            long[] words = new long[(cols + 63) / 64 + 1];
            for (int i = 0; i < rows; i++) {
                Arrays.fill(words, -1L);
                int n = view.nonZeroBits(i, words);
                view.copyRow(i, row, 0);
                int want = 0;
                for (int c = 0; c < cols; c++) {
                    boolean nonZero = row[c] != 0.0f;
                    if (nonZero) want++;
                    assertEquals(nonZero, ((words[c >>> 6] >>> c) & 1) != 0, dtype + " row " + i + " col " + c);
                }
                if ((cols & 63) != 0) assertEquals(0, words[cols >>> 6] >>> (cols & 63), "bits past the row are 0");
                assertEquals(want, n);
            }
            ScanOptions two = ScanOptions.DEFAULT.withThreads(2);
            MatrixStats decoded = MatrixScan.of(MatrixView.of(rows, cols, view.toDense()), ScanOptions.DEFAULT);
            assertEquals(decoded, MatrixScan.of(view, two), "same statistics either way");
            List<MatrixStats> team = MatrixScan.ofAll(List.of(view, MatrixView.of(rows, cols, view.toDense()), view), two, Progress.NONE);
            assertEquals(List.of(decoded, decoded, decoded), team, "one team over both paths");
            if (cols > 1) assertEquals(-1, TensorMatrix.transposed(t, cols, rows).nonZeroBits(0, words), "strided views decline");
        }
    }

    /** The start-up SWAR path (used for the process's first rows) gives the vector loop's bits. */
    @Test
    void swarWordsAreTheVectorWords() {
        SplittableRandom r = new SplittableRandom(5);
        int cols = 4096;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment seg = arena.allocate(4L * cols + 3, 8).asSlice(3, 4L * cols);
            for (int trial = 0; trial < 50; trial++) {
                for (int i = 0; i < cols; i++) {
                    boolean special = r.nextInt(4) == 0;
                    int v = special ? SPECIAL32[r.nextInt(SPECIAL32.length)] : r.nextInt(3) == 0 ? 0 : r.nextInt();
                    seg.set(LittleEndian.I32, i * 4L, v);
                    if (i < cols / 2 && r.nextInt(5) == 0) seg.set(LittleEndian.I16, i * 2L, SPECIAL16[r.nextInt(SPECIAL16.length)]);
                }
                long[] vector = new long[64];
                long[] swar = new long[64];
                StoredBits.halves(seg, 0, cols, vector);
                assertEquals(cols, StoredBits.halvesSwar(seg, 0, 0, cols, swar));
                assertEquals(Arrays.toString(vector), Arrays.toString(swar), "fp16/bf16, trial " + trial);
                vector = new long[64];
                swar = new long[64];
                StoredBits.singles(seg, 0, cols, vector);
                assertEquals(cols, StoredBits.singlesSwar(seg, 0, 0, cols, swar));
                assertEquals(Arrays.toString(vector), Arrays.toString(swar), "fp32, trial " + trial);
            }
        }
    }
}
