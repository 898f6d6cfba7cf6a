package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.perfmodel.cpu.LoopNests;
import dev.sparseprof.util.DType;

/**
 * Dense GEMM, the baseline: tensor cores when the spec has a tensor peak for the dtype (fp32 stays
 * on CUDA cores, as cuBLAS does without TF32), SIMD FMA on a CPU; zeros are multiplied too, and on
 * a CPU the zero columns that pad B to whole panels as well.
 */
final class DenseFormat implements FormatModel {
    @Override
    public String name() {
        return "dense";
    }

    @Override
    public double storedBytes(Workload w) {
        return w.denseWeightBytes();
    }

    @Override
    public String unsupported(Workload w, HardwareSpec spec) {
        ComputeUnit unit = Machine.denseUnit(spec, w.dtype());
        DType compute = unit == ComputeUnit.TENSOR ? w.dtype() : Machine.vectorDType(w.dtype());
        if (spec.isGpu() && compute == DType.F64) return Machine.GPU_FP64;
        return spec.peaks().has(unit, compute) ? null : "no " + unit.key() + " peak for " + compute.label();
    }

    @Override
    public KernelPlan plan(Workload w, HardwareSpec spec) {
        ComputeUnit unit = Machine.denseUnit(spec, w.dtype());
        DType compute = unit == ComputeUnit.TENSOR ? w.dtype() : Machine.vectorDType(w.dtype());
        String kernel = unit == ComputeUnit.TENSOR ? "dense GEMM, tensor cores" : (spec.isGpu() ? "dense GEMM, CUDA cores" : "dense GEMM, SIMD");
        double flops = spec.isGpu() ? w.denseFlops() : w.denseFlops() * cpuPaddedColumns(w, spec, compute) / w.denseColumns();
        return TiledGemm.plan(name(), kernel, w, spec, unit, compute, flops, storedBytes(w), 0);
    }

    /**
     * The B columns the CPU kernel multiplies ({@code kernel.DenseGemm}, {@code kernel.DenseTiling}):
     * B is packed into zero-padded panels, whole panels of the register tile's vectors (4 on 32 vector
     * registers, AVX-512; 2 on 16, AVX2), then two-vector panels while more than a vector is left,
     * then a one-vector panel ({@link LoopNests#densePaddedColumns}); the last panel's zeros are
     * multiplied too: N = 40 at 16 fp32 lanes runs 48 columns.
     */
    static long cpuPaddedColumns(Workload w, HardwareSpec spec, DType compute) {
        long n = w.denseColumns();
        if (!(spec instanceof CpuSpec cpu)) return n;
        int lanes = (int) Math.max(1, cpu.simdBits() / (8L * compute.sizeBytes()));
        return LoopNests.densePaddedColumns(n, lanes);
    }
}
