package dev.sparseprof.measure;

import dev.sparseprof.util.SparseprofException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * Where and how a measurements file was made: the model, the machine (CPU model name and logical
 * CPU count), the date (ISO-8601 instant), the Java version, the command line, and the machine's
 * {@link MachineIdentity} (CPU model, CPUs, SIMD width; derived from {@code machine} for files
 * written before it was recorded).
 */
public record MeasurementsHeader(String model, String machine, String date, String javaVersion, String command, MachineIdentity identity) {
    public MeasurementsHeader {
        if (model == null || machine == null || date == null || javaVersion == null || command == null) {
            throw new SparseprofException("measurements header: every field (model, machine, date, javaVersion, command) is required");
        }
        if (identity == null) identity = MachineIdentity.fromDescription(machine);
    }

    /** Without a recorded identity: derived from {@code machine}. */
    public MeasurementsHeader(String model, String machine, String date, String javaVersion, String command) {
        this(model, machine, date, javaVersion, command, null);
    }

    /** A header for a run now, on this machine. */
    public static MeasurementsHeader now(String model, String command) {
        return new MeasurementsHeader(model, describeMachine(), Instant.now().toString(), Runtime.version().toString(), command,
                MachineIdentity.ofThisMachine());
    }

    /** {@code "<model name from /proc/cpuinfo>, <nproc> CPUs"}, or the OS architecture where there is no /proc. */
    public static String describeMachine() {
        String name = System.getProperty("os.arch");
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            try {
                List<String> lines = Files.readAllLines(cpuinfo);
                for (String line : lines) {
                    if (line.startsWith("model name")) {
                        name = line.substring(line.indexOf(':') + 1).trim();
                        break;
                    }
                }
            } catch (IOException e) {
                // keep the architecture: the header describes the machine as well as it can
            }
        }
        return name + ", " + Runtime.getRuntime().availableProcessors() + " CPUs";
    }
}
