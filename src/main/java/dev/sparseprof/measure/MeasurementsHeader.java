package dev.sparseprof.measure;

import dev.sparseprof.util.CoreAffinity;
import dev.sparseprof.util.CpuName;
import dev.sparseprof.util.SparseprofException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * Where and how a measurements file was made: the model, the machine (CPU model name and logical
 * CPU count), the date (ISO-8601 instant), the Java version, the command line, and the machine's
 * {@link MachineIdentity} (CPU model, CPUs, SIMD width; derived from {@code machine} for files
 * written before it was recorded), and the CPUs the kernels were pinned to.
 *
 * @param pinnedCpus the CPUs the measurement's pinned pool ran on ({@code kernel.WorkerPool#pinned}:
 *                   part t on {@code [t % size]}); empty where the run was not pinned (one CPU, or
 *                   affinity refused); null for files written before it was recorded
 */
public record MeasurementsHeader(String model, String machine, String date, String javaVersion, String command, MachineIdentity identity,
                                 List<Integer> pinnedCpus) {
    public MeasurementsHeader {
        if (model == null || machine == null || date == null || javaVersion == null || command == null) {
            throw new SparseprofException("measurements header: every field (model, machine, date, javaVersion, command) is required");
        }
        if (identity == null) identity = MachineIdentity.fromDescription(machine);
        if (pinnedCpus != null) pinnedCpus = List.copyOf(pinnedCpus);
    }

    /** Without a recorded identity (derived from {@code machine}) or pinning (not known). */
    public MeasurementsHeader(String model, String machine, String date, String javaVersion, String command) {
        this(model, machine, date, javaVersion, command, null, null);
    }

    /** A header for a run now, on this machine, whose kernels run on a pinned pool. */
    public static MeasurementsHeader now(String model, String command) {
        return new MeasurementsHeader(model, describeMachine(), Instant.now().toString(), Runtime.version().toString(), command,
                MachineIdentity.ofThisMachine(), Arrays.stream(CoreAffinity.pinnable()).boxed().toList());
    }

    /** {@code "<CPU name (util.CpuName)>, <nproc> CPUs"}. */
    public static String describeMachine() {
        return CpuName.ofThisMachine() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs";
    }
}
