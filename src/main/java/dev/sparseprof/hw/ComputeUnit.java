package dev.sparseprof.hw;

/** The execution units a peak belongs to; {@link #key()} is the spec's key for its peak table. */
public enum ComputeUnit {
    /** CUDA cores on a GPU, SIMD FMA units on a CPU. */
    VECTOR("vector"),
    /** Dense tensor-core math (mma). */
    TENSOR("tensor"),
    /** 2:4 structured-sparse tensor-core math (mma.sp): the logical (dense-equivalent) rate. */
    SPARSE_TENSOR("sparseTensor");

    private final String key;

    ComputeUnit(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }
}
