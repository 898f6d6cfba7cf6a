package dev.sparseprof.perfmodel.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The CTA start order of CUTLASS 2's GemmIdentityThreadblockSwizzle<N> and CUTLASS 3's persistent raster. */
class TileScheduleTest {
    private static long[] tile(TileSchedule s, long slot) {
        long[] t = new long[3];
        assertTrue(s.tile(slot, t), "slot " + slot + " has a tile");
        return t;
    }

    @Test
    void identity8WalksDownMOverABandOfEightNTiles() {
        TileSchedule s = new TileSchedule(4, 16, 1, 8, false, 8);
        assertEquals(3, s.logTile());
        assertEquals(4 * 8 * 2, s.slots());
        // x fastest: x = m << 3 | n % 8, so the first 8 blocks are row 0's first 8 N tiles, then row 1's.
        for (int j = 0; j < 8; j++) assertArrayEquals(new long[] {0, j, 0}, tile(s, j));
        assertArrayEquals(new long[] {1, 0, 0}, tile(s, 8));
        assertArrayEquals(new long[] {3, 7, 0}, tile(s, 31));
        // y = 1: the second band of N tiles.
        assertArrayEquals(new long[] {0, 8, 0}, tile(s, 32));
    }

    @Test
    void everyTileOnceAndEmptyBlocksPastTheLastNTile() {
        for (long tilesN : new long[] {1, 2, 3, 5, 6, 13}) {
            TileSchedule s = new TileSchedule(5, tilesN, 2, 4, false, 8);
            Set<String> seen = new HashSet<>();
            long[] t = new long[3];
            long empty = 0;
            for (long i = 0; i < s.slots(); i++) {
                if (s.tile(i, t)) assertTrue(seen.add(t[0] + "," + t[1] + "," + t[2]), "twice: " + t[0] + "," + t[1]);
                else empty++;
            }
            assertEquals(5 * tilesN * 2, seen.size(), "tiles N " + tilesN);
            assertEquals(s.slots() - 5 * tilesN * 2, empty);
        }
        // 3 N tiles take log 2: a band of 4, the fourth block of each row empty.
        TileSchedule s = new TileSchedule(2, 3, 1, 4, false, 8);
        assertFalse(s.tile(3, new long[3]));
    }

    @Test
    void persistentRasterIsAlongMWhenThereAreMoreNTiles() {
        TileSchedule alongM = new TileSchedule(4, 8, 1, 132, true, 8);
        assertArrayEquals(new long[] {1, 0, 0}, tile(alongM, 1));
        assertArrayEquals(new long[] {0, 1, 0}, tile(alongM, 4));
        TileSchedule alongN = new TileSchedule(86, 8, 1, 132, true, 8);
        assertArrayEquals(new long[] {0, 1, 0}, tile(alongN, 1));
        assertArrayEquals(new long[] {1, 0, 0}, tile(alongN, 8));
    }

    @Test
    void roundsCoverAnOperandWhenTheRasterSweepsItWithinARound() {
        // H100 4096^2 at N = 2048 in 128x256 tiles: 32 x 8 tiles along N, 132 a round: every round reads all of B.
        TileSchedule h = new TileSchedule(32, 8, 1, 132, true, 8);
        assertTrue(h.roundsCoverN());
        assertFalse(h.roundsCoverM());
        // Along M (more N tiles than M tiles): every round reads all of A.
        assertTrue(new TileSchedule(4, 8, 1, 132, true, 8).roundsCoverM());
        // Identity8 with 16 N tiles: two bands, a round walks down M over one: neither operand whole.
        TileSchedule two = new TileSchedule(44, 16, 1, 216, false, 8);
        assertFalse(two.roundsCoverN());
        assertFalse(two.roundsCoverM());
        // Four N tiles take a band of 4, the whole of N.
        assertTrue(new TileSchedule(172, 4, 1, 216, false, 8).roundsCoverN());
    }

    @Test
    void splitsStartOneAfterTheOtherSoARoundReadsChunksOfFewPlanes() {
        // 32 x 2 tiles, split-K 5 (z outermost), 108 CTAs a round: round 1 = plane 0 (32 A, 2 B chunks) and 44
        // tiles of plane 1 (22 A, 2 B); round 2 = the other 20 of plane 1 (10, 2), plane 2 (32, 2), 24 of
        // plane 3 (12, 2); round 3 = the other 40 of plane 3 (20, 2), plane 4 (32, 2).
        long[] reads = new TileSchedule(32, 2, 5, 108, false, 8).chunkReadsPerRound();
        assertArrayEquals(new long[] {32 + 22 + 10 + 32 + 12 + 20 + 32, 2 * 7}, reads);
        // One round for the whole grid: every chunk once.
        assertArrayEquals(new long[] {4 * 3, 3 * 3}, new TileSchedule(4, 3, 3, 1000, false, 8).chunkReadsPerRound());
    }

    @Test
    void theSwizzleWidthCapsTheBand() {
        // GemmIdentityThreadblockSwizzle<> (N = 1, PyTorch's 2:4 kernels): no band, CTAs walk down M one N
        // tile at a time, so A's strips come back after tilesM CTAs.
        TileSchedule one = new TileSchedule(48, 6144, 1, 108, false, 1);
        assertEquals(0, one.logTile());
        assertEquals(48, one.passCtas());
        assertArrayEquals(new long[] {1, 0, 0}, tile(one, 1));
        assertArrayEquals(new long[] {0, 1, 0}, tile(one, 48));
        assertTrue(one.roundsCoverM());
        // Identity8 on the same grid: bands of 8 N tiles, a pass of 384 CTAs, longer than a round.
        TileSchedule eight = new TileSchedule(48, 6144, 1, 108, false, 8);
        assertEquals(384, eight.passCtas());
        assertFalse(eight.roundsCoverM());
        // Identity4 caps the band at 4 N tiles; SM90's raster has one-tile passes along its walk.
        assertEquals(2, new TileSchedule(8, 16, 1, 8, false, 4).logTile());
        TileSchedule alongN = new TileSchedule(86, 8, 1, 132, true, 8);
        assertFalse(alongN.walksM());
        assertEquals(8, alongN.passCtas(), "along N: a pass is one row of N tiles");
    }
}
