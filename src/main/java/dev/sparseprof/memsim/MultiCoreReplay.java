package dev.sparseprof.memsim;

import dev.sparseprof.trace.TraceChunk;
import dev.sparseprof.trace.TraceReader;
import dev.sparseprof.util.Progress;
import java.util.List;

/**
 * Replays one trace per core onto a multi-core {@link Hierarchy}, interleaved round-robin:
 * {@code quantum} accesses of core 0, then of core 1, ..., until every trace is over (a finished
 * core drops out of the rotation).
 */
public final class MultiCoreReplay {
    private MultiCoreReplay() {}

    /** Returns the accesses replayed; does not close the hierarchy. */
    public static long roundRobin(List<TraceReader> traces, Hierarchy hierarchy, int quantum, Progress progress, long totalBytes) {
        if (traces.size() != hierarchy.config().cores()) {
            throw new IllegalArgumentException(traces.size() + " traces for " + hierarchy.config().cores() + " cores");
        }
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
                long consumed = 0;
                for (TraceReader t : traces) consumed += t.bytesConsumed();
                progress.update(consumed, totalBytes);
            }
        }
        progress.finish();
        return replayed;
    }
}
