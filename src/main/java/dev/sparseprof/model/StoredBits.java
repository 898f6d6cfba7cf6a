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
 */
final class StoredBits {
    private static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private StoredBits() {}

    /** The bitmap of {@code cols} 16-bit floats from {@code byteOffset}; returns the non-zero count. */
    static int halves(MemorySegment data, long byteOffset, int cols, long[] words) {
        int nWords = (cols + 63) >>> 6;
        for (int w = 0; w < nWords; w++) words[w] = 0L;
        int lanes = SHORTS.length();
        int bound = cols - cols % lanes;
        int c = 0;
        for (; c < bound; c += lanes) {
            long bits = ShortVector.fromMemorySegment(SHORTS, data, byteOffset + 2L * c, LE).and((short) 0x7fff)
                    .compare(VectorOperators.NE, (short) 0).toLong();
            words[c >>> 6] |= bits << (c & 63); // lanes divides 64: a vector never straddles two words
        }
        for (; c < cols; c++) {
            if ((data.get(LittleEndian.I16, byteOffset + 2L * c) & 0x7fff) != 0) words[c >>> 6] |= 1L << c;
        }
        return count(words, nWords);
    }

    /** The bitmap of {@code cols} fp32 values from {@code byteOffset}; returns the non-zero count. */
    static int singles(MemorySegment data, long byteOffset, int cols, long[] words) {
        int nWords = (cols + 63) >>> 6;
        for (int w = 0; w < nWords; w++) words[w] = 0L;
        int lanes = INTS.length();
        int bound = cols - cols % lanes;
        int c = 0;
        for (; c < bound; c += lanes) {
            long bits = IntVector.fromMemorySegment(INTS, data, byteOffset + 4L * c, LE).and(0x7fffffff)
                    .compare(VectorOperators.NE, 0).toLong();
            words[c >>> 6] |= bits << (c & 63);
        }
        for (; c < cols; c++) {
            if ((data.get(LittleEndian.I32, byteOffset + 4L * c) & 0x7fffffff) != 0) words[c >>> 6] |= 1L << c;
        }
        return count(words, nWords);
    }

    private static int count(long[] words, int nWords) {
        int n = 0;
        for (int w = 0; w < nWords; w++) n += Long.bitCount(words[w]);
        return n;
    }
}
