package dev.sparseprof.model;

import java.nio.file.Path;

final class MatrixMarketReader implements ModelReader {
    @Override public String name() { return "x"; }
    @Override public boolean accepts(Path file) { return false; }
    @Override public Model read(Path file) { throw new UnsupportedOperationException(); }
}
