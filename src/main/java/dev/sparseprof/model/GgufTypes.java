package dev.sparseprof.model;

/**
 * The ggml tensor types a GGUF file may name, with their block sizes (elements per block) and bytes
 * per block, from ggml's type traits ({@code ggml/src/ggml.c}, {@code type_traits[]}; the same table
 * as gguf-py's {@code GGML_QUANT_SIZES}). The reader needs the sizes of every type to check a
 * tensor's offsets and extent even for the types whose values it does not decode.
 */
enum GgufTypes {
    F32(0, 1, 4), F16(1, 1, 2), Q4_0(2, 32, 18), Q4_1(3, 32, 20), Q5_0(6, 32, 22), Q5_1(7, 32, 24), Q8_0(8, 32, 34),
    Q8_1(9, 32, 36), Q2_K(10, 256, 84), Q3_K(11, 256, 110), Q4_K(12, 256, 144), Q5_K(13, 256, 176), Q6_K(14, 256, 210),
    Q8_K(15, 256, 292), IQ2_XXS(16, 256, 66), IQ2_XS(17, 256, 74), IQ3_XXS(18, 256, 98), IQ1_S(19, 256, 50),
    IQ4_NL(20, 32, 18), IQ3_S(21, 256, 110), IQ2_S(22, 256, 82), IQ4_XS(23, 256, 136), I8(24, 1, 1), I16(25, 1, 2),
    I32(26, 1, 4), I64(27, 1, 8), F64(28, 1, 8), IQ1_M(29, 256, 56), BF16(30, 1, 2), TQ1_0(34, 256, 54), TQ2_0(35, 256, 66),
    MXFP4(39, 32, 17);

    final int id;
    final int blockElements;
    final int blockBytes;

    GgufTypes(int id, int blockElements, int blockBytes) {
        this.id = id;
        this.blockElements = blockElements;
        this.blockBytes = blockBytes;
    }

    /** The type numbered {@code id}, or null. */
    static GgufTypes of(long id) {
        for (GgufTypes t : values()) if (t.id == id) return t;
        return null;
    }

    /** Whether sparseprof reads this type's values (plain floats, or the block types of {@link GgufBlockMatrix} dequantized block by block). */
    boolean decoded() {
        return switch (this) {
            case F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, MXFP4, IQ4_NL, IQ4_XS, TQ1_0, TQ2_0 -> true;
            default -> false;
        };
    }
}
