package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.HardwareSpec;

/**
 * The performance view of one storage format: how its SpMM kernel maps onto a machine. Its name is
 * a {@code sparse.Formats} name (except {@code dense}), whose byte accounting gives the arrays' sizes. Contract: {@link #unsupported} returns null when the format can run the
 * workload on the spec, else a short reason (not 2:4 compliant, no peak for the dtype); only then
 * may {@link #plan} be called. Implementations are stateless and listed in {@link FormatModels}.
 */
public interface FormatModel {
    String name();

    /** Bytes of the stored A operand (values, indices, metadata, padding), as {@code sparse} accounts them. */
    default double storedBytes(Workload w) {
        return w.storage(name()).totalBytes();
    }

    String unsupported(Workload w, HardwareSpec spec);

    KernelPlan plan(Workload w, HardwareSpec spec);
}
