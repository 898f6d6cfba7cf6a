package dev.sparseprof.memsim;

import java.util.Arrays;

/**
 * An open-addressing map from non-negative {@code long} keys (line addresses) to {@code int}
 * values, linear probing with backward-shift deletion; no boxing. {@link #get} answers
 * {@link #MISSING} for an absent key. Slots can be walked with {@link #capacity()},
 * {@link #keyAt} ({@link #EMPTY} for a free slot) and {@link #valueAt}.
 */
final class LongIntHashMap {
    static final long EMPTY = -1L;
    static final int MISSING = -1;

    private long[] keys;
    private int[] values;
    private int mask;
    private int size;

    LongIntHashMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new int[cap];
        Arrays.fill(keys, EMPTY);
        mask = cap - 1;
    }

    private int slot(long key) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> 33) & mask;
    }

    int get(long key) {
        for (int i = slot(key); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) return values[i];
            if (k == EMPTY) return MISSING;
        }
    }

    void put(long key, int value) {
        int i = slot(key);
        while (true) {
            long k = keys[i];
            if (k == key) {
                values[i] = value;
                return;
            }
            if (k == EMPTY) break;
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        if (++size > (mask + 1) * 5 / 8) grow();
    }

    void remove(long key) {
        int i = slot(key);
        while (true) {
            long k = keys[i];
            if (k == EMPTY) return;
            if (k == key) break;
            i = (i + 1) & mask;
        }
        size--;
        // backward-shift: move later entries of the probe run into the hole
        int hole = i;
        for (int j = (hole + 1) & mask; keys[j] != EMPTY; j = (j + 1) & mask) {
            int home = slot(keys[j]);
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        keys[hole] = EMPTY;
    }

    int size() {
        return size;
    }

    int capacity() {
        return keys.length;
    }

    long keyAt(int slot) {
        return keys[slot];
    }

    int valueAt(int slot) {
        return values[slot];
    }

    void setValueAt(int slot, int value) {
        values[slot] = value;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        Arrays.fill(keys, EMPTY);
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) if (oldKeys[i] != EMPTY) put(oldKeys[i], oldValues[i]);
    }
}
