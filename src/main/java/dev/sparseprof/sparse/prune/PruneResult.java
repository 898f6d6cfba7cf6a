package dev.sparseprof.sparse.prune;

import dev.sparseprof.util.SparseprofException;

/** What pruning did to one layer. */
public record PruneResult(String name, long elements, long nonZerosBefore, long nonZerosAfter) {
    public PruneResult {
        if (elements < 0 || nonZerosBefore < 0 || nonZerosAfter < 0 || nonZerosBefore > elements || nonZerosAfter > nonZerosBefore) {
            throw new SparseprofException("prune result of '" + name + "': inconsistent counts " + nonZerosBefore
                    + " -> " + nonZerosAfter + " of " + elements);
        }
    }

    /** {@code 1 - nonZerosAfter / elements}; 0 for an empty layer. */
    public double sparsityAfter() {
        return elements == 0 ? 0.0 : 1.0 - (double) nonZerosAfter / elements;
    }
}
