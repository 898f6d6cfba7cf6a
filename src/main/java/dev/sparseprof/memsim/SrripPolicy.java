package dev.sparseprof.memsim;

import java.util.Arrays;

/**
 * Static re-reference interval prediction (Jaleel et al., ISCA 2010) with 2-bit RRPVs: fills
 * insert at "long" (2), hits promote to "near" (0), the victim is the first way at "distant" (3),
 * ageing the whole set until one is.
 */
public final class SrripPolicy implements ReplacementPolicy {
    private static final byte DISTANT = 3;
    private static final byte LONG = 2;
    private final int ways;
    private final byte[] rrpv;

    public SrripPolicy(int sets, int ways, long seed) {
        this.ways = ways;
        this.rrpv = new byte[sets * ways];
        Arrays.fill(rrpv, DISTANT);
    }

    /** A fill inserts at 2 and the first hit promotes to 0: repeated touches are not idempotent. */
    @Override
    public boolean repeatedHitIsNoOp() {
        return false;
    }

    @Override
    public int victim(int set) {
        int base = set * ways;
        while (true) {
            for (int w = 0; w < ways; w++) if (rrpv[base + w] == DISTANT) return w;
            for (int w = 0; w < ways; w++) rrpv[base + w]++;
        }
    }

    @Override
    public void onHit(int set, int way) {
        rrpv[set * ways + way] = 0;
    }

    @Override
    public void onFill(int set, int way) {
        rrpv[set * ways + way] = LONG;
    }

    @Override
    public void onInvalidate(int set, int way) {
        rrpv[set * ways + way] = DISTANT;
    }
}
