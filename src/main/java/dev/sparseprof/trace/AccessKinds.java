package dev.sparseprof.trace;

/** Cached {@code values()} arrays, so hot loops map ordinals back without allocating. */
final class AccessKinds {
    static final AccessKind[] BY_ORDINAL = AccessKind.values();
    static final ArrayRole[] ROLES = ArrayRole.values();

    private AccessKinds() {}
}
