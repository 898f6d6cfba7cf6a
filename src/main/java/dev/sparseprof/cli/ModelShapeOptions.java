package dev.sparseprof.cli;

import dev.sparseprof.model.ReadOptions;
import dev.sparseprof.util.SparseprofException;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The input-size options of the model commands ({@code --input-shape}, {@code --input-size}),
 * which let shape propagation give every convolution its real N = batch x output pixels.
 */
final class ModelShapeOptions {
    @Option(names = "--input-shape", paramLabel = "NAME=DIMS",
            description = "Shape of an ONNX graph input with dynamic dimensions, e.g. x=1x3x640x640 (repeatable).")
    List<String> inputShapes;

    @Option(names = "--input-size", paramLabel = "HxW", description = "Input image size of a TF.js model, e.g. 416x416.")
    String inputSize;

    ReadOptions readOptions() {
        long[] size = inputSize == null ? null : ReadOptions.parseDims(inputSize, "--input-size");
        if (size != null && size.length != 2) throw new SparseprofException("--input-size '" + inputSize + "': expected HxW, e.g. 416x416");
        return new ReadOptions(ReadOptions.parseInputShapes(inputShapes), size);
    }
}
