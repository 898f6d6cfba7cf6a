package dev.sparseprof.kernel;

import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.SparseprofException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/** The registry of kernels by format name, listable from the CLI. */
public final class Kernels {
    private static final Map<String, Supplier<SpmmKernel<?>>> BY_NAME = new LinkedHashMap<>();

    static {
        BY_NAME.put("dense", DenseGemm::new);
        BY_NAME.put("csr", CsrSpmm::new);
        BY_NAME.put("csr-gather", CsrGatherSpmm::new);
        BY_NAME.put("csr-fp16", () -> new CsrHalfSpmm(HalfRowSlices.Encoding.FP16));
        BY_NAME.put("csr-bf16", () -> new CsrHalfSpmm(HalfRowSlices.Encoding.BF16));
        BY_NAME.put("ell", () -> new CsrSpmm(SliceKernel.SliceFormat.ELL));
        BY_NAME.put("2:4", () -> new NmSpmm(NmPattern.TWO_FOUR));
        BY_NAME.put("bitmask", BitmaskSpmm::new);
        BY_NAME.put(SellSpmm.NAME, () -> new SellSpmm(SellSpmm.SIGMA));
        BY_NAME.put("coo", CooSpmm::new);
        BY_NAME.put("coo-scatter", () -> new CooSpmm(false));
        BY_NAME.put("csc", CscSpmm::new);
        BY_NAME.put("ejml-csc", EjmlCscSpmm::new);
        BY_NAME.put("bsr2x2", () -> new BsrSpmm(new BlockShape(2, 2)));
        BY_NAME.put("bsr4x4", () -> new BsrSpmm(BlockShape.B4X4));
        BY_NAME.put("bsr8x8", () -> new BsrSpmm(BlockShape.B8X8));
    }

    private Kernels() {}

    public static Set<String> names() { return BY_NAME.keySet(); }

    public static SpmmKernel<?> byName(String name) {
        Supplier<SpmmKernel<?>> k = BY_NAME.get(name);
        if (k == null) throw new SparseprofException("unknown format '" + name + "' (known: " + String.join(", ", BY_NAME.keySet()) + ")");
        return k.get();
    }
}
