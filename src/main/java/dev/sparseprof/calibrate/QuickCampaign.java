package dev.sparseprof.calibrate;

import dev.sparseprof.kernel.Partitions;
import dev.sparseprof.measure.CpuMeasureRun;
import dev.sparseprof.measure.Measurement;
import dev.sparseprof.measure.MeasurementsFile;
import dev.sparseprof.measure.MeasurementsHeader;
import dev.sparseprof.measure.NoiseCriteria;
import dev.sparseprof.measure.Pruning;
import dev.sparseprof.measure.TimingConfig;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.model.Model;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.Progress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The campaign of {@code calibrate --quick}: a small set of runs, chosen so that every rate the
 * fit moves is seen from two sides, measured by the tool itself in about two minutes on a 2-vCPU
 * VM, then fitted. Layers: the first two of each GEMM shape of the model (one falls in the
 * training half, one in the held-out half, {@link CalibrationCases#split}); pruning: magnitude
 * 0.7 and 0.9 (csr, coo, bsr4x4 against dense) and 2:4 (2:4 and csr); N = 32 and 128 (one and
 * several column blocks); 1 thread and all. Each configuration is one {@code measure} run, with
 * its warm-up discipline and noise re-runs; the result is one {@link MeasuredRuns} per
 * configuration, as the fit reads files.
 */
public final class QuickCampaign {
    /** One configuration of the campaign: a {@code measure} call. */
    public record Config(String pruning, int batch, int threads, List<String> formats) {
        String command() {
            String p = pruning.equals("2:4") ? "--nm 2:4" : "--sparsity " + pruning;
            return "sparseprof measure --formats " + String.join(",", formats) + " " + p + " --batch " + batch + " --threads " + threads
                    + " (calibrate --quick)";
        }
    }

    /** Repetitions per case: fewer than measure's default (15), the noise re-runs make up for it. */
    static final int REPETITIONS = 11;
    /** The campaign's most noisy cases (after re-runs) and median spread the fit accepts. */
    static final double MAX_NOISY_SHARE = 0.25;

    private QuickCampaign() {}

    /** The campaign's configurations for a machine of {@code cores} cores. */
    public static List<Config> configs(int cores) {
        List<Config> out = new ArrayList<>();
        int[] threads = cores > 1 ? new int[] {1, cores} : new int[] {1};
        for (int t : threads) {
            for (int n : new int[] {32, 128}) {
                for (String s : new String[] {"0.7", "0.9"}) out.add(new Config(s, n, t, List.of("csr", "coo", "bsr4x4")));
                out.add(new Config("2:4", n, t, List.of("2:4", "csr")));
            }
        }
        return out;
    }

    /**
     * The first two layers of each GEMM shape, in model order; an embedding table is read by index
     * (a gather, {@link LayerKind#EMBEDDING_GATHER}), never multiplied, so it is no GEMM to time
     * (MiniLM's position embeddings were measured as a 512x384 "layer" and came out 2449 % noisy).
     */
    public static List<GemmLayer> layers(Model model) {
        Map<String, Integer> seen = new HashMap<>();
        List<GemmLayer> out = new ArrayList<>();
        for (GemmLayer l : model.layers()) {
            if (l.kind() == LayerKind.EMBEDDING_GATHER) continue;
            if (seen.merge(l.rows() + "x" + l.cols(), 1, Integer::sum) <= 2) out.add(l);
        }
        return out;
    }

    /** Runs the campaign; {@code progress} counts configurations. */
    public static List<MeasurementsFile> run(Model model, int cores, NoiseCriteria noise, Progress progress) {
        List<GemmLayer> layers = layers(model);
        List<Config> configs = configs(cores);
        List<MeasurementsFile> out = new ArrayList<>(configs.size());
        TimingConfig timing = TimingConfig.defaults().withRepetitions(REPETITIONS);
        progress.update(0, configs.size());
        for (Config c : configs) {
            List<CpuMeasureRun.Layer> selected = new ArrayList<>(layers.size());
            for (GemmLayer l : layers) {
                selected.add(new CpuMeasureRun.Layer(l.name(), c.pruning().equals("2:4") ? Pruning.nm(l.name(), l.matrix(), NmPattern.TWO_FOUR)
                        : Pruning.magnitude(l.name(), l.matrix(), Double.parseDouble(c.pruning()))));
            }
            List<Measurement> results = CpuMeasureRun.measure(selected, c.formats(),
                    new CpuMeasureRun.Settings(c.batch(), c.threads(), Partitions.byName("nnz"), timing, noise), Progress.NONE);
            out.add(new MeasurementsFile(MeasurementsHeader.now(model.source(), c.command()), results));
            progress.update(out.size(), configs.size());
        }
        return out;
    }

    /**
     * Why the campaign's runs are too noisy to fit (empty when they are not): more than a quarter
     * of the cases still noisy after their re-runs, or the median case's IQR over its median above
     * the noise criteria's bound. The noisy cases are counted by criterion ({@code Stability#criterion});
     * cases noisy only because the FMA canary read low ({@link NoiseCriteria#timedSlow}) do not
     * count: {@link #fitCases} leaves them out of the fit.
     */
    public static String tooNoisy(List<MeasurementsFile> files, NoiseCriteria noise) {
        List<Double> spreads = new ArrayList<>();
        Map<String, Integer> byCriterion = new TreeMap<>();
        int noisy = 0;
        int slow = 0;
        String worst = "";
        double worstSpread = -1;
        for (MeasurementsFile f : files) {
            for (Measurement m : f.results()) {
                double s = m.timing().spread();
                spreads.add(s);
                if (NoiseCriteria.timedSlow(m.stability())) {
                    slow++;
                } else if (m.stability().noisy()) {
                    noisy++;
                    byCriterion.merge(m.stability().criterion().label(), 1, Integer::sum);
                }
                if (s > worstSpread) {
                    worstSpread = s;
                    worst = m.layer() + " " + m.format() + " N=" + m.batch() + " " + m.threads() + "T";
                }
            }
        }
        if (spreads.isEmpty()) return "no runs";
        spreads.sort(null);
        double median = spreads.get(spreads.size() / 2);
        int total = spreads.size();
        if (noisy > MAX_NOISY_SHARE * total || median > noise.maxSpread()) {
            return String.format(Locale.ROOT, "%d of %d cases noisy after %d re-runs (at most %.0f%% allowed%s), median IQR/median %.1f%%"
                    + " (at most %.0f%%), worst %s at %.0f%%%s", noisy, total, noise.retries(), 100 * MAX_NOISY_SHARE, breakdown(byCriterion),
                    100 * median, 100 * noise.maxSpread(), worst, 100 * worstSpread, slowNote(slow));
        }
        return "";
    }

    /** The cases the fit takes: every file without its cases timed while the FMA canary read low. */
    public static List<MeasurementsFile> fitCases(List<MeasurementsFile> files) {
        List<MeasurementsFile> out = new ArrayList<>(files.size());
        for (MeasurementsFile f : files) {
            List<Measurement> kept = new ArrayList<>();
            for (Measurement m : f.results()) if (!NoiseCriteria.timedSlow(m.stability())) kept.add(m);
            out.add(new MeasurementsFile(f.header(), kept));
        }
        return out;
    }

    /** {@code ; K more timed while the FMA canary read low (left out of the fit)}, empty for none. */
    private static String slowNote(int slow) {
        return slow == 0 ? "" : String.format(Locale.ROOT, "; %d more timed while the FMA canary read low (left out of the fit)", slow);
    }

    /** How many of the campaign's cases were timed while the FMA canary read low. */
    public static int timedSlow(List<MeasurementsFile> files) {
        int slow = 0;
        for (MeasurementsFile f : files) for (Measurement m : f.results()) if (NoiseCriteria.timedSlow(m.stability())) slow++;
        return slow;
    }

    /** {@code ; by criterion: IQR 40, max/min 12}: the largest first; empty without noisy cases. */
    private static String breakdown(Map<String, Integer> byCriterion) {
        if (byCriterion.isEmpty()) return "";
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(byCriterion.entrySet());
        entries.sort(Map.Entry.<String, Integer>comparingByValue().reversed());
        StringBuilder b = new StringBuilder("; by criterion: ");
        for (int i = 0; i < entries.size(); i++) b.append(i == 0 ? "" : ", ").append(entries.get(i).getKey()).append(' ').append(entries.get(i).getValue());
        return b.toString();
    }
}
