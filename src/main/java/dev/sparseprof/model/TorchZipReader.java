package dev.sparseprof.model;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.List;

/** torch.save zip files (placeholder until the reader lands). */
final class TorchZipReader {
    private TorchZipReader() {}

    static boolean isTorchName(Path file) {
        return ModelFiles.nameEndsWith(file, ".bin") || ModelFiles.nameEndsWith(file, ".pt") || ModelFiles.nameEndsWith(file, ".pth");
    }

    static List<Tensor> tensors(Path file, Arena arena) {
        throw ModelFormatException.in(file, "torch.save files are not read yet");
    }
}
