package dev.sparseprof.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.sparse.stats.MatrixStats;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.sparse.stats.ScanOptions;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One suite over every format: build from a matrix, check against the dense oracle, convert to
 * every other format and back, and compare the bytes of the built structure with the bytes
 * computed from statistics alone.
 */
class FormatRoundTripTest {
    static final List<String> FORMATS = List.of("csr", "csc", "coo", "bsr4x4", "bsr3x5", "bsr1x1", "bsr16x16", "bsr2x70",
            "ell", "sell-1-1", "sell-4-1", "sell-4-8", "sell-3-5", "sell-32-256", "2:4", "1:2", "bitmask");

    record Case(String name, int rows, int cols, float[] dense) {
        @Override public String toString() { return name + " " + rows + "x" + cols; }
    }

    static List<Case> cases() {
        Random rnd = new Random(42);
        List<Case> cases = new ArrayList<>();
        cases.add(random("random", 37, 53, 0.2, rnd));
        cases.add(random("random", 19, 130, 0.6, rnd));
        cases.add(random("sparse", 65, 67, 0.03, rnd));
        cases.add(random("all-zero", 9, 11, 0.0, rnd));
        cases.add(random("full", 6, 7, 1.0, rnd));
        cases.add(random("1xN", 1, 45, 0.5, rnd));
        cases.add(random("Nx1", 45, 1, 0.5, rnd));
        cases.add(random("1x1", 1, 1, 1.0, rnd));
        cases.add(new Case("no rows", 0, 5, new float[0]));
        cases.add(new Case("no columns", 4, 0, new float[0]));
        Case mixed = random("empty and dense rows", 23, 29, 0.3, rnd);
        for (int c = 0; c < 29; c++) {
            mixed.dense()[2 * 29 + c] = 0f;
            mixed.dense()[5 * 29 + c] = c + 1;
            mixed.dense()[22 * 29 + c] = 0f;
        }
        cases.add(mixed);
        return cases;
    }

    static Case random(String name, int rows, int cols, double density, Random rnd) {
        float[] a = new float[rows * cols];
        for (int i = 0; i < a.length; i++) if (rnd.nextDouble() < density) a[i] = (float) (rnd.nextInt(2000) - 1000) / 8 + 0.0625f;
        return new Case(name, rows, cols, a);
    }

    static Stream<Arguments> formatsAndCases() {
        List<Arguments> out = new ArrayList<>();
        for (String f : FORMATS) for (Case c : cases()) out.add(Arguments.of(f, c));
        return out.stream();
    }

    /** N:M layouts hold only compliant matrices: keep the first N non-zeros of each group. */
    static float[] fit(Format format, Case c) {
        float[] a = c.dense().clone();
        if (format instanceof Format.Nm nm) {
            NmPattern p = nm.pattern();
            for (int r = 0; r < c.rows(); r++) {
                for (int g = 0; g < c.cols(); g += p.m()) {
                    int kept = 0;
                    for (int col = g; col < Math.min(c.cols(), g + p.m()); col++) {
                        int i = r * c.cols() + col;
                        if (a[i] != 0f && ++kept > p.n()) a[i] = 0f;
                    }
                }
            }
        }
        return a;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("formatsAndCases")
    void roundTripsExactlyAndSizesMatchTheStatistics(String name, Case c) {
        Format format = Formats.parse(name);
        float[] dense = fit(format, c);
        MatrixView view = MatrixView.of(c.rows(), c.cols(), dense);
        CsrMatrix csr = CsrMatrix.from(view);
        SparseMatrix m = format.build(view);
        m.validate();
        assertEquals(format, m.format());
        assertEquals(name, m.format().name());
        assertEquals(csr.nnz(), m.nnz());
        assertArrayEquals(dense, m.toDense(), "dense oracle");
        assertSameCsr(csr, m.toCsr());
        for (String other : FORMATS) {
            Format target = Formats.parse(other);
            if (target instanceof Format.Nm && !(format instanceof Format.Nm nm && nm.equals(target))) continue;
            SparseMatrix converted = Formats.convert(m, target);
            assertArrayEquals(dense, converted.toDense(), name + " -> " + other);
            assertSameCsr(csr, Formats.convert(converted, format).toCsr());
        }
        ScanOptions options = ScanOptions.DEFAULT;
        if (format instanceof Format.Bsr bsr) options = options.withBlocks(List.of(bsr.shape()));
        MatrixStats stats = MatrixScan.of(view, options);
        for (DType dtype : new DType[] {DType.F32, DType.F16, DType.BF16, DType.I8}) {
            StorageCost built = m.storage(dtype);
            assertEquals(built, format.cost(stats, dtype), name + " " + dtype);
            assertEquals((long) c.rows() * c.cols() * dtype.sizeBytes(), built.denseBytes());
        }
    }

    @Test
    void explicitZerosSurviveUnpaddedFormatsOnly() {
        CsrMatrix withZero = new CsrMatrix(1, 4, new int[] {0, 2}, new int[] {1, 3}, new float[] {0f, 2f});
        for (String keeps : List.of("csr", "csc", "coo", "bitmask")) {
            assertEquals(2, Formats.convert(withZero, Formats.parse(keeps)).nnz(), keeps);
        }
        for (String drops : List.of("bsr2x2", "ell", "sell-2-2", "2:4", "1:2")) {
            SparseMatrix m = Formats.convert(withZero, Formats.parse(drops));
            assertEquals(1, m.nnz(), drops);
            assertArrayEquals(new float[] {0, 0, 0, 2}, m.toDense(), drops);
        }
    }

    static void assertSameCsr(CsrMatrix expected, CsrMatrix actual) {
        assertEquals(expected.rows(), actual.rows());
        assertEquals(expected.cols(), actual.cols());
        assertArrayEquals(expected.rowPointers(), actual.rowPointers());
        assertArrayEquals(expected.columnIndices(), actual.columnIndices());
        assertArrayEquals(expected.values(), actual.values());
    }
}
