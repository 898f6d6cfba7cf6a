package dev.sparseprof.memsim;

/**
 * The first layer of a cache level (see {@link Cache}): how an address decodes into line, set and
 * sectors, as the hardware's index and offset bits do. It holds no state that changes.
 *
 * <p>Contract: {@code line = address >>> lineShift}; {@link #setOf} is {@code line mod sets}
 * (a mask for power-of-two set counts, Lemire's remainder otherwise); {@link #sectorMask} is the set
 * of sectors of its line that {@code [address, address + sizeBytes)} touches (bit 0 for
 * unsectored lines), for a range within one line.
 */
abstract sealed class CacheGeometry permits TagStore {
    final CacheConfig config;
    final int sets;
    final int ways;
    final int lineShift;
    final int lineBytes;
    final int sectorShift;
    final int sectorsPerLine;
    final long allSectors;
    final boolean setsPowerOfTwo;
    final int setMask;
    final long setReciprocal; // ceil(2^64 / sets), for set counts that are not powers of two

    CacheGeometry(CacheConfig config) {
        this.config = config;
        this.sets = config.sets();
        this.ways = config.ways();
        this.lineBytes = config.lineBytes();
        this.lineShift = Integer.numberOfTrailingZeros(lineBytes);
        this.sectorsPerLine = config.sectorsPerLine();
        this.sectorShift = lineShift - Integer.numberOfTrailingZeros(sectorsPerLine);
        this.allSectors = sectorsPerLine == 64 ? -1L : (1L << sectorsPerLine) - 1;
        this.setsPowerOfTwo = Integer.bitCount(sets) == 1;
        this.setMask = sets - 1;
        this.setReciprocal = Long.divideUnsigned(-1L, sets) + 1;
    }

    public CacheConfig config() {
        return config;
    }

    public String name() {
        return config.name();
    }

    final int setOf(long line) {
        return setsPowerOfTwo ? (int) line & setMask : remainder(line, sets, setReciprocal);
    }

    /**
     * {@code line mod sets} by multiplications for lines below 2^32 (Lemire, Kaser and Kurz, "Faster
     * remainder by direct computation", 2019: exact for every 32-bit dividend and divisor), by a
     * division above. {@code reciprocal} is {@code ceil(2^64 / sets)}.
     */
    static int remainder(long line, int sets, long reciprocal) {
        if ((line >>> 32) != 0) return (int) Long.remainderUnsigned(line, sets);
        return (int) Math.unsignedMultiplyHigh(reciprocal * line, sets);
    }

    final long sectorMask(long address, int sizeBytes) {
        if (sectorsPerLine == 1) return 1L;
        int first = (int) (address >>> sectorShift) & (sectorsPerLine - 1);
        int last = (int) ((address + sizeBytes - 1) >>> sectorShift) & (sectorsPerLine - 1);
        long upTo = last == 63 ? -1L : (2L << last) - 1;
        return upTo & -(1L << first);
    }
}
