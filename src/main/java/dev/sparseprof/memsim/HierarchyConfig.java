package dev.sparseprof.memsim;

import dev.sparseprof.util.SparseprofException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A cache hierarchy: levels from the core outwards, {@code cores} cores, and the index of the
 * first level shared by all cores (levels before it are private, one copy per core). With one core
 * sharing is moot. {@code dram} is null for a flat memory that only counts bytes.
 */
public record HierarchyConfig(List<CacheConfig> levels, int cores, int firstSharedLevel, DramConfig dram) {
    public HierarchyConfig {
        levels = List.copyOf(levels);
        if (levels.isEmpty()) throw new SparseprofException("a hierarchy needs at least one cache level");
        if (cores < 1) throw new SparseprofException("cores must be at least 1, got " + cores);
        if (firstSharedLevel < 0 || firstSharedLevel > levels.size()) {
            throw new SparseprofException("first shared level " + firstSharedLevel + " outside 0.." + levels.size());
        }
        Set<String> names = new HashSet<>();
        for (CacheConfig c : levels) if (!names.add(c.name())) throw new SparseprofException("two cache levels are named '" + c.name() + "'");
        if (levels.getFirst().inclusion() == Inclusion.EXCLUSIVE) {
            throw new SparseprofException(levels.getFirst().name() + ": the first level cannot be exclusive (it has no level above)");
        }
    }

    /** One core, no DRAM model. */
    public static HierarchyConfig of(List<CacheConfig> levels) {
        return new HierarchyConfig(levels, 1, levels.size(), null);
    }

    public static HierarchyConfig of(CacheConfig... levels) {
        return of(List.of(levels));
    }

    /** {@code cores} cores with private levels except the last, which is shared. */
    public static HierarchyConfig multiCore(List<CacheConfig> levels, int cores) {
        return new HierarchyConfig(levels, cores, levels.size() - 1, null);
    }

    public HierarchyConfig withDram(DramConfig d) {
        return new HierarchyConfig(levels, cores, firstSharedLevel, d);
    }
}
