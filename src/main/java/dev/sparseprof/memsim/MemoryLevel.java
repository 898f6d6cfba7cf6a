package dev.sparseprof.memsim;

import dev.sparseprof.trace.ArrayRole;

/**
 * What a cache sends its misses and write-backs to: the next cache or main memory.
 *
 * <p>Contract: {@link #fetch} reads {@code [address, address + sizeBytes)} for the level above and
 * answers whether the data comes back dirty (only an exclusive level, handing up a dirty line,
 * says true). {@link #write} takes a write-back or write-through store. {@link #acceptVictim}
 * takes a line the level above evicted; it is called for clean lines only where
 * {@link #takesCleanVictims()} is true (exclusive victim caches), for dirty ones always.
 */
public interface MemoryLevel {
    boolean fetch(long address, int sizeBytes, ArrayRole role);

    void write(long address, int sizeBytes, ArrayRole role);

    void acceptVictim(long address, int sizeBytes, boolean dirty, ArrayRole role);

    boolean takesCleanVictims();

    /**
     * A level that holds no lines of the level above (main memory, or whatever routes to it): a
     * dirty victim is a {@link #write}, a clean one is dropped and never offered.
     */
    interface Sink extends MemoryLevel {
        @Override
        default void acceptVictim(long address, int sizeBytes, boolean dirty, ArrayRole role) {
            if (dirty) write(address, sizeBytes, role);
        }

        @Override
        default boolean takesCleanVictims() {
            return false;
        }
    }
}
