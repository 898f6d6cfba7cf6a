package dev.sparseprof.memsim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.trace.TraceFiles;
import dev.sparseprof.trace.TraceReader;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every integer Dinero IV reports in the oracle, at every level, for all 16 cases. */
class DineroExactnessTest {
    static Stream<DineroOracle.Case> cases() {
        return DineroOracle.cases().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesDinero(DineroOracle.Case c) {
        Hierarchy h = new Hierarchy(HierarchyConfig.of(c.levels()));
        try (TraceReader r = TraceFiles.open(DineroOracle.dir().resolve(c.trace()))) {
            r.pushAll(h);
        }
        h.close();
        List<LevelStats> got = h.snapshot().levels();
        assertEquals(c.expected().size(), got.size());
        for (int i = 0; i < got.size(); i++) {
            LevelStats s = got.get(i);
            DineroOracle.Expected e = c.expected().get(i);
            String where = c + " level " + (i + 1);
            assertEquals(List.of(e.fetchTotal(), e.fetchRead(), e.fetchWrite(), e.missTotal(), e.missRead(), e.missWrite(),
                            e.bytesFromMemory(), e.bytesToMemory()),
                    List.of(s.fetches().total(), s.fetches().read(), s.fetches().write(), s.misses().total(), s.misses().read(),
                            s.misses().write(), s.bytesFromBelow(), s.bytesToBelow()), where);
        }
    }
}
