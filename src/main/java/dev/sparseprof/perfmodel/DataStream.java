package dev.sparseprof.perfmodel;

/**
 * One array's traffic in a kernel, as the analytical memory model sees it: {@code requestBytes}
 * reach the innermost cache (already rounded to sectors or lines), {@code footprintBytes} distinct
 * bytes exist, of which {@code workingSetBytes} must stay cached for its reuse to hit (a tiled
 * GEMM reuses one K-slice of its strips at a time; a gather needs its whole footprint). A
 * {@code replicated} array is touched by every core/SM (the dense operand B), a partitioned one
 * splits across them (A's rows, C's rows). {@code index} marks indices and metadata, which the gap
 * breakdown takes out first. {@code bypassL1}: traffic that skips the L1 (atomics resolved in the
 * L2, {@code cp.async.cg} tile loads into shared memory). {@code rowGather}: B's rows fetched one
 * at a time at random places (csr, coo, N:M: one row per stored index), which a CPU core moves at
 * its probed gather rate ({@code hw.GatherRates}); a BSR block's rows come as one run of
 * consecutive rows and a tiled GEMM's panels as streams, at the streaming rate. {@code sweepBytes}
 * and {@code touchShare} (a CPU kernel's row gathers, rows in ascending column order): one A row's
 * B bytes and the share of the columns a row holds, from which the analytical traffic takes an LRU
 * cache's hit share ({@code memsim.RowGatherReuse}); 0 and 0: the uniform share. {@code store}: the
 * kernel writes the array (C), so what the innermost cache passes on of it is written through, not
 * a line it fetches and fills ({@link Roofline#gpuL1FillBytes}).
 */
public record DataStream(String role, double requestBytes, double footprintBytes, double workingSetBytes,
                         boolean replicated, boolean index, boolean bypassL1, boolean rowGather, double sweepBytes, double touchShare,
                         boolean store) {
    /** Not a row gather, read. */
    public DataStream(String role, double requestBytes, double footprintBytes, double workingSetBytes, boolean replicated, boolean index, boolean bypassL1) {
        this(role, requestBytes, footprintBytes, workingSetBytes, replicated, index, bypassL1, false, 0, 0, false);
    }

    public DataStream {
        if (!(requestBytes >= 0) || !(footprintBytes >= 0) || !(workingSetBytes >= 0) || !(sweepBytes >= 0) || !(touchShare >= 0 && touchShare <= 1)) {
            throw new IllegalArgumentException(role + ": negative bytes or a touch share outside [0, 1]");
        }
    }

    /** Read or written once, partitioned over the cores/SMs. */
    public static DataStream streamed(String role, double bytes, boolean index) {
        return new DataStream(role, bytes, bytes, bytes, false, index, false);
    }

    /**
     * Gathered by every core/SM at random places: its whole footprint is its working set;
     * {@code rowGather}: one B row per index (see the class comment).
     */
    public static DataStream gathered(String role, double requestBytes, double footprintBytes, boolean rowGather) {
        return new DataStream(role, requestBytes, footprintBytes, footprintBytes, true, false, false, rowGather, 0, 0, false);
    }

    /** {@link #gathered} row by row in ascending column order: one row's {@code sweepBytes}, a row's {@code touchShare} of the columns. */
    public static DataStream rowSwept(String role, double requestBytes, double footprintBytes, double sweepBytes, double touchShare) {
        return new DataStream(role, requestBytes, footprintBytes, footprintBytes, true, false, false, true, sweepBytes, touchShare, false);
    }

    /** Written once, partitioned over the cores/SMs (a kernel's output). */
    public static DataStream written(String role, double bytes) {
        return new DataStream(role, bytes, bytes, bytes, false, false, false, false, 0, 0, true);
    }

    /** How often each distinct byte is requested. */
    public double reuse() {
        return footprintBytes > 0 ? requestBytes / footprintBytes : 0;
    }
}
