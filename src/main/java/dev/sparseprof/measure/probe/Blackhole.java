package dev.sparseprof.measure.probe;

/** Where the probe's loop results go, so the JIT cannot drop the loops as dead code. */
final class Blackhole {
    @SuppressWarnings("unused")
    private static volatile double sink;

    private Blackhole() {}

    static void consume(double value) {
        sink = value;
    }
}
