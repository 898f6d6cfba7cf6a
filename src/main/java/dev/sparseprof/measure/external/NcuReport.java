package dev.sparseprof.measure.external;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The kernel launches of one {@code ncu --csv} report, as read by {@link NcuCsvReader}.
 *
 * @param source   the file, for messages
 * @param launches in file order
 */
public record NcuReport(String source, List<NcuLaunch> launches) {
    private static final String[] L1_HIT = {"l1tex__t_sector_hit_rate.pct", "L1/TEX Hit Rate"};
    private static final String[] L2_HIT = {"lts__t_sector_hit_rate.pct", "L2 Hit Rate"};
    private static final String[] OCCUPANCY = {"sm__warps_active.avg.pct_of_peak_sustained_active", "Achieved Occupancy"};
    private static final String[] DURATION = {"gpu__time_duration.sum", "gpu__time_duration.avg", "Duration"};

    public NcuReport {
        launches = List.copyOf(launches);
        if (launches.isEmpty()) throw new ExternalFormatException(source, "no kernel launches with metrics");
    }

    /** One summary per launch, in file order. */
    public List<NcuKernelSummary> summaries() {
        List<NcuKernelSummary> out = new ArrayList<>(launches.size());
        for (NcuLaunch l : launches) out.add(summarize(l));
        return out;
    }

    static NcuKernelSummary summarize(NcuLaunch l) {
        return new NcuKernelSummary(l.id(), l.shortName(), percent(l, L1_HIT), percent(l, L2_HIT), dramBytes(l),
                percent(l, OCCUPANCY), duration(l));
    }

    private static OptionalDouble percent(NcuLaunch l, String[] names) {
        NcuMetric m = first(l, names);
        return m == null ? OptionalDouble.empty() : OptionalDouble.of(m.value());
    }

    private static OptionalDouble duration(NcuLaunch l) {
        NcuMetric m = first(l, DURATION);
        if (m == null) return OptionalDouble.empty();
        double scale = NcuUnits.secondsPer(m.unit());
        return Double.isNaN(scale) ? OptionalDouble.empty() : OptionalDouble.of(m.value() * scale);
    }

    private static OptionalDouble dramBytes(NcuLaunch l) {
        OptionalDouble total = bytes(l.metrics().get("dram__bytes.sum"));
        if (total.isPresent()) return total;
        OptionalDouble read = bytes(l.metrics().get("dram__bytes_read.sum"));
        OptionalDouble write = bytes(l.metrics().get("dram__bytes_write.sum"));
        if (read.isEmpty() && write.isEmpty()) return OptionalDouble.empty();
        return OptionalDouble.of(read.orElse(0) + write.orElse(0));
    }

    private static OptionalDouble bytes(NcuMetric m) {
        if (m == null || !m.isNumeric()) return OptionalDouble.empty();
        double scale = NcuUnits.bytesPer(m.unit());
        return Double.isNaN(scale) ? OptionalDouble.empty() : OptionalDouble.of(m.value() * scale);
    }

    /** The first of {@code names} the launch holds with a number, or null. */
    private static NcuMetric first(NcuLaunch l, String[] names) {
        for (String n : names) {
            NcuMetric m = l.metrics().get(n);
            if (m != null && m.isNumeric()) return m;
        }
        return null;
    }
}
