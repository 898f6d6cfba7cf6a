package dev.sparseprof.measure.probe;

import dev.sparseprof.util.CoreAffinity;
import dev.sparseprof.util.SparseprofException;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.function.IntFunction;

/**
 * Runs a {@link ProbeWork} on {@code threads} platform threads in lock step: each trial starts at a
 * barrier and lasts from the first thread's start to the last thread's end, so the time of a trial is
 * the time the whole team needed. Thread {@code t} is pinned to the {@code t}-th CPU this process may
 * use (where affinity can be set), as the kernels' pinned pools run their parts, so the probe's
 * 1-thread points come from the CPU that the 1-thread runs take.
 */
final class ThreadTeam {
    private ThreadTeam() {}

    /** Seconds of each of {@code trials} trials of {@code reps} repetitions (one warm-up run first). */
    static double[] timeTrials(int threads, IntFunction<ProbeWork> factory, int reps, int trials) {
        long[][] start = new long[trials][threads];
        long[][] end = new long[trials][threads];
        double[] sink = new double[threads];
        CyclicBarrier barrier = new CyclicBarrier(threads);
        Throwable[] failure = new Throwable[1];
        Thread[] team = new Thread[threads];
        int[] cpus = CoreAffinity.pinnable();
        for (int t = 0; t < threads; t++) {
            final int id = t;
            team[t] = new Thread(() -> {
                try {
                    if (cpus.length > 0) CoreAffinity.pin(cpus[id % cpus.length]);
                    ProbeWork work = factory.apply(id);
                    double s = work.run(1);
                    for (int trial = 0; trial < trials; trial++) {
                        barrier.await();
                        start[trial][id] = System.nanoTime();
                        s += work.run(reps);
                        end[trial][id] = System.nanoTime();
                    }
                    sink[id] = s;
                } catch (InterruptedException | BrokenBarrierException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException | OutOfMemoryError e) {
                    synchronized (failure) {
                        failure[0] = e;
                    }
                    barrier.reset();
                }
            }, "probe-" + t);
            team[t].start();
        }
        for (Thread th : team) {
            try {
                th.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SparseprofException("probe: interrupted");
            }
        }
        if (failure[0] instanceof OutOfMemoryError) {
            throw new SparseprofException("probe: not enough heap for the working sets (raise -Xmx via SPARSEPROF_JAVA_OPTS)");
        }
        if (failure[0] != null) throw new SparseprofException("probe: a worker failed: " + failure[0], failure[0]);
        double[] seconds = new double[trials];
        for (int trial = 0; trial < trials; trial++) {
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (int t = 0; t < threads; t++) {
                first = Math.min(first, start[trial][t]);
                last = Math.max(last, end[trial][t]);
            }
            seconds[trial] = (last - first) * 1e-9;
        }
        double all = 0;
        for (double v : sink) all += v;
        Blackhole.consume(all);
        return seconds;
    }

    /** Repetitions that make one single-thread run take at least {@code seconds} (doubling from 1). */
    static int repsFor(ProbeWork work, double seconds) {
        work.run(1);
        int reps = 1;
        while (reps < (1 << 28)) {
            long t0 = System.nanoTime();
            work.run(reps);
            if ((System.nanoTime() - t0) * 1e-9 >= seconds) return reps;
            reps *= 2;
        }
        return reps;
    }
}
