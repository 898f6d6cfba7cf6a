package dev.sparseprof.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.sparse.stats.MatrixStats;
import dev.sparseprof.sparse.stats.ScanOptions;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Progress;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows scanned through {@link FileWindows} (a model file read into per-thread windows) give the
 * statistics of the decoded floats read from the mapping: windows that end inside a tensor, rows
 * that straddle no window, a row longer than a window (read through the mapping), unaligned data
 * offsets, two threads.
 */
class FileWindowsTest {
    @TempDir Path dir;

    @Test
    void windowedRowsGiveTheStatisticsOfTheDecodedRows() {
        SplittableRandom r = new SplittableRandom(3);
        List<Tensor> tensors = new ArrayList<>();
        tensors.add(random("odd", DType.BF16, 1001, 1500, r)); // 3000-byte rows: windows of 699 rows end mid-tensor
        tensors.add(random("f16", DType.F16, 300, 4096, r));
        tensors.add(random("f32", DType.F32, 77, 9000, r));
        tensors.add(random("long", DType.BF16, 2, (int) (FileWindows.WINDOW_BYTES / 2) + 5, r)); // a row past the window
        tensors.add(random("tiny", DType.F32, 3, 3, r));
        Path file = dir.resolve("m.safetensors");
        SafetensorsWriter.write(file, tensors, Map.of());
        try (Model m = Models.open(file.toString())) {
            List<MatrixView> views = new ArrayList<>();
            List<MatrixStats> decoded = new ArrayList<>();
            for (GemmLayer l : m.layers()) {
                views.add(l.matrix());
                decoded.add(MatrixScan.of(MatrixView.of(l.rows(), l.cols(), l.matrix().toDense()), ScanOptions.DEFAULT));
            }
            assertNotNull(FileWindows.of(m.tensors().get(0).data()), "the mapped file is read through windows");
            assertEquals(decoded, MatrixScan.ofAll(views, ScanOptions.DEFAULT.withThreads(2), Progress.NONE));
            assertEquals(decoded, MatrixScan.ofAll(views, ScanOptions.DEFAULT, Progress.NONE), "one thread");
        }
    }

    @Test
    void closingTheModelForgetsItsFile() {
        Path file = dir.resolve("c.safetensors");
        SafetensorsWriter.write(file, List.of(random("w", DType.BF16, 64, 64, new SplittableRandom(1))), Map.of());
        MemorySegment data;
        MatrixView view;
        try (Model m = Models.open(file.toString())) {
            data = m.tensors().get(0).data();
            view = m.layers().get(0).matrix();
            view.nonZeroBits(0, new long[1]);
        }
        assertNull(FileWindows.of(data));
        assertThrows(RuntimeException.class, () -> view.nonZeroBits(63, new long[1]), "no reads after close");
    }

    @Test
    void anEmptyRowOfAMappedTensorHasNoNonZeros() {
        Path file = dir.resolve("e.safetensors");
        SafetensorsWriter.write(file, List.of(random("empty", DType.BF16, 4, 0, new SplittableRandom(2)),
                random("w", DType.BF16, 4, 4, new SplittableRandom(2))), Map.of());
        try (Model m = Models.open(file.toString())) {
            Tensor empty = m.tensors().stream().filter(t -> t.name().equals("empty")).findFirst().orElseThrow();
            assertEquals(0, TensorMatrix.rowMajor(empty, 4, 0).nonZeroBits(3, new long[0]), "no window of zero-byte rows");
        }
    }

    private static Tensor random(String name, DType dtype, int rows, int cols, SplittableRandom r) {
        int size = dtype.sizeBytes();
        MemorySegment seg = Arena.ofAuto().allocate((long) rows * cols * size);
        for (long i = 0; i < (long) rows * cols; i++) {
            boolean zero = r.nextInt(3) == 0;
            if (size == 2) seg.set(LittleEndian.I16, i * 2, zero ? (short) (r.nextBoolean() ? 0 : 0x8000) : (short) (r.nextInt(0x7f00) + 1));
            else seg.set(LittleEndian.I32, i * 4, zero ? 0 : r.nextInt(0x7f000000) + 1);
        }
        return new Tensor(name, dtype, new long[] {rows, cols}, seg);
    }
}
