package dev.sparseprof.measure.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.util.SparseprofException;
import org.junit.jupiter.api.Test;

class BsrBlocksTest {
    @Test
    void blocksHoldEveryStoredValueInPlace() {
        // 4 x 4, 2 x 2 blocks: (0,0) holds a=1 at (0,1); (1,1) holds b=2 at (3,2) and c=3 at (2,3).
        CsrMatrix a = new CsrMatrix(4, 4, new int[] {0, 1, 1, 2, 3}, new int[] {1, 3, 2}, new float[] {1, 3, 2});
        BsrBlocks b = BsrBlocks.from(a, 2, 2);
        assertArrayEquals(new int[] {0, 1, 2}, b.blockRowPointers());
        assertArrayEquals(new int[] {0, 1}, b.blockColumns());
        assertArrayEquals(new float[] {0, 1, 0, 0, 0, 3, 2, 0}, b.blockValues());
    }

    @Test
    void shapesMustBeWholeBlocks() {
        CsrMatrix a = new CsrMatrix(3, 4, new int[] {0, 0, 0, 0}, new int[0], new float[0]);
        assertThrows(SparseprofException.class, () -> BsrBlocks.from(a, 2, 2));
        assertThrows(SparseprofException.class, () -> BsrBlocks.from(a, 17, 1));
    }
}
