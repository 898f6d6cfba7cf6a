package dev.sparseprof.measure.probe;

/**
 * One thread's share of a probe: built on the thread that runs it (so its arrays are first touched
 * there), then run {@code reps} times per trial. The result is returned so the JIT cannot drop the work.
 */
interface ProbeWork {
    double run(int reps);
}
