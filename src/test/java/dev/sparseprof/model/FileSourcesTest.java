package dev.sparseprof.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.sparse.prune.PruneSpec;
import dev.sparseprof.sparse.prune.StoredLayer;
import dev.sparseprof.sparse.prune.StoredPruner;
import dev.sparseprof.util.ByteSource;
import dev.sparseprof.util.DType;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mapped tensor's {@link FileSources} source reads the bytes the mapping holds, at any offset
 * and length, into native and heap targets, without being a view of the mapping; a segment that
 * is not a registered mapping's is copied from; a file truncated since it was opened is one
 * {@link ModelFormatException} naming it (where the mapping would fault), out-of-range reads and
 * reads after close are refused, and a prune that meets the truncation leaves no output behind;
 * untouched tensors copied file to file inside the kernel ({@link FileWindows#copyTo}) are the
 * source's bytes, and a truncated source there too is one error and no output.
 */
class FileSourcesTest {
    @TempDir Path dir;

    @Test
    void readsTheBytesTheMappingHolds() {
        Path file = checkpoint("m.safetensors");
        try (Model m = Models.open(file.toString()); Arena arena = Arena.ofConfined()) {
            for (Tensor t : m.tensors()) {
                ByteSource source = FileSources.of(t.data());
                assertNotEquals(ByteSource.of(t.data()).getClass(), source.getClass(), "a mapped tensor reads through its file");
                assertEquals(t.data().byteSize(), source.byteSize());
                long size = t.data().byteSize();
                for (long[] r : new long[][] {{0, size}, {1, size - 1}, {size - 3, 3}, {size / 3, size / 2}, {size, 0}}) {
                    MemorySegment direct = arena.allocate(Math.max(1, r[1])).asSlice(0, r[1]);
                    source.read(r[0], direct);
                    assertEquals(-1, direct.mismatch(t.data().asSlice(r[0], r[1])), t.name() + " at " + r[0] + "+" + r[1]);
                    MemorySegment heap = MemorySegment.ofArray(new byte[(int) r[1]]);
                    source.read(r[0], heap);
                    assertEquals(-1, heap.mismatch(t.data().asSlice(r[0], r[1])), t.name() + " into the heap at " + r[0]);
                }
            }
        }
    }

    @Test
    void aSegmentOfNoMappedFileIsCopiedFrom() {
        MemorySegment data = MemorySegment.ofArray(new byte[] {1, 2, 3, 4, 5});
        ByteSource source = FileSources.of(data);
        byte[] got = new byte[3];
        source.read(2, MemorySegment.ofArray(got));
        assertEquals(List.of((byte) 3, (byte) 4, (byte) 5), List.of(got[0], got[1], got[2]));
        assertThrows(IndexOutOfBoundsException.class, () -> source.read(3, MemorySegment.ofArray(new byte[3])));
    }

    @Test
    void aReadPastTheTensorIsRefusedAndAReadAfterCloseThrows() {
        Path file = checkpoint("r.safetensors");
        ByteSource source;
        try (Model m = Models.open(file.toString())) {
            Tensor t = m.tensors().get(0);
            source = FileSources.of(t.data());
            assertThrows(IndexOutOfBoundsException.class, () -> source.read(t.data().byteSize() - 1, MemorySegment.ofArray(new byte[2])));
            assertThrows(IndexOutOfBoundsException.class, () -> source.read(-1, MemorySegment.ofArray(new byte[1])));
        }
        assertThrows(IllegalStateException.class, () -> source.read(0, MemorySegment.ofArray(new byte[1])), "no reads after close");
    }

    @Test
    void aFileTruncatedAfterOpeningIsAShortReadNamingIt() throws IOException {
        Path file = checkpoint("t.safetensors");
        try (Model m = Models.open(file.toString())) {
            Tensor last = m.tensors().stream().max(Comparator.comparingLong(t -> t.data().address())).orElseThrow();
            ByteSource source = FileSources.of(last.data());
            truncate(file, Files.size(file) - 10);
            MemorySegment target = Arena.ofAuto().allocate(source.byteSize());
            source.read(0, target.asSlice(0, source.byteSize() - 10)); // what is left reads as before
            ModelFormatException e = assertThrows(ModelFormatException.class, () -> source.read(0, target));
            assertTrue(e.getMessage().startsWith(file.toString()) && e.getMessage().contains("file ends before its tensors do"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line");
        }
    }

    @Test
    void aPruneThatMeetsATruncatedFileLeavesNoOutput() throws IOException {
        Path file = checkpoint("p.safetensors");
        Path out = dir.resolve("pruned");
        try (Model m = Models.open(file.toString())) {
            Set<String> all = new HashSet<>();
            for (Tensor t : m.tensors()) all.add(t.name());
            truncate(file, Files.size(file) / 2);
            PrunedWriter.Editor streaming = new PrunedWriter.Editor() {
                @Override public void edit(Tensor tensor, MemorySegment target) {
                    throw new AssertionError("every tensor streams");
                }

                @Override public boolean stream(Tensor tensor, PrunedWriter.ByteSink sink) throws IOException {
                    long[] shape = tensor.shape();
                    StoredLayer layer = new StoredLayer(tensor.name(), (int) shape[0], (int) shape[1], StoredLayer.Width.BF16, FileSources.of(tensor.data()));
                    StoredPruner.prune(PruneSpec.parse("--nm 2:4"), layer, sink::write);
                    return true;
                }
            };
            RuntimeException e = assertThrows(RuntimeException.class, () -> PrunedWriter.write(m, out, all, streaming, Map.of()));
            assertInstanceOf(ModelFormatException.class, e, e.toString());
            assertTrue(e.getMessage().contains("file ends before its tensors do"), e.getMessage());
        }
        assertFalse(Files.exists(out));
        try (var s = Files.list(dir)) {
            assertEquals(List.of("p.safetensors"), s.map(f -> f.getFileName().toString()).toList(), "no partial output and no temporary folder");
        }
    }

    @Test
    void untouchedTensorsAreCopiedInTheKernelByteForByte() throws IOException {
        Path file = checkpoint("u.safetensors");
        Path out = dir.resolve("u-out.safetensors");
        try (Model m = Models.open(file.toString())) {
            assertTrue(FileWindows.of(m.tensors().get(0).data()) != null, "the source is a registered mapping: its tensors go through copyTo");
            PrunedWriter.write(m, out, Set.of(), (tensor, target) -> {
                throw new AssertionError("nothing is edited");
            }, Map.of());
            try (Model copy = Models.open(out.toString())) {
                for (int i = 0; i < m.tensors().size(); i++) {
                    assertEquals(-1, m.tensors().get(i).data().mismatch(copy.tensors().get(i).data()), m.tensors().get(i).name());
                }
            }
        }
    }

    @Test
    void aCopyFromATruncatedFileLeavesNoOutput() throws IOException {
        Path file = checkpoint("v.safetensors");
        Path out = dir.resolve("v-out.safetensors");
        try (Model m = Models.open(file.toString())) {
            truncate(file, Files.size(file) - 1000);
            RuntimeException e = assertThrows(RuntimeException.class, () -> PrunedWriter.write(m, out, Set.of(), (tensor, target) -> {
                throw new AssertionError("nothing is edited");
            }, Map.of()));
            assertTrue(e.getMessage().contains("file ends before its tensors do"), e.getMessage());
        }
        try (var s = Files.list(dir)) {
            assertEquals(List.of("v.safetensors"), s.map(f -> f.getFileName().toString()).toList(), "no partial output and no temporary file");
        }
    }

    /** Three bf16 tensors with odd sizes, so slices start and end off any alignment. */
    private Path checkpoint(String name) {
        SplittableRandom r = new SplittableRandom(5);
        List<Tensor> tensors = List.of(random("a.weight", 37, 91, r), random("b.weight", 300, 128, r), random("c.weight", 129, 1001, r));
        Path file = dir.resolve(name);
        SafetensorsWriter.write(file, tensors, Map.of());
        return file;
    }

    private static Tensor random(String name, int rows, int cols, SplittableRandom r) {
        MemorySegment seg = Arena.ofAuto().allocate((long) rows * cols * 2);
        for (long i = 0; i < (long) rows * cols; i++) seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, i * 2, (short) r.nextInt(0x10000));
        return new Tensor(name, DType.BF16, new long[] {rows, cols}, seg);
    }

    private static void truncate(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size);
        }
    }
}
