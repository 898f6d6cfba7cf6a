package dev.sparseprof.model;

/** The tiny LLaMA-shaped GGUF of {@link GgufTest}, for tests in other packages. */
public final class GgufFixtures {
    private GgufFixtures() {}

    public static byte[] llama() {
        return GgufTest.llama().bytes();
    }

    /** A GGUF of one IQ4_XS, one IQ4_NL and one TQ1_0 weight, 2 x 256 each, of bytes {@code (i·37 + 11) & 0xff}. */
    public static byte[] iq4AndTernary() {
        GgufWriter w = new GgufWriter().string("general.architecture", "llama");
        int[][] types = {{23, 136, 256}, {20, 18, 32}, {34, 54, 256}}; // id, block bytes, block elements
        String[] names = {"blk.0.ffn_up.weight", "blk.0.ffn_gate.weight", "blk.0.ffn_down.weight"};
        for (int t = 0; t < types.length; t++) {
            byte[] data = new byte[2 * 256 / types[t][2] * types[t][1]];
            for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 37 + 11);
            w.tensor(names[t], new long[] {256, 2}, types[t][0], data);
        }
        return w.bytes();
    }
}
