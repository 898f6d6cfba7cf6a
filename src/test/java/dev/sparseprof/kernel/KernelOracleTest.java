package dev.sparseprof.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.TraceSink;
import dev.sparseprof.util.MatrixView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kernel, every partition, against the dense oracle and EJML's product; fast path vs traced twin
 * vs threads. Run twice by the build: at the preferred vector width and at 256 bits (AVX2 only).
 */
class KernelOracleTest {
    record Case(int m, int k, int n, double density) {}

    static final Case[] CASES = {
            new Case(37, 53, 1, 0.3), new Case(37, 53, 3, 0.3), new Case(5, 1, 7, 1.0), new Case(1, 9, 16, 0.5),
            new Case(41, 300, 17, 0.2), new Case(64, 128, 128, 0.1), new Case(13, 70, 130, 0.4),
            new Case(9, 40, 600, 0.3), new Case(6, 20, 48, 0.0), new Case(40, 50, 16, 0.3), new Case(23, 41, 32, 0.3),
    };

    static Stream<Arguments> kernelsAndPartitions() {
        List<Arguments> out = new ArrayList<>();
        for (String kernel : Kernels.names()) {
            for (String partition : Partitions.names()) {
                if (Partitions.byName(partition).splitsRows() && !Kernels.byName(kernel).splitsRows()) continue;
                out.add(Arguments.of(kernel, partition));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} / {1}")
    @MethodSource("kernelsAndPartitions")
    void matchesDenseOracle(String kernel, String partition) {
        for (Case cs : CASES) check(Kernels.byName(kernel), Partitions.byName(partition), cs);
    }

    /**
     * csr's column passes (packed panels of one or two vectors, the tight loops over them, the rest
     * in blocks, carried rows) on every partition: an L2 of 16 KiB forces one-vector passes on the
     * wider cases, 64 KiB two-vector ones, whatever this machine's L2.
     */
    @ParameterizedTest(name = "csr passes, L2 {0} KiB")
    @org.junit.jupiter.params.provider.ValueSource(ints = {16, 64})
    void csrColumnPassesMatchOracle(int l2KiB) {
        CsrSpmm kernel = new CsrSpmm(SliceKernel.SliceFormat.CSR, (long) l2KiB << 10);
        boolean passed = false;
        for (String partition : Partitions.names()) {
            for (Case cs : CASES) {
                check(kernel, Partitions.byName(partition), cs);
                passed |= CsrSpmm.passColumns(cs.k(), cs.n(), KernelVectors.FLOATS.length(), (long) l2KiB << 10) < cs.n();
            }
            check(kernel, Partitions.byName(partition), new Case(50, 256, 4 * KernelVectors.FLOATS.length() + 3, 0.2));
        }
        assertEquals(true, passed, "some case runs in passes");
    }

    @org.junit.jupiter.api.Test
    void csrPassColumnsFollowL2() {
        assertEquals(128, CsrSpmm.passColumns(768, 128, 16, 1L << 20), "B 384 KiB in half of 1 MiB: one pass");
        assertEquals(32, CsrSpmm.passColumns(3072, 128, 16, 1L << 20), "B 1.5 MiB: two-vector passes");
        assertEquals(16, CsrSpmm.passColumns(16384, 128, 16, 1L << 20), "a two-vector panel 2 MiB: one-vector passes");
        assertEquals(32, CsrSpmm.passColumns(1 << 20, 32, 16, 1L << 20), "N of two vectors: its tight loop, no passes");
        assertEquals(16, CsrSpmm.passColumns(3072, 128, 8, 512L << 10), "AVX2, 512 KiB L2");
        assertEquals(128, CsrSpmm.passColumns(3072, 128, 16, 4L << 20), "a 4 MiB L2 holds B");
    }

    private static <A> void check(SpmmKernel<A> kernel, Partition partition, Case cs) {
        String what = kernel.name() + "/" + partition.name() + " " + cs;
        float[] dense = RandomMatrices.sparse(cs.m(), cs.k(), cs.density(), cs.m() * 31L + cs.n());
        if (kernel instanceof NmSpmm) dense = RandomMatrices.twoFour(dense, cs.m(), cs.k());
        if (kernel instanceof CsrHalfSpmm half) dense = quantized(dense, half.prepare(MatrixView.of(cs.m(), cs.k(), dense)).encoding());
        float[] b = RandomMatrices.dense(cs.k(), cs.n(), cs.k());
        float[] expected = ReferenceSpmm.dense(dense, cs.m(), cs.k(), b, cs.n());
        float[] peer = EjmlProduct.of(dense, cs.m(), cs.k(), b, cs.n());
        A a = kernel.prepare(MatrixView.of(cs.m(), cs.k(), dense));
        for (int threads : new int[] {1, 3}) {
            if (threads > kernel.maxThreads()) continue;
            SpmmPlan<A> plan = SpmmPlan.of(kernel, a, cs.n(), partition, threads);
            float[] c = filled(cs.m() * cs.n());
            plan.run(b, c);
            assertClose(expected, c, cs.k(), what + " threads=" + threads);
            assertClose(peer, c, cs.k(), what + " threads=" + threads + " against EJML");

            float[] parallel = filled(c.length);
            try (WorkerPool pool = new WorkerPool(threads)) {
                plan.run(b, parallel, pool, new long[threads]);
            }
            // reduceLanes sums in the JIT tier's order (interpreter vs C2): the gather dot (csr-gather, and
            // csr, ell, coo and N:M at N = 1) and dense's matrix-vector product at N = 1 agree to rounding only
            boolean lanesReduced = kernel instanceof CsrGatherSpmm || cs.n() == 1
                    && (kernel instanceof CsrSpmm || kernel instanceof NmSpmm || kernel.name().equals("coo") || kernel instanceof DenseGemm);
            boolean exact = !lanesReduced;
            if (exact) assertArrayEquals(c, parallel, what + ": pool run differs from sequential run");
            else assertClose(c, parallel, cs.k(), what + ": pool run");

            float[] traced = filled(c.length);
            TraceSink[] sinks = new TraceSink[threads];
            for (int t = 0; t < threads; t++) sinks[t] = new CountingSink();
            plan.trace(b, traced, layout(), sinks);
            if (!exact) assertClose(c, traced, cs.k(), what + ": traced twin");
            else assertArrayEquals(c, traced, what + ": traced twin differs from fast path");
        }
    }

    /**
     * One kernel instance and one workspace per thread serve two matrices in turn, as measure's
     * kernels serve layer after layer: the rows' slice each thread's workspace reuses
     * ({@code Workspace.rowSlice}) and 2:4's row starts kept per matrix must not carry one
     * matrix's rows into the other's run. N of five vectors: the block bodies, not the tight loops.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kernelNames")
    void oneInstanceServesTwoMatricesInTurn(String name) {
        SpmmKernel<?> kernel = Kernels.byName(name);
        alternate(kernel, Partitions.byName(kernel.splitsRows() ? "merge" : "nnz"));
    }

    static Stream<String> kernelNames() {
        return Kernels.names().stream();
    }

    private static <A> void alternate(SpmmKernel<A> kernel, Partition partition) {
        int n = 5 * KernelVectors.FLOATS.length();
        int threads = Math.min(2, kernel.maxThreads());
        int[][] shapes = {{29, 40}, {33, 40}};
        List<SpmmPlan<A>> plans = new ArrayList<>();
        List<float[]> expected = new ArrayList<>();
        float[] b = RandomMatrices.dense(40, n, 7);
        for (int[] shape : shapes) {
            float[] dense = RandomMatrices.sparse(shape[0], shape[1], 0.3, shape[0]);
            if (kernel instanceof NmSpmm) dense = RandomMatrices.twoFour(dense, shape[0], shape[1]);
            A a = kernel.prepare(MatrixView.of(shape[0], shape[1], dense));
            if (kernel instanceof CsrHalfSpmm half) {
                dense = quantized(dense, half.prepare(MatrixView.of(shape[0], shape[1], dense)).encoding());
            }
            plans.add(SpmmPlan.of(kernel, a, n, partition, threads));
            expected.add(ReferenceSpmm.dense(dense, shape[0], shape[1], b, n));
        }
        try (WorkerPool pool = new WorkerPool(threads)) {
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < plans.size(); i++) {
                    float[] c = filled(shapes[i][0] * n);
                    plans.get(i).run(b, c, pool, new long[threads]);
                    assertClose(expected.get(i), c, 40, kernel.name() + " matrix " + i + " round " + round);
                }
            }
        }
    }

    /** The matrix as the 16-bit kernel holds it: every value rounded to fp16 or bf16. */
    private static float[] quantized(float[] a, HalfRowSlices.Encoding e) {
        float[] out = new float[a.length];
        for (int i = 0; i < a.length; i++) out[i] = e.decode(e.encode(a[i]));
        return out;
    }

    static ArrayLayout layout() {
        return ArrayLayout.sequential(4096, 64, Map.of(ArrayRole.VALUES, 1L << 20, ArrayRole.B_GATHER, 1L << 20), 4);
    }

    /** C pre-filled with garbage: kernels must overwrite, not accumulate into, C. */
    private static float[] filled(int length) {
        float[] c = new float[length];
        Arrays.fill(c, 12345f);
        return c;
    }

    static void assertClose(float[] expected, float[] actual, int k, String what) {
        assertEquals(expected.length, actual.length, what);
        for (int i = 0; i < expected.length; i++) {
            double tol = 1e-5 * Math.sqrt(k) * Math.max(1.0, Math.abs(expected[i])) + 1e-5 * k;
            if (Math.abs(expected[i] - actual[i]) > tol) {
                throw new AssertionError(what + ": element " + i + " expected " + expected[i] + " got " + actual[i]);
            }
        }
    }
}
