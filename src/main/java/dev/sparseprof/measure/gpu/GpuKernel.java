package dev.sparseprof.measure.gpu;

import java.util.Locale;

/**
 * The project's own CUDA kernels ({@code src/main/cuda}), compiled to PTX by
 * {@code scripts/gpu-build-ptx.sh} and kept as resources under {@code /ptx/}: the PTX file and
 * entry name of each, and the compute capability it needs.
 */
public enum GpuKernel {
    CSR_ROWSPLIT("csr_spmm", "csr_spmm_rowsplit", 5),
    BSR("bsr_spmm", "bsr_spmm", 5),
    DENSE_TILED("dense_gemm", "dense_gemm_tiled", 5),
    DENSE_MMA_F16("dense_gemm", "dense_gemm_mma_f16", 8),
    SPARSE24_MMA("sp24_gemm", "sp24_gemm_mma", 8);

    private final String ptxFile;
    private final String entry;
    private final int minComputeMajor;

    GpuKernel(String ptxFile, String entry, int minComputeMajor) {
        this.ptxFile = ptxFile;
        this.entry = entry;
        this.minComputeMajor = minComputeMajor;
    }

    /** The class-path resource holding the PTX. */
    public String resource() {
        return "/ptx/" + ptxFile + ".ptx";
    }

    public String entry() {
        return entry;
    }

    public int minComputeMajor() {
        return minComputeMajor;
    }

    /** The name in measurement files and on the command line: {@code csr-rowsplit}, {@code sparse24-mma}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
