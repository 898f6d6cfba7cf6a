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
        return m != null && m.containsKey(dtype);
    }

    /** The peak, or a {@link SpecException} naming the spec, the unit, the dtype and what the spec has. */
    public double flopsPerSecond(ComputeUnit unit, DType dtype) {
        EnumMap<DType, Double> m = peaks.get(unit);
        if (m == null || !m.containsKey(dtype)) {
            throw new SpecException(source + ": no peak for " + dtype.label() + " on " + unit.key()
                    + " (the spec has: " + (m == null || m.isEmpty() ? "none" : String.join(", ", labels(m))) + ")");
        }
        return m.get(dtype);
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
