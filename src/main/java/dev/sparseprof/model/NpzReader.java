package dev.sparseprof.model;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * NumPy {@code .npz} archives: a zip of {@code .npy} members, stored or deflated, one tensor each
 * (named by the member without {@code .npy}). Each member is read into an arena segment of its
 * declared uncompressed size, after that size was checked against what deflate can produce from
 * the member's compressed bytes (at most 1032:1), so a lying entry cannot make us allocate more
 * than the archive could really hold; a member longer or shorter than declared is an error.
 * Member names are checked as {@link StoredZip#checkName} checks torch archives' (nothing absolute,
 * no {@code ..}, backslash or NUL) and must not repeat: they are tensor names, and the archive is
 * never extracted.
 */
final class NpzReader implements ModelReader {
    /** Deflate's maximum expansion is about 1032:1 (zlib technical notes). */
    private static final long MAX_DEFLATE_RATIO = 1032;

    @Override
    public String name() {
        return "npz";
    }

    @Override
    public boolean accepts(Path file) {
        return ModelFiles.nameEndsWith(file, ".npz");
    }

    @Override
    public Model read(Path file) {
        String source = file.toString();
        long archiveBytes = ModelFiles.size(file);
        return ModelFiles.inArena(arena -> {
            try (ZipFile zip = new ZipFile(file.toFile())) {
                List<Tensor> tensors = new ArrayList<>();
                Set<String> seen = new HashSet<>();
                Enumeration<? extends ZipEntry> entries = zip.entries();
                while (entries.hasMoreElements()) {
                    ZipEntry e = entries.nextElement();
                    StoredZip.checkName(source, e.getName());
                    if (!seen.add(e.getName())) throw ModelFormatException.in(source, "zip entry '" + e.getName() + "' appears twice");
                    if (e.isDirectory()) continue;
                    String member = source + "[" + e.getName() + "]";
                    String name = e.getName().replaceFirst("(?i)\\.npy$", "");
                    tensors.add(NpyFormat.parse(member, name, readMember(zip, e, member, archiveBytes, arena), arena));
                }
                if (tensors.isEmpty()) throw ModelFormatException.in(source, "archive holds no arrays");
                return new Model(source, "npz", tensors, TensorLayers.of(tensors), Map.of("format", "npz"), arena);
            } catch (ZipException e) {
                throw ModelFormatException.in(source, "not a valid zip archive (" + e.getMessage() + ")");
            } catch (IOException e) {
                throw ModelFormatException.in(source, "cannot read (" + e.getMessage() + ")");
            }
        });
    }

    private static MemorySegment readMember(ZipFile zip, ZipEntry e, String member, long archiveBytes, Arena arena) throws IOException {
        long size = e.getSize();
        long compressed = e.getCompressedSize();
        if (size < 0) throw ModelFormatException.in(member, "size unknown");
        long bound = e.getMethod() == ZipEntry.STORED ? archiveBytes : Math.min(Long.MAX_VALUE / MAX_DEFLATE_RATIO,
                Math.max(compressed, 0)) * MAX_DEFLATE_RATIO + 64;
        if (size > bound || (e.getMethod() == ZipEntry.STORED && size > archiveBytes)) {
            throw ModelFormatException.in(member, "claims " + size + " bytes, more than its " + compressed + " compressed bytes can hold");
        }
        MemorySegment seg = arena.allocate(Math.max(1, size), 8).asSlice(0, size);
        byte[] chunk = new byte[1 << 16];
        long done = 0;
        try (InputStream in = zip.getInputStream(e)) {
            int n;
            while ((n = in.read(chunk)) > 0) {
                if (n > size - done) throw ModelFormatException.in(member, "longer than its declared " + size + " bytes");
                MemorySegment.copy(chunk, 0, seg, ValueLayout.JAVA_BYTE, done, n);
                done += n;
            }
        } catch (ZipException ex) {
            throw ModelFormatException.in(member, "corrupt (" + ex.getMessage() + ")");
        }
        if (done != size) throw ModelFormatException.in(member, "truncated: " + done + " of " + size + " bytes");
        return seg;
    }
}
