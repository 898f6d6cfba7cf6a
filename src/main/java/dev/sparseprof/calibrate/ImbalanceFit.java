package dev.sparseprof.calibrate;

import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.util.Median;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The imbalance penalty fitted to what the threads themselves measured: for every multi-threaded
 * training run with a measured imbalance, {@code measured - 1 = noise + penalty x (modelled - 1)},
 * a straight line by least squares, where {@code modelled} is the factor of the schedule the perf
 * model plans for the run (its real row lengths) and {@code measured} the run's slowest thread over
 * the mean. The intercept takes what no schedule explains (a thread held up by the machine's other
 * work); the slope is the penalty the time model uses ({@code overheads.imbalancePenalty}).
 *
 * <p>Fitting the penalty inside the time fit instead lets it stand in for any 2-thread effect the
 * model lacks: on the build VM it went to 71 while the threads measured an imbalance of 1.01. Here
 * it answers to the quantity it names. The penalty is determined when at least {@link #MIN_RUNS}
 * runs give its slope a standard error of at most {@link #MAX_STANDARD_ERROR} (the slope of a
 * cloud of nearly equal modelled factors is noise); a negative slope becomes 0.
 *
 * @param runs           the multi-threaded training runs with a measured imbalance
 * @param penalty        the fitted slope (0 at least), NaN when not determined
 * @param standardError  the slope's standard error (NaN with fewer than 3 runs or no spread)
 * @param noise          the intercept: measured imbalance no schedule explains, NaN when not determined
 * @param modelledMin    the smallest modelled factor over the runs
 * @param modelledMax    the largest
 * @param measuredMedian the median measured imbalance over the runs (NaN without runs)
 */
public record ImbalanceFit(int runs, double penalty, double standardError, double noise, double modelledMin, double modelledMax,
                           double measuredMedian) {
    static final int MIN_RUNS = 8;
    static final double MAX_STANDARD_ERROR = 0.5;

    public boolean determined() {
        return !Double.isNaN(penalty);
    }

    /** The fit over {@code cases}' multi-threaded training runs, each planned on {@code p}'s spec for its thread count. */
    static ImbalanceFit of(CpuParameters p, List<CalibrationCase> cases) {
        Map<Integer, CpuSpec> specs = new HashMap<>();
        int n = 0;
        double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
        double min = Double.POSITIVE_INFINITY, max = Double.NEGATIVE_INFINITY;
        double[] measured = new double[cases.size()];
        for (CalibrationCase c : cases) {
            MeasuredRun r = c.run();
            if (!c.training() || r.threads() < 2 || Double.isNaN(r.imbalance())) continue;
            CpuSpec spec = specs.computeIfAbsent(r.threads(), p::spec);
            double x = c.format().plan(c.workload(), spec).balance().factor() - 1;
            double y = r.imbalance() - 1;
            measured[n++] = r.imbalance();
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
            syy += y * y;
            min = Math.min(min, x + 1);
            max = Math.max(max, x + 1);
        }
        double median = n == 0 ? Double.NaN : Median.of(Arrays.copyOf(measured, n));
        double varX = sxx - sx * sx / n;
        double slope = (sxy - sx * sy / n) / varX;
        double residual = (syy - sy * sy / n) - slope * (sxy - sx * sy / n);
        double se = n > 2 && varX > 0 ? Math.sqrt(Math.max(0, residual) / (n - 2) / varX) : Double.NaN;
        if (n < MIN_RUNS || !(se <= MAX_STANDARD_ERROR)) return new ImbalanceFit(n, Double.NaN, se, Double.NaN, min, max, median);
        double penalty = Math.max(0, slope);
        return new ImbalanceFit(n, penalty, se, (sy - penalty * sx) / n, min, max, median);
    }

}
