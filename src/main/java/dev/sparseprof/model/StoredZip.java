package dev.sparseprof.model;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The entries of a zip archive held in a mapped segment, read from its central directory (ZIP64
 * included, as torch.save writes for large files), each stored entry a slice of the mapping:
 * torch.save stores its entries uncompressed, so nothing is inflated or copied. Compressed entries
 * (torch.jit.save deflates its {@code code/} sources) are listed by name only, for the caller to
 * refuse where it needs one.
 *
 * <p>Checked: the end record and the central directory lie inside the file, the entry count fits
 * the directory's size (46 bytes an entry at least), each local header and its data lie inside the
 * file, entries are unencrypted, and no name is absolute, has a {@code ..} segment, a backslash or
 * a NUL, or repeats. The archive is never extracted: names are keys, not paths, so no file outside
 * it is ever opened.
 */
final class StoredZip {
    private static final int EOCD = 0x06054b50;
    private static final int ZIP64_LOCATOR = 0x07064b50;
    private static final int ZIP64_EOCD = 0x06064b50;
    private static final int CENTRAL = 0x02014b50;
    private static final int LOCAL = 0x04034b50;

    private StoredZip() {}

    /**
     * An archive's entries.
     *
     * @param stored     each stored entry's name and bytes, in central-directory order
     * @param compressed the names of the compressed entries (method and name), not readable here
     */
    record Listing(Map<String, MemorySegment> stored, Map<String, Integer> compressed) {
        /** Every entry's name, the stored ones first. */
        Set<String> names() {
            Set<String> all = new LinkedHashSet<>(stored.keySet());
            all.addAll(compressed.keySet());
            return all;
        }

        /** Whether the archive has an entry {@code name}, stored or compressed. */
        boolean has(String name) {
            return stored.containsKey(name) || compressed.containsKey(name);
        }

        /** The stored entry {@code name}, or null where the archive has none; a compressed one is refused naming it. */
        MemorySegment stored(String source, String name) {
            Integer method = compressed.get(name);
            if (method != null) throw ModelFormatException.in(source, "zip entry '" + name + "' is compressed (method " + method + "); torch.save stores entries uncompressed");
            return stored.get(name);
        }
    }

    /** The archive's entries, checked. */
    static Listing entries(String source, MemorySegment zip) {
        long size = zip.byteSize();
        long eocd = -1;
        for (long p = size - 22; p >= Math.max(0, size - 22 - 65535); p--) {
            if (zip.get(LittleEndian.I32, p) == EOCD) {
                eocd = p;
                break;
            }
        }
        if (eocd < 0) throw ModelFormatException.in(source, "not a zip archive (no end of central directory)");
        long count = u16(zip, eocd + 10);
        long cdSize = u32(zip, eocd + 12);
        long cdOffset = u32(zip, eocd + 16);
        if (count == 0xffff || cdSize == 0xffffffffL || cdOffset == 0xffffffffL) {
            long loc = eocd - 20;
            if (loc < 0 || zip.get(LittleEndian.I32, loc) != ZIP64_LOCATOR) throw ModelFormatException.in(source, "zip64 archive without its locator");
            long z = zip.get(LittleEndian.I64, loc + 8);
            if (z < 0 || z > size - 56 || zip.get(LittleEndian.I32, z) != ZIP64_EOCD) throw ModelFormatException.in(source, "zip64 end record outside the file");
            count = zip.get(LittleEndian.I64, z + 32);
            cdSize = zip.get(LittleEndian.I64, z + 40);
            cdOffset = zip.get(LittleEndian.I64, z + 48);
        }
        if (cdOffset < 0 || cdSize < 0 || cdOffset > size || cdSize > size - cdOffset) {
            throw ModelFormatException.in(source, "zip central directory [" + cdOffset + ", +" + cdSize + ") lies outside the " + size + "-byte file");
        }
        if (count < 0 || count > cdSize / 46) throw ModelFormatException.in(source, "zip claims " + count + " entries in a " + cdSize + "-byte directory");
        Map<String, MemorySegment> out = new LinkedHashMap<>();
        Map<String, Integer> deflated = new LinkedHashMap<>();
        long p = cdOffset;
        long end = cdOffset + cdSize;
        for (long i = 0; i < count; i++) {
            if (p > end - 46 || zip.get(LittleEndian.I32, p) != CENTRAL) throw ModelFormatException.in(source, "zip central directory entry " + i + " is corrupt");
            int flags = u16(zip, p + 8);
            int method = u16(zip, p + 10);
            long compressed = u32(zip, p + 20);
            long uncompressed = u32(zip, p + 24);
            int nameLength = u16(zip, p + 28);
            int extraLength = u16(zip, p + 30);
            int commentLength = u16(zip, p + 32);
            long local = u32(zip, p + 42);
            if (p + 46 + nameLength + extraLength + commentLength > end) throw ModelFormatException.in(source, "zip entry " + i + " runs past its directory");
            String name = new String(zip.asSlice(p + 46, nameLength).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
            long[] z64 = {uncompressed, compressed, local};
            zip64(zip, p + 46 + nameLength, extraLength, z64);
            uncompressed = z64[0];
            compressed = z64[1];
            local = z64[2];
            checkName(source, name);
            if ((flags & 1) != 0) throw ModelFormatException.in(source, "zip entry '" + name + "' is encrypted");
            if (method != 0 || compressed != uncompressed) {
                if (out.containsKey(name) || deflated.put(name, method) != null) throw ModelFormatException.in(source, "zip entry '" + name + "' appears twice");
                p += 46 + nameLength + extraLength + commentLength;
                continue;
            }
            if (local < 0 || local > size - 30 || zip.get(LittleEndian.I32, local) != LOCAL) {
                throw ModelFormatException.in(source, "zip entry '" + name + "' has no local header at " + local);
            }
            long data = local + 30 + u16(zip, local + 26) + u16(zip, local + 28);
            if (uncompressed < 0 || data > size || uncompressed > size - data) {
                throw ModelFormatException.in(source, "zip entry '" + name + "' of " + uncompressed + " bytes runs past the end of the file");
            }
            if (deflated.containsKey(name) || out.put(name, zip.asSlice(data, uncompressed)) != null) throw ModelFormatException.in(source, "zip entry '" + name + "' appears twice");
            p += 46 + nameLength + extraLength + commentLength;
        }
        return new Listing(out, deflated);
    }

    /** Replaces the 0xffffffff fields of {@code sizes} (uncompressed, compressed, offset) from a ZIP64 extra field. */
    private static void zip64(MemorySegment zip, long extra, int length, long[] sizes) {
        long p = extra;
        long end = extra + length;
        while (p + 4 <= end) {
            int id = u16(zip, p);
            int n = u16(zip, p + 2);
            if (id == 1) {
                long q = p + 4;
                for (int k = 0; k < 3; k++) {
                    if (sizes[k] == 0xffffffffL && q + 8 <= p + 4 + n && q + 8 <= end) {
                        sizes[k] = zip.get(LittleEndian.I64, q);
                        q += 8;
                    }
                }
            }
            p += 4 + n;
        }
    }

    /** Refuses names that would leave an extraction folder, as a hostile archive's would. */
    static void checkName(String source, String name) {
        if (name.isEmpty() || name.indexOf('\0') >= 0 || name.indexOf('\\') >= 0 || name.startsWith("/") || name.matches("^[A-Za-z]:.*")) {
            throw ModelFormatException.in(source, "refusing zip entry '" + name + "' (absolute or odd name)");
        }
        for (String part : name.split("/")) {
            if (part.equals("..")) throw ModelFormatException.in(source, "refusing zip entry '" + name + "' with '..'");
        }
    }

    private static int u16(MemorySegment s, long at) {
        return s.get(LittleEndian.I16, at) & 0xffff;
    }

    private static long u32(MemorySegment s, long at) {
        return s.get(LittleEndian.I32, at) & 0xffffffffL;
    }
}
