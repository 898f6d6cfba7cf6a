package dev.sparseprof.model;

import java.nio.file.Path;

/**
 * Reads one model file format into a {@link Model}.
 *
 * <p>Contract: a reader either returns a complete model or throws {@link ModelFormatException} whose
 * message starts with the file name and says what is wrong in one line. It allocates in proportion
 * to what the file really holds, never to what a header claims: sizes are checked against the
 * file's length before anything is allocated or mapped. It never reads outside the file's folder
 * (external data references are confined to it).
 */
public interface ModelReader {
    /** A short name for listings: {@code onnx}, {@code safetensors}, ... */
    String name();

    /** True when this reader takes files of this name (by extension or suffix). */
    boolean accepts(Path file);

    Model read(Path file);

    /** Reads with command-line facts about the model's inputs; readers that have no use for them ignore them. */
    default Model read(Path file, ReadOptions options) {
        return read(file);
    }
}
