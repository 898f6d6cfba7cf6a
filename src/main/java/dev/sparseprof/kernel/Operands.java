package dev.sparseprof.kernel;

/**
 * The operands of one {@code C = A·B} call: A in a kernel's format, B ({@code A.cols x n}) and C
 * ({@code A.rows x n}), both fp32 row-major. Lengths are checked by {@link SpmmPlan}, not here.
 */
public record Operands<A>(A a, float[] b, int n, float[] c) {}
