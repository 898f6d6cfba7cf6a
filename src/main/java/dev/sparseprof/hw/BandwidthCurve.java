package dev.sparseprof.hw;

import java.util.Arrays;

/**
 * DRAM bandwidth as a function of the number of active cores: measured points
 * {@code (cores[i], bytesPerSecond[i])}, strictly increasing in cores. Between points it is linear;
 * below the first point it scales with the core count; past the last point it stays flat (no
 * scaling is assumed that was not measured).
 */
public record BandwidthCurve(int[] cores, double[] bytesPerSecond) {
    public BandwidthCurve {
        if (cores.length == 0 || cores.length != bytesPerSecond.length) {
            throw new SpecException("bandwidth curve needs at least one (cores, bandwidth) point");
        }
        cores = cores.clone();
        bytesPerSecond = bytesPerSecond.clone();
        for (int i = 0; i < cores.length; i++) {
            if (cores[i] <= 0) throw new SpecException("bandwidth curve: core counts must be positive, got " + cores[i]);
            if (!(bytesPerSecond[i] > 0)) throw new SpecException("bandwidth curve: bandwidth must be positive");
            if (i > 0 && cores[i] <= cores[i - 1]) throw new SpecException("bandwidth curve: core counts must increase");
        }
    }

    public static BandwidthCurve flat(double bytesPerSecond) {
        return new BandwidthCurve(new int[] {1}, new double[] {bytesPerSecond});
    }

    public double at(int activeCores) {
        if (activeCores <= cores[0]) return bytesPerSecond[0] * activeCores / cores[0];
        for (int i = 1; i < cores.length; i++) {
            if (activeCores <= cores[i]) {
                double t = (double) (activeCores - cores[i - 1]) / (cores[i] - cores[i - 1]);
                return bytesPerSecond[i - 1] + t * (bytesPerSecond[i] - bytesPerSecond[i - 1]);
            }
        }
        return bytesPerSecond[bytesPerSecond.length - 1];
    }

    /** The bandwidth with every core of the device active (GPUs: the only point). */
    public double peak() {
        return bytesPerSecond[bytesPerSecond.length - 1];
    }

    @Override
    public int[] cores() {
        return cores.clone();
    }

    @Override
    public double[] bytesPerSecond() {
        return bytesPerSecond.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BandwidthCurve b && Arrays.equals(cores, b.cores) && Arrays.equals(bytesPerSecond, b.bytesPerSecond);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(cores) + Arrays.hashCode(bytesPerSecond);
    }

    @Override
    public String toString() {
        return "BandwidthCurve" + Arrays.toString(cores) + Arrays.toString(bytesPerSecond);
    }
}
