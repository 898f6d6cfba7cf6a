package dev.sparseprof.kernel;

import java.lang.foreign.MemorySegment;

/**
 * The operands of one {@code C = A·B} call: A in a kernel's format, B ({@code A.cols x n}) and C
 * ({@code A.rows x n}), both fp32 row-major. {@code bAligned} holds a copy of B on a 64-byte
 * boundary for kernels that {@linkplain SpmmKernel#readsAlignedB(int) ask for one} (else
 * {@link MemorySegment#NULL}). Lengths are checked by {@link SpmmPlan}, not here.
 */
public record Operands<A>(A a, float[] b, MemorySegment bAligned, int n, float[] c) {}
