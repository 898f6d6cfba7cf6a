package dev.sparseprof.model;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Output projections tied to the input embedding: a language model whose {@code lm_head} multiplies
 * by its embedding's matrix saves that matrix once, so a checkpoint of it has no head tensor, and the
 * largest GEMM of a small LLM would be missing from every number. The head is then a LINEAR layer
 * over the embedding's view ({@link #tied}): Hugging Face checkpoints by config.json ({@link #of}),
 * GGUF by llama.cpp's fallback ({@code GgufReader}). Pruning it prunes the embedding: one matrix.
 */
final class TiedHeads {
    private TiedHeads() {}

    /** The output GEMM {@code name} over an embedding's matrix: a tied head, a LINEAR layer of the embedding's tensor. */
    static GemmLayer tied(String name, GemmLayer embedding) {
        return new GemmLayer(name, embedding.tensorName(), LayerKind.LINEAR, embedding.rows(), embedding.cols(), 1, embedding.matrix(), 1, false,
                embedding.storedDType());
    }

    /** Adds a tied head ({@link #tied}) to the layers and says so in the metadata ({@code layers.tied}). */
    static void add(GemmLayer head, List<GemmLayer> layers, Map<String, String> metadata) {
        layers.add(head);
        metadata.put("layers.tied", head.name() + " is " + head.tensorName() + " (tied embeddings): the one matrix is both the input "
                + "embedding's gather and the output GEMM, and pruning that GEMM prunes the embedding");
    }

    /** Names of a causal LM's output projection, where a checkpoint stores one. */
    private static final List<String> HEAD_NAMES = List.of("lm_head.weight", "embed_out.weight", "output.weight");
    /** Names of the input word embedding, whose matrix a tied output projection reuses. */
    private static final List<String> WORD_EMBEDDINGS = List.of("embed_tokens.weight", "wte.weight", "word_embeddings.weight",
            "embed_in.weight", "tok_embeddings.weight", "shared.weight");
    /** {@code config.json} architectures with an output projection over the vocabulary: causal LMs, and encoder-decoders (T5, BART, Whisper) and multimodal LMs. */
    private static final List<String> LM_ARCHITECTURES = List.of("ForCausalLM", "LMHeadModel", "ForConditionalGeneration");

    /**
     * The output projection of a language model whose checkpoint leaves it out because it is the
     * input embedding's matrix (transformers saves a tied {@code lm_head} once, as the embedding):
     * when config.json's {@code architectures} names one ({@link #LM_ARCHITECTURES}),
     * {@code tie_word_embeddings} is not false (transformers' default is true; LLaMA-style configs
     * write false when untied), no head tensor is stored and one word embedding of
     * {@code vocab_size} rows is. Null otherwise: encoders and untied checkpoints are read as stored.
     */
    static GemmLayer of(List<GemmLayer> layers, List<Tensor> tensors, Map<String, String> metadata) {
        String architectures = metadata.getOrDefault("config.architectures", "");
        boolean causal = Arrays.stream(architectures.split(",")).anyMatch(a -> LM_ARCHITECTURES.stream().anyMatch(a::endsWith));
        if (!causal || "false".equals(metadata.get("config." + HfConfig.TIE))) return null;
        for (Tensor t : tensors) {
            for (String head : HEAD_NAMES) if (t.name().equals(head) || t.name().endsWith("." + head)) return null;
        }
        int vocab = HfConfig.fact(metadata, "config.vocab_size");
        for (GemmLayer l : layers) {
            if (l.kind() != LayerKind.EMBEDDING_GATHER || vocab > 0 && l.rows() != vocab) continue;
            for (String word : WORD_EMBEDDINGS) {
                if (l.name().equals(word) || l.name().endsWith("." + word)) return tied("lm_head.weight", l);
            }
        }
        return null;
    }
}
