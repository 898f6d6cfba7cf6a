package dev.sparseprof.measure;

import dev.sparseprof.kernel.KernelVectors;
import java.util.Locale;

/**
 * Which kind of machine a measurement ran on: the CPU model name ({@code /proc/cpuinfo}), the
 * logical CPUs the JVM saw, and the SIMD width the kernels ran at (the Vector API's preferred fp32
 * species; 0 when a file written before this field does not say). Measured sets are kept per kind
 * ({@code validation/measured/<folderName>/}), and measurements of one kind are refused against a
 * spec probed on another.
 */
public record MachineIdentity(String cpuModel, int cpus, int vectorBits) {
    public MachineIdentity {
        if (cpuModel == null || cpuModel.isBlank()) throw new IllegalArgumentException("machine identity: empty CPU model");
        if (cpus < 0 || vectorBits < 0) throw new IllegalArgumentException("machine identity: negative count");
    }

    /** This machine, as the kernels run on it now. */
    public static MachineIdentity ofThisMachine() {
        String d = MeasurementsHeader.describeMachine();
        return new MachineIdentity(d.substring(0, d.lastIndexOf(',')), Runtime.getRuntime().availableProcessors(),
                KernelVectors.FLOATS.vectorBitSize());
    }

    /** From a header's {@code machine} text ({@code "<model>, <n> CPUs"}) when the file has no identity fields. */
    public static MachineIdentity fromDescription(String machine) {
        int comma = machine.lastIndexOf(',');
        String tail = comma < 0 ? "" : machine.substring(comma + 1).strip();
        int cpus = 0;
        if (tail.endsWith(" CPUs")) {
            try {
                cpus = Integer.parseInt(tail.substring(0, tail.length() - 5).strip());
            } catch (NumberFormatException e) {
                cpus = 0;
            }
        }
        String model = cpus > 0 ? machine.substring(0, comma).strip() : machine.strip();
        return new MachineIdentity(model.isEmpty() ? "unknown" : model, cpus, 0);
    }

    /** Whether {@code other} is the same kind of machine: the same CPU model and, where both say, the same SIMD width. */
    public boolean sameKind(String otherModel, int otherVectorBits) {
        return cpuModel.equals(otherModel) && (vectorBits == 0 || otherVectorBits == 0 || vectorBits == otherVectorBits);
    }

    /** {@code intel-r-xeon-r-processor-512bit}: the measured sets' folder for this kind of machine. */
    public String folderName() {
        String slug = cpuModel.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
        return slug + (vectorBits > 0 ? "-" + vectorBits + "bit" : "");
    }

    /** {@code Intel(R) Xeon(R) Processor, 512-bit vectors}. */
    public String label() {
        return cpuModel + (vectorBits > 0 ? ", " + vectorBits + "-bit vectors" : "");
    }
}
