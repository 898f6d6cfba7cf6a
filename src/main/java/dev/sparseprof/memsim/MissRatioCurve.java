package dev.sparseprof.memsim;

import java.util.ArrayList;
import java.util.List;

/**
 * LRU miss ratios of a fully associative cache of every size, for one line size, from a stack
 * distance histogram: a reference at distance {@code d} hits in every cache of more than {@code d}
 * lines; cold references miss everywhere.
 */
public record MissRatioCurve(int lineBytes, long references, long coldMisses, long[] histogram) {
    public MissRatioCurve {
        histogram = histogram.clone();
    }

    @Override
    public long[] histogram() {
        return histogram.clone();
    }

    /** Misses of a fully associative LRU cache of {@code lines} lines. */
    public long misses(long lines) {
        long m = coldMisses;
        for (long d = Math.max(0, lines); d < histogram.length; d++) m += histogram[(int) d];
        return m;
    }

    public double missRatio(long cacheBytes) {
        return references == 0 ? 0.0 : (double) misses(cacheBytes / lineBytes) / references;
    }

    /** The distinct lines touched: beyond this size every miss is cold. */
    public long distinctLines() {
        return coldMisses;
    }

    /** One point of the curve. */
    public record Point(long cacheBytes, long misses, double missRatio) {}

    /** Power-of-two sizes from one line up to the size that holds every line touched. */
    public List<Point> powerOfTwoPoints() {
        List<Point> out = new ArrayList<>();
        long lines = 1;
        while (true) {
            long m = misses(lines);
            out.add(new Point(lines * lineBytes, m, references == 0 ? 0.0 : (double) m / references));
            if (lines >= Math.max(1, distinctLines())) break;
            lines *= 2;
        }
        return out;
    }
}
