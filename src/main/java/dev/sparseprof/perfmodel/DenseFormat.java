package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.util.DType;

/**
 * Dense GEMM, the baseline: tensor cores when the spec has a tensor peak for the dtype (fp32 stays
 * on CUDA cores, as cuBLAS does without TF32), SIMD FMA on a CPU; zeros are multiplied too.
 */
final class DenseFormat implements FormatModel {
    @Override
    public String name() {
        return "dense";
    }

    @Override
    public double storedBytes(Workload w) {
        return w.storage("csr").denseBytes();
    }

    @Override
    public String unsupported(Workload w, HardwareSpec spec) {
        ComputeUnit unit = Machine.denseUnit(spec, w.dtype());
        DType compute = unit == ComputeUnit.TENSOR ? w.dtype() : Machine.vectorDType(w.dtype());
        return spec.peaks().has(unit, compute) ? null : "no " + unit.key() + " peak for " + compute.label();
    }

    @Override
    public KernelPlan plan(Workload w, HardwareSpec spec) {
        ComputeUnit unit = Machine.denseUnit(spec, w.dtype());
        DType compute = unit == ComputeUnit.TENSOR ? w.dtype() : Machine.vectorDType(w.dtype());
        String kernel = unit == ComputeUnit.TENSOR ? "dense GEMM, tensor cores" : (spec.isGpu() ? "dense GEMM, CUDA cores" : "dense GEMM, SIMD");
        return TiledGemm.plan(name(), kernel, w, spec, unit, compute, w.denseFlops(), storedBytes(w), 0);
    }
}
