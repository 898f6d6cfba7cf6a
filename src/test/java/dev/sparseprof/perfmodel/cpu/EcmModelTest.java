package dev.sparseprof.perfmodel.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.CoreTeam;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.perfmodel.Features;
import dev.sparseprof.perfmodel.FormatModels;
import dev.sparseprof.perfmodel.PerfModel;
import dev.sparseprof.perfmodel.Prediction;
import dev.sparseprof.perfmodel.SimulatedTraffic;
import dev.sparseprof.perfmodel.TrafficModel;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import org.junit.jupiter.api.Test;

/** The ECM model: loop counts per SIMD width, the composition the probe chose, the steady state of repeated calls. */
class EcmModelTest {
    static String spec(int simdBits, String overlap) {
        return ProbedCpuFixture.yaml(simdBits, overlap);
    }

    static CpuSpec cpu(int simdBits, String overlap) {
        return ProbedCpuFixture.cpu(simdBits, overlap);
    }

    @Test
    void theRowBodyIsCutIntoColumnBlocksAsTheKernelCutsIt() {
        // N = 128: one 8-vector block at 16 lanes, two at 8 lanes
        LoopCounts wide = LoopNests.rowBody(10, 100, 128, 16, true);
        assertEquals(100, wide.get(LoopBody.BLOCK8_ENTRY));
        assertEquals(10, wide.get(LoopBody.ROW_BLOCK));
        LoopCounts avx2 = LoopNests.rowBody(10, 100, 128, 8, true);
        assertEquals(200, avx2.get(LoopBody.BLOCK8_ENTRY));
        assertEquals(20, avx2.get(LoopBody.ROW_BLOCK));
        // N = 40 at 16 lanes: a 2-vector block and a masked tail of 8 columns (a one-vector block)
        LoopCounts tail = LoopNests.rowBody(1, 1, 40, 16, true);
        assertEquals(1, tail.get(LoopBody.SPLIT2_ENTRY));
        assertEquals(1, tail.get(LoopBody.SPLIT1_ENTRY));
        assertEquals(0, tail.get(LoopBody.BLOCK2_ENTRY) + tail.get(LoopBody.ONE_VECTOR_ENTRY));
        assertEquals(2, tail.get(LoopBody.ROW_BLOCK));
        // N = 48 = 2 + 1 vectors: one 2-vector and one one-vector block of the general path
        LoopCounts three = LoopNests.rowBody(4, 8, 48, 16, true);
        assertEquals(8, three.get(LoopBody.SPLIT2_ENTRY));
        assertEquals(8, three.get(LoopBody.SPLIT1_ENTRY));
        assertEquals(8, three.get(LoopBody.ROW_BLOCK));
        assertEquals(0, three.get(LoopBody.WHOLE_ROW));
        // N = one and two vectors: the tight all-rows loops, no block dispatch (csr, and coo over its row runs)
        LoopCounts csr32 = LoopNests.rowBody(10, 100, 32, 16, true);
        assertEquals(100, csr32.get(LoopBody.BLOCK2_ENTRY));
        assertEquals(10, csr32.get(LoopBody.WHOLE_ROW));
        assertEquals(0, csr32.get(LoopBody.ROW_BLOCK));
        LoopCounts general32 = LoopNests.rowBody(10, 100, 32, 16, false);
        assertEquals(100, general32.get(LoopBody.SPLIT2_ENTRY)); // the general path's 2-vector block, not the tight loop
        assertEquals(0, general32.get(LoopBody.BLOCK2_ENTRY));
        assertEquals(10, general32.get(LoopBody.ROW_BLOCK));
        LoopCounts coo16 = LoopNests.of("coo", 10, 64, 16, 100, null, 0, 16);
        assertEquals(100, coo16.get(LoopBody.ONE_VECTOR_ENTRY));
        assertEquals(10, coo16.get(LoopBody.WHOLE_ROW));
        assertEquals(100, coo16.get(LoopBody.COO_ENTRY));
        // coo at two vectors (32 at 512 bits, 16 at 256): csr's two-vector tight loop plus the run search
        for (int lanes : new int[] {16, 8}) {
            LoopCounts coo2 = LoopNests.of("coo", 10, 64, 2L * lanes, 100, null, 0, lanes);
            LoopCounts csr2 = LoopNests.of("csr", 10, 64, 2L * lanes, 100, null, 0, lanes);
            assertEquals(100, coo2.get(LoopBody.BLOCK2_ENTRY));
            assertEquals(0, coo2.get(LoopBody.SPLIT2_ENTRY) + coo2.get(LoopBody.ROW_BLOCK));
            assertEquals(csr2.get(LoopBody.WHOLE_ROW), coo2.get(LoopBody.WHOLE_ROW));
            assertEquals(100, coo2.get(LoopBody.COO_ENTRY));
            assertEquals(10, coo2.get(LoopBody.COO_ROW));
        }
        // N:M has no tight loop
        LoopCounts nm16 = LoopNests.of("2:4", 10, 64, 16, 320, null, 0, 16);
        assertEquals(320, nm16.get(LoopBody.SPLIT1_ENTRY));
        assertEquals(10, nm16.get(LoopBody.NM_ROW));
        assertEquals(10, nm16.get(LoopBody.ROW_BLOCK));
        // BSR N = 80 at 16 lanes: one wide strip (64 columns) and one narrow
        LoopCounts bsr = LoopNests.bsr(BlockShape.B4X4, 8, 5, 80, 16);
        assertEquals(5, bsr.get(LoopBody.BSR_WIDE));
        assertEquals(5, bsr.get(LoopBody.BSR_NARROW));
        assertThrows(SparseprofException.class, () -> LoopNests.of("ell", 4, 4, 16, 4, null, 0, 16));
    }

    @Test
    void aProbeFileWithoutTheSlopeKeysLoadsAndOneWithHalfOfThemIsRefused() {
        // a probe before 4 Dec 2026: no bsrTile/nmRow/split keys; its per-block and per-slot rates carry the fixed parts
        CpuSpec old = cpu(512, "0.5");
        assertTrue(!old.inCore().fixedPartsApart() && old.inCore().split2Cycles() == 0);
        assertEquals(old.inCore().block2Cycles(), old.inCore().generalBlock2Cycles());
        LoopCounts bsr = LoopNests.bsr(BlockShape.B4X4, 8, 5, 80, 16);
        assertEquals(5 * 60 + 5 * 20, bsr.cycles(old.inCore()), 1e-9); // no tile part beyond the blocks'
        // this probe's: the fixed parts apart, the general path's blocks their own rates
        String withSlopes = spec(512, "0.5").replace("    nmSlot: 3cycles\n",
                "    nmSlot: 3cycles\n    bsrTile: 40cycles\n    nmRow: 30cycles\n    split2: 5cycles\n    split1: 2.5cycles\n");
        CpuSpec now = (CpuSpec) HardwareSpecs.parse("now.yaml", withSlopes);
        assertTrue(now.inCore().fixedPartsApart());
        assertEquals(5 * 60 + 5 * 20 + 2 * 2 * 40, bsr.cycles(now.inCore()), 1e-9); // 2 block rows x 2 strips
        assertEquals(100 * 5 + 10 * 20, LoopNests.rowBody(10, 100, 32, 16, false).cycles(now.inCore()), 1e-9); // N:M's 2-vector block
        // bsrTile without nmRow: one line naming the key
        String half = spec(512, "0.5").replace("    nmSlot: 3cycles\n", "    nmSlot: 3cycles\n    bsrTile: 40cycles\n");
        Exception e = assertThrows(RuntimeException.class, () -> HardwareSpecs.parse("half.yaml", half));
        assertTrue(e.getMessage().contains("bsrTile and nmRow come together"), e.getMessage());
    }

    /**
     * csr (coo, N:M) at N = 1 runs one gather dot per row (kernel.GatherRows): per row its whole vectors, its
     * scalar tail and the row, from the real row lengths, at the probe's spmv rates; a probe without
     * them (before 7 Dec 2026) measured the broadcast body the kernel ran there then, still counted.
     */
    @Test
    void csrAtOneTokenCountsTheGatherDotsVectorsTailsAndRows() {
        LoopCounts c = LoopNests.spmv(dev.sparseprof.sparse.stats.Lengths.of(0, 5, 16, 37), 16);
        assertEquals(0 + 0 + 1 + 2, c.get(LoopBody.SPMV_VECTOR), 1e-12);
        assertEquals(0 + 5 + 0 + 5, c.get(LoopBody.SPMV_TAIL), 1e-12);
        assertEquals(4, c.get(LoopBody.SPMV_ROW), 1e-12);
        String withSpmv = spec(512, "0.5").replace("    nmSlot: 3cycles\n", "    nmSlot: 3cycles\n    spmvVector: 20cycles\n    spmvRow: 10cycles\n    spmvTail: 1cycles\n");
        CpuSpec probed = (CpuSpec) HardwareSpecs.parse("spmv.yaml", withSpmv);
        assertEquals(3 * 20 + 4 * 10 + 10 * 1, c.cycles(probed.inCore()), 1e-9);
        Workload one = Workload.uniformSparse("q", 384, 384, 1, DType.F32, 0.1, false);
        double counted = LoopNests.spmv(one.rowLengths(), 16).cycles(probed.inCore()) / (probed.cores() * probed.clockHertz());
        Prediction gather = new PerfModel(probed, TrafficModel.ANALYTICAL).predict(one, FormatModels.byName("csr"), Features.ALL);
        assertEquals(counted, gather.computeSeconds(), counted * 1e-9, "the gather dot's counts at the spmv rates");
        Prediction old = new PerfModel(cpu(512, "0.5"), TrafficModel.ANALYTICAL).predict(one, FormatModels.byName("csr"), Features.ALL);
        double broadcast = LoopNests.of("csr", 384, 384, 1, one.nnz(), null, 0, 16).cycles(cpu(512, "0.5").inCore()) / (probed.cores() * probed.clockHertz());
        assertEquals(broadcast, old.computeSeconds(), broadcast * 1e-9, "an older probe: the broadcast body's counts");
        // coo's gather dot over its row runs, with the run search; 2:4's over every row's slots (K / 2), with the decode
        LoopCounts coo = LoopNests.oneColumn("coo", dev.sparseprof.sparse.stats.Lengths.of(0, 5, 16, 37), 64, 16);
        assertEquals(c.plus(LoopNests.runSearch(58, 4)), coo);
        LoopCounts nm = LoopNests.oneColumn("2:4", dev.sparseprof.sparse.stats.Lengths.of(0, 5, 16, 37), 72, 16);
        assertEquals(4 * 2, nm.get(LoopBody.SPMV_VECTOR), 1e-12); // 36 slots a row: 2 vectors and a tail of 4
        assertEquals(4 * 4, nm.get(LoopBody.SPMV_TAIL), 1e-12);
        assertEquals(4 * 36, nm.get(LoopBody.NM_SLOT), 1e-12);
        assertEquals(4, nm.get(LoopBody.NM_ROW), 1e-12);
        assertTrue(LoopNests.gathersAtOneColumn("1:2") && !LoopNests.gathersAtOneColumn("bsr4x4") && !LoopNests.gathersAtOneColumn("dense"));
        // the three keys come together
        String two = spec(512, "0.5").replace("    nmSlot: 3cycles\n", "    nmSlot: 3cycles\n    spmvVector: 20cycles\n    spmvRow: 10cycles\n");
        Exception e = assertThrows(RuntimeException.class, () -> HardwareSpecs.parse("two.yaml", two));
        assertTrue(e.getMessage().contains("spmvVector, spmvRow, spmvTail come together"), e.getMessage());
    }

    /**
     * Dense at N = 1 runs a matrix-vector product (kernel.DenseGemv): K / L vector FMAs and one row's
     * reduction per row, at the probe's gemv rates; no B is packed; a probe without those rates measured
     * the one-vector micro-kernel, one vector FMA per row and element of K, still counted.
     */
    @Test
    void denseAtOneTokenCountsTheMatrixVectorProduct() {
        LoopCounts g = LoopNests.gemv(384, 1536, 16);
        assertEquals(384 * 96, g.get(LoopBody.GEMV_FMA), 1e-9);
        assertEquals(384, g.get(LoopBody.GEMV_ROW), 1e-9);
        String withGemv = spec(512, "0.5").replace("    nmSlot: 3cycles\n", "    nmSlot: 3cycles\n    gemvFma: 0.6cycles\n    gemvRow: 12cycles\n");
        CpuSpec probed = (CpuSpec) HardwareSpecs.parse("gemv.yaml", withGemv);
        assertEquals(384 * 96 * 0.6 + 384 * 12, g.cycles(probed.inCore()), 1e-6);
        Workload one = Workload.dense("d", 384, 1536, 1, DType.F32);
        double perCycle = 1 / (probed.cores() * probed.clockHertz());
        Prediction p = new PerfModel(probed, TrafficModel.ANALYTICAL).predict(one, FormatModels.byName("dense"), Features.ALL);
        assertEquals(g.cycles(probed.inCore()) * perCycle, p.computeSeconds(), 1e-15);
        assertEquals(0, EcmModel.bCopyBytesPerThread(probed, one, "dense"), "nothing packed");
        Prediction old = new PerfModel(cpu(512, "0.5"), TrafficModel.ANALYTICAL).predict(one, FormatModels.byName("dense"), Features.ALL);
        LoopCounts narrow = LoopNests.of("dense", 384, 1536, 1, 384L * 1536, null, 2.0 * 384 * 1536, 16);
        assertEquals(384.0 * 1536, narrow.get(LoopBody.DENSE_NARROW_FMA), 1e-9);
        assertEquals(narrow.cycles(cpu(512, "0.5").inCore()) * perCycle, old.computeSeconds(), 1e-15);
        String half = spec(512, "0.5").replace("    nmSlot: 3cycles\n", "    nmSlot: 3cycles\n    gemvFma: 0.6cycles\n");
        Exception e = assertThrows(RuntimeException.class, () -> HardwareSpecs.parse("half.yaml", half));
        assertTrue(e.getMessage().contains("gemvFma, gemvRow come together"), e.getMessage());
    }

    /**
     * With the probe's L2 rate of the matrix-vector product (gemvL2), dense at N = 1 takes A's L2
     * bytes at that rate and composes with its in-core time as their maximum: a 384 x 384 layer (A
     * 576 KiB, in the spec's L2) at 40 GB/s a core instead of the streaming 100, a layer past L2 at
     * the L3 rate (gemvL3); dense at N = 16 keeps the streaming rates; the rates without the gemv
     * pair are refused.
     */
    @Test
    void theMatrixVectorProductTakesItsOwnL2Rate() {
        String pair = "    nmSlot: 3cycles\n    gemvFma: 0.6cycles\n    gemvRow: 12cycles\n";
        CpuSpec without = (CpuSpec) HardwareSpecs.parse("gemv.yaml", spec(512, "0.5").replace("    nmSlot: 3cycles\n", pair));
        CpuSpec with = (CpuSpec) HardwareSpecs.parse("gemvl2.yaml", spec(512, "0.5").replace("    nmSlot: 3cycles\n", pair + "    gemvL2: 40GB/s\n"));
        assertEquals(40e9, with.inCore().oneColumn().gemvL2BytesPerSecond(), 1);
        Workload one = Workload.dense("d", 384, 384, 1, DType.F32);
        Prediction p = new PerfModel(with, TrafficModel.ANALYTICAL).predict(one, FormatModels.byName("dense"), Features.ALL);
        Prediction q = new PerfModel(without, TrafficModel.ANALYTICAL).predict(one, FormatModels.byName("dense"), Features.ALL);
        double l2Bytes = p.traffic().bytesAt(1);
        assertTrue(l2Bytes >= 384.0 * 384 * Float.BYTES, "A's bytes come from L2");
        assertEquals(l2Bytes / (40e9 * with.privateCacheInstances()), p.levelSeconds()[1], 1e-12, "each core streams its rows at the rate");
        assertEquals(Math.max(p.computeSeconds(), p.levelSeconds()[1]), p.seconds() - p.overheadSeconds(), 1e-12);
        assertTrue(p.seconds() > q.seconds(), "slower than at the streaming read of 100 GB/s a core");
        // N = 16 and csr at N = 1 are untouched
        Workload sixteen = Workload.dense("d", 384, 384, 16, DType.F32);
        assertEquals(new PerfModel(without, TrafficModel.ANALYTICAL).predict(sixteen, FormatModels.byName("dense"), Features.ALL).seconds(),
                new PerfModel(with, TrafficModel.ANALYTICAL).predict(sixteen, FormatModels.byName("dense"), Features.ALL).seconds(), 1e-15);
        // from L3 (a 3072 x 768 layer, 9 MiB, past the 2 MiB L2) at its own L3 rate, at most the L3's all-cores figure
        CpuSpec withL3 = (CpuSpec) HardwareSpecs.parse("gemvl3.yaml", spec(512, "0.5").replace("    nmSlot: 3cycles\n",
                pair + "    gemvL2: 40GB/s\n    gemvL3: 20GB/s\n"));
        Workload big = Workload.dense("d", 3072, 768, 1, DType.F32);
        Prediction l3 = new PerfModel(withL3, TrafficModel.ANALYTICAL).predict(big, FormatModels.byName("dense"), Features.ALL);
        assertEquals(Math.min(EcmModel.levelBandwidth(withL3, 2), 20e9 * withL3.cores()), EcmModel.gemvBandwidth(withL3, 2), 1);
        assertEquals(l3.traffic().bytesAt(2) / EcmModel.gemvBandwidth(withL3, 2), l3.levelSeconds()[2], 1e-12);
        assertEquals(EcmModel.levelBandwidth(with, 2), EcmModel.gemvBandwidth(with, 2), 1, "no L3 rate: the L3's own");
        // an L2 the cores share: the product's rate per core times the cores, at most the L2's all-cores figure
        CpuSpec sharedL2 = (CpuSpec) HardwareSpecs.parse("shared-l2.yaml", spec(512, "0.5").replace("    nmSlot: 3cycles\n", pair + "    gemvL2: 150GB/s\n")
                .replace("{name: L2, size: 2MiB, ways: 16, line: 64B, latency: 16cycles, shared: false, bandwidth: 200GB/s}",
                        "{name: L2, size: 2MiB, ways: 16, line: 64B, latency: 16cycles, shared: true, bandwidth: 200GB/s}"));
        assertTrue(sharedL2.caches().get(1).shared());
        assertEquals(Math.min(EcmModel.levelBandwidth(sharedL2, 1), 150e9 * sharedL2.cores()), EcmModel.gemvBandwidth(sharedL2, 1), 1);
        assertTrue(EcmModel.gemvBandwidth(sharedL2, 1) < 150e9 * sharedL2.cores(), "capped by the shared L2");
        Exception e = assertThrows(RuntimeException.class, () -> HardwareSpecs.parse("lone.yaml",
                spec(512, "0.5").replace("    nmSlot: 3cycles\n", "    nmSlot: 3cycles\n    gemvL3: 90GB/s\n")));
        assertTrue(e.getMessage().contains("gemvL2 and gemvL3 need gemvFma"), e.getMessage());
    }

    /**
     * SELL (kernel.SellSpmm) runs its one-column body once per column of B: per column every chunk's
     * slot vectors (padding included) and every chunk's stores, at the probe's sell rates; B's
     * transpose is a per-thread phase (none at N = 1, where B is read in place); without the rates,
     * or at another width, or on a GPU, SELL is not predicted and says why.
     */
    @Test
    void sellCountsItsChunksSlotVectorsPerColumnAndItsTranspose() {
        // rows of 3, 1, 20 and 0 non-zeros in one window: sorted 20, 3, 1, 0; chunks of 2 rows: widths 20 and 1
        long slots = dev.sparseprof.sparse.SellMatrix.slots(new int[] {3, 1, 20, 0}, 2, 256);
        assertEquals(2 * 20 + 2 * 1, slots);
        LoopCounts c = LoopNests.sell(slots, 4, 2, 8);
        assertEquals(21.0 * 8, c.get(LoopBody.SELL_SLOT), 1e-12);
        assertEquals(2.0 * 8, c.get(LoopBody.SELL_CHUNK), 1e-12);
        String withSell = spec(512, "0.5").replace("    nmSlot: 3cycles\n", "    nmSlot: 3cycles\n    sellSlot: 18cycles\n    sellChunk: 70cycles\n    sellTranspose: 2cycles\n");
        CpuSpec probed = (CpuSpec) HardwareSpecs.parse("sell.yaml", withSell);
        assertEquals(21 * 8 * 18 + 2 * 8 * 70, c.cycles(probed.inCore()), 1e-9);
        Workload w = Workload.uniformSparse("q", 384, 384, 16, DType.F32, 0.1, false);
        var sell = FormatModels.byName("sell-16-256");
        PerfModel model = new PerfModel(probed, TrafficModel.ANALYTICAL);
        assertEquals(null, sell.unsupported(w, probed));
        Prediction p = model.predict(w, sell, Features.ALL);
        long wSlots = dev.sparseprof.sparse.SellMatrix.slots(w.rowLengths().toArray(), 16, 256);
        double perCycle = 1 / (probed.cores() * probed.clockHertz());
        assertEquals(LoopNests.sell(wSlots, 384, 16, 16).cycles(probed.inCore()) * perCycle * probed.inCore().coreStretch(probed.cores()),
                p.computeSeconds(), 1e-15);
        assertEquals(384.0 * 16 * 2 / probed.clockHertz() * probed.inCore().coreStretch(probed.cores()),
                EcmModel.bCopySeconds(probed, w, "sell-16-256"), 1e-15, "the transpose: K x N elements on each thread at once");
        Workload one = Workload.uniformSparse("q", 384, 384, 1, DType.F32, 0.1, false);
        assertEquals(0, EcmModel.bCopySeconds(probed, one, "sell-16-256"), "B read in place at N = 1");
        assertTrue(FormatModels.byName("sell-8-256").unsupported(w, probed).contains("C = 16 lanes"));
        assertTrue(sell.unsupported(w, cpu(512, "0.5")).contains("did not measure SELL"));
        assertTrue(sell.unsupported(w, HardwareSpecs.load("a100")).contains("a CPU kernel"));
        String two = spec(512, "0.5").replace("    nmSlot: 3cycles\n", "    nmSlot: 3cycles\n    sellSlot: 18cycles\n");
        Exception e = assertThrows(RuntimeException.class, () -> HardwareSpecs.parse("two.yaml", two));
        assertTrue(e.getMessage().contains("sellSlot, sellChunk, sellTranspose come together"), e.getMessage());
    }

    @Test
    void theModelFollowsTheSimdWidth() {
        Workload w = Workload.uniformSparse("q", 384, 384, 128, DType.F32, 0.1, false);
        double t512 = new PerfModel(cpu(512, "0"), TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL).computeSeconds();
        double t256 = new PerfModel(cpu(256, "0"), TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL).computeSeconds();
        // N = 128: one 8-vector block per row at 16 lanes, two at 8 (the same rates per block: the spec's)
        assertEquals(2.0, t256 / t512, 0.02);
    }

    @Test
    void serialAddsTheTransfersOverlappedTakesTheLargestTheProbedOverlapGoesBetween() {
        Workload w = Workload.uniformSparse("ffn", 1536, 384, 128, DType.F32, 0.1, false);
        Prediction serial = new PerfModel(cpu(512, "0"), TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
        Prediction overlapped = new PerfModel(cpu(512, "1"), TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
        Prediction half = new PerfModel(cpu(512, "0.5"), TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
        double[] level = serial.levelSeconds();
        double sum = 0;
        double max = 0;
        for (int i = 1; i < level.length; i++) {
            sum += level[i];
            max = Math.max(max, level[i]);
        }
        assertTrue(sum > 0);
        assertEquals(serial.computeSeconds() + sum + serial.overheadSeconds(), serial.seconds(), 1e-12);
        assertEquals(Math.max(overlapped.computeSeconds(), max) + overlapped.overheadSeconds(), overlapped.seconds(), 1e-12);
        assertEquals((serial.seconds() + overlapped.seconds()) / 2, half.seconds(), 1e-12);
        // the call's footprint fits the two cores' L2s: in the steady state of repeated calls L3 and DRAM move nothing
        assertEquals(0, level[2]);
        assertEquals(0, level[3]);
    }

    @Test
    void callsTakenInTurnWithOtherKernelsReadFromTheLevelThatHoldsThemAll() {
        Workload w = Workload.uniformSparse("ffn", 1536, 384, 128, DType.F32, 0.1, false);
        PerfModel m = new PerfModel(cpu(512, "0"), TrafficModel.ANALYTICAL);
        Prediction alone = m.predict(w, FormatModels.byName("csr"), Features.ALL);
        assertEquals(alone.seconds(), m.predict(w, FormatModels.byName("csr"), Features.ALL, Footprint.ZERO).seconds(), 0);
        // what each core touches (its half of A and C, all of B, its own copy of B) with the others' bytes
        // still fits its own 2 MiB L2: nothing changes
        Footprint own = EcmModel.footprint(w, FormatModels.byName("csr").plan(w, m.spec()), (CpuSpec) m.spec());
        assertTrue(own.perCoreBytes() < 2 * 1024 * 1024, "own footprint " + own);
        Prediction fits = m.predict(w, FormatModels.byName("csr"), Features.ALL, new Footprint(2.0 * 1024 * 1024 - own.perCoreBytes() - 1, 0));
        assertEquals(alone.seconds(), fits.seconds(), 1e-15);
        // past a core's L2: every call's bytes come from L3 (its cold misses at L3's bandwidth), not from DRAM
        Prediction interleaved = m.predict(w, FormatModels.byName("csr"), Features.ALL, new Footprint(4.0 * 1024 * 1024, 8.0 * 1024 * 1024));
        assertTrue(interleaved.levelSeconds()[2] > 0);
        assertEquals(0, interleaved.levelSeconds()[3]);
        assertEquals(alone.levelSeconds()[1], interleaved.levelSeconds()[1], 1e-15);
        assertEquals(alone.seconds() + interleaved.levelSeconds()[2], interleaved.seconds(), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> new Footprint(-1, 0));
    }

    @Test
    void eachCoreHoldsItsShareOfAAndCAllOfBAndItsOwnCopyOfB() {
        // 384 x 384 at 50 %, N = 128: A's csr arrays and C split over the 2 cores, B (196 KB) read whole by both,
        // and each thread's own aligned copy of B (196 KB), once per core in the shared L3
        Workload w = Workload.uniformSparse("q", 384, 384, 128, DType.F32, 0.5, false);
        CpuSpec two = cpu(512, "0");
        var plan = FormatModels.byName("csr").plan(w, two);
        double split = 0;
        double replicated = 0;
        for (var d : plan.streams()) {
            if (d.replicated()) replicated += d.footprintBytes();
            else split += d.footprintBytes();
        }
        double b = 384.0 * 128 * Float.BYTES;
        assertEquals(b, replicated, 1e-9);
        Footprint f = EcmModel.footprint(w, plan, two);
        assertEquals(split / 2 + b + b, f.perCoreBytes(), 1e-6);
        assertEquals(split + b + 2 * b, f.allCoresBytes(), 1e-6);
        // what the others touched is held core by core: with 1.9 MiB more on each core the call's own bytes no longer
        // fit a core's 2 MiB L2 and come from L3 on every call; alone they stay in L2
        PerfModel m = new PerfModel(two, TrafficModel.ANALYTICAL);
        double perCore = 1.9 * 1024 * 1024;
        Prediction past = m.predict(w, FormatModels.byName("csr"), Features.ALL, new Footprint(perCore, 2 * perCore));
        assertTrue(past.levelSeconds()[2] > 0, "L3 moves the call's bytes");
        assertEquals(0, m.predict(w, FormatModels.byName("csr"), Features.ALL).levelSeconds()[2]);
    }

    @Test
    void rowGathersMoveAtTheProbedGatherRateAndBlocksAndPanelsAtTheStreamingOne() {
        String gathering = spec(512, "0").replace("    overlap: 0\n",
                "    overlap: 0\n    l2GatherPerCore: 25GB/s\n    l2GatherAll: 30GB/s\n    gatherThreads: 2\n    l1Reuse: setAssociative\n");
        CpuSpec streaming = cpu(512, "0");
        CpuSpec probed = (CpuSpec) HardwareSpecs.parse("g.yaml", gathering);
        assertEquals(25e9, probed.inCore().l2Gather().perCoreBytesPerSecond(1), 1);
        assertEquals(15e9, probed.inCore().l2Gather().perCoreBytesPerSecond(2), 1); // two threads gather 30 GB/s in all
        // N = 128 and a B of 196 KB, 4x the L1: csr's B rows come from L2
        Workload w = Workload.uniformSparse("q", 384, 384, 128, DType.F32, 0.3, false);
        Prediction before = new PerfModel(streaming, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
        Prediction after = new PerfModel(probed, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
        double gathered = after.traffic().gatherBytesAt(1);
        assertTrue(gathered > 0.8 * after.traffic().bytesAt(1), after.traffic().toString()); // B's rows are most of the L2 bytes
        double rest = after.traffic().bytesAt(1) - gathered;
        // the spec's 2 cores: L2 at l2PerCore x 2 = 200 GB/s, the row gathers at 15 x 2 = 30 GB/s
        assertEquals(rest / 200e9 + gathered / 30e9, after.levelSeconds()[1], 1e-12 * after.levelSeconds()[1] + 1e-15);
        assertEquals(after.traffic().bytesAt(1) / 200e9, before.levelSeconds()[1], 1e-9 * before.levelSeconds()[1]);
        assertTrue(after.seconds() > before.seconds());
        // bsr4x4 reads each block's B rows as one run of consecutive rows, dense its packed panels: the streaming rate
        Workload blocks = w;
        for (String f : new String[] {"bsr4x4", "dense"}) {
            Prediction s = new PerfModel(streaming, TrafficModel.ANALYTICAL).predict(blocks, FormatModels.byName(f), Features.ALL);
            Prediction g = new PerfModel(probed, TrafficModel.ANALYTICAL).predict(blocks, FormatModels.byName(f), Features.ALL);
            assertEquals(0, g.traffic().gatherBytesAt(1), f);
            assertEquals(s.seconds(), g.seconds(), 1e-15, f);
        }
        // the simulated traffic carries the analytical shares
        Prediction simulated = new PerfModel(probed, new SimulatedTraffic(10_000_000)).predict(w, FormatModels.byName("csr"), Features.ALL);
        assertEquals(after.traffic().gatherShares()[1], simulated.traffic().gatherShares()[1], 1e-12);
        // a file with the bandwidths but no 1-thread figure is refused by name
        String partial = spec(512, "0").replace("    overlap: 0\n", "    overlap: 0\n    l2GatherAll: 30GB/s\n");
        Exception e = assertThrows(RuntimeException.class, () -> HardwareSpecs.parse("p.yaml", partial));
        assertTrue(e.getMessage().contains("need l2GatherPerCore"), e.getMessage());
    }

    /**
     * Rows the kernel walks in two or more column blocks (N = 128 at 8 lanes: two 8-vector blocks)
     * gather at the probe's two-block rate; rows of one block (N = 64) and specs without the
     * two-block rate at the one-block rate.
     */
    @Test
    void rowsWalkedInTwoBlocksGatherAtTheTwoBlockRate() {
        String narrowOnly = spec(256, "0").replace("    overlap: 0\n", "    overlap: 0\n    l2GatherPerCore: 25GB/s\n    l2GatherAll: 30GB/s\n    gatherThreads: 2\n");
        String both = narrowOnly.replace("    gatherThreads: 2\n", "    gatherThreads: 2\n    l2GatherWidePerCore: 40GB/s\n    l2GatherWideAll: 60GB/s\n");
        CpuSpec narrow = (CpuSpec) HardwareSpecs.parse("n.yaml", narrowOnly);
        CpuSpec wide = (CpuSpec) HardwareSpecs.parse("w.yaml", both);
        for (long n : new long[] {64, 128}) {
            Workload w = Workload.uniformSparse("q", 384, 384, n, DType.F32, 0.3, false);
            Prediction a = new PerfModel(narrow, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
            Prediction b = new PerfModel(wide, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
            double gathered = b.traffic().gatherBytesAt(1);
            double rest = b.traffic().bytesAt(1) - gathered;
            double rate = n == 128 ? 30e9 : 15e9; // two cores: the all-threads figures over two threads, times two cores
            assertEquals(rest / 200e9 + gathered / (2 * rate), b.levelSeconds()[1], 1e-9 * b.levelSeconds()[1], "N " + n);
            if (n == 64) assertEquals(a.seconds(), b.seconds(), 1e-15, "one block: the one-block rate");
            else assertTrue(b.seconds() < a.seconds(), "two blocks: the faster two-block rate");
        }
        // the reuse rule the rates were solved with: none said and gather rates given is the old probes' fully associative L1
        assertTrue(narrow.inCore().fullyAssociativeReuse());
        CpuSpec sets = (CpuSpec) HardwareSpecs.parse("s.yaml", both.replace("    gatherThreads: 2\n", "    gatherThreads: 2\n    l1Reuse: setAssociative\n"));
        assertFalse(sets.inCore().fullyAssociativeReuse());
        Workload row = Workload.uniformSparse("q", 384, 384, 64, DType.F32, 0.1, false);
        double keptOld = 1 - new PerfModel(wide, TrafficModel.ANALYTICAL).predict(row, FormatModels.byName("csr"), Features.ALL).traffic().missRates()[0];
        double keptSets = 1 - new PerfModel(sets, TrafficModel.ANALYTICAL).predict(row, FormatModels.byName("csr"), Features.ALL).traffic().missRates()[0];
        assertTrue(keptSets != keptOld, "the L1 keeps another share of B's rows under the set-associative rule: " + keptOld + " vs " + keptSets);
        Exception bad = assertThrows(RuntimeException.class, () -> HardwareSpecs.parse("b.yaml", both.replace("    gatherThreads: 2\n", "    gatherThreads: 2\n    l1Reuse: lru\n")));
        assertTrue(bad.getMessage().contains("l1Reuse") && bad.getMessage().contains("setAssociative or fullyAssociative"), bad.getMessage());
        String partial = narrowOnly.replace("    gatherThreads: 2\n", "    gatherThreads: 2\n    l2GatherWideAll: 60GB/s\n");
        Exception e = assertThrows(RuntimeException.class, () -> HardwareSpecs.parse("p.yaml", partial));
        assertTrue(e.getMessage().contains("l2GatherWideAll needs l2GatherWidePerCore"), e.getMessage());
    }

    @Test
    void everyDenseThreadPacksTheWholeOfBsPaddedPanelsAndThatPhaseDoesNotShrinkWithTheCores() {
        // N = 40 at 16 lanes: a two-vector panel (32 columns) and a one-vector one (16): 48 packed columns
        Workload w = Workload.uniformSparse("qkv", 384, 384, 40, DType.F32, 0.5, false);
        CpuSpec two = cpu(512, "1");
        assertEquals(48, LoopNests.densePaddedColumns(40, 16));
        // B read and each thread's packed panels written: 2 x 384 x 48 floats per thread, 288 KiB on two
        // cores, past the two L1s (96 KiB), held by the two L2s (200 GB/s together)
        double bytes = 2.0 * 384 * 48 * Float.BYTES * 2;
        assertEquals(bytes / 200e9, EcmModel.bCopySeconds(two, w, "dense"), 1e-18);
        Prediction p = new PerfModel(two, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("dense"), Features.ALL);
        assertEquals(two.overheads().launchSeconds(2) + bytes / 200e9, p.overheadSeconds(), 1e-15);
        // the sparse kernels' aligned copy takes N as it is (no panels)
        assertEquals(2.0 * 384 * 40 * Float.BYTES * 2 / 200e9, EcmModel.bCopySeconds(two, w, "csr"), 1e-18);
        // one thread packs the same bytes at one L2's bandwidth: the same time as each of two threads
        CpuSpec one = (CpuSpec) HardwareSpecs.parse("one.yaml", spec(512, "1").replace("cores: 2\n  clock", "cores: 1\n  clock")
                .replace("bandwidth: 200GB/s", "bandwidth: 100GB/s"));
        assertEquals(EcmModel.bCopySeconds(two, w, "dense"), EcmModel.bCopySeconds(one, w, "dense"), 1e-18);
    }

    @Test
    void onUnequalCoresTheInCoreTimeOfASplitCallGoesAtTheSlowestCoresPace() {
        Workload w = Workload.uniformSparse("ffn", 1536, 384, 128, DType.F32, 0.1, false);
        String slow = spec(512, "1").replace("    overlap: 1\n", "    overlap: 1\n    slowestCore: 0.625\n");
        for (String f : new String[] {"dense", "csr"}) {
            Prediction equal2 = new PerfModel(cpu(512, "1"), TrafficModel.ANALYTICAL).predict(w, FormatModels.byName(f), Features.ALL);
            Prediction slow2 = new PerfModel((CpuSpec) HardwareSpecs.parse("s.yaml", slow), TrafficModel.ANALYTICAL).predict(w, FormatModels.byName(f), Features.ALL);
            assertEquals(equal2.computeSeconds() / 0.625, slow2.computeSeconds(), 1e-12 * slow2.computeSeconds(), f);
            // one thread runs on the first CPU, whose rates the spec holds
            Prediction equal1 = new PerfModel((CpuSpec) HardwareSpecs.parse("e1.yaml", spec(512, "1").replace("cores: 2\n  clock", "cores: 1\n  clock")),
                    TrafficModel.ANALYTICAL).predict(w, FormatModels.byName(f), Features.ALL);
            Prediction slow1 = new PerfModel((CpuSpec) HardwareSpecs.parse("s1.yaml", slow.replace("cores: 2\n  clock", "cores: 1\n  clock")),
                    TrafficModel.ANALYTICAL).predict(w, FormatModels.byName(f), Features.ALL);
            assertEquals(equal1.seconds(), slow1.seconds(), 0, f);
        }
        assertEquals(1.6, ((CpuSpec) HardwareSpecs.parse("s.yaml", slow)).inCore().coreStretch(2), 1e-12);
        assertEquals(1.0, cpu(512, "1").inCore().coreStretch(2)); // files without the key: equal cores
        SparseprofException e = assertThrows(SparseprofException.class,
                () -> HardwareSpecs.parse("b.yaml", slow.replace("slowestCore: 0.625", "slowestCore: 1.5")));
        assertTrue(e.getMessage().contains("slowestCore must be in (0, 1]"), e.getMessage());
    }

    /**
     * The copies of B move at the running cores' bandwidth, by the rule the kernel's transfers use
     * ({@code EcmModel.levelBandwidth}): the L2 at its 1-core figure (100 GB/s) times the cores, not at
     * the spec's all-threads figure (200 GB/s) whatever the cores.
     */
    @Test
    void theCopiesOfBMoveAtTheRunningCoresBandwidth() {
        Workload w = Workload.uniformSparse("q", 384, 384, 128, DType.F32, 0.9, false);
        double perThread = 384.0 * 128 * Float.BYTES; // 196.6 kB: two cores' copies and sources fit the L2s, not an L1
        CpuSpec two = cpu(512, "1");
        CpuSpec one = (CpuSpec) HardwareSpecs.parse("one.yaml", spec(512, "1").replace("cores: 2\n  clock", "cores: 1\n  clock"));
        assertEquals(2 * perThread / 100e9, EcmModel.bCopySeconds(one, w, "csr"), 1e-15);
        assertEquals(2 * perThread * 2 / 200e9, EcmModel.bCopySeconds(two, w, "csr"), 1e-15);
    }

    /**
     * Two threads on SMT siblings of one core ({@code teamCores: 1}) share its ports and its private
     * caches: the in-core time goes at the team's measured FMA pace, the L2 moves one core's bytes
     * per second, and the one L1 and L2 hold both threads' shares. Threads on cores of their own run
     * as before whatever pace the team read. The team's figures hold only at its size: one thread
     * runs as before, and a team of 4 says nothing about 2 threads.
     */
    @Test
    void smtSiblingsShareOneCoresPortsAndCaches() {
        Workload w = Workload.uniformSparse("ffn", 1536, 384, 128, DType.F32, 0.1, false);
        String base = spec(512, "0");
        CpuSpec apart = cpu(512, "0");
        CpuSpec siblings = (CpuSpec) HardwareSpecs.parse("smt.yaml", base.replace("    overlap: 0\n",
                "    overlap: 0\n    teamThreads: 2\n    teamCores: 1\n    teamFma: 0.55\n"));
        CpuSpec measuredApart = (CpuSpec) HardwareSpecs.parse("apart.yaml", base.replace("    overlap: 0\n",
                "    overlap: 0\n    teamThreads: 2\n    teamCores: 2\n    teamFma: 0.98\n"));
        assertEquals(1, siblings.privateCacheInstances());
        assertEquals(2, measuredApart.privateCacheInstances());
        assertEquals(1 / 0.55, siblings.inCore().coreStretch(2), 1e-12);
        assertEquals(1.0, measuredApart.inCore().coreStretch(2), "cores of their own: the team's pace is the minute's, not read");
        assertEquals(1.0, siblings.inCore().coreStretch(1));
        for (String f : new String[] {"dense", "csr"}) {
            Prediction two = new PerfModel(apart, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName(f), Features.ALL);
            Prediction smt = new PerfModel(siblings, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName(f), Features.ALL);
            assertEquals(two.computeSeconds() / 0.55, smt.computeSeconds(), 1e-12 * smt.computeSeconds(), f);
            // the L2 at one core's 100 GB/s (bytes past L1 from the shared L1's hits), not two cores' 200
            double l2Bytes = smt.traffic().bytesAt(1);
            assertEquals(l2Bytes / 100e9 * smt.imbalanceFactor(), smt.levelSeconds()[1], 1e-9 * smt.levelSeconds()[1], f);
            assertTrue(smt.seconds() > two.seconds() * 1.5, f + ": SMT siblings are not two cores");
            Prediction measured = new PerfModel(measuredApart, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName(f), Features.ALL);
            assertEquals(two.seconds(), measured.seconds(), 1e-12 * measured.seconds(), f);
        }
        // the siblings' one L1 and L2 hold both threads' shares of A and C and both copies of B: all the call touches
        Footprint shared = EcmModel.footprint(w, FormatModels.byName("csr").plan(w, siblings), siblings);
        Footprint own = EcmModel.footprint(w, FormatModels.byName("csr").plan(w, apart), apart);
        assertEquals(shared.allCoresBytes(), shared.perCoreBytes(), 1e-9 * shared.allCoresBytes());
        assertTrue(own.perCoreBytes() < shared.perCoreBytes());
        // a team of 4 on 2 cores: the pools put 2 threads on the 2 cores (each a core, full pace), 3 and 4 on siblings
        CpuSpec four = (CpuSpec) HardwareSpecs.parse("four.yaml", base.replace("    overlap: 0\n",
                "    overlap: 0\n    teamThreads: 4\n    teamCores: 2\n    teamFma: 0.6\n"));
        assertEquals(2, four.privateCacheInstances());
        assertEquals(1.0, four.inCore().coreStretch(2));
        CoreTeam team = four.inCore().team();
        assertEquals(1, team.coresUnder(1));
        assertEquals(2, team.coresUnder(3));
        assertEquals(2, team.coresUnder(4));
        assertEquals(0.6, team.paceOn(3));
        assertEquals(0.6, team.paceOn(4));
        assertEquals(8, team.coresUnder(8), "past the team's size: a core a thread, as before");
        assertEquals(1.0, team.paceOn(8));
        SparseprofException e = assertThrows(SparseprofException.class, () -> HardwareSpecs.parse("b.yaml", base.replace("    overlap: 0\n",
                "    overlap: 0\n    teamCores: 1\n")));
        assertTrue(e.getMessage().contains("need teamThreads"), e.getMessage());
        e = assertThrows(SparseprofException.class, () -> HardwareSpecs.parse("c.yaml", base.replace("    overlap: 0\n",
                "    overlap: 0\n    teamThreads: 2\n    teamCores: 3\n")));
        assertTrue(e.getMessage().contains("teamCores must lie in [1, teamThreads]"), e.getMessage());
    }

    /**
     * A probe that measured the N:M decode alone ({@code nmDecode: serial}) has it run in series with
     * the body: no transfer hides behind it, where an older probe's decode joins the body's in-core
     * time and the transfers overlap both. The in-core total is the same either way.
     */
    @Test
    void theNmDecodeMeasuredAloneRunsInSeriesWithTheBody() {
        Workload w = Workload.uniformSparse("q", 384, 384, 64, DType.F32, 0.5, true);
        CpuSpec overlapped = cpu(512, "1");
        CpuSpec serial = (CpuSpec) HardwareSpecs.parse("s.yaml", spec(512, "1").replace("    overlap: 1\n", "    overlap: 1\n    nmDecode: serial\n"));
        CpuSpec noDecode = (CpuSpec) HardwareSpecs.parse("z.yaml", spec(512, "1").replace("    overlap: 1\n", "    overlap: 1\n    nmDecode: serial\n")
                .replace("nmSlot: 3cycles", "nmSlot: 0cycles"));
        Prediction before = new PerfModel(overlapped, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("2:4"), Features.ALL);
        Prediction after = new PerfModel(serial, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("2:4"), Features.ALL);
        Prediction body = new PerfModel(noDecode, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("2:4"), Features.ALL);
        double decode = before.computeSeconds() - body.computeSeconds();
        assertTrue(decode > 0, "the decode costs something");
        assertEquals(before.computeSeconds(), after.computeSeconds(), 1e-12 * after.computeSeconds(), "the same in-core total");
        double transfers = 0;
        for (double t : after.levelSeconds()) transfers = Math.max(transfers, t);
        // overlap 1: the body and the transfers overlap, the decode adds to them
        assertEquals(Math.max(body.computeSeconds(), transfers) + decode, after.seconds() - after.overheadSeconds(), 1e-9 * after.seconds());
        assertEquals(Math.max(before.computeSeconds(), transfers), before.seconds() - before.overheadSeconds(), 1e-9 * before.seconds());
        Prediction csr = new PerfModel(serial, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
        Prediction csrBefore = new PerfModel(overlapped, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
        assertEquals(csrBefore.seconds(), csr.seconds(), 0, "csr decodes nothing");
        Exception e = assertThrows(RuntimeException.class, () -> HardwareSpecs.parse("b.yaml", spec(512, "1").replace("    overlap: 1\n",
                "    overlap: 1\n    nmDecode: overlapped\n")));
        assertTrue(e.getMessage().contains("nmDecode") && e.getMessage().contains("must be serial"), e.getMessage());
    }

    /**
     * A kernel that gathers B's rows from L2 composes its times with the overlap its gather rate was
     * solved with, at its blocks per row (N = 64 one 8-vector block at 8 lanes, N = 128 two); a
     * kernel without gathers (dense) and a spec without the gather overlaps keep the in-core one.
     */
    @Test
    void gatheringKernelsTakeTheOverlapTheirGatherRateWasSolvedWith() {
        String rates = "    overlap: 0\n    l2GatherPerCore: 25GB/s\n    l2GatherAll: 30GB/s\n    gatherThreads: 2\n"
                + "    l2GatherWidePerCore: 40GB/s\n    l2GatherWideAll: 60GB/s\n    l1Reuse: setAssociative\n";
        CpuSpec without = (CpuSpec) HardwareSpecs.parse("a.yaml", spec(256, "0").replace("    overlap: 0\n", rates));
        CpuSpec with = (CpuSpec) HardwareSpecs.parse("b.yaml", spec(256, "0").replace("    overlap: 0\n",
                rates + "    gatherOverlap: 1\n    gatherWideOverlap: 0.5\n"));
        for (long n : new long[] {64, 128}) {
            Workload w = Workload.uniformSparse("q", 384, 384, n, DType.F32, 0.3, false);
            Prediction serial = new PerfModel(without, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
            Prediction p = new PerfModel(with, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
            double core = p.computeSeconds();
            double sum = core, max = core;
            for (double t : p.levelSeconds()) {
                sum += t;
                max = Math.max(max, t);
            }
            double overlap = n == 64 ? 1 : 0.5;
            assertEquals(sum - overlap * (sum - max), p.seconds() - p.overheadSeconds(), 1e-9 * p.seconds(), "N " + n);
            assertEquals(sum, serial.seconds() - serial.overheadSeconds(), 1e-9 * p.seconds(), "no gather overlap: the in-core one (0)");
            Prediction dense = new PerfModel(with, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("dense"), Features.ALL);
            Prediction denseWithout = new PerfModel(without, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("dense"), Features.ALL);
            assertEquals(denseWithout.seconds(), dense.seconds(), 1e-15, "dense gathers nothing");
        }
        Exception e = assertThrows(RuntimeException.class, () -> HardwareSpecs.parse("c.yaml", spec(256, "0").replace("    overlap: 0\n",
                rates + "    gatherOverlap: 1.5\n")));
        assertTrue(e.getMessage().contains("gather overlaps must lie in [0, 1]"), e.getMessage());
        Exception alone = assertThrows(RuntimeException.class, () -> HardwareSpecs.parse("d.yaml", spec(256, "0").replace("    overlap: 0\n",
                "    overlap: 0\n    gatherOverlap: 0.5\n")));
        assertTrue(alone.getMessage().contains("need l2GatherPerCore"), alone.getMessage());
    }

    @Test
    void denseTakesItsOwnProbedOverlapWhereTheSpecHasOneTheSharedOneElse() {
        // 1024 x 256 at N = 64: the packed 256 x 64 block (64 KiB) passes the 48 KiB L1d, so dense has an L2 term
        Workload w = Workload.uniformSparse("ffn", 1024, 256, 64, DType.F32, 0.5, false);
        String own = spec(512, "0").replace("    overlap: 0\n", "    overlap: 0\n    denseOverlap: 1\n");
        CpuSpec withDense = (CpuSpec) HardwareSpecs.parse("d.yaml", own);
        assertEquals(1.0, withDense.inCore().denseOverlap());
        assertEquals(0.0, withDense.inCore().overlap());
        Prediction dense = new PerfModel(withDense, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("dense"), Features.ALL);
        Prediction denseSerial = new PerfModel(cpu(512, "0"), TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("dense"), Features.ALL);
        Prediction denseOverlapped = new PerfModel(cpu(512, "1"), TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("dense"), Features.ALL);
        assertTrue(denseSerial.levelSeconds()[1] > 0, "dense streams its block from L2");
        assertTrue(denseSerial.seconds() > denseOverlapped.seconds());
        assertEquals(denseOverlapped.seconds(), dense.seconds(), 1e-15, "dense: its own overlap");
        Prediction csr = new PerfModel(withDense, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
        Prediction csrSerial = new PerfModel(cpu(512, "0"), TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
        assertEquals(csrSerial.seconds(), csr.seconds(), 1e-15, "csr: the shared overlap");
        // no denseOverlap key (every probe file before 6 Dec 2026): dense takes the shared overlap, as before
        assertTrue(!cpu(512, "0").inCore().denseOverlapProbed());
        assertEquals(0.5, cpu(512, "0.5").inCore().overlapOf("dense"));
        SparseprofException bad = assertThrows(SparseprofException.class,
                () -> HardwareSpecs.parse("b.yaml", spec(512, "0").replace("    overlap: 0\n", "    overlap: 0\n    denseOverlap: 1.2\n")));
        assertTrue(bad.getMessage().contains("denseOverlap must be in [0, 1]"), bad.getMessage());
    }

    @Test
    void inCoreRatesAreCheckedWhenTheSpecLoads() {
        String wrongWidth = spec(512, "0").replace("vectorBits: 512bits", "vectorBits: 256bits");
        SparseprofException e = assertThrows(SparseprofException.class, () -> HardwareSpecs.parse("w.yaml", wrongWidth));
        assertTrue(e.getMessage().contains("probed at 256 bits, cpu.simdWidth is 512 bits"), e.getMessage());
        SparseprofException t = assertThrows(SparseprofException.class,
                () -> HardwareSpecs.parse("t.yaml", spec(512, "1.5")));
        assertTrue(t.getMessage().contains("overlap must be in [0, 1]"), t.getMessage());
        SparseprofException k = assertThrows(SparseprofException.class,
                () -> HardwareSpecs.parse("k.yaml", spec(512, "0").replace("nmSlot:", "nmSlots:")));
        assertTrue(k.getMessage().contains("nmSlots"), k.getMessage());
        assertEquals(1.0, cpu(512, "1").inCore().overlap());
        assertEquals("Test CPU", cpu(512, "0").model());
    }
}
