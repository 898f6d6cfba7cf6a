package dev.sparseprof.measure.gpu;

import dev.sparseprof.util.SparseprofException;
import java.util.Objects;

/**
 * One GPU measurement to take: a weight of {@code rows x cols} (synthetic, normal, pruned as
 * {@code kernel} needs: magnitude to {@code sparsity} for CSR, 4x4 blocks to {@code sparsity} for BSR,
 * 2:4 for the sparse tensor-core kernel, none for the dense ones) times a {@code cols x batch}
 * activation.
 *
 * @param layer    the MiniLM layer or GEMM shape the case stands for
 * @param group    the validation group ({@code minilm-gpu}, {@code gemm-gpu})
 */
public record GpuCase(String group, String layer, int rows, int cols, int batch, GpuKernel kernel, double sparsity) {
    public GpuCase {
        Objects.requireNonNull(group);
        Objects.requireNonNull(layer);
        Objects.requireNonNull(kernel);
        if (rows <= 0 || cols <= 0 || batch <= 0) throw new SparseprofException("gpu case " + layer + ": shape must be positive");
        if (!(sparsity >= 0 && sparsity < 1)) throw new SparseprofException("gpu case " + layer + ": sparsity must lie in [0, 1)");
    }

    /** {@code ffn.up/csr-rowsplit/s0.9/n128}. */
    public String name() {
        return layer + "/" + kernel.key() + (sparsity > 0 ? "/s" + sparsity : "") + "/n" + batch;
    }
}
