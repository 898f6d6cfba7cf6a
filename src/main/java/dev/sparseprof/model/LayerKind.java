package dev.sparseprof.model;

/** What a weight does in the network, which decides how it becomes a GEMM (or does not). */
public enum LayerKind {
    /** MatMul / Gemm / Linear: {@code Y[out, N] = W[out, in] · X[in, N]}. */
    LINEAR,
    /** Convolution lowered by im2col: {@code [out, in·kh·kw]} times {@code [in·kh·kw, pixels·batch]}. */
    CONV,
    /** An embedding table read by index: a gather, not a GEMM; listed but never multiplied. */
    EMBEDDING_GATHER
}
