package dev.sparseprof.measure.external;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PerfStatReaderTest {
    private static PerfStatReport fixture(String name) {
        return PerfStatReader.read(Path.of("src/test/resources/perf", name));
    }

    @Test
    void thisVmReportsHardwareCountersAsNotSupportedNotAsZero() {
        PerfStatReport r = fixture("vm-cycles-instructions.csv");
        assertEquals(2, r.counters().size());
        assertEquals(CounterStatus.NOT_SUPPORTED, r.counters().get(0).status());
        assertTrue(Double.isNaN(r.counters().get(0).value()));
        assertFalse(r.hardwareCountersSupported());
        assertTrue(r.value("cycles").isEmpty());
        assertTrue(r.note().contains(PerfStatReport.UNSUPPORTED), r.note());
        assertTrue(r.note().contains("cycles, instructions"), r.note());
    }

    @Test
    void softwareClocksStillCountOnTheVm() {
        PerfStatReport r = fixture("vm-cache-events.csv");
        assertFalse(r.hardwareCountersSupported());
        PerfMeasurement m = r.measurement();
        assertEquals(1.25e-3, m.taskClockSeconds().getAsDouble(), 1e-12);
        assertTrue(m.cycles().isEmpty());
        assertTrue(m.l1dLoadMisses().isEmpty());
        assertTrue(m.instructionsPerCycle().isEmpty());
        assertEquals(104, r.value("page-faults").getAsDouble());
    }

    @Test
    void repeatRunsCarryAVarianceColumn() {
        PerfStatReport r = fixture("vm-repeat.csv");
        PerfCounter clock = r.counters().get(1);
        assertEquals("task-clock", clock.event());
        assertEquals(616119, clock.runTimeNanos());
        assertEquals(100.0, clock.enabledPercent());
    }

    @Test
    void aMachineWithAPmuGivesTheCounters() {
        PerfStatReport r = fixture("baremetal-spmm.csv");
        assertTrue(r.hardwareCountersSupported());
        PerfMeasurement m = r.measurement();
        assertEquals(4123456789.0, m.cycles().getAsDouble());
        assertEquals(2.40, m.instructionsPerCycle().getAsDouble(), 1e-3);
        assertEquals(123456789.0, m.l1dLoadMisses().getAsDouble());
        assertEquals(2345678.0, m.llcLoadMisses().getAsDouble());
        assertEquals(50.0, r.counters().get(4).enabledPercent());
        assertEquals(CounterStatus.NOT_COUNTED, r.counters().get(5).status());
        assertEquals(r.source() + ": not counted: LLC-loads", r.note());
    }

    @Test
    void hybridPmusAreSummedByBaseName() {
        PerfStatReport r = fixture("hybrid-cycles.csv");
        assertEquals(1250, r.value("cycles").getAsDouble());
        assertEquals(3000, r.value("instructions").getAsDouble());
        assertEquals("cycles", new PerfCounter("cycles:u", 1, "", CounterStatus.COUNTED, -1, Double.NaN).baseName());
    }

    @Test
    void badInputNamesTheFileAndLine() {
        var e = assertThrows(ExternalFormatException.class,
                () -> PerfStatReader.parse("p.txt", " Performance counter stats for 'true':\n"));
        assertTrue(e.getMessage().startsWith("p.txt:1: expected 'value,unit,event"), e.getMessage());
        e = assertThrows(ExternalFormatException.class,
                () -> PerfStatReader.parse("p.txt", "1.000123,523.28,msec,task-clock,523275713,100.00,,\n"));
        assertTrue(e.getMessage().contains("interval output"), e.getMessage());
        e = assertThrows(ExternalFormatException.class, () -> PerfStatReader.parse("p.txt", "S0-C0,2,1,,cycles,0,100.00\n"));
        assertTrue(e.getMessage().contains("per-core"), e.getMessage());
        e = assertThrows(ExternalFormatException.class, () -> PerfStatReader.parse("p.txt", "# only a header\n\n"));
        assertTrue(e.getMessage().startsWith("p.txt: no counter lines"), e.getMessage());
        assertThrows(ExternalFormatException.class, () -> PerfStatReader.read(Path.of("no/such/perf.csv")));
    }

    @Test
    void everyCountedHardwareEventMeansNoNote() {
        PerfStatReport r = PerfStatReader.parse("x", "10,,cycles,5,100.00,,\n20,,instructions,5,100.00,,\n");
        assertNull(r.note());
    }
}
