package dev.sparseprof.memsim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.TraceChunk;
import dev.sparseprof.trace.TraceFiles;
import dev.sparseprof.trace.TraceReader;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MissRatioCurveTest {
    @Test
    void handComputedDistances() {
        StackDistanceProfiler p = new StackDistanceProfiler(64);
        for (long line : new long[] {0, 1, 2, 0, 0, 3, 1}) p.access(AccessKind.READ, line * 64, 4, ArrayRole.VALUES);
        MissRatioCurve c = p.curve();
        // 0 1 2 cold; 0 at distance 2; 0 at 0; 3 cold; 1 at distance 3 (0, 2, 3 since)
        assertEquals(4, c.coldMisses());
        assertEquals(7, c.references());
        assertEquals(7, c.misses(0));
        assertEquals(6, c.misses(1));
        assertEquals(6, c.misses(2));
        assertEquals(5, c.misses(3));
        assertEquals(4, c.misses(4));
    }

    @Test
    void equalsDirectFullyAssociativeLruOnTheOracleTrace() {
        for (int lineBytes : new int[] {32, 64, 128}) {
            StackDistanceProfiler p = new StackDistanceProfiler(lineBytes);
            int[] sizes = {1, 7, 64, 512, 1000, 4096};
            FullyAssociativeLru[] direct = new FullyAssociativeLru[sizes.length];
            long[] misses = new long[sizes.length];
            for (int i = 0; i < sizes.length; i++) direct[i] = new FullyAssociativeLru(sizes[i]);
            TraceChunk chunk = new TraceChunk();
            try (TraceReader r = TraceFiles.open(DineroOracle.dir().resolve("shared_mixed_random.din.gz"))) {
                int n;
                while ((n = r.fill(chunk)) > 0) {
                    chunk.pushTo(p, 0, n);
                    for (int k = 0; k < n; k++) {
                        long line = chunk.address(k) / lineBytes;
                        for (int i = 0; i < sizes.length; i++) if (!direct[i].access(line)) misses[i]++;
                    }
                }
            }
            MissRatioCurve c = p.curve();
            for (int i = 0; i < sizes.length; i++) assertEquals(misses[i], c.misses(sizes[i]), "line " + lineBytes + " size " + sizes[i]);
        }
    }

    @Test
    void equalsTheCacheSimulatorFullyAssociativeAndSurvivesCompaction() {
        // 300k references over 90k lines forces several renumberings of the time axis
        SplittableRandom rnd = new SplittableRandom(11);
        long[] lines = new long[300_000];
        for (int i = 0; i < lines.length; i++) lines[i] = rnd.nextInt(4) == 0 ? rnd.nextInt(90_000) : rnd.nextInt(3000);
        StackDistanceProfiler p = new StackDistanceProfiler(64);
        for (long l : lines) p.access(AccessKind.READ, l * 64, 4, ArrayRole.VALUES);
        MissRatioCurve c = p.curve();
        for (int kib : new int[] {4, 64, 256}) {
            Hierarchy h = new Hierarchy(HierarchyConfig.of(CacheConfig.fullyAssociative("L1", kib << 10, 64)));
            for (long l : lines) h.access(AccessKind.READ, l * 64, 4, ArrayRole.VALUES);
            assertEquals(h.snapshot().level("L1").misses().total(), c.misses((kib << 10) / 64), kib + " KiB");
        }
        List<MissRatioCurve.Point> pts = c.powerOfTwoPoints();
        assertEquals(c.coldMisses(), pts.getLast().misses());
    }
}
