package dev.sparseprof.perfmodel.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.hw.Runtimes;
import dev.sparseprof.perfmodel.FormatModels;
import dev.sparseprof.perfmodel.LayerEstimate;
import dev.sparseprof.perfmodel.PerfModel;
import dev.sparseprof.perfmodel.SimulatedTraffic;
import dev.sparseprof.perfmodel.TrafficModel;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.util.DType;
import org.junit.jupiter.api.Test;

/** The library heuristic of {@link GpuGemm} on shapes whose answer can be checked by hand. */
class GpuGemmTest {
    static final GpuSpec A100 = (GpuSpec) HardwareSpecs.load("a100-80gb");
    static final GpuSpec H100 = (GpuSpec) HardwareSpecs.load("h100-sxm");

    static GemmPlan dense(GpuSpec g, long m, long n, long k) {
        return GpuGemm.plan(g, m, n, k, DType.F16, ComputeUnit.TENSOR, 2, 0);
    }

    static GemmPlan sparse(GpuSpec g, long m, long n, long k) {
        return GpuGemm.plan(g, m, n, k, DType.F16, ComputeUnit.SPARSE_TENSOR, 1.125, 0.125);
    }

    @Test
    void wavesAreCtasOverSmsRoundedUp() {
        // 3072 x 3072: any menu tile gives >= 72 CTAs of 256x128 or more of smaller ones; the busiest SM
        // runs ceil(CTAs / 108) of them, never split-K (M x N fills the SMs).
        GemmPlan p = dense(A100, 3072, 3072, 10240);
        assertEquals(1, p.splitK());
        assertEquals((p.ctas() + 107) / 108, p.smWaves());
        long tiles = ((3072 + p.tile().rows() - 1) / p.tile().rows()) * ((3072 + p.tile().cols() - 1) / p.tile().cols());
        assertEquals(tiles, p.ctas());
    }

    @Test
    void fewTilesAreSplitAlongK() {
        // 768 x 768 has 36 tiles of 128x128 (9 of 256x256-class) for 108 SMs: the heuristic splits K
        // (3 x 36 = 108 CTAs of 128x128 fill the GPU once); serial split-K: one kernel, partials in the L2.
        GemmPlan p = dense(A100, 768, 768, 3072);
        assertTrue(p.splitK() > 1, p.schedule());
        assertTrue(p.ctas() >= 72 && p.ctas() <= 2 * 108, p.schedule());
        assertEquals(1, p.kernels(), "serial split-K reduces in the GEMM kernel");
        assertTrue(p.l2Bytes() > 768.0 * 768 * 4 * p.splitK(), "the fp32 partials go through the L2");
        // Nothing to split when N is large.
        assertEquals(1, dense(A100, 768, 196608, 3072).splitK());
    }

    @Test
    void theMenuIsChosenByTimeSoBigTilesWinBigGemms() {
        // A 16384^3 GEMM is math-bound; a 64x64 tile would be L2/shared-memory bound (8 KB per K step
        // for 128 clocks of math), so the heuristic takes a tile of 128 x 128 or larger.
        GemmPlan p = dense(A100, 16384, 16384, 16384);
        assertTrue(p.tile().rows() * p.tile().cols() >= 128 * 128, p.schedule());
        double peakSeconds = 2.0 * 16384 * 16384 * 16384 / 312e12;
        assertTrue(p.seconds() > peakSeconds && p.seconds() < peakSeconds / 0.7, p.schedule() + " " + p.seconds());
    }

    @Test
    void decodeIsBoundByTheWeightBytesAtHbmSpeed() {
        // 5632 x 2048 fp16 = 23 MB of weights at N = 128 on h100-sxm (3.35 TB/s): ~6.9 us of HBM;
        // B (0.5 MB) and C (1.4 MB) add theirs. The kernel is that DRAM time, the call a launch more.
        GemmPlan p = dense(H100, 5632, 128, 2048);
        double hbm = (5632.0 * 2048 * 2 + 2048.0 * 128 * 2 + 5632.0 * 128 * 2) / 3.35e12;
        assertEquals(hbm, p.kernelSeconds(), hbm * 0.01, p.schedule());
        assertTrue(p.smSeconds() < p.kernelSeconds(), "the SMs wait for HBM: " + p.schedule());
        assertTrue(p.seconds() < 12e-6, "~7 us of weights plus one launch, not 23.6 us: " + p.seconds());
    }

    @Test
    void hopperKernelsAreStreamKWithoutWaveQuantisation() {
        // 3072 x 3072 in 128x256 tiles is 288 CTAs: 2.18 waves of 132 SMs. Stream-K deals the K steps
        // evenly, so the time tracks the work (288 / 132 waves), not 3 whole waves.
        GemmPlan p = dense(H100, 3072, 3072, 10240);
        assertEquals(1, p.splitK());
        double math = 2.0 * 3072 * 3072 * 10240 / 989.4e12;
        assertTrue(p.smSeconds() < math / 0.77 * 1.15, p.schedule() + " " + p.smSeconds());
    }

    @Test
    void theSparsePathPadsTokensAndPyTorchsCutlassHasOneTile() {
        GpuSpec cutlass = A100.withRuntime(Runtimes.byName("torch-cutlass"));
        GemmPlan one = sparse(cutlass, 4096, 1, 4096);
        assertEquals(32, one.paddedColumns(), "fp16 pads N to 32 (64 B)");
        assertEquals(2, one.kernels(), "the padded copy of B, then the GEMM");
        assertEquals("128x128x64/3", one.tileLabel());
        assertEquals(1, one.splitK(), "PyTorch's CUTLASS 2:4 kernel does not split K");
        GemmPlan aligned = sparse(cutlass, 4096, 64, 4096);
        assertEquals(64, aligned.paddedColumns());
        assertEquals(1, aligned.kernels());
    }

    @Test
    void hostTimeSetsTheFloorOfABackToBackCall() {
        GpuSpec perCall = A100.withRuntime(Runtimes.byName("torch-cusparselt-percall"));
        GemmPlan p = sparse(perCall, 4096, 1, 4096);
        assertEquals(perCall.runtime().sparseHostSeconds(), p.seconds(), 1e-12, "a tiny GEMM waits for its plan, made on every call");
        assertTrue(p.deviceSeconds() < p.hostSeconds());
    }

    @Test
    void sparseNeverBeatsHalfTheDenseTime() {
        long[][] shapes = {{768, 3072}, {3072, 10240}, {4096, 4096}, {11008, 4096}, {4096, 11008}, {128, 128}};
        long[] ns = {1, 8, 64, 128, 512, 2048, 16384};
        for (String spec : HardwareSpecs.presetNames()) {
            if (!(HardwareSpecs.load(spec) instanceof GpuSpec base)) continue;
            for (String rt : Runtimes.names()) {
                GpuSpec g = base.withRuntime(Runtimes.byName(rt));
                for (long[] s : shapes) {
                    for (long n : ns) {
                        double d = dense(g, s[0], n, s[1]).seconds();
                        double sp = sparse(g, s[0], n, s[1]).seconds();
                        assertTrue(d / sp <= 2.0, spec + " " + rt + " " + s[0] + "x" + s[1] + " n=" + n + ": " + d / sp);
                    }
                }
            }
        }
    }

    @Test
    void peaksPerDtypeComeFromTheSpec() {
        // fp8 on H100 has twice the fp16 tensor peak (1979 vs 989 TFLOPS) and half the bytes: a large GEMM nearly halves.
        GemmPlan half = dense(H100, 8192, 8192, 8192);
        GemmPlan fp8 = GpuGemm.plan(H100, 8192, 8192, 8192, DType.F8_E4M3, ComputeUnit.TENSOR, 1, 0);
        assertTrue(fp8.seconds() < 0.6 * half.seconds() && fp8.seconds() > 0.45 * half.seconds(), fp8.seconds() + " vs " + half.seconds());
        // int8 on A100 (624 TOPS) likewise against fp16 (312 TFLOPS); the same tiles hold twice the K.
        GemmPlan i8 = GpuGemm.plan(A100, 8192, 8192, 8192, DType.I8, ComputeUnit.TENSOR, 1, 0);
        assertTrue(i8.seconds() < 0.6 * dense(A100, 8192, 8192, 8192).seconds(), i8.schedule());
        assertTrue(i8.tileLabel().contains("x64/") || i8.tileLabel().contains("x128/"), "K doubles for 8-bit: " + i8.tileLabel());
    }

    @Test
    void theDenseBaselineIsTheTileScheduleWhateverTheTrafficModel() {
        // Through the whole model: the h100-sxm decode GEMM is DRAM-bound at ~7.5 us plus one launch,
        // with the simulated traffic model asked for (the GEMM keeps its tile-schedule traffic).
        Workload w = Workload.dense("decode", 5632, 2048, 128, DType.F16);
        for (TrafficModel t : new TrafficModel[] {
            TrafficModel.ANALYTICAL, new SimulatedTraffic(40_000)}) {
            LayerEstimate e = new PerfModel(H100, t)
                    .estimate(w, FormatModels.byName("dense"));
            assertEquals("DRAM", e.predicted().bottleneck(), e.predicted().plan().balance().schedule());
            assertTrue(e.predictedSeconds() > 7e-6 && e.predictedSeconds() < 12e-6, "" + e.predictedSeconds());
            assertTrue(!e.predicted().traffic().simulated(), e.predicted().traffic().source());
        }
    }

    @Test
    void aStackTileWithItsStagesAndABiasMatrixAsTheEpilogueSource() {
        // The early PR #90119 CUTLASS linear: one 64x128x64 tile of 6 stages (~21 KB a stage: one CTA per SM),
        // and the bias expanded into a full C that the kernel reads (beta = 1) after one more kernel wrote it.
        GpuSpec early = (GpuSpec) HardwareSpecs.parse("early.yaml",
                "version: 1\npreset: a100-80gb\nruntime: {preset: torch-cutlass, sparseTile: 64x128x64/6, sparseBias: matrix}\n");
        GpuSpec fused = (GpuSpec) HardwareSpecs.parse("fused.yaml",
                "version: 1\npreset: a100-80gb\nruntime: {preset: torch-cutlass, sparseTile: 64x128x64/6}\n");
        GemmPlan p = sparse(early, 3072, 12288, 768);
        assertEquals("64x128x64/6", p.tileLabel());
        assertEquals(1, p.ctasPerSm(), p.schedule());
        assertEquals(48L * 96, p.ctas());
        GemmPlan f = sparse(fused, 3072, 12288, 768);
        assertEquals(f.kernels() + 1, p.kernels(), "the expansion is one more kernel");
        double c = 3072.0 * 12288 * 2;
        assertEquals(f.dramBytesC() + c, p.dramBytesC(), 1, "the kernel reads the full C once and writes D");
        // Each of the epilogue's 4 iterations (32-row warp tiles / 8) waits for its source fragment: the
        // kernel's busiest SM pays more than the fused epilogue for every one of its 43 CTAs.
        assertTrue(p.smSeconds() > f.smSeconds() + 43 * 4 * (200 + 190) / 1.41e9, p.smSeconds() + " vs " + f.smSeconds());
    }

    @Test
    void anOperandThatFitsTheL2BesideItsReuseIsReadFromDramOnce() {
        // The early PR #90119 kernel on the 3072x768 weight at N = 786432: 48 x 6144 tiles of 64x128, one CTA
        // per SM, 2731 rounds. Its A (2.7 MB in 2:4) comes back every pass down M and its B strips only
        // while their band of N tiles lasts; both stay in the 40 MB L2, so DRAM sees A, B and C
        // (the expanded bias read, D written) once each, not 1.66 GB of A and 5.4 GB of B.
        long m = 3072;
        long n = 786432;
        long k = 768;
        double a = m * k * 1.125;
        double b = k * n * 2.0;
        double c = m * n * 2.0;
        for (int swizzle : new int[] {1, 8}) {
            GpuSpec early = (GpuSpec) HardwareSpecs.parse("early.yaml", "version: 1\npreset: a100-80gb\nruntime: {preset: torch-cutlass, "
                    + "sparseTile: 64x128x64/6, sparseBias: matrix, sparsePad: 2B, sparseSwizzle: " + swizzle + "}\n");
            GemmPlan p = sparse(early, m, n, k);
            assertEquals(48L * 6144, p.ctas(), p.schedule());
            assertEquals(a, p.dramBytesA(), a * 1e-9, "Identity" + swizzle + ": A once");
            assertEquals(b, p.dramBytesB(), b * 1e-9, "Identity" + swizzle + ": B once");
            assertEquals(2 * c, p.dramBytesC(), c * 1e-9);
        }
        // The dense GEMM beside it (cuBLAS, 128x128 tiles, Identity8 taken): the same.
        GemmPlan d = dense(A100, m, n, k);
        assertEquals(m * k * 2.0, d.dramBytesA(), 1);
        assertEquals(b, d.dramBytesB(), b * 1e-9, d.schedule());
        // Where A does not fit beside its reuse (4096^2 at N = 2048 on A100: two Identity8 bands of 16 N
        // tiles, rounds of 216 CTAs), rounds read its strips afresh: more than its bytes.
        GemmPlan big = dense(A100, 4096, 2048, 4096);
        assertTrue(big.dramBytesA() > 1.1 * 4096 * 4096 * 2, big.schedule() + " A " + big.dramBytesA());
    }
}
