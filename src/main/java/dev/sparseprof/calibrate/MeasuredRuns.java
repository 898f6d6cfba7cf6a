package dev.sparseprof.calibrate;

import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.measure.MachineIdentity;
import dev.sparseprof.measure.Measurement;
import dev.sparseprof.measure.MeasurementsFile;
import dev.sparseprof.measure.MeasurementsHeader;
import dev.sparseprof.util.Json;
import dev.sparseprof.util.SparseprofException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The measurements JSON of {@code sparseprof measure} ({@link MeasurementsFile}) as the calibration
 * uses it: the header ({@code model}, {@code machine}, {@code date}, {@code command}, and
 * {@code device} when the GPU runner wrote it) and, per result, what the fit needs. Every fault
 * names the file, the result index and the key.
 *
 * @param device   {@code cpu} unless the file says {@code gpu}
 * @param identity the kind of machine the runs were measured on (from {@code machine} for older files)
 */
public record MeasuredRuns(String source, String model, String machine, String date, String command, String device,
                           List<MeasuredRun> runs, MachineIdentity identity) {
    private static final long MAX_BYTES = 64L << 20;

    public MeasuredRuns {
        runs = List.copyOf(runs);
        if (runs.isEmpty()) throw new SparseprofException(source + ": no results");
        if (identity == null) identity = MachineIdentity.fromDescription(machine);
    }

    public MeasuredRuns(String source, String model, String machine, String date, String command, String device, List<MeasuredRun> runs) {
        this(source, model, machine, date, command, device, runs, null);
    }

    /**
     * Refuses these runs against {@code spec} when the spec names the CPU it was probed on and the
     * runs come from another kind of machine (another CPU model, or another SIMD width): one
     * line naming the file, both machines and what to do.
     */
    public void checkMachine(CpuSpec spec, String specName) {
        if (spec.model().isEmpty()) return;
        if (!identity.sameKind(spec.model(), spec.simdBits())) {
            throw new SparseprofException(source + ": measured on " + identity.label() + ", but " + specName + " was probed on "
                    + spec.model() + ", " + spec.simdBits() + "-bit vectors: measurements from another machine cannot calibrate or"
                    + " validate it (probe that machine with calibrate --probe, or keep its runs in its own measured set)");
        }
    }

    public static MeasuredRuns read(Path file) {
        String text;
        try {
            if (Files.size(file) > MAX_BYTES) throw new SparseprofException(file + ": larger than 64 MiB, not a measurements file");
            text = Files.readString(file);
        } catch (IOException e) {
            throw new SparseprofException(file + ": cannot read (" + e.getMessage() + ")");
        }
        return parse(file.toString(), text);
    }

    /** Reads the file with {@link MeasurementsFile} (its strict keys); the GPU runner's {@code device} key says which device. */
    public static MeasuredRuns parse(String source, String text) {
        MeasurementsFile f = MeasurementsFile.parse(source, text);
        String device = Json.parseObject(text).get("device") instanceof String d ? d : "cpu";
        List<MeasuredRun> runs = new ArrayList<>(f.results().size());
        for (int i = 0; i < f.results().size(); i++) {
            Measurement m = f.results().get(i);
            try {
                runs.add(new MeasuredRun(m.layer(), m.format(), m.batch(), m.threads(), m.rows(), m.cols(), m.nnz(), m.sparsity(),
                        m.medianSeconds(), 100 * (m.timing().q3Seconds() - m.timing().q1Seconds()) / m.medianSeconds(), m.timing().imbalance(),
                        m.stability().speed()));
            } catch (SparseprofException e) {
                throw SparseprofException.in(source + ": results[" + i + "]", e.getMessage());
            }
        }
        MeasurementsHeader h = f.header();
        return new MeasuredRuns(source, h.model(), h.machine(), h.date(), h.command(), device, runs, h.identity());
    }
}
