package dev.sparseprof.hw;

import dev.sparseprof.config.ConfigMap;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.Units;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The named software stacks ({@code runtime:} presets) and the reader of a spec's {@code runtime:}
 * section ({@code preset: NAME} plus overrides, strict keys, units on every time and size).
 *
 * <p>Where each value comes from (U = a documented default not checked against a measurement;
 * F = fitted, see docs/perfmodel.md "Published cases": on the fit half of the published figures only):
 * <ul>
 * <li>{@code sparsePad: 64B}: pytorch/pytorch#111339 (jcaip): "we pad to the nearest multiple of 64/32/16
 *     depending on dtype. For float16, it's 32" (32 fp16 columns = 64 B; 64 int8 = 64 B; 16 tf32 = 64 B).</li>
 * <li>per-call plan work: pytorch/pytorch PR #179642 "~50-200us per call for plan creation"; PR #177866: the
 *     descriptors' "setup and deconstruction" per call, fixed by caching them ({@code torch-cusparselt}); the
 *     per-call preset takes the middle of the stated range, 125 us.</li>
 * <li>bias: PyTorch PR #90119's CUTLASS linear fuses the bias ("CUTLASS-based linear with fused bias"); cuSPARSELt
 *     takes a bias pointer in its matmul descriptor (cuSPARSELt docs, CUSPARSELT_MATMUL_BIAS_POINTER).</li>
 * <li>the output: CUTLASS/cuSPARSELt take only the first operand sparse, so PyTorch computes (W x^T + b)^T
 *     (pytorch aten/src/ATen/native/sparse/cuda/cutlass README); the result is returned as a transposed view,
 *     not copied, in a per-GEMM benchmark ({@code sparseOutputCopy: false}); the 2024 training blog fuses the
 *     transpose into the next op with torch.compile.</li>
 * <li>{@code torch-cutlass}'s one tile: PyTorch's CUTLASS 2:4 operator instantiates a single tile per dtype,
 *     "selected according to the CUTLASS profiler results" (pytorch/pytorch
 *     aten/src/ATen/native/sparse/cuda/SparseSemiStructuredOps.cu, sparse_semi_structured_mad_op: fp16/bf16
 *     ThreadblockShape 128x128x64, WarpShape 64x64x64; int8 128x128x128), and runs only on compute capability 8.x.</li>
 * <li>split-K: cuBLAS and the CUTLASS profiler choose split-K for few tiles; cuSPARSELt exposes split-K
 *     attributes (cuSPARSELt docs, CUSPARSELT_MATMUL_SPLIT_K); PyTorch's CUTLASS 2:4 kernel is a plain
 *     GemmSparse without it.</li>
 * <li>Hopper sparse kernels: NVIDIA/cutlass#1335 (2024) "the sparse kernels you're running are most certainly
 *     Ampere ones recompiled for hopper" ({@code sparseKernels: sm80}); native SM90 sparse GEMMs arrived with
 *     CUTLASS 3.x example 62 and later cuSPARSELt ({@code sm90}).</li>
 * <li>{@code legacyMmaFraction: 0.62}: UNSOURCED. Meant as the fraction of Hopper's tensor peak that Ampere-style
 *     {@code mma.sync} / {@code mma.sp} kernels reach (wgmma is needed for the full rate). No figure for it was
 *     retrieved (the Hopper microbenchmark papers, Luo et al. arXiv 2402.13499 and 2501.12084, were searched; their
 *     mma-versus-wgmma throughput figures were not found in what could be read), and 0.62 equals to two digits the
 *     sparse-over-dense time ratio of NVIDIA/cutlass#1335 (0.616), the one published case it applies to, so that
 *     case is no independent check of it. That case does not depend on it: its chosen SM80 sparse kernel is bound
 *     by its shared-memory traffic or L2 copy, not its math, the same 60.0 us for any value from 0.45 to 1.0 (docs/perfmodel.md, "The
 *     legacy mma fraction", which says what a GPU run would measure).</li>
 * <li>host times (U): an eager PyTorch op costs ~10 us of host time (dispatcher, Python); a library call from
 *     C++ or an engine enqueues behind the device (0, as for the hand-written SpMM kernels, which have no
 *     host term: so the default runtime compares every format on its device time); the CUTLASS profiler
 *     times device launches only (0).</li>
 * <li>{@code launch: 3us} (U): the device-side gap of one more kernel in a stream of back-to-back kernels.</li>
 * <li>{@code mainloopEfficiency}, {@code sparseMainloopEfficiency} (F): the fraction of the tile model's main-loop
 *     rate the library sustains (clock under the power limit: NVIDIA/cutlass#408 locks clocks at 1410 MHz and
 *     400 W to reach its figures; issue slots the tile model does not see).</li>
 * </ul>
 */
public final class Runtimes {
    /** The runtime of a spec without a {@code runtime:} section. */
    public static final String DEFAULT = "cusparselt";

    /**
     * F: fitted on the fit half of validation/published (docs/perfmodel.md, "Published cases"): a grid
     * of 0.50-0.99 in steps of 0.01 minimising the MAPE of the fit half's A100 times: the dense
     * (cuBLAS) main loop on the 5 dense times, then each sparse library's on its own 2:4 times
     * (cuSPARSELt 3, CUTLASS 2). One value per library, whatever the preset or GPU.
     */
    static final double MAINLOOP = 0.77;
    static final double CUSPARSELT_MAINLOOP = 0.70;
    static final double CUTLASS_MAINLOOP = 0.66;
    /** Unsourced (neither V, D, U nor F; see the class comment): no published case depends on it at or above 0.45. */
    static final double LEGACY_MMA = 0.62;
    static final double LAUNCH = 3e-6;
    static final double TORCH_HOST = 10e-6;
    static final double LIBRARY_HOST = 0;
    static final double PLAN_PER_CALL = 125e-6;
    /**
     * The SM80 CTA swizzle ({@code GemmIdentityThreadblockSwizzle<N>}) of the CUTLASS profiler's kernels:
     * the {@code cutlass_library} generator's default (D: python/cutlass_library/generator.py,
     * {@code DefaultSwizzlingFunctor()} and {@code CreateSparseGemmOperator}'s default, both
     * {@code SwizzlingFunctor.Identity8}).
     */
    static final int PROFILER_SWIZZLE = 8;
    /**
     * PyTorch's CUTLASS 2:4 kernels: {@code GemmIdentityThreadblockSwizzle<>}, the template's default N = 1
     * (D: aten/src/ATen/native/sparse/cuda/SparseSemiStructuredOps.cu, {@code SwizzleThreadBlock}; the early
     * PR #90119 kernel's {@code CUTLASSKernels.cu} the same), so CTAs walk down M one N tile at a time.
     */
    static final int TORCH_CUTLASS_SWIZZLE = 1;
    /**
     * cuBLAS and cuSPARSELt (closed: their CTA order is not documented) taken as the CUTLASS profiler's
     * Identity8 (U).
     */
    static final int CLOSED_SWIZZLE = PROFILER_SWIZZLE;

    private static final Map<String, RuntimeSpec> PRESETS = new LinkedHashMap<>();

    static {
        put(new RuntimeSpec("torch-cusparselt", TORCH_HOST, TORCH_HOST, LAUNCH, MAINLOOP, CUSPARSELT_MAINLOOP, "sm90", LEGACY_MMA, 64,
                "fused", false, false, true, true, "menu", CLOSED_SWIZZLE, CLOSED_SWIZZLE));
        put(new RuntimeSpec("torch-cusparselt-percall", TORCH_HOST, TORCH_HOST + PLAN_PER_CALL, LAUNCH, MAINLOOP, CUSPARSELT_MAINLOOP, "sm90",
                LEGACY_MMA, 64, "fused", false, false, true, true, "menu", CLOSED_SWIZZLE, CLOSED_SWIZZLE));
        put(new RuntimeSpec("torch-cutlass", TORCH_HOST, TORCH_HOST, LAUNCH, MAINLOOP, CUTLASS_MAINLOOP, "sm90", LEGACY_MMA, 64,
                "fused", false, false, true, false, "128x128", CLOSED_SWIZZLE, TORCH_CUTLASS_SWIZZLE));
        put(new RuntimeSpec("cusparselt", LIBRARY_HOST, LIBRARY_HOST, LAUNCH, MAINLOOP, CUSPARSELT_MAINLOOP, "sm90", LEGACY_MMA, 64,
                "fused", false, false, true, true, "menu", CLOSED_SWIZZLE, CLOSED_SWIZZLE));
        put(new RuntimeSpec("cutlass", 0, 0, LAUNCH, MAINLOOP, CUTLASS_MAINLOOP, "sm90", LEGACY_MMA, 64, "fused", false, false, true, true, "menu",
                PROFILER_SWIZZLE, PROFILER_SWIZZLE));
        put(new RuntimeSpec("tensorrt", LIBRARY_HOST, LIBRARY_HOST, LAUNCH, MAINLOOP, CUSPARSELT_MAINLOOP, "sm90", LEGACY_MMA, 64,
                "fused", false, false, true, true, "menu", CLOSED_SWIZZLE, CLOSED_SWIZZLE));
    }

    private static final String[] KEYS = {"preset", "denseHost", "sparseHost", "launch", "mainloopEfficiency", "sparseMainloopEfficiency",
        "sparseKernels", "legacyMmaFraction", "sparsePad", "sparseBias", "sparseInputCopy", "sparseOutputCopy", "splitK", "sparseSplitK", "sparseTile",
        "swizzle", "sparseSwizzle"};

    private Runtimes() {}

    private static void put(RuntimeSpec r) {
        PRESETS.put(r.name(), r);
    }

    public static List<String> names() {
        return List.copyOf(PRESETS.keySet());
    }

    /** A preset by name, or a {@link SpecException} listing the presets. */
    public static RuntimeSpec byName(String name) {
        RuntimeSpec r = PRESETS.get(name);
        if (r == null) throw new SpecException("runtime '" + name + "' is not a preset (presets: " + String.join(", ", PRESETS.keySet()) + ")");
        return r;
    }

    /** A {@code runtime:} mapping: its preset (default {@link #DEFAULT}) with the mapping's other keys over it. */
    public static RuntimeSpec read(ConfigMap m) {
        m.allow(KEYS);
        RuntimeSpec base;
        try {
            base = byName(m.string("preset", DEFAULT));
        } catch (SpecException e) {
            throw m.error("preset", e.getMessage());
        }
        boolean changed = m.keys().size() > (m.has("preset") ? 1 : 0);
        try {
            return new RuntimeSpec(base.name() + (changed ? "+overrides" : ""),
                    m.has("denseHost") ? time(m, "denseHost") : base.denseHostSeconds(),
                    m.has("sparseHost") ? time(m, "sparseHost") : base.sparseHostSeconds(),
                    m.has("launch") ? time(m, "launch") : base.launchSeconds(),
                    m.has("mainloopEfficiency") ? m.number("mainloopEfficiency") : base.mainloopEfficiency(),
                    m.has("sparseMainloopEfficiency") ? m.number("sparseMainloopEfficiency") : base.sparseMainloopEfficiency(),
                    m.string("sparseKernels", base.sparseKernels()),
                    m.has("legacyMmaFraction") ? m.number("legacyMmaFraction") : base.legacyMmaFraction(),
                    m.has("sparsePad") ? m.parse("sparsePad", Units::parseBytes, SparseprofException.class) : base.sparsePadBytes(),
                    m.string("sparseBias", base.sparseBias()), m.bool("sparseInputCopy", base.sparseInputCopy()),
                    m.bool("sparseOutputCopy", base.sparseOutputCopy()),
                    m.bool("splitK", base.splitK()), m.bool("sparseSplitK", base.sparseSplitK()), m.string("sparseTile", base.sparseTile()),
                    m.positiveInt("swizzle", base.swizzle()), m.positiveInt("sparseSwizzle", base.sparseSwizzle()));
        } catch (SpecException e) {
            throw m.error(e.getMessage().replaceFirst("^runtime [^:]*: ", ""));
        }
    }

    /** {@code spec} under the preset {@code name} ({@code --runtime NAME}); {@code spec} itself when {@code name} is null. */
    public static HardwareSpec apply(HardwareSpec spec, String name) {
        if (name == null) return spec;
        if (!(spec instanceof GpuSpec g)) throw new SpecException("--runtime " + name + ": " + spec.source() + " is a CPU spec; a runtime is the software stack of GPU GEMMs");
        try {
            return g.withRuntime(byName(name));
        } catch (SpecException e) {
            throw new SpecException("--runtime: " + e.getMessage(), e);
        }
    }

    private static double time(ConfigMap m, String key) {
        double s = m.parse(key, Units::parseSeconds, SparseprofException.class);
        if (!(s >= 0)) throw m.error(key, "must not be negative");
        return s;
    }
}
