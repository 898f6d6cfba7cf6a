package dev.sparseprof.trace;

import java.nio.charset.StandardCharsets;

/**
 * The project's compact binary trace format ({@code .sptr}), version 2 (version 1 files, which
 * are version 2 without the flags byte and without timestamps, stay readable). Little-endian
 * varints; documented in docs/memsim.md.
 *
 * <pre>
 * header : magic "SPTRACE\x1a" (8 bytes), u8 version (1 or 2), [version 2: u8 flags, bit 0
 *          TIMESTAMPED, the others zero], u8 R, then R role labels (u8 length, ASCII)
 * record : u8 tag, [u8 role index], [varint size], zigzag-varint address delta,
 *          [TIMESTAMPED: varint time delta from the previous record's time (0 at the start), so
 *          times never decrease within a file]
 *          tag bits 0-2 kind (AccessKind ordinal 0-5), bits 3-5 size code (c in 0..6: 1&lt;&lt;c bytes;
 *          7: a varint size follows), bit 6 role index follows (else: the previous record's role),
 *          bit 7 zero. The delta is from the previous address of the same role (0 at the start).
 * end    : u8 0xFF, varint record count, then end of file (a missing end marks a truncated file)
 * </pre>
 */
final class BinaryTraceFormat {
    static final byte[] MAGIC = "SPTRACE\u001a".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 2;
    static final int FIRST_VERSION = 1;
    static final int TIMESTAMPED = 0x01;
    static final int END_TAG = 0xFF;
    static final int ROLE_FOLLOWS = 0x40;
    static final int EXPLICIT_SIZE_CODE = 7;

    private BinaryTraceFormat() {}

    /** The size code of a size: log2 for 1..64 bytes that are powers of two, else 7 (explicit). */
    static int sizeCode(int sizeBytes) {
        if (sizeBytes > 0 && sizeBytes <= 64 && (sizeBytes & (sizeBytes - 1)) == 0) {
            return Integer.numberOfTrailingZeros(sizeBytes);
        }
        return EXPLICIT_SIZE_CODE;
    }
}
