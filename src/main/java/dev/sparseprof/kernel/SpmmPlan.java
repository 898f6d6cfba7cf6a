package dev.sparseprof.kernel;

import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.TraceSink;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.SparseprofException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The checked entry point in front of a kernel: checks the shapes once, splits the work among
 * {@code threads} with a {@link Partition}, and owns each thread's {@link Workspace}, so that
 * repeated {@link #run} calls allocate nothing but the per-call operand record.
 */
public final class SpmmPlan<A> {
    private final SpmmKernel<A> kernel;
    private final A a;
    private final int n;
    private final WorkRange[] ranges;
    private final Workspace[] workspaces;
    private final Partition partition;
    /** The 64-byte aligned copy of B for kernels that read one, else NULL. */
    private final MemorySegment bAligned;
    /** Each thread's time for its share of that copy, in the last {@link #run}. */
    private final long[] copyNanos;

    private SpmmPlan(SpmmKernel<A> kernel, A a, int n, Partition partition, int threads) {
        this.kernel = kernel;
        this.a = a;
        this.n = n;
        this.partition = partition;
        this.ranges = partition.split(kernel.rowWork(a), threads);
        this.workspaces = new Workspace[threads];
        this.copyNanos = new long[threads];
        int scratch = kernel.scratchFloats(a, n);
        long aligned = kernel.alignedScratchFloats(a, n);
        int indexScratch = kernel.indexScratchInts(a);
        for (int t = 0; t < threads; t++) workspaces[t] = new Workspace(scratch, aligned, indexScratch, n);
        this.bAligned = kernel.readsAlignedB()
                ? Arena.ofAuto().allocate((long) kernel.cols(a) * n * Float.BYTES, Workspace.ALIGNMENT_BYTES)
                : MemorySegment.NULL;
    }

    /** Checks N, the thread count and that the kernel can take the partition's ranges. */
    public static <A> SpmmPlan<A> of(SpmmKernel<A> kernel, A a, int n, Partition partition, int threads) {
        if (n < 1) throw new SparseprofException("batch: N must be at least 1, got " + n);
        Checks.positive(threads, "threads");
        if (partition.splitsRows() && !kernel.splitsRows()) {
            throw new SparseprofException("partition '" + partition.name() + "' cuts rows, which kernel '" + kernel.name()
                    + "' cannot carry out; use static or nnz");
        }
        if (threads > kernel.maxThreads()) {
            throw new SparseprofException("kernel '" + kernel.name() + "' runs on at most " + kernel.maxThreads() + " thread(s), asked for " + threads);
        }
        return new SpmmPlan<>(kernel, a, n, partition, threads);
    }

    public SpmmKernel<A> kernel() { return kernel; }

    public A matrix() { return a; }

    public int n() { return n; }

    public int threads() { return ranges.length; }

    public Partition partition() { return partition; }

    /** {@code 2 * storedEntries * N}: the multiply-adds the kernel really does. */
    public long flops() { return 2L * kernel.storedEntries(a) * n; }

    /** Computes C = A·B on the pool's threads (the pool must have {@link #threads()} threads). */
    public void run(float[] b, float[] c, WorkerPool pool, long[] threadNanos) {
        checkOperands(b, c);
        if (pool.threads() != ranges.length) {
            throw new IllegalArgumentException("plan for " + ranges.length + " threads run on a pool of " + pool.threads());
        }
        Operands<A> op = new Operands<>(a, b, bAligned, n, c);
        if (bAligned != MemorySegment.NULL) {
            // Each thread copies its share of B's rows to the aligned place; the join is the barrier
            // before any thread reads B (a serial copy bounded the 2-thread speedup of short layers).
            int rowsB = b.length / n;
            pool.runAll(t -> copyB(b, (int) ((long) rowsB * t / ranges.length), (int) ((long) rowsB * (t + 1) / ranges.length)),
                    copyNanos);
        }
        pool.runAll(t -> kernel.runRange(op, ranges[t], workspaces[t]), threadNanos);
        if (bAligned != MemorySegment.NULL) for (int t = 0; t < ranges.length; t++) threadNanos[t] += copyNanos[t];
        fixUp(op, null);
    }

    /** Copies rows {@code [from, to)} of B to the aligned place. */
    private void copyB(float[] b, int from, int to) {
        long offset = (long) from * n;
        MemorySegment.copy(b, (int) offset, bAligned, ValueLayout.JAVA_FLOAT, offset * Float.BYTES, (int) ((long) (to - from) * n));
    }

    /** Computes C = A·B on the calling thread, range after range (same result as the threaded run). */
    public void run(float[] b, float[] c) {
        checkOperands(b, c);
        Operands<A> op = operands(b, c);
        for (int t = 0; t < ranges.length; t++) kernel.runRange(op, ranges[t], workspaces[t]);
        fixUp(op, null);
    }

    /**
     * The traced twin of {@link #run}: thread t's accesses go to {@code sinks[t]} (one sink per
     * thread; a carried row's fix-up goes to the carrying thread's), ranges run one after another.
     */
    public void trace(float[] b, float[] c, ArrayLayout layout, TraceSink[] sinks) {
        checkOperands(b, c);
        if (sinks.length != ranges.length) {
            throw new IllegalArgumentException("trace of " + ranges.length + " threads given " + sinks.length + " sinks");
        }
        Operands<A> op = new Operands<>(a, b, MemorySegment.NULL, n, c);
        long region = (long) n + kernel.scratchFloats(a, n);
        Tracer[] tracers = new Tracer[ranges.length];
        for (int t = 0; t < ranges.length; t++) {
            tracers[t] = new Tracer(layout, sinks[t], t * region, n);
            kernel.traceRange(op, ranges[t], workspaces[t], tracers[t]);
        }
        fixUp(op, tracers);
    }

    /** The call's operands, with B copied to its aligned place when the kernel reads it there. */
    private Operands<A> operands(float[] b, float[] c) {
        if (bAligned != MemorySegment.NULL) MemorySegment.copy(b, 0, bAligned, ValueLayout.JAVA_FLOAT, 0, b.length);
        return new Operands<>(a, b, bAligned, n, c);
    }

    /** Adds each carried partial row into C (merge-path ranges only have carries). */
    private void fixUp(Operands<A> op, Tracer[] tracers) {
        float[] c = op.c();
        for (int t = 0; t < ranges.length; t++) {
            Workspace ws = workspaces[t];
            int row = ws.carryRow();
            if (row < 0) continue;
            float[] carry = ws.carry();
            int base = row * n;
            for (int i = 0; i < n; i++) c[base + i] += carry[i];
            if (tracers != null) {
                tracers[t].readCarry(0, n);
                tracers[t].readFloats(ArrayRole.C_SCATTER, base, n);
                tracers[t].writeFloats(ArrayRole.C_SCATTER, base, n);
            }
        }
    }

    private void checkOperands(float[] b, float[] c) {
        int m = kernel.rows(a);
        int k = kernel.cols(a);
        if (b.length % n != 0 || b.length / n != k) {
            String bRows = b.length % n == 0 ? Integer.toString(b.length / n) : (b.length + "/" + n);
            throw new SparseprofException("shape mismatch: A is " + m + "x" + k + ", B is " + bRows + "x" + n);
        }
        if (c.length != (long) m * n) {
            throw new SparseprofException("shape mismatch: C has " + c.length + " floats, A·B is " + m + "x" + n);
        }
    }
}
