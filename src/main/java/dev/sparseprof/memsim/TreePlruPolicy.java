package dev.sparseprof.memsim;

/**
 * Tree pseudo-LRU: a binary tree of direction bits over the ways (padded to a power of two; the
 * padding leaves are never chosen, so 12-way sets work). An access points every bit on its path
 * away from the accessed way; the victim follows the bits from the root.
 *
 * <p>Node {@code n} (heap numbering from 1) has children {@code 2n} and {@code 2n+1}; leaf of way
 * {@code w} is {@code leaves + w}. Bit 0 means "the victim is on the left".
 */
public final class TreePlruPolicy implements ReplacementPolicy {
    private final int ways;
    private final int leaves;
    private final byte[] bits; // [set * leaves + node], node in [1, leaves)

    public TreePlruPolicy(int sets, int ways, long seed) {
        this.ways = ways;
        this.leaves = Integer.highestOneBit(Math.max(1, ways - 1)) << (ways > 1 ? 1 : 0);
        this.bits = new byte[sets * Math.max(1, leaves)];
    }

    @Override
    public int victim(int set) {
        if (ways == 1) return 0;
        int base = set * leaves;
        int node = 1;
        int lo = 0;
        int span = leaves;
        while (node < leaves) {
            span >>= 1;
            boolean right = bits[base + node] != 0;
            if (right && lo + span >= ways) right = false; // right subtree holds only padding
            if (right) lo += span;
            node = 2 * node + (right ? 1 : 0);
        }
        return lo;
    }

    private void touch(int set, int way) {
        if (ways == 1) return;
        int base = set * leaves;
        int leaf = leaves + way;
        while (leaf > 1) {
            int parent = leaf >>> 1;
            // came from the left child: the victim side is now the right (1), and vice versa
            bits[base + parent] = (byte) ((leaf & 1) == 0 ? 1 : 0);
            leaf = parent;
        }
    }

    @Override
    public void onHit(int set, int way) {
        touch(set, way);
    }

    @Override
    public void onFill(int set, int way) {
        touch(set, way);
    }

    @Override
    public void onInvalidate(int set, int way) {
        // the empty way is refilled first by the cache's free list; the bits need no change
    }
}
