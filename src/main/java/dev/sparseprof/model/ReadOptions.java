package dev.sparseprof.model;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the command line tells a reader beyond the file: the shapes of an ONNX graph's inputs
 * ({@code --input-shape name=1x3x640x640}, for dynamic dimensions) and the input image size of a
 * TF.js model ({@code --input-size 416x416}). Either is used to find each convolution's output
 * pixels, its N per sample; a reader that has no use for them ignores them.
 */
public record ReadOptions(Map<String, long[]> inputShapes, long[] inputSize) {
    public static final ReadOptions NONE = new ReadOptions(Map.of(), null);

    public ReadOptions {
        Map<String, long[]> copy = new LinkedHashMap<>();
        for (Map.Entry<String, long[]> e : inputShapes.entrySet()) {
            for (long d : e.getValue()) {
                if (d <= 0) throw new ModelFormatException("--input-shape " + e.getKey() + ": dimensions must be positive, got " + Arrays.toString(e.getValue()));
            }
            copy.put(e.getKey(), e.getValue().clone());
        }
        inputShapes = Map.copyOf(copy);
        if (inputSize != null) {
            if (inputSize.length != 2 || inputSize[0] <= 0 || inputSize[1] <= 0) {
                throw new ModelFormatException("--input-size: expected HxW with positive sizes, got " + Arrays.toString(inputSize));
            }
            inputSize = inputSize.clone();
        }
    }

    @Override
    public long[] inputSize() {
        return inputSize == null ? null : inputSize.clone();
    }

    /** Parses {@code 1x3x640x640} (also {@code 1,3,640,640}) into dimensions; {@code what} names the option in errors. */
    public static long[] parseDims(String text, String what) {
        String[] parts = text.trim().split("[x,]");
        long[] dims = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                dims[i] = Long.parseLong(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new ModelFormatException(what + " '" + text + "': expected positive integers joined by x, e.g. 1x3x640x640");
            }
            if (dims[i] <= 0) throw new ModelFormatException(what + " '" + text + "': dimensions must be positive");
        }
        return dims;
    }

    /** Parses the repeatable {@code name=1x3x640x640} values of {@code --input-shape}. */
    public static Map<String, long[]> parseInputShapes(Iterable<String> values) {
        Map<String, long[]> out = new LinkedHashMap<>();
        if (values == null) return out;
        for (String v : values) {
            int eq = v.lastIndexOf('=');
            if (eq <= 0) throw new ModelFormatException("--input-shape '" + v + "': expected NAME=DIMS, e.g. x=1x3x640x640");
            String name = v.substring(0, eq);
            if (out.put(name, parseDims(v.substring(eq + 1), "--input-shape " + name)) != null) {
                throw new ModelFormatException("--input-shape " + name + " given twice");
            }
        }
        return out;
    }
}
