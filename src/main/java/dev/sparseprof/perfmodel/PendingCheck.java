package dev.sparseprof.perfmodel;

import java.util.function.Supplier;

/**
 * A memsim check ({@link TrafficCheck}) made on its first read, then kept: {@link #get} runs the
 * replay once (the same replay, on the same layer's sample, as when it was asked for) and answers
 * that same instance ever after, from any thread. A replay costs 10-700 ms where most estimates'
 * checks are never shown (a simulate run prints the chosen format's and the dense baseline's, not
 * those of the candidates it ranked), so {@link SimulatedTraffic#checked} traffic holds this, not
 * the check. The check does not enter any prediction, so when it is made changes no figure.
 */
final class PendingCheck implements Supplier<TrafficCheck> {
    private Supplier<TrafficCheck> replay;
    private TrafficCheck check;

    PendingCheck(Supplier<TrafficCheck> replay) {
        this.replay = replay;
    }

    /** The check (null where the replay makes none), made by the first call. */
    @Override
    public synchronized TrafficCheck get() {
        if (replay != null) {
            check = replay.get();
            replay = null; // the layer's sample and matrix are no longer held for it
        }
        return check;
    }

    /**
     * Makes now the checks that {@code shown} will print (each estimate's own and its dense
     * baseline's), while the layers' matrices are open: a report is written after its model is
     * closed. The other estimates' checks are never made.
     */
    static void makeShown(Iterable<LayerEstimate> shown) {
        for (LayerEstimate e : shown) {
            if (e == null) continue;
            e.predicted().traffic().check();
            e.dense().traffic().check();
        }
    }

    /** Whether {@link #get} has made the check. */
    synchronized boolean made() {
        return replay == null;
    }
}
