package dev.sparseprof.perfmodel;

import dev.sparseprof.memsim.Cache;
import dev.sparseprof.memsim.CacheConfig;
import dev.sparseprof.memsim.MemoryLevel;
import dev.sparseprof.trace.ArrayRole;

/**
 * An NVIDIA A100/H100-style L2 of two partitions, each half the capacity, for the dense GPU check.
 *
 * <p>What it rests on. NVIDIA's A100 whitepaper (2020, "A100 L2 cache", quoted in NVIDIA's developer
 * forum, forums.developer.nvidia.com/t/meanings-of-l2-l2-copy/200725): the L2 "is divided into two
 * partitions to enable higher bandwidth and lower latency memory access. Each L2 partition localizes
 * and caches data for memory accesses from SMs in the GPCs directly connected to the partition",
 * kept coherent by hardware. Z. Jia's GTC 2021 talk "Dissecting the Ampere GPU Architecture through
 * Microbenchmarking" (S33322; read through a listener's notes, kayzee3327.github.io/the-cuda-cache,
 * not the slides) measured how: every address has one home partition, where a DRAM fill goes (the
 * line does not move to the requester's side); a request looks in the near partition, then the far
 * one (about 1.75x the latency), and a far hit is copied into the near partition, so a line both
 * halves read is held twice. H100's 50 MB L2 is taken to work the same way (U: its whitepaper calls
 * it partitioned too; no measurement of its copies was retrieved).
 *
 * <p>So: a read from side {@code s} of a line homed on {@code h} hits when side {@code s} holds it;
 * else it goes to {@code h} (a miss there is DRAM), and if {@code h} held it, it is copied into
 * {@code s} (fabric traffic, not DRAM). Writes go to the home partition (the point of coherence; the
 * GEMM writes each C tile and partial before anything reads it, so no stale copy exists). DRAM is
 * the home partitions' fills and write-backs. The home of a line is an address hash (NVIDIA's is not
 * published; any even one spreads the footprint half and half, which is what capacity sees).
 */
final class PartitionedL2 {
    private final Cache[] parts = new Cache[2];
    private final Router[] routers = new Router[2];
    private final int lineShift;

    /** Two partitions, each of {@code half}'s geometry (half the L2's sets, its ways, lines and sectors). */
    PartitionedL2(CacheConfig half) {
        lineShift = Integer.numberOfTrailingZeros(half.lineBytes());
        for (int s = 0; s < 2; s++) {
            routers[s] = new Router(s);
            parts[s] = new Cache(half.withName("L2." + s), routers[s]);
        }
    }

    /** The partition that owns the line of {@code address}: a 64-bit mix (MurmurHash3's fmix64) of its line number, lowest bit. */
    int home(long address) {
        long x = address >>> lineShift;
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return (int) (x & 1);
    }

    /** A read of {@code [address, address + size)} from an SM on side {@code side}, split at lines. */
    void read(int side, long address, int size, ArrayRole role) {
        long last = address + size - 1;
        long a = address;
        while (a <= last) {
            long end = Math.min(last + 1, ((a >>> lineShift) + 1 << lineShift));
            readLine(side, a, (int) (end - a), role);
            a = end;
        }
    }

    private void readLine(int side, long a, int size, ArrayRole role) {
        int h = home(a);
        if (h == side || parts[side].holds(a, size)) {
            parts[side].access(false, a, size, role);
            return;
        }
        boolean farHit = parts[h].holds(a, size);
        parts[h].access(false, a, size, role);
        if (farHit) parts[side].access(false, a, size, role);
    }

    /** A write, to the home partition of each line. */
    void write(long address, int size, ArrayRole role) {
        long last = address + size - 1;
        long a = address;
        while (a <= last) {
            long end = Math.min(last + 1, ((a >>> lineShift) + 1 << lineShift));
            parts[home(a)].access(true, a, (int) (end - a), role);
            a = end;
        }
    }

    /** The final write-back of dirty lines, both partitions. */
    void flush() {
        for (Cache c : parts) c.flush();
    }

    /** DRAM bytes read so far (the home partitions' fills). */
    long dramReadBytes() {
        return routers[0].dramRead + routers[1].dramRead;
    }

    /** DRAM bytes written so far (write-backs). */
    long dramWriteBytes() {
        return routers[0].dramWrite + routers[1].dramWrite;
    }

    /** DRAM bytes written so far for lines of {@code role}. */
    long dramWriteBytes(ArrayRole role) {
        return routers[0].writes[role.ordinal()] + routers[1].writes[role.ordinal()];
    }

    /** Bytes copied between the partitions (far hits). */
    long fabricBytes() {
        return routers[0].fabric + routers[1].fabric;
    }

    /** Below partition {@code side}: DRAM for the lines it owns, the other partition's copy for the rest. */
    private final class Router implements MemoryLevel.Sink {
        private final int side;
        long dramRead;
        long dramWrite;
        long fabric;
        final long[] writes = new long[ArrayRole.values().length];

        Router(int side) {
            this.side = side;
        }

        @Override
        public boolean fetch(long address, int sizeBytes, ArrayRole role) {
            if (home(address) == side) dramRead += sizeBytes;
            else fabric += sizeBytes; // a far hit's copy: the replay read the home partition first
            return false;
        }

        @Override
        public void write(long address, int sizeBytes, ArrayRole role) {
            dramWrite += sizeBytes; // only lines written here are dirty, and writes go home
            writes[role.ordinal()] += sizeBytes;
        }
    }
}
