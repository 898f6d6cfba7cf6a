package dev.sparseprof.memsim;

import java.util.ArrayList;
import java.util.List;

/** Every cache's stats (private levels once per core, in level order) and memory's. */
public record HierarchyStats(long accesses, List<LevelStats> levels, MemoryStats memory) {
    public HierarchyStats {
        levels = List.copyOf(levels);
    }

    public LevelStats level(String name) {
        for (LevelStats l : levels) if (l.name().equals(name)) return l;
        throw new IllegalArgumentException("no level " + name);
    }

    /** The window after {@code earlier}, e.g. the measured region after a warm-up snapshot. */
    public HierarchyStats minus(HierarchyStats earlier) {
        List<LevelStats> out = new ArrayList<>();
        for (int i = 0; i < levels.size(); i++) out.add(levels.get(i).minus(earlier.levels.get(i)));
        return new HierarchyStats(accesses - earlier.accesses, out, memory.minus(earlier.memory));
    }
}
