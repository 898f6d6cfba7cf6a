package dev.sparseprof.hw;

import dev.sparseprof.util.DType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Peak operations per second per execution unit and dtype, for the whole device. A sparse peak
 * counts the dense-equivalent FLOPs (NVIDIA's convention: 624 "sparse" TFLOPS = 2 x 312).
 */
public final class ComputePeaks {
    private final String source;
    private final EnumMap<ComputeUnit, EnumMap<DType, Double>> peaks;

    public ComputePeaks(String source, Map<ComputeUnit, Map<DType, Double>> peaks) {
        this.source = source;
        this.peaks = new EnumMap<>(ComputeUnit.class);
        for (Map.Entry<ComputeUnit, Map<DType, Double>> e : peaks.entrySet()) {
            EnumMap<DType, Double> m = new EnumMap<>(DType.class);
            for (Map.Entry<DType, Double> p : e.getValue().entrySet()) {
                if (!(p.getValue() > 0)) {
                    throw new SpecException(source + ": peaks." + e.getKey().key() + "." + p.getKey().label() + ": must be positive");
                }
                m.put(p.getKey(), p.getValue());
            }
            this.peaks.put(e.getKey(), m);
        }
    }

    public boolean has(ComputeUnit unit, DType dtype) {
        EnumMap<DType, Double> m = peaks.get(unit);
        return m != null && m.containsKey(rated(unit, dtype, m));
    }

    /**
     * The dtype whose peak {@code dtype} runs at: uint8 on tensor cores (dense or 2:4) at the int8 peak
     * when the spec lists no uint8 peak of its own. Integer MMA takes either signedness at one rate
     * (PTX ISA, mma / mma.sp: {@code .atype/.btype = .u8 | .s8}, one IMMA instruction; datasheets give
     * one "INT8" figure), so a stored uint8 weight (TF.js quantised models) is priced as int8.
     */
    private static DType rated(ComputeUnit unit, DType dtype, EnumMap<DType, Double> m) {
        boolean tensor = unit == ComputeUnit.TENSOR || unit == ComputeUnit.SPARSE_TENSOR;
        return tensor && dtype == DType.U8 && !m.containsKey(DType.U8) ? DType.I8 : dtype;
    }

    /** The peak, or a {@link SpecException} naming the spec, the unit, the dtype and what the spec has. */
    public double flopsPerSecond(ComputeUnit unit, DType dtype) {
        EnumMap<DType, Double> m = peaks.get(unit);
        if (m == null || !m.containsKey(rated(unit, dtype, m))) {
            throw new SpecException(source + ": no peak for " + dtype.label() + " on " + unit.key()
                    + " (the spec has: " + (m == null || m.isEmpty() ? "none" : String.join(", ", labels(m))) + ")");
        }
        return m.get(rated(unit, dtype, m));
    }

    public List<DType> dtypes(ComputeUnit unit) {
        EnumMap<DType, Double> m = peaks.get(unit);
        return m == null ? List.of() : List.copyOf(m.keySet());
    }

    private static List<String> labels(EnumMap<DType, Double> m) {
        List<String> out = new ArrayList<>();
        for (DType d : m.keySet()) out.add(d.label());
        return out;
    }
}
