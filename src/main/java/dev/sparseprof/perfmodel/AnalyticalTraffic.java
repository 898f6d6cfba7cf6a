package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.memsim.RowGatherReuse;
import java.util.ArrayList;
import java.util.List;

/**
 * The memory model used where no simulated trace is available (its {@link Traffic#source()} says
 * {@code analytical}). Each array's bytes walk the cache levels innermost first. At a level of
 * capacity S per instance (private levels have one instance per core/SM), arrays are given cache
 * space hottest first (most requests per distinct byte, as LRU keeps a hot set), each up to its
 * working set; an array whose working set got the fraction h of the space it needs hits with
 * probability h (uniformly spread reuse), a CPU kernel's row sweeps with LRU's share of their reuse
 * distances ({@code memsim.RowGatherReuse}), but never passes on fewer bytes than its compulsory
 * misses (its footprint once per instance that touches it). With {@code cacheMisses} off every
 * array passes on only its compulsory bytes: the perfect-reuse floor against which the gap
 * breakdown measures gather/scatter misses. Each level's share of row-gathered bytes
 * ({@link DataStream#rowGather}) goes with the totals ({@link Traffic#gatherShares}).
 */
public final class AnalyticalTraffic {
    private AnalyticalTraffic() {}

    public static Traffic estimate(List<DataStream> streams, HardwareSpec spec, Features features) {
        List<CacheLevel> caches = spec.cacheLevels();
        // a probed spec whose rates were solved with a fully associative L1 keeps that rule (InCoreRates)
        boolean setAssociative = !(spec instanceof CpuSpec cpu && cpu.inCore().fullyAssociativeReuse());
        int levels = caches.size();
        int count = streams.size();
        List<String> names = new ArrayList<>(levels + 1);
        double[] bytes = new double[levels + 1];
        double[] missRates = new double[levels + 1];
        double[] gatherShares = new double[levels + 1];
        double[] arriving = new double[count];
        double[] hit = new double[count];
        int[] order = new int[count];
        for (int s = 0; s < count; s++) {
            DataStream d = streams.get(s);
            arriving[s] = features.indexBytes() || !d.index() ? d.requestBytes() : 0;
        }
        for (int level = 0; level < levels; level++) {
            CacheLevel c = caches.get(level);
            names.add(c.name());
            int instances = c.shared() ? 1 : spec.privateCacheInstances();
            boolean skipL1 = level == 0 && levels > 1;
            hottestFirst(streams, arriving, order);
            double left = c.sizeBytes();
            for (int i = 0; i < count; i++) {
                int s = order[i];
                DataStream d = streams.get(s);
                double ws = d.replicated() ? d.workingSetBytes() : d.workingSetBytes() / instances;
                double given = Math.min(ws, left);
                // B rows gathered at random places fill the sets at random (RowGatherReuse); a block swept in order fills them evenly
                if (ws <= 0) hit[s] = 1;
                else if (d.rowGather() && setAssociative) hit[s] = RowGatherReuse.hitShare(given, ws, d.sweepBytes(), d.touchShare(), c.lineBytes(), (int) c.sets());
                else hit[s] = RowGatherReuse.hitShare(given, ws, d.sweepBytes(), d.touchShare());
                left -= given;
            }
            double in = 0;
            double out = 0;
            double gathered = 0;
            for (int s = 0; s < count; s++) {
                DataStream d = streams.get(s);
                if (skipL1 && d.bypassL1()) continue; // reaches the next level untouched
                double a = arriving[s];
                double perInstance = d.replicated() ? d.footprintBytes() : d.footprintBytes() / instances;
                double compulsory = Math.min(a, perInstance * instances);
                double missed = features.cacheMisses() ? Math.max(compulsory, a * (1 - hit[s])) : compulsory;
                in += a;
                if (d.rowGather()) gathered += a;
                out += missed;
                arriving[s] = missed;
            }
            bytes[level] = in;
            missRates[level] = in > 0 ? out / in : 0;
            gatherShares[level] = in > 0 ? gathered / in : 0;
        }
        names.add("DRAM");
        double dram = 0;
        double gatheredAtDram = 0;
        for (int s = 0; s < count; s++) {
            dram += arriving[s];
            if (streams.get(s).rowGather()) gatheredAtDram += arriving[s];
        }
        bytes[levels] = dram;
        gatherShares[levels] = dram > 0 ? gatheredAtDram / dram : 0;
        return new Traffic(names, bytes, missRates, "analytical", 0, gatherShares, null);
    }

    /** Insertion sort of stream indices by requests per distinct byte, descending (a handful of streams). */
    private static void hottestFirst(List<DataStream> streams, double[] arriving, int[] order) {
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
            double key = density(streams.get(i), arriving[i]);
            int j = i - 1;
            while (j >= 0 && density(streams.get(order[j]), arriving[order[j]]) < key) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = i;
        }
    }

    private static double density(DataStream d, double arriving) {
        return d.footprintBytes() > 0 ? arriving / d.footprintBytes() : 0;
    }
}
