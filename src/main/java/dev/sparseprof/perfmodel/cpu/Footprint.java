package dev.sparseprof.perfmodel.cpu;

/**
 * The distinct bytes calls touch, as the caches of a multi-core CPU hold them: {@code perCoreBytes}
 * in each core's private levels (its share of the partitioned arrays, every array all cores read,
 * and its own private copies), {@code allCoresBytes} in a level all cores share (the partitioned and
 * shared arrays once, the private copies once per core). On one core the two are equal.
 */
public record Footprint(double perCoreBytes, double allCoresBytes) {
    public static final Footprint ZERO = new Footprint(0, 0);

    public Footprint {
        if (!(perCoreBytes >= 0) || !(allCoresBytes >= 0) || Double.isInfinite(perCoreBytes) || Double.isInfinite(allCoresBytes)) {
            throw new IllegalArgumentException("footprint bytes must be finite and not negative, got " + perCoreBytes + " per core, "
                    + allCoresBytes + " in all");
        }
    }

    public Footprint plus(Footprint o) {
        return new Footprint(perCoreBytes + o.perCoreBytes, allCoresBytes + o.allCoresBytes);
    }
}
