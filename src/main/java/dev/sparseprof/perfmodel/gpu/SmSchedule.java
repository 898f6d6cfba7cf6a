package dev.sparseprof.perfmodel.gpu;

import dev.sparseprof.perfmodel.Balance;

/**
 * Work dealt to whichever SM frees first, as a GPU's block scheduler deals thread blocks: the SMs'
 * loads in a binary min-heap over a primitive array (the least-loaded SM at the root takes the
 * next item). Callers deal items in launch order; {@link #balance} is the busiest SM over the mean.
 */
public final class SmSchedule {
    private final double[] heap;
    private double total;

    public SmSchedule(int sms) {
        if (sms <= 0) throw new IllegalArgumentException("no SMs");
        heap = new double[sms];
    }

    /** Gives {@code work} to the SM that frees first. */
    public void deal(double work) {
        total += work;
        double load = heap[0] + work;
        int i = 0;
        int n = heap.length;
        while (true) { // sift the root's new load down
            int left = 2 * i + 1;
            if (left >= n) break;
            int child = left + 1 < n && heap[left + 1] < heap[left] ? left + 1 : left;
            if (heap[child] >= load) break;
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = load;
    }

    public double busiest() {
        double max = 0;
        for (double load : heap) max = Math.max(max, load);
        return max;
    }

    public double mean() {
        return total / heap.length;
    }

    /** The schedule as a {@link Balance}, both loads plus {@code fixed} (work every SM pays once). */
    public Balance balance(String schedule, double fixed) {
        return Balance.of(schedule, busiest() + fixed, mean() + fixed);
    }
}
