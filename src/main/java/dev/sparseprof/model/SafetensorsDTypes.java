package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The safetensors dtype spellings, shared by the reader and the writer. */
final class SafetensorsDTypes {
    private static final Map<String, DType> BY_NAME = Map.ofEntries(
            Map.entry("F64", DType.F64), Map.entry("F32", DType.F32), Map.entry("F16", DType.F16),
            Map.entry("BF16", DType.BF16), Map.entry("F8_E4M3", DType.F8_E4M3), Map.entry("F8_E5M2", DType.F8_E5M2),
            Map.entry("I64", DType.I64), Map.entry("I32", DType.I32), Map.entry("U32", DType.U32), Map.entry("I16", DType.I16),
            Map.entry("U16", DType.U16), Map.entry("I8", DType.I8), Map.entry("U8", DType.U8), Map.entry("BOOL", DType.BOOL));

    /**
     * Dtypes the safetensors format names that sparseprof holds only as opaque bytes, with their bits
     * per element: {@code U64}, {@code C64}, and the microscaling
     * types ({@code F8_E8M0} scales, {@code F4} and {@code F6} codes, packed).
     */
    private static final Map<String, Integer> OPAQUE_BITS = Map.of("U64", 64, "C64", 64, "F8_E8M0", 8, "F4", 4,
            "F6_E2M3", 6, "F6_E3M2", 6);

    private SafetensorsDTypes() {}

    /** Bits per element of a dtype held as opaque bytes ({@link #OPAQUE_BITS}), or 0. */
    static int opaqueBits(String name) {
        return OPAQUE_BITS.getOrDefault(name, 0);
    }

    /** The DType of a header's {@code dtype}, or null when sparseprof does not hold it. */
    static DType parse(String name) {
        return BY_NAME.get(name);
    }

    static String name(DType d) {
        return switch (d) {
            case TF32 -> "F32";
            default -> d.name();
        };
    }

    static String known() {
        Set<String> all = new TreeSet<>(BY_NAME.keySet());
        all.addAll(OPAQUE_BITS.keySet());
        return String.join(" ", all);
    }
}
