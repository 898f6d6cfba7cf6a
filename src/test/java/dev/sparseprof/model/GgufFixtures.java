package dev.sparseprof.model;

/** The tiny LLaMA-shaped GGUF of {@link GgufTest}, for tests in other packages. */
public final class GgufFixtures {
    private GgufFixtures() {}

    public static byte[] llama() {
        return GgufTest.llama().bytes();
    }
}
