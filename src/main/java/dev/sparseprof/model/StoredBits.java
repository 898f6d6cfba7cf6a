package dev.sparseprof.model;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Non-zero bitmaps straight from stored floating-point bits, with the Vector API over the (mapped)
 * segment: an fp16 or bf16 element is zero exactly when its bits without the sign are 0 (likewise
 * fp32), so a row's bitmap needs one load, one AND and one compare per vector, with no conversion
 * to float and no row copy. NaN and subnormals count as non-zero, -0.0 as zero, exactly as
 * {@code value != 0.0f} after decoding.
 *
 * <p>Start-up: until C2 compiles them, Vector API calls run their Java fallbacks, about 2000x slower
 * than the compiled loop (a 4096-column fp16 row: 670 us against 0.3 us on the build VM), and a
 * one-shot scan pays that for its first few thousand rows, about a second per thread. So the first
 * {@value #WARM_ROWS} rows of the process take their first 64 columns in vectors
 * (enough calls and loop trips for the JIT to compile the vector loop) and the rest with scalar SWAR
 * over 64-bit words, which the interpreter and C1 run at a tolerable speed; later rows go all in
 * vectors. The bits are the same either way; the row count is a shared counter updated without
 * synchronization (a lost update only moves the switch by a row). The launcher has C2 compile
 * {@code halvesVector} and {@code singlesVector} after 1% of the usual calls
 * ({@code CompileThresholdScaling} 0.01, see {@code ./sparseprof}): at the default thresholds the
 * head's fallbacks ran about 3750 times, long enough for C2 to compile them too, ahead of the loop.
 */
final class StoredBits {
    private static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    /** Rows scanned mostly in SWAR while the vector loop compiles (well past C2's 5000-invocation threshold). */
    static final int WARM_ROWS = 20_000;
    private static int rowsSeen;

    private StoredBits() {}

    /** The bitmap of {@code cols} 16-bit floats from {@code byteOffset}; returns the non-zero count. */
    static int halves(MemorySegment data, long byteOffset, int cols, long[] words) {
        if (rowsSeen < WARM_ROWS) return warmingHalves(data, byteOffset, cols, words);
        return halvesVector(data, byteOffset, cols, words);
    }

    /** The bitmap of {@code cols} fp32 values from {@code byteOffset}; returns the non-zero count. */
    static int singles(MemorySegment data, long byteOffset, int cols, long[] words) {
        if (rowsSeen < WARM_ROWS) return warmingSingles(data, byteOffset, cols, words);
        return singlesVector(data, byteOffset, cols, words);
    }

    /**
     * Whole 64-column words are built in a register from {@code 64 / lanes} vectors (a constant trip
     * count the JIT unrolls) and stored once, so no word is read back while a store to it is in
     * flight; the word's bit count is summed on the way.
     */
    private static int halvesVector(MemorySegment data, long byteOffset, int cols, long[] words) {
        int lanes = SHORTS.length();
        int fullWords = cols >>> 6;
        int nnz = 0;
        long at = byteOffset;
        for (int w = 0; w < fullWords; w++) {
            long word = 0;
            for (int k = 0; k < 64; k += lanes) {
                word |= ShortVector.fromMemorySegment(SHORTS, data, at + 2L * k, LE).and((short) 0x7fff)
                        .compare(VectorOperators.NE, (short) 0).toLong() << k;
            }
            words[w] = word;
            nnz += Long.bitCount(word);
            at += 128;
        }
        if ((cols & 63) != 0) {
            long word = 0;
            for (int c = fullWords << 6; c < cols; c++) {
                if ((data.get(LittleEndian.I16, byteOffset + 2L * c) & 0x7fff) != 0) word |= 1L << c;
            }
            words[fullWords] = word;
            nnz += Long.bitCount(word);
        }
        return nnz;
    }

    private static int singlesVector(MemorySegment data, long byteOffset, int cols, long[] words) {
        int lanes = INTS.length();
        int fullWords = cols >>> 6;
        int nnz = 0;
        long at = byteOffset;
        for (int w = 0; w < fullWords; w++) {
            long word = 0;
            for (int k = 0; k < 64; k += lanes) {
                word |= IntVector.fromMemorySegment(INTS, data, at + 4L * k, LE).and(0x7fffffff)
                        .compare(VectorOperators.NE, 0).toLong() << k;
            }
            words[w] = word;
            nnz += Long.bitCount(word);
            at += 256;
        }
        if ((cols & 63) != 0) {
            long word = 0;
            for (int c = fullWords << 6; c < cols; c++) {
                if ((data.get(LittleEndian.I32, byteOffset + 4L * c) & 0x7fffffff) != 0) word |= 1L << c;
            }
            words[fullWords] = word;
            nnz += Long.bitCount(word);
        }
        return nnz;
    }

    /** A start-up row: its first 64 columns through the vector loop (so that it compiles), the rest in SWAR. */
    private static int warmingHalves(MemorySegment data, long byteOffset, int cols, long[] words) {
        rowsSeen++;
        int head = Math.min(cols & ~63, 64);
        halvesVector(data, byteOffset, head, words);
        int nWords = (cols + 63) >>> 6;
        for (int w = (head + 63) >>> 6; w < nWords; w++) words[w] = 0L;
        int c = halvesSwar(data, byteOffset, head, cols, words);
        for (; c < cols; c++) {
            if ((data.get(LittleEndian.I16, byteOffset + 2L * c) & 0x7fff) != 0) words[c >>> 6] |= 1L << c;
        }
        return count(words, nWords);
    }

    private static int warmingSingles(MemorySegment data, long byteOffset, int cols, long[] words) {
        rowsSeen++;
        int head = Math.min(cols & ~63, 64);
        singlesVector(data, byteOffset, head, words);
        int nWords = (cols + 63) >>> 6;
        for (int w = (head + 63) >>> 6; w < nWords; w++) words[w] = 0L;
        int c = singlesSwar(data, byteOffset, head, cols, words);
        for (; c < cols; c++) {
            if ((data.get(LittleEndian.I32, byteOffset + 4L * c) & 0x7fffffff) != 0) words[c >>> 6] |= 1L << c;
        }
        return count(words, nWords);
    }

    /**
     * Bits of columns {@code [from, ...)} (from a multiple of 4) four at a time: in each 16-bit field
     * of {@code x} (signs cleared), adding 0x7fff carries into the field's top bit exactly when the
     * field is not 0, never into the next field; the four top bits are then gathered by one multiply
     * (bit 16i moves to 45 + i, every other product lands outside 45..48). Returns the first column left.
     */
    static int halvesSwar(MemorySegment data, long byteOffset, int from, int cols, long[] words) {
        int c = from;
        for (; c + 4 <= cols; c += 4) {
            long x = data.get(LittleEndian.I64, byteOffset + 2L * c) & 0x7fff7fff7fff7fffL;
            long top = ((x + 0x7fff7fff7fff7fffL) | x) & 0x8000800080008000L;
            long four = (((top >>> 15) * 0x0000200040008001L) >>> 45) & 0xfL;
            words[c >>> 6] |= four << (c & 63);
        }
        return c;
    }

    /** As {@link #halvesSwar} for two fp32 fields per word: the top bits 31 and 63 become bits 0 and 1. */
    static int singlesSwar(MemorySegment data, long byteOffset, int from, int cols, long[] words) {
        int c = from;
        for (; c + 2 <= cols; c += 2) {
            long x = data.get(LittleEndian.I64, byteOffset + 4L * c) & 0x7fffffff7fffffffL;
            long top = ((x + 0x7fffffff7fffffffL) | x) & 0x8000000080000000L;
            long two = ((top >>> 31) | (top >>> 62)) & 0x3L;
            words[c >>> 6] |= two << (c & 63);
        }
        return c;
    }

    private static int count(long[] words, int nWords) {
        int n = 0;
        for (int w = 0; w < nWords; w++) n += Long.bitCount(words[w]);
        return n;
    }
}
