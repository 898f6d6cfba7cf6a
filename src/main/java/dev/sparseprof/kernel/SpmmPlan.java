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
 * {@code threads} with a {@link Partition}, and owns each thread's {@link Workspace} and aligned
 * copy of B, so that repeated {@link #run} calls allocate nothing but the per-call operand records.
 */
public final class SpmmPlan<A> {
    private final SpmmKernel<A> kernel;
    private final A a;
    private final int n;
    private final WorkRange[] ranges;
    private final Workspace[] workspaces;
    private final Partition partition;
    /** The 64-byte aligned copy of B for kernels that read one, else NULL (the calling thread's, thread 0's). */
    private final MemorySegment bAligned;
    /** Each thread's own aligned copy of B (element 0 is {@link #bAligned}), else null. */
    private final MemorySegment[] bCopies;

    private SpmmPlan(SpmmKernel<A> kernel, A a, int n, Partition partition, int threads) {
        this.kernel = kernel;
        this.a = a;
        this.n = n;
        this.partition = partition;
        this.ranges = partition.split(kernel.rowWork(a), threads);
        this.workspaces = new Workspace[threads];
        int scratch = kernel.scratchFloats(a, n);
        long aligned = kernel.alignedScratchFloats(a, n);
        int indexScratch = kernel.indexScratchInts(a);
        for (int t = 0; t < threads; t++) workspaces[t] = new Workspace(scratch, aligned, indexScratch, n);
        if (kernel.readsAlignedB(n)) {
            bCopies = new MemorySegment[threads];
            for (int t = 0; t < threads; t++) bCopies[t] = Arena.ofAuto().allocate((long) kernel.cols(a) * n * Float.BYTES, Workspace.ALIGNMENT_BYTES);
            bAligned = bCopies[0];
        } else {
            bCopies = null;
            bAligned = MemorySegment.NULL;
        }
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
        if (bCopies == null) {
            Operands<A> op = new Operands<>(a, b, MemorySegment.NULL, n, c);
            pool.runAll(t -> kernel.runRange(op, ranges[t], workspaces[t]), threadNanos);
            fixUp(op, null);
            return;
        }
        // Each thread copies the whole of B to its own aligned place and reads only that: a copy
        // shared between threads had each core fetch the lines the others wrote, every call
        // (coherence misses: 2 threads ran a 20 us CSR layer no faster than 1).
        pool.runAll(t -> {
            MemorySegment.copy(b, 0, bCopies[t], ValueLayout.JAVA_FLOAT, 0, b.length);
            kernel.runRange(new Operands<>(a, b, bCopies[t], n, c), ranges[t], workspaces[t]);
        }, threadNanos);
        fixUp(new Operands<>(a, b, bAligned, n, c), null);
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
