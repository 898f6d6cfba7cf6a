package dev.sparseprof.model;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where test.sh unpacks the ONNX project's backend test data (Debian's {@code libonnx-testdata}
 * 1.12.0-2): the one place the real-file tests that read it take its folder and the pinned models
 * from, and their one skip where the package is absent.
 */
public final class OnnxBackendTestData {
    /** The data folder: {@code node/}, {@code pytorch-converted/}, {@code pytorch-operator/}, {@code simple/}. */
    public static final Path DATA = Path.of("target/debian/libonnx-testdata/usr/share/libonnx-testdata/data");

    private OnnxBackendTestData() {}

    /**
     * The pinned models with GEMM layers (src/test/resources/onnx-backend-test-data.tsv), one array
     * of tab-separated fields each: the model's path under {@link #DATA}, then its pinned counts.
     */
    public static List<String[]> pins() throws IOException {
        return Files.readAllLines(Path.of("src/test/resources/onnx-backend-test-data.tsv")).stream()
                .filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> l.split("\t")).toList();
    }

    /** Skips the calling test in one line where test.sh has not unpacked the package. */
    public static void assumePresent() {
        assumeTrue(Files.isDirectory(DATA), "libonnx-testdata absent (./test.sh unpacks the Debian package into target/debian)");
    }
}
