package dev.sparseprof.memsim;

import dev.sparseprof.util.Json;
import dev.sparseprof.util.Units;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The Dinero IV results in src/test/resources/dinero (override: -Dsparseprof.oracle=DIR), as test cases. */
public final class DineroOracle {
    private DineroOracle() {}

    /** One expected level: Dinero's integers. */
    public record Expected(long fetchTotal, long fetchRead, long fetchWrite, long missTotal, long missRead, long missWrite,
                           long bytesFromMemory, long bytesToMemory) {}

    /** One case: a trace, the hierarchy Dinero simulated, and what it reported per level. */
    public record Case(String trace, String config, List<CacheConfig> levels, List<Expected> expected, List<String> cliLevels) {
        @Override
        public String toString() {
            return trace + " " + config;
        }
    }

    public static Path dir() {
        return Path.of(System.getProperty("sparseprof.oracle", Path.of("src", "test", "resources", "dinero").toString()));
    }

    @SuppressWarnings("unchecked")
    public static List<Case> cases() {
        Map<String, Object> root;
        try {
            root = Json.parseObject(Files.readString(dir().resolve("expected.json")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Case> out = new ArrayList<>();
        for (Object o : (List<Object>) root.get("cases")) {
            Map<String, Object> c = (Map<String, Object>) o;
            List<CacheConfig> levels = new ArrayList<>();
            List<String> cli = new ArrayList<>();
            for (Object so : (List<Object>) c.get("levels_spec")) {
                Map<String, Object> s = (Map<String, Object>) so;
                String name = "L" + s.get("level");
                long size = Units.parseBytes((String) s.get("size"));
                int line = ((Long) s.get("blockBytes")).intValue();
                int ways = ((Long) s.get("assoc")).intValue();
                String policy = "l".equals(s.get("replacement")) ? "lru" : "fifo";
                boolean wa = "a".equals(s.get("writeAllocate"));
                boolean wb = "a".equals(s.get("writeBack"));
                WritePolicy wp = wb ? (wa ? WritePolicy.WB_WA : WritePolicy.WB_NWA) : (wa ? WritePolicy.WT_WA : WritePolicy.WT_NWA);
                levels.add(CacheConfig.of(name, size, line, ways).withPolicy(policy).withWritePolicy(wp));
                cli.add(name + ":" + s.get("size") + ":" + ways + ":" + line + ":" + policy + ":" + wp.label());
            }
            List<Expected> expected = new ArrayList<>();
            for (Object lo : (List<Object>) c.get("levels")) {
                Map<String, Object> l = (Map<String, Object>) lo;
                Map<String, Object> f = (Map<String, Object>) l.get("fetches");
                Map<String, Object> m = (Map<String, Object>) l.get("misses");
                expected.add(new Expected((Long) f.get("total"), (Long) f.get("read"), (Long) f.get("write"),
                        (Long) m.get("total"), (Long) m.get("read"), (Long) m.get("write"),
                        (Long) l.get("bytesFromMemory"), (Long) l.get("bytesToMemory")));
            }
            out.add(new Case((String) c.get("trace"), (String) c.get("config"), levels, expected, cli));
        }
        return out;
    }
}
