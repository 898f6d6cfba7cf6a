package dev.sparseprof.bench;

import dev.sparseprof.memsim.CacheConfig;
import dev.sparseprof.memsim.Hierarchy;
import dev.sparseprof.memsim.HierarchyConfig;
import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.CountingSink;
import dev.sparseprof.trace.DinTextReader;
import dev.sparseprof.trace.DinTextWriter;
import dev.sparseprof.trace.TraceSink;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Accesses per second of the cache simulator: pushed in-process (as a traced kernel does) through
 * three LRU levels (Zen-like 32k/8w, 1m/16w, 32m/16w, one core), and parsed from din text (in
 * memory, so the disk is out of it) with and without the simulation behind. Scores are
 * operations (accesses) per second.
 *
 * <p>{@code shape}: {@code spmm} is the access stream of row-wise CSR SpMM (4096 x 4096 at 2%,
 * N = 16: rowptr, colidx, values, B-row gathers, C-row updates), generated on the fly as a traced
 * kernel would; {@code mixed} is the oracle's mixed trace, scaled (60% of accesses to 2000 hot words,
 * 40% uniform over 64 MiB, 30% writes), generated on the fly. Both push {@link #ACCESSES} accesses.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CacheHierarchyBench {
    static final int ROWS = 4096;
    static final int NNZ_PER_ROW = ROWS / 50;
    static final int N = 16;
    /** Accesses per invocation, both shapes: 16,596,992. */
    static final int ACCESSES = ROWS * (2 + NNZ_PER_ROW * (2 + 3 * N));

    @Param({"spmm", "mixed"})
    public String shape;

    private int[] rowPtr;
    private int[] colIdx;
    private byte[] dinText;

    static Hierarchy hierarchy() {
        return hierarchy(3);
    }

    /** The first {@code levels} of the three (what each level adds to the cost, in {@link CacheSimCpuRate}). */
    static Hierarchy hierarchy(int levels) {
        List<CacheConfig> all = List.of(CacheConfig.of("L1", 32 << 10, 64, 8), CacheConfig.of("L2", 1 << 20, 64, 16),
                CacheConfig.of("L3", 32 << 20, 64, 16));
        return new Hierarchy(HierarchyConfig.of(all.subList(0, levels)));
    }

    @Setup
    public void setup() {
        SplittableRandom rnd = new SplittableRandom(7);
        rowPtr = new int[ROWS + 1];
        colIdx = new int[ROWS * ROWS / 50];
        for (int i = 0, j = 0; i < ROWS; i++) {
            rowPtr[i] = j;
            for (int k = 0; k < NNZ_PER_ROW; k++) colIdx[j++] = rnd.nextInt(ROWS);
            rowPtr[i + 1] = j;
        }
        CountingSink count = new CountingSink();
        spmm(count);
        if (count.total() != ACCESSES) throw new IllegalStateException(count.total() + " != " + ACCESSES);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try (DinTextWriter w = new DinTextWriter(text, false)) {
            if (shape.equals("spmm")) spmm(w);
            else mixed(w);
        }
        dinText = text.toByteArray();
    }

    /** The traced twin of row-wise CSR SpMM C = A B, pushing every load and store. */
    void spmm(TraceSink s) {
        final long rp = 0x10000000L, ci = 0x20000000L, va = 0x30000000L, b = 0x40000000L, c = 0x50000000L;
        for (int i = 0; i < ROWS; i++) {
            s.access(AccessKind.READ, rp + 4L * i, 4, ArrayRole.ROW_POINTERS);
            s.access(AccessKind.READ, rp + 4L * (i + 1), 4, ArrayRole.ROW_POINTERS);
            for (int j = rowPtr[i]; j < rowPtr[i + 1]; j++) {
                s.access(AccessKind.READ, ci + 4L * j, 4, ArrayRole.COLUMN_INDICES);
                s.access(AccessKind.READ, va + 4L * j, 4, ArrayRole.VALUES);
                long brow = b + 4L * N * colIdx[j];
                long crow = c + 4L * N * i;
                for (int n = 0; n < N; n++) {
                    s.access(AccessKind.READ, brow + 4L * n, 4, ArrayRole.B_GATHER);
                    s.access(AccessKind.READ, crow + 4L * n, 4, ArrayRole.C_SCATTER);
                    s.access(AccessKind.WRITE, crow + 4L * n, 4, ArrayRole.C_SCATTER);
                }
            }
        }
    }

    /** The mixed stream from a xorshift generator (about 2 ns per access of its own). */
    static void mixed(TraceSink s) {
        long x = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < ACCESSES; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            int r = (int) (x >>> 40); // 24 random bits
            int p = (int) (x & 1023);
            long a = p < 614 ? 0x10000000L + 4L * (r % 2000) : 0x20000000L + 4L * r;
            s.access(((x >>> 20) & 1023) < 307 ? AccessKind.WRITE : AccessKind.READ, a, 4, ArrayRole.UNKNOWN);
        }
    }

    /** In-process push through three levels. */
    @Benchmark
    @OperationsPerInvocation(ACCESSES)
    public long pushThreeLevels() {
        return push(hierarchy());
    }

    long push(Hierarchy h) {
        if (shape.equals("spmm")) spmm(h);
        else mixed(h);
        h.close();
        return h.snapshot().levels().getFirst().misses().total();
    }

    /** din text parsed and simulated through three levels. */
    @Benchmark
    @OperationsPerInvocation(ACCESSES)
    public long dinTextThreeLevels() {
        Hierarchy h = hierarchy();
        try (DinTextReader r = new DinTextReader(new ByteArrayInputStream(dinText), "bench.din")) {
            r.pushAll(h);
        }
        h.close();
        return h.snapshot().levels().getFirst().misses().total();
    }

    /** din text parsing alone, into a counting sink. */
    @Benchmark
    @OperationsPerInvocation(ACCESSES)
    public long dinTextParseOnly() {
        CountingSink c = new CountingSink();
        try (DinTextReader r = new DinTextReader(new ByteArrayInputStream(dinText), "bench.din")) {
            r.pushAll(c);
        }
        return c.total();
    }
}
