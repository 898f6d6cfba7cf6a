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
 *     model: default
 *     uncalibrated: probe-this-vm.yaml
 *     calibrated: minilm-cpu.calibrated.yaml
 *     measurements:
 *       - file: minilm-cpu-t1-n32.json
 * </pre>
 *
 * @param model {@code null} for the bundled default model, else a model path
 */
public record MeasuredSet(String name, String model, List<Path> measurements, Path uncalibrated, Path calibrated) {
    public MeasuredSet {
        measurements = List.copyOf(measurements);
        if (measurements.isEmpty()) throw new SparseprofException("measured set " + name + ": no measurements files");
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
                s.allow("name", "model", "uncalibrated", "calibrated", "measurements");
                List<Path> files = new ArrayList<>();
                for (ConfigMap m : s.list("measurements")) files.add(existing(dir.resolve(m.allow("file").string("file")), m, "file"));
                String model = s.string("model", "default");
                out.add(new MeasuredSet(s.string("name"), model.equals("default") ? null : dir.resolve(model).toString(), files,
                        existing(dir.resolve(s.string("uncalibrated")), s, "uncalibrated"),
                        s.has("calibrated") && Files.isRegularFile(dir.resolve(s.string("calibrated"))) ? dir.resolve(s.string("calibrated")) : null));
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
