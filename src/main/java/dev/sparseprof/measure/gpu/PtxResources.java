package dev.sparseprof.measure.gpu;

import dev.sparseprof.util.SparseprofException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/** Reads the committed PTX of a {@link GpuKernel} from the class path, NUL-terminated as {@code cuModuleLoadData} wants it. */
public final class PtxResources {
    private PtxResources() {}

    public static byte[] load(GpuKernel kernel) {
        try (InputStream in = PtxResources.class.getResourceAsStream(kernel.resource())) {
            if (in == null) {
                throw new SparseprofException(kernel.resource() + ": PTX missing from the class path (run scripts/gpu-build-ptx.sh)");
            }
            byte[] text = in.readAllBytes();
            byte[] withNul = Arrays.copyOf(text, text.length + 1);
            return withNul;
        } catch (IOException e) {
            throw new SparseprofException(kernel.resource() + ": cannot read PTX (" + e.getMessage() + ")");
        }
    }
}
