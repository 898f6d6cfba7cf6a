package dev.sparseprof.hw;

/**
 * The software stack a GPU GEMM runs under (a spec's {@code runtime:} section or {@code --runtime
 * NAME}): what the framework and the libraries add around the tensor-core kernels, as named,
 * documented parameters ({@link Runtimes} holds the presets and their sources). Nothing here is a
 * hardware fact; the library generation of Hopper's sparse kernels is one of these parameters.
 *
 * @param name                 the preset it came from (plus {@code +overrides} when the spec changed keys)
 * @param denseHostSeconds     host time per dense call (framework dispatch, cuBLAS heuristics); a stream of
 *                             back-to-back calls runs at the slower of this and the device
 * @param sparseHostSeconds    host time per 2:4 call (the same, plus descriptor / plan work the stack repeats per call)
 * @param launchSeconds        device-side fixed cost of each kernel of a call (launch, ramp-up and tail between
 *                             back-to-back kernels of one stream)
 * @param mainloopEfficiency   fraction of the modelled dense main-loop rate the library's kernels sustain (clock under
 *                             the power limit, issue slots the tile model does not see)
 * @param sparseMainloopEfficiency the same for SM80-style sparse (mma.sp) kernels; native SM90 sparse kernels run at
 *                             {@code mainloopEfficiency} (their operands come from shared memory as dense wgmma's do)
 * @param sparseKernels        {@code sm80}: Ampere-style mma.sp kernels (on Hopper: recompiled, at the legacy mma rate);
 *                             {@code sm90}: native Hopper sparse kernels
 * @param legacyMmaFraction    on an SM90 GPU, the fraction of the tensor peak that SM80-style {@code mma.sync} kernels reach
 * @param sparsePadBytes       the sparse path pads N (tokens) to a multiple of this many bytes of one column
 * @param sparseBias           how the sparse path adds the bias: {@code fused} (the kernel's epilogue reads the bias vector),
 *                             {@code kernel} (one more elementwise kernel reads and writes C), {@code matrix} (the framework
 *                             expands the bias into a full m x n C, one kernel writing it, which the GEMM's epilogue then
 *                             reads as its source, beta = 1)
 * @param sparseInputCopy      the framework copies the activations into the layout the sparse kernel takes (x^T contiguous)
 * @param sparseOutputCopy     the framework copies the sparse kernel's transposed output ((W x^T)^T) into place
 * @param splitK               the dense library splits K when M x N gives too few tiles for the SMs
 * @param sparseSplitK         the sparse library does (cuSPARSELt's split-K attributes; PyTorch's CUTLASS path does not)
 * @param sparseTile           {@code menu}: the library's heuristic picks from its tile menu; {@code RxC}: the one CTA tile
 *                             the stack instantiates (R x C of C, 128 B of K per step, 3 stages, 2 x 2 warps);
 *                             {@code RxCxK/S}: the same with K logical 16-bit elements per step and S stages
 * @param swizzle              the CTA order of the dense library's SM80 kernels: CUTLASS 2's
 *                             {@code GemmIdentityThreadblockSwizzle<swizzle>} (1, 2, 4 or 8: CTAs walk down M over a band
 *                             of up to that many N tiles); SM90 kernels follow CUTLASS 3's raster whatever this says
 * @param sparseSwizzle        the same for the sparse library's SM80 kernels
 */
public record RuntimeSpec(String name, double denseHostSeconds, double sparseHostSeconds, double launchSeconds,
                          double mainloopEfficiency, double sparseMainloopEfficiency, String sparseKernels,
                          double legacyMmaFraction, long sparsePadBytes, String sparseBias, boolean sparseInputCopy, boolean sparseOutputCopy,
                          boolean splitK, boolean sparseSplitK, String sparseTile, int swizzle, int sparseSwizzle) {
    public RuntimeSpec {
        if (name == null || name.isBlank()) throw new SpecException("runtime: a runtime needs a name");
        check(name, "denseHost", denseHostSeconds);
        check(name, "sparseHost", sparseHostSeconds);
        check(name, "launch", launchSeconds);
        fraction(name, "mainloopEfficiency", mainloopEfficiency);
        fraction(name, "sparseMainloopEfficiency", sparseMainloopEfficiency);
        fraction(name, "legacyMmaFraction", legacyMmaFraction);
        if (!sparseKernels.equals("sm80") && !sparseKernels.equals("sm90")) {
            throw new SpecException("runtime " + name + ": sparseKernels must be sm80 or sm90, got '" + sparseKernels + "'");
        }
        if (!sparseTile.equals("menu") && !sparseTile.matches("[1-9][0-9]{0,3}x[1-9][0-9]{0,3}(x[1-9][0-9]{0,3}/[2-9])?")) {
            throw new SpecException("runtime " + name + ": sparseTile must be menu, RxC (128x128) or RxCxK/S (64x128x64/6), got '" + sparseTile + "'");
        }
        if (!sparseBias.equals("fused") && !sparseBias.equals("kernel") && !sparseBias.equals("matrix")) {
            throw new SpecException("runtime " + name + ": sparseBias must be fused, kernel or matrix, got '" + sparseBias + "'");
        }
        swizzleWidth(name, "swizzle", swizzle);
        swizzleWidth(name, "sparseSwizzle", sparseSwizzle);
        if (sparsePadBytes <= 0 || sparsePadBytes > 4096) throw new SpecException("runtime " + name + ": sparsePad must be 1 B to 4 KiB");
    }

    /** True when the sparse kernels on a GPU of compute capability 9 are Ampere ones recompiled. */
    public boolean legacySparseKernels() {
        return sparseKernels.equals("sm80");
    }

    private static void check(String name, String key, double v) {
        if (!(v >= 0) || Double.isInfinite(v)) throw new SpecException("runtime " + name + ": " + key + " must not be negative, got " + v);
    }

    private static void swizzleWidth(String name, String key, int v) {
        if (v != 1 && v != 2 && v != 4 && v != 8) throw new SpecException("runtime " + name + ": " + key + " must be 1, 2, 4 or 8 (CUTLASS's GemmIdentityThreadblockSwizzle<N>), got " + v);
    }

    private static void fraction(String name, String key, double v) {
        if (!(v > 0 && v <= 1)) throw new SpecException("runtime " + name + ": " + key + " must be a fraction in (0, 1], got " + v);
    }
}
