package dev.sparseprof.calibrate;

import dev.sparseprof.config.ConfigException;
import dev.sparseprof.config.ConfigLoader;
import dev.sparseprof.config.ConfigMap;
import dev.sparseprof.config.ConfigSource;
import dev.sparseprof.util.SparseprofException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One set of measured runs under {@code validation/measured/}, listed in its {@code sets.yaml}:
 * the measurements files (each carries its machine, date and command), the spec they were measured
 * against before calibration (the probe overlay) and the calibrated spec fitted on the set's
 * training half, when there is one. Paths are relative to the sets file.
 *
 * <pre>
 * version: 1
 * sets:
 *   - name: minilm-cpu
 *     machine: intel-r-xeon-r-processor-512bit   # the folder of that kind of machine
 *     model: default
 *     uncalibrated: intel-r-xeon-r-processor-512bit/probe-this-vm.yaml
 *     calibrated: intel-r-xeon-r-processor-512bit/minilm-cpu.calibrated.yaml
 *     measurements:
 *       - file: intel-r-xeon-r-processor-512bit/minilm-t1-s0.9-n32.json
 *   - name: h200-gpu          # GPU runs (validate --gpu-measure): predicted with spec, nothing fitted
 *     device: gpu
 *     spec: h200
 *     measurements:
 *       - file: ../gpu/out/gpu-measurements.json
 * </pre>
 *
 * A set kept as a record of an older build or probe whose figures no longer describe the model
 * carries {@code stale: "why"}: validate still reports it, labelled {@code (stale)}.
 *
 * @param model        {@code null} for the bundled default model, else a model path
 * @param device       {@code cpu} or {@code gpu}
 * @param uncalibrated the spec before calibration (a file for CPU sets; for GPU sets the {@code spec:} file or preset)
 * @param machine      the kind of machine the set was measured on (its folder; empty when the set does not say)
 * @param stale        why the set no longer describes the model (empty for a current set)
 */
public record MeasuredSet(String name, String device, String model, List<Path> measurements, String uncalibrated, Path calibrated,
                          String machine, String stale) {
    public MeasuredSet {
        measurements = List.copyOf(measurements);
        if (measurements.isEmpty()) throw new SparseprofException("measured set " + name + ": no measurements files");
    }

    /**
     * The set's name in reports: {@code <machine>/<name>}, or the name alone when the set names no
     * machine; {@code (stale)} after it for a set kept as a record.
     */
    public String label() {
        return (machine.isEmpty() ? name : machine + "/" + name) + (stale.isEmpty() ? "" : " (stale)");
    }

    public static List<MeasuredSet> read(Path setsFile) {
        try {
            ConfigMap root = ConfigLoader.load(ConfigSource.of(setsFile), (p, from) -> {
                throw new ConfigException(from.shortName() + ": preset: not allowed in a sets file");
            }, 1);
            root.allow("version", "sets");
            Path dir = setsFile.toAbsolutePath().getParent();
            List<MeasuredSet> out = new ArrayList<>();
            for (ConfigMap s : root.list("sets")) {
                s.allow("name", "machine", "device", "spec", "model", "uncalibrated", "calibrated", "measurements", "stale");
                List<Path> files = new ArrayList<>();
                for (ConfigMap m : s.list("measurements")) files.add(existing(dir.resolve(m.allow("file").string("file")), m, "file"));
                String model = s.string("model", "default");
                String device = s.string("device", "cpu");
                if (!device.equals("cpu") && !device.equals("gpu")) throw s.error("device", "must be cpu or gpu, got '" + device + "'");
                String spec = device.equals("gpu")
                        ? (Files.isRegularFile(dir.resolve(s.string("spec"))) ? dir.resolve(s.string("spec")).toString() : s.string("spec"))
                        : existing(dir.resolve(s.string("uncalibrated")), s, "uncalibrated").toString();
                out.add(new MeasuredSet(s.string("name"), device, model.equals("default") ? null : dir.resolve(model).toString(), files,
                        spec, s.has("calibrated") && Files.isRegularFile(dir.resolve(s.string("calibrated"))) ? dir.resolve(s.string("calibrated")) : null,
                        s.string("machine", ""), s.string("stale", "")));
            }
            return out;
        } catch (ConfigException e) {
            throw new SparseprofException(e.getMessage(), e);
        }
    }

    private static Path existing(Path p, ConfigMap where, String key) {
        if (!Files.isRegularFile(p)) throw where.error(key, "no such file " + p);
        return p;
    }
}
