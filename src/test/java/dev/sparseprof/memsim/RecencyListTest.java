package dev.sparseprof.memsim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RecencyListTest {
    /** Stamps (renumbered every 50 touches) and the linked list agree with a reference LRU order. */
    @Test
    void bothLayoutsKeepTheLruOrderAcrossRenumbering() {
        int sets = 3;
        int ways = 8;
        RecencyList stamps = new RecencyList(sets, ways, 50);
        RecencyList big = new RecencyList(sets, RecencyList.STAMP_WAYS + 1); // list layout
        long[][] lastUse = new long[sets][ways];
        SplittableRandom rnd = new SplittableRandom(5);
        for (int t = 1; t <= 5000; t++) {
            int set = rnd.nextInt(sets);
            int way = rnd.nextInt(ways);
            if (rnd.nextInt(10) == 0) {
                stamps.remove(set, way);
                big.remove(set, way);
                lastUse[set][way] = 0;
            } else {
                stamps.toFront(set, way);
                big.toFront(set, way);
                lastUse[set][way] = t;
            }
            int expected = -1;
            for (int w = 0; w < ways; w++) if (lastUse[set][w] != 0 && (expected < 0 || lastUse[set][w] < lastUse[set][expected])) expected = w;
            assertEquals(expected, stamps.tail(set), "stamps at " + t);
            assertEquals(expected, big.tail(set), "list at " + t);
        }
    }
}
