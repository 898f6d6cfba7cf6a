package dev.sparseprof.measure.external;

import dev.sparseprof.util.SparseprofException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The metrics of one kernel launch (or, in a {@code --print-summary per-kernel} report, of one kernel's
 * average over its invocations).
 *
 * @param id         ncu's launch ID, -1 in summary reports that have none
 * @param kernelName the demangled kernel name as ncu printed it
 * @param blockSize  {@code (256, 1, 1)}, empty in layouts without the column
 * @param gridSize   {@code (96, 1, 1)}, empty in layouts without the column
 * @param metrics    by metric name, in file order
 */
public record NcuLaunch(long id, String kernelName, String blockSize, String gridSize, Map<String, NcuMetric> metrics) {
    public NcuLaunch {
        if (kernelName == null || kernelName.isBlank()) throw new SparseprofException("ncu launch " + id + ": empty kernel name");
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        if (blockSize == null) blockSize = "";
        if (gridSize == null) gridSize = "";
    }

    /** The short name: {@code void ns::csr_spmm<float>(int, ...)} is {@code csr_spmm}. */
    public String shortName() {
        String n = kernelName;
        int paren = n.indexOf('(');
        if (paren > 0) n = n.substring(0, paren);
        int angle = n.indexOf('<');
        if (angle > 0) n = n.substring(0, angle);
        int space = n.lastIndexOf(' ');
        if (space >= 0) n = n.substring(space + 1);
        int scope = n.lastIndexOf("::");
        if (scope >= 0) n = n.substring(scope + 2);
        return n;
    }
}
