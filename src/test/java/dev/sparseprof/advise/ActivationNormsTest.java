package dev.sparseprof.advise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.sparse.prune.PruneResult;
import dev.sparseprof.sparse.prune.PruneScope;
import dev.sparseprof.sparse.prune.PruneSpec;
import dev.sparseprof.sparse.stats.NmPattern;
import org.junit.jupiter.api.Test;

/** Wanda's selection against a hand-worked oracle: the survivors are the largest |W_ij| * ||X_j||, not the largest |W_ij|. */
class ActivationNormsTest {
    private static final float[] W = {
        4, 3, -2, 1,
        -1, 2, 3, 4,
    };
    private static final float[] X = {0.1f, 1, 1, 10};

    @Test
    void unstructuredKeepsTheLargestScores() {
        float[] w = W.clone();
        // scores: 0.4 3 2 10 / 0.1 2 3 40; the 4 largest: 10, 40, 3, 3 (row 0 col 1 and row 1 col 2)
        PruneResult r = ActivationNorms.prune(new PruneSpec.Magnitude(0.5, PruneScope.LAYER), "w", 2, 4, w, X);
        assertArrayEquals(new float[] {0, 3, 0, 1, 0, 0, 3, 4}, w);
        assertEquals(8, r.nonZerosBefore());
        assertEquals(4, r.nonZerosAfter());
        float[] m = W.clone();
        ActivationNorms.prune(new PruneSpec.Magnitude(0.5, PruneScope.LAYER), "w", 2, 4, m, null);
        assertArrayEquals(new float[] {4, 3, 0, 0, 0, 0, 3, 4}, m, "by magnitude alone the column of small inputs survives");
    }

    @Test
    void twoFourKeepsTheTwoLargestScoresOfEachGroup() {
        float[] w = W.clone();
        ActivationNorms.prune(new PruneSpec.Nm(NmPattern.TWO_FOUR), "w", 2, 4, w, X);
        assertArrayEquals(new float[] {0, 3, 0, 1, 0, 0, 3, 4}, w);
    }

    @Test
    void aZeroNormChannelIsPrunedFirst() {
        float[] w = W.clone();
        ActivationNorms.prune(new PruneSpec.Rows(0.5), "w", 2, 4, w, new float[] {0, 0, 0, 1});
        // row scores: ||(0,0,0,1)|| = 1 and ||(0,0,0,4)|| = 4: row 0 goes; in row 1 the weights of the
        // always-zero input channels have a zero score and are zeroed too (they add nothing to the output)
        assertArrayEquals(new float[] {0, 0, 0, 0, 0, 0, 0, 4}, w);
    }
}
