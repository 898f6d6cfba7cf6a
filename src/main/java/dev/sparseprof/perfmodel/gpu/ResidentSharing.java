package dev.sparseprof.perfmodel.gpu;

/**
 * How the programs resident on one SM share it: exact mean value analysis (MVA) of a closed
 * queueing network (Reiser and Lavenberg, J. ACM 27(2), 1980; Lazowska et al., "Quantitative
 * System Performance", 1984, ch. 6). {@code residents} programs cycle through one step each: a
 * delay they spend alone (their dependent-load latencies and fixed cycles: no SM resource is busy
 * for them) and a visit to each of the SM's resources they hold in turn (the L2 port, the
 * L1/shared SRAM, the math pipe), where a program waits while another holds it.
 *
 * <p>Contract: {@link #stepSeconds} is the SM's time per step of any one resident (1 / the
 * network's throughput). It is never below the busiest resource's demand nor below the serial step
 * over the residents (the two bounds the plain {@code max} takes) and approaches them only far from
 * the knee where they meet, which is where a program that waits for a resource another holds
 * stretches the step. The phases are of fixed length, so an arriving program waits for half the
 * phase in service on average (the residual-life correction of MVA for non-exponential FCFS
 * service, coefficient of variation 0), and the result is held to the two bounds, which that
 * approximation can overshoot near saturation. No parameter: the demands are the phases' own times.
 */
public final class ResidentSharing {
    private ResidentSharing() {}

    /**
     * The SM's seconds per program step with {@code residents} programs, each step spending
     * {@code delaySeconds} alone and {@code demandSeconds[k]} on resource {@code k}.
     */
    public static double stepSeconds(int residents, double delaySeconds, double... demandSeconds) {
        if (residents <= 0) throw new IllegalArgumentException("no residents");
        if (!(delaySeconds >= 0)) throw new IllegalArgumentException("negative delay");
        int stations = demandSeconds.length;
        double[] queue = new double[stations];
        double[] residence = new double[stations];
        double throughput = 0;
        for (int n = 1; n <= residents; n++) {
            double cycle = delaySeconds;
            for (int k = 0; k < stations; k++) {
                // An arriving program waits for those queued ahead and for the rest of the one being served:
                // half a phase on average, the phases being of fixed length (residual life (1 + cv^2) / 2, cv = 0).
                double utilisation = throughput * demandSeconds[k];
                residence[k] = demandSeconds[k] * (1 + queue[k] - utilisation / 2);
                cycle += residence[k];
            }
            throughput = n / cycle;
            for (int k = 0; k < stations; k++) queue[k] = throughput * residence[k];
        }
        // The residual-life correction is an approximation that can overshoot a hard bound near saturation:
        // no SM runs a step faster than its busiest resource or than the serial step over the residents.
        double busiest = 0;
        double serial = delaySeconds;
        for (double d : demandSeconds) {
            busiest = Math.max(busiest, d);
            serial += d;
        }
        return Math.max(throughput > 0 ? 1 / throughput : 0, Math.max(busiest, serial / residents));
    }
}
