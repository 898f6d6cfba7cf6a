package dev.sparseprof.memsim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RecencyListTest {
    /**
     * The packed layout (1, 7, 8 and 16 ways: every nibble position, the last one included) and
     * the linked list agree with a reference LRU order through touches, removals and the fast
     * path's hits and fills: tail, the order from the tail, and the fill way.
     */
    @Test
    void bothLayoutsKeepTheLruOrder() {
        for (int ways : new int[] {1, 2, 7, 8, 16}) {
            int sets = 3;
            RecencyList packed = new RecencyList(sets, ways);
            RecencyList fast = new RecencyList(sets, ways); // driven through touch / lastWay / fillLast
            RecencyList list = new RecencyList(sets, RecencyList.PACKED_WAYS + 1); // list layout, same ways used
            assertTrue(packed.packed());
            long[][] lastUse = new long[sets][ways];
            SplittableRandom rnd = new SplittableRandom(5 + ways);
            for (int t = 1; t <= 20000; t++) {
                int set = rnd.nextInt(sets);
                int way = rnd.nextInt(ways);
                int op = rnd.nextInt(10);
                if (op == 0) {
                    packed.remove(set, way);
                    fast.remove(set, way);
                    list.remove(set, way);
                    lastUse[set][way] = 0;
                } else if (op < 4) {
                    // a fill: an empty way if any (the fast path's last position), else the least recent
                    int empty = -1;
                    for (int w = 0; w < ways && empty < 0; w++) if (lastUse[set][w] == 0) empty = w;
                    int fill = fast.lastWay(set);
                    if (empty >= 0) assertEquals(0, lastUse[set][fill], "fill way is empty, " + ways + " ways at " + t);
                    else assertEquals(packed.tail(set), fill, "fill way is the tail, " + ways + " ways at " + t);
                    fast.fillLast(set, lastUse[set][fill] == 0);
                    packed.toFront(set, fill);
                    list.toFront(set, fill);
                    lastUse[set][fill] = t;
                } else {
                    if (lastUse[set][way] != 0) fast.touch(set, way);
                    else fast.toFront(set, way);
                    packed.toFront(set, way);
                    list.toFront(set, way);
                    lastUse[set][way] = t;
                }
                int[] expected = byAge(lastUse[set]);
                String at = ways + " ways at " + t;
                assertEquals(expected.length == 0 ? -1 : expected[0], packed.tail(set), "packed tail, " + at);
                assertEquals(expected.length == 0 ? -1 : expected[0], list.tail(set), "list tail, " + at);
                assertArrayEquals(expected, fromTail(packed, set, ways), "packed order, " + at);
                assertArrayEquals(expected, fromTail(fast, set, ways), "fast order, " + at);
                assertArrayEquals(expected, fromTail(list, set, ways), "list order, " + at);
            }
        }
    }

    private static int[] byAge(long[] lastUse) {
        return IntStream.range(0, lastUse.length).filter(w -> lastUse[w] != 0).boxed()
                .sorted((a, b) -> Long.compare(lastUse[a], lastUse[b])).mapToInt(Integer::intValue).toArray();
    }

    private static int[] fromTail(RecencyList l, int set, int ways) {
        int[] out = new int[ways];
        return Arrays.copyOf(out, l.fromTail(set, out));
    }
}
