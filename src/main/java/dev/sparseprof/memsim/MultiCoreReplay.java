package dev.sparseprof.memsim;

import dev.sparseprof.trace.TraceChunk;
import dev.sparseprof.trace.TraceReader;
import dev.sparseprof.util.Progress;
import java.util.List;

/**
 * Replays one trace per core onto a multi-core {@link Hierarchy}, interleaved round-robin
 * ({@link #roundRobin}: {@code quantum} accesses of core 0, then of core 1, ..., until every trace
 * is over; a finished core drops out of the rotation) or by the records' timestamps
 * ({@link #byTimestamp}: the earliest record next, ties to the lower core).
 */
public final class MultiCoreReplay {
    private MultiCoreReplay() {}

    /**
     * Merges the traces by time: the record with the smallest timestamp goes next, equal times in
     * core order. Each core's records stay in their trace's order (their times never decrease, as
     * {@link TraceReader#timestamped} promises). Every trace must be timestamped. Returns the
     * accesses replayed; does not close the hierarchy.
     */
    public static long byTimestamp(List<TraceReader> traces, Hierarchy hierarchy, Progress progress, long totalBytes) {
        checkCores(traces, hierarchy);
        int n = traces.size();
        for (TraceReader t : traces) if (!t.timestamped()) throw new IllegalArgumentException("a trace without timestamps");
        TraceChunk[] chunks = new TraceChunk[n];
        int[] pos = new int[n];
        boolean[] done = new boolean[n];
        for (int c = 0; c < n; c++) {
            chunks[c] = new TraceChunk();
            done[c] = traces.get(c).fill(chunks[c]) == 0;
        }
        long replayed = 0;
        long sinceProgress = 0;
        while (true) {
            // the core to go next, and the earliest head of the others: it runs until it passes that
            int next = -1;
            int bound = -1;
            for (int c = 0; c < n; c++) {
                if (done[c]) continue;
                long t = chunks[c].timestamp(pos[c]);
                if (next < 0 || t < chunks[next].timestamp(pos[next])) {
                    bound = next;
                    next = c;
                } else if (bound < 0 || t < chunks[bound].timestamp(pos[bound])) {
                    bound = c;
                }
            }
            if (next < 0) break;
            long limit = bound < 0 ? Long.MAX_VALUE : chunks[bound].timestamp(pos[bound]);
            // equal times go to the lower core: past the bound's time only if this core is lower
            boolean tieRuns = bound < 0 || next < bound;
            TraceChunk chunk = chunks[next];
            int from = pos[next];
            int to = from + 1;
            while (to < chunk.size() && (chunk.timestamp(to) < limit || (tieRuns && chunk.timestamp(to) == limit))) to++;
            hierarchy.core(next).accessAll(chunk, from, to);
            replayed += to - from;
            sinceProgress += to - from;
            pos[next] = to;
            if (to == chunk.size()) {
                pos[next] = 0;
                done[next] = traces.get(next).fill(chunk) == 0;
            }
            if (sinceProgress >= 1 << 16) {
                sinceProgress = 0;
                progress.update(consumed(traces), totalBytes);
            }
        }
        progress.finish();
        return replayed;
    }

    private static void checkCores(List<TraceReader> traces, Hierarchy hierarchy) {
        if (traces.size() != hierarchy.config().cores()) {
            throw new IllegalArgumentException(traces.size() + " traces for " + hierarchy.config().cores() + " cores");
        }
    }

    private static long consumed(List<TraceReader> traces) {
        long consumed = 0;
        for (TraceReader t : traces) consumed += t.bytesConsumed();
        return consumed;
    }

    /** Returns the accesses replayed; does not close the hierarchy. */
    public static long roundRobin(List<TraceReader> traces, Hierarchy hierarchy, int quantum, Progress progress, long totalBytes) {
        checkCores(traces, hierarchy);
        if (quantum < 1) throw new IllegalArgumentException("quantum " + quantum);
        int n = traces.size();
        TraceChunk[] chunks = new TraceChunk[n];
        int[] pos = new int[n];
        boolean[] done = new boolean[n];
        for (int i = 0; i < n; i++) chunks[i] = new TraceChunk();
        int active = n;
        long replayed = 0;
        long sinceProgress = 0;
        while (active > 0) {
            for (int c = 0; c < n; c++) {
                if (done[c]) continue;
                int left = quantum;
                while (left > 0) {
                    if (pos[c] == chunks[c].size()) {
                        pos[c] = 0;
                        if (traces.get(c).fill(chunks[c]) == 0) {
                            done[c] = true;
                            active--;
                            break;
                        }
                    }
                    int take = Math.min(left, chunks[c].size() - pos[c]);
                    hierarchy.core(c).accessAll(chunks[c], pos[c], pos[c] + take);
                    pos[c] += take;
                    left -= take;
                    replayed += take;
                    sinceProgress += take;
                }
            }
            if (sinceProgress >= 1 << 16) {
                sinceProgress = 0;
                progress.update(consumed(traces), totalBytes);
            }
        }
        progress.finish();
        return replayed;
    }
}
