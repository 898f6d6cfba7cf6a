package dev.sparseprof.perfmodel;

import dev.sparseprof.perfmodel.gpu.RowSplitSpmm;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.SparseprofException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The registry of format models by name, in the order the CLI lists them. */
public final class FormatModels {
    private static final Map<String, Supplier<FormatModel>> REGISTRY = new LinkedHashMap<>();
    /** The block shapes of BSR on tensor cores beside 16x16 (Triton's bsr_dense_mm blocks, the Quansight post). */
    static final BlockShape BSR32 = new BlockShape(32, 32);
    static final BlockShape BSR64 = new BlockShape(64, 64);

    /** Every BSR shape a model is registered for: the statistics scan counts their blocks. */
    public static final List<BlockShape> BSR_SHAPES = List.of(BlockShape.B4X4, BlockShape.B16X16, BSR32, BSR64);


    static {
        REGISTRY.put("dense", DenseFormat::new);
        REGISTRY.put("csr", () -> new CsrFormat("csr", RowSplitSpmm.Variant.SPUTNIK));
        REGISTRY.put("csr-rowsplit", () -> new CsrFormat("csr-rowsplit", RowSplitSpmm.Variant.ROW_SPLIT));
        REGISTRY.put("coo", CooFormat::new);
        REGISTRY.put("bsr4x4", () -> new BsrFormat(BlockShape.B4X4));
        REGISTRY.put("bsr16x16", () -> new BsrFormat(BlockShape.B16X16));
        REGISTRY.put("bsr32x32", () -> new BsrFormat(BSR32));
        REGISTRY.put("bsr64x64", () -> new BsrFormat(BSR64));
        REGISTRY.put("2:4", () -> new TwoFourFormat(NmPattern.TWO_FOUR));
        REGISTRY.put("1:2", () -> new TwoFourFormat(NmPattern.ONE_TWO));
        // the CPU kernel's layout at 512 and at 256 bits (C = the lanes of fp32): a spec runs the one of its width
        REGISTRY.put("sell-16-256", () -> new SellFormat(16));
        REGISTRY.put("sell-8-256", () -> new SellFormat(8));
    }

    private FormatModels() {}

    public static List<String> names() {
        return List.copyOf(REGISTRY.keySet());
    }

    public static FormatModel byName(String name) {
        Supplier<FormatModel> s = REGISTRY.get(name);
        if (s == null) throw new SparseprofException("unknown format '" + name + "' (known: " + String.join(", ", REGISTRY.keySet()) + ")");
        return s.get();
    }
}
