package dev.sparseprof.calibrate;

import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.perfmodel.Features;
import dev.sparseprof.perfmodel.KernelPlan;
import dev.sparseprof.perfmodel.PerfModel;
import dev.sparseprof.perfmodel.TrafficModel;
import dev.sparseprof.perfmodel.cpu.EcmModel;
import dev.sparseprof.perfmodel.cpu.Footprint;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.commons.math3.exception.ConvergenceException;
import org.apache.commons.math3.exception.TooManyEvaluationsException;
import org.apache.commons.math3.exception.TooManyIterationsException;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer.Optimum;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresProblem;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.linear.SingularValueDecomposition;
import org.apache.commons.math3.util.Pair;

/**
 * Fits the {@link FitParameter}s of a CPU spec to measured runs: Levenberg-Marquardt
 * (commons-math3) on the relative errors {@code (predicted - measured) / measured} of the training
 * half, the forward model being the perf model itself ({@link PerfModel#predict}, all features),
 * so the spec written from the fit predicts exactly what the fit saw. The imbalance penalty is
 * fitted first and apart, to the threads' measured imbalance ({@link ImbalanceFit}). Parameters are fitted as
 * logarithms (they stay positive); the Jacobian is a forward difference in each. A parameter no
 * training run depends on is left as it was and reported as undetermined; an overhead driven
 * below a millionth of its start value is set to 0 (the runs do not support it), and a bandwidth
 * driven above a million times its start keeps its start (probed) value, the others fitted again. The clock is kept
 * (the probe measures it; it only rescales the efficiency and the cycle counts). Faults: fewer training
 * runs than parameters, parameters the runs cannot tell apart (a rank-deficient Jacobian at the
 * optimum), a fit that does not converge, a spec a format cannot run on.
 */
public final class CalibrationFit {
    private static final double STEP = 1e-4;
    private static final int MAX_EVALUATIONS = 2000;
    private static final int MAX_ITERATIONS = 200;

    private CalibrationFit() {}

    public static CalibrationResult fit(CpuSpec start, List<CalibrationCase> cases) {
        return fit(start, cases, Set.of());
    }

    /**
     * As {@link #fit(CpuSpec, List)}, with {@code ownDecodeFormats}' index-decode cycles fitted per
     * format ({@code overheads.perNnzByFormat}) in place of the shared {@code perNnz}.
     */
    public static CalibrationResult fit(CpuSpec start, List<CalibrationCase> cases, Set<String> ownDecodeFormats) {
        Set<String> formats = new TreeSet<>(start.overheads().perNnzCyclesByFormat().keySet());
        formats.addAll(ownDecodeFormats);
        CpuParameters p0 = CpuParameters.of(start, formats);
        List<CalibrationCase> train = new ArrayList<>();
        for (CalibrationCase c : cases) {
            if (c.run().threads() > start.cores()) {
                throw new SparseprofException(c.run().key() + ": measured with " + c.run().threads() + " threads, the spec "
                        + start.source() + " has " + start.cores() + " cores (measurements from another machine?)");
            }
            String why = c.format().unsupported(c.workload(), p0.spec(c.run().threads()));
            if (why != null) throw new SparseprofException(c.run().key() + ": format " + c.format().name() + ": " + why);
            if (c.training()) train.add(c);
        }
        List<FitParameter> free = new ArrayList<>();
        List<FitParameter> fittedApart = new ArrayList<>();
        List<FitParameter> undetermined = new ArrayList<>();
        // The imbalance penalty answers to the threads' own measured imbalance, fitted apart (ImbalanceFit).
        ImbalanceFit imbalance = ImbalanceFit.of(p0, cases);
        CpuParameters pStart = imbalance.determined() ? p0.with(FitParameter.IMBALANCE_PENALTY, imbalance.penalty()) : p0;
        double[] base = predictAll(pStart, train);
        for (FitParameter f : pStart.parameters()) {
            if (f.equals(FitParameter.IMBALANCE_PENALTY)) {
                (imbalance.determined() ? fittedApart : undetermined).add(f);
                continue;
            }
            if (!pStart.isActive(f)) continue;
            // The clock is the probe's measured FMA clock: fitted next to the dense efficiency and the
            // cycle counts it would only rescale them (the runs cannot tell them apart).
            if (f.equals(FitParameter.CLOCK)) continue;
            double[] moved = predictAll(pStart.with(f, pStart.get(f) * Math.exp(0.05)), train);
            boolean matters = false;
            for (int i = 0; i < base.length && !matters; i++) matters = Math.abs(moved[i] - base[i]) > 1e-9 * base[i];
            (matters ? free : undetermined).add(f);
        }
        if (train.size() < free.size()) {
            throw new SparseprofException("calibrate: " + train.size() + " training runs for " + free.size()
                    + " parameters; measure more layers or formats");
        }
        List<FitParameter> unbounded = new ArrayList<>();
        Fit fit = optimize(pStart, free, train);
        // A bandwidth the fit drives past its ceiling (a million times its start, or for a level beyond
        // the L1 faster than the L1 itself) has no time term the runs support (its bytes cost next to
        // nothing in the best fit): the measured (probed) value is kept, and the rest are fitted again
        // without it, rather than writing an unphysical 1e20 B/s.
        for (FitParameter f : List.copyOf(free)) {
            if (f.isBandwidth() && fit.parameters().get(f) > ceiling(f, pStart)) {
                free.remove(f);
                unbounded.add(f);
            }
        }
        if (!unbounded.isEmpty()) fit = optimize(pStart, free, train);
        CpuParameters fitted = fit.parameters();
        List<CasePrediction> predictions = new ArrayList<>(cases.size());
        double[] before = predictAll(p0, cases);
        double[] after = predictAll(fitted, cases);
        for (int i = 0; i < cases.size(); i++) predictions.add(new CasePrediction(cases.get(i), before[i], after[i]));
        List<FitParameter> all = new ArrayList<>(free);
        all.addAll(fittedApart);
        return new CalibrationResult(p0, fitted, all, undetermined, unbounded, predictions, fit.evaluations(), fit.iterations(), imbalance);
    }

    /** How far above its start a fitted bandwidth counts as driven without bound (see {@link #fit}). */
    static final double UNBOUNDED = 1e6;

    /**
     * The most a fitted bandwidth may reach: {@link #UNBOUNDED} times its start, and for a level beyond
     * the L1 (the L2, L3 and DRAM bandwidths, the per-core L2 and L3 rates) the L1's read bandwidth of
     * all cores, or its own start where that is higher: no farther level feeds the cores faster than
     * the L1 they read it through. A {@code calibrate --quick} on the Zen 5 VM (8 Dec 2026) fitted
     * {@code l2PerCore} at 45.7 TB/s, 222 times the probe's, under the first bound alone.
     */
    static double ceiling(FitParameter f, CpuParameters start) {
        double bound = UNBOUNDED * start.get(f);
        double l1 = start.get(FitParameter.L1_BANDWIDTH);
        if (f.equals(FitParameter.L1_BANDWIDTH) || !(l1 > 0)) return bound;
        return Math.min(bound, Math.max(l1, start.get(f)));
    }

    /**
     * Levenberg-Marquardt over the logarithms of {@code free} from {@code pStart}; overheads driven
     * below a millionth of their start become 0; any other parameter must end positive and finite.
     */
    private record Fit(CpuParameters parameters, int evaluations, int iterations) {}

    private static Fit optimize(CpuParameters pStart, List<FitParameter> free, List<CalibrationCase> train) {
        double[] start0 = new double[free.size()];
        for (int j = 0; j < free.size(); j++) start0[j] = Math.log(pStart.get(free.get(j)));
        LeastSquaresProblem problem = new LeastSquaresBuilder()
                .start(start0)
                .model(point -> residualsAndJacobian(pStart, free, train, point))
                .target(new double[train.size()])
                .maxEvaluations(MAX_EVALUATIONS)
                .maxIterations(MAX_ITERATIONS)
                .build();
        Optimum optimum;
        try {
            optimum = new LevenbergMarquardtOptimizer().optimize(problem);
        } catch (TooManyEvaluationsException | TooManyIterationsException | ConvergenceException e) {
            throw new SparseprofException("calibrate: the fit did not converge (" + e.getMessage() + "); no spec written");
        }
        requireDetermined(free, optimum.getJacobian());
        CpuParameters fitted = apply(pStart, free, optimum.getPoint().toArray());
        for (FitParameter f : free) {
            // An overhead the fit drives below a millionth of its start is not supported by the runs: it becomes 0.
            if (f.isOverhead() && fitted.get(f) < 1e-6 * pStart.get(f)) fitted = fitted.with(f, 0);
        }
        for (FitParameter f : free) {
            if (f.isOverhead() && fitted.get(f) == 0) continue;
            double v = fitted.get(f);
            if (!(v > 0) || Double.isInfinite(v)) throw new SparseprofException("calibrate: the fit drove " + f.label() + " to " + v + "; no spec written");
        }
        return new Fit(fitted, optimum.getEvaluations(), optimum.getIterations());
    }

    /** Relative singular value below which the Jacobian's columns count as dependent. */
    private static final double DEPENDENT = 1e-7;

    /**
     * Fails when the training runs cannot tell the free parameters apart at the optimum (more
     * parameters than the data supports): the Jacobian, less the columns of parameters no run
     * depends on there, must have full rank. The parameters of the weakest direction are named.
     */
    static void requireDetermined(List<FitParameter> free, RealMatrix jacobian) {
        List<Integer> live = new ArrayList<>();
        double largest = 0;
        for (int j = 0; j < free.size(); j++) largest = Math.max(largest, jacobian.getColumnVector(j).getNorm());
        for (int j = 0; j < free.size(); j++) if (jacobian.getColumnVector(j).getNorm() > 1e-9 * largest) live.add(j);
        if (live.size() < 2) return;
        RealMatrix j2 = new Array2DRowRealMatrix(jacobian.getRowDimension(), live.size());
        for (int c = 0; c < live.size(); c++) {
            RealVector col = jacobian.getColumnVector(live.get(c));
            j2.setColumnVector(c, col.mapDivide(col.getNorm())); // unit columns: the test is about direction, not scale
        }
        SingularValueDecomposition svd = new SingularValueDecomposition(j2);
        double[] sv = svd.getSingularValues();
        if (sv[sv.length - 1] >= DEPENDENT * sv[0]) return;
        RealVector weakest = svd.getV().getColumnVector(sv.length - 1);
        List<String> names = new ArrayList<>();
        for (int c = 0; c < live.size(); c++) {
            if (Math.abs(weakest.getEntry(c)) > 0.1) names.add(free.get(live.get(c)).label());
        }
        throw new SparseprofException("calibrate: the training runs cannot tell " + String.join(", ", names)
                + " apart (more parameters than the data supports); fit fewer, no spec written");
    }

    private static Pair<RealVector, RealMatrix> residualsAndJacobian(
            CpuParameters p0, List<FitParameter> free, List<CalibrationCase> train, RealVector point) {
        double[] x = point.toArray();
        double[] pred = predictAll(apply(p0, free, x), train);
        double[] r = new double[train.size()];
        for (int i = 0; i < r.length; i++) r[i] = pred[i] / train.get(i).run().medianSeconds() - 1;
        double[][] jac = new double[train.size()][free.size()];
        for (int j = 0; j < free.size(); j++) {
            double[] xs = x.clone();
            xs[j] += STEP;
            double[] moved = predictAll(apply(p0, free, xs), train);
            for (int i = 0; i < r.length; i++) jac[i][j] = (moved[i] - pred[i]) / train.get(i).run().medianSeconds() / STEP;
        }
        return new Pair<>(new ArrayRealVector(r, false), new Array2DRowRealMatrix(jac, false));
    }

    /** How far (in log units, a factor of e^20 ~ 5e8) a trial step may move a parameter from its start. */
    private static final double MAX_LOG_STEP = 20;

    private static CpuParameters apply(CpuParameters p0, List<FitParameter> free, double[] logs) {
        CpuParameters p = p0;
        for (int j = 0; j < free.size(); j++) {
            double start = Math.log(p0.get(free.get(j)));
            double x = Math.max(start - MAX_LOG_STEP, Math.min(start + MAX_LOG_STEP, logs[j]));
            p = p.with(free.get(j), Math.exp(x));
        }
        return p;
    }

    /**
     * Predicted seconds of every case with parameters {@code p} (one spec per thread count), each in
     * the cache state {@code measure} timed it in: a layer's formats at one N, thread count,
     * sparsity and pruning are one round ({@code measure.CpuMeasureRun} takes their repetitions in
     * turn), so between two calls of one format every other format of the round ran once, and the
     * case is predicted with their footprints ({@link EcmModel#footprint}: per core and on all cores)
     * as its interleaved bytes (each format counted once however many files repeat it). Each case is
     * planned once.
     */
    static double[] predictAll(CpuParameters p, List<CalibrationCase> cases) {
        Map<Integer, PerfModel> models = new HashMap<>();
        Map<String, Map<String, Footprint>> rounds = new HashMap<>();
        KernelPlan[] plans = new KernelPlan[cases.size()];
        for (int i = 0; i < plans.length; i++) {
            CalibrationCase c = cases.get(i);
            PerfModel m = models.computeIfAbsent(c.run().threads(), t -> new PerfModel(p.spec(t), TrafficModel.ANALYTICAL));
            CpuSpec spec = (CpuSpec) m.spec(); // made from p.spec(threads) just above
            plans[i] = c.format().plan(c.workload(), spec);
            Footprint footprint = EcmModel.footprint(c.workload(), plans[i], spec);
            rounds.computeIfAbsent(round(c), k -> new HashMap<>()).merge(c.format().name(), footprint, CalibrationFit::larger);
        }
        double[] out = new double[cases.size()];
        for (int i = 0; i < out.length; i++) {
            CalibrationCase c = cases.get(i);
            Footprint others = Footprint.ZERO;
            for (var f : rounds.get(round(c)).entrySet()) if (!f.getKey().equals(c.format().name())) others = others.plus(f.getValue());
            out[i] = models.get(c.run().threads()).predict(c.workload(), plans[i], Features.ALL, others).seconds();
        }
        return out;
    }

    private static Footprint larger(Footprint a, Footprint b) {
        return new Footprint(Math.max(a.perCoreBytes(), b.perCoreBytes()), Math.max(a.allCoresBytes(), b.allCoresBytes()));
    }

    /** The measure round a case was timed in: its layer, N, threads, sparsity and pruning. */
    private static String round(CalibrationCase c) {
        MeasuredRun r = c.run();
        return r.layer() + "|" + r.batch() + "|" + r.threads() + "|" + r.sparsity() + "|" + c.pruning();
    }
}
