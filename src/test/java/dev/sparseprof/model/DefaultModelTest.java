package dev.sparseprof.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The bundled all-MiniLM-L6-v2, fp32 and int8: 36 linear layers of the right shapes plus 3 embedding gathers. */
class DefaultModelTest {
    static Model fp32;
    static Model int8;

    @BeforeAll
    static void load() {
        fp32 = Models.openDefault();
        int8 = Models.openDefaultQuantized();
    }

    @AfterAll
    static void close() {
        fp32.close();
        int8.close();
    }

    @Test
    void fp32HasThirtySixLinearLayersWithBertShapes() {
        checkBertLayers(fp32);
        GemmLayer ffn = byName(fp32, "/encoder/layer.0/intermediate/dense/MatMul");
        assertEquals("onnx::MatMul_798", ffn.tensorName());
        assertEquals(1536, ffn.rows());
        assertEquals(384, ffn.cols());
    }

    @Test
    void int8HasTheSameLayersAsMatMulInteger() {
        checkBertLayers(int8);
        GemmLayer q = byName(int8, "/encoder/layer.0/attention/self/query/MatMul_quant");
        assertEquals("onnx::MatMul_787_quantized", q.tensorName());
    }

    @Test
    void transposedViewMatchesTheStoredInOutMatrix() {
        GemmLayer l = byName(fp32, "/encoder/layer.0/intermediate/dense/MatMul");
        Tensor w = fp32.tensors().stream().filter(t -> t.name().equals(l.tensorName())).findFirst().orElseThrow();
        float[] row = new float[l.cols()];
        for (int r : new int[] {0, 7, 1535}) {
            l.matrix().copyRow(r, row, 0);
            for (int k = 0; k < l.cols(); k += 37) assertEquals(w.getFloat((long) k * 1536 + r), row[k]);
        }
    }

    @Test
    void int8WeightsDequantizeCloseToFp32() {
        GemmLayer f = byName(fp32, "/encoder/layer.0/attention/self/query/MatMul");
        GemmLayer q = byName(int8, "/encoder/layer.0/attention/self/query/MatMul_quant");
        float[] a = new float[384];
        float[] b = new float[384];
        double err = 0;
        double norm = 0;
        for (int r = 0; r < 384; r += 17) {
            f.matrix().copyRow(r, a, 0);
            q.matrix().copyRow(r, b, 0);
            for (int k = 0; k < 384; k++) {
                err += (a[k] - b[k]) * (a[k] - b[k]);
                norm += a[k] * a[k];
            }
        }
        assertTrue(Math.sqrt(err / norm) < 0.05, "relative error " + Math.sqrt(err / norm));
    }

    static void checkBertLayers(Model m) {
        List<GemmLayer> linear = m.layers().stream().filter(l -> l.kind() == LayerKind.LINEAR).toList();
        List<GemmLayer> gathers = m.layers().stream().filter(l -> l.kind() == LayerKind.EMBEDDING_GATHER).toList();
        assertEquals(36, linear.size(), linear.toString());
        assertEquals(3, gathers.size());
        int square = 0;
        int up = 0;
        int down = 0;
        for (GemmLayer l : linear) {
            if (l.rows() == 384 && l.cols() == 384) square++;
            else if (l.rows() == 1536 && l.cols() == 384) up++;
            else if (l.rows() == 384 && l.cols() == 1536) down++;
            assertTrue(l.name().startsWith("/encoder/layer."), l.name());
        }
        assertEquals(24, square);
        assertEquals(6, up);
        assertEquals(6, down);
        GemmLayer word = gathers.stream().filter(l -> l.rows() == 30522).findFirst().orElseThrow();
        assertEquals(384, word.cols());
    }

    static GemmLayer byName(Model m, String name) {
        return m.layers().stream().filter(l -> l.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError(name));
    }
}
