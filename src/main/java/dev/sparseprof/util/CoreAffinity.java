package dev.sparseprof.util;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * The calling thread's CPU affinity, through Linux's {@code sched_getaffinity} and
 * {@code sched_setaffinity} (pid 0: the calling thread). Where the calls are missing or refused
 * (another OS, no native access, a CPU outside the process's cpuset) nothing is pinned and
 * {@link #available} or the call says so, and threads run where the scheduler puts them.
 *
 * <p>Why pin: a VM's vCPUs are not always equal. On the 2-vCPU Zen 5 VM (4 Dec 2026) the same
 * single-threaded dense layer ran 1.8 ms pinned to CPU 0 and 2.7-3.0 ms pinned to CPU 1 at 256 bits
 * (0.89-0.94 against 1.16-1.22 ms at 512), so an unpinned run took one or the other by the luck
 * of the scheduler, from one JVM to the next, and two threads ran at the slower one's pace.
 */
public final class CoreAffinity {
    /** Bytes of the CPU mask passed to the kernel: 1024 CPUs, glibc's {@code cpu_set_t}. */
    static final int MASK_BYTES = 128;
    private static final MethodHandle GET = lookup("sched_getaffinity");
    private static final MethodHandle SET = lookup("sched_setaffinity");

    private CoreAffinity() {}

    private static MethodHandle lookup(String name) {
        try {
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) return null;
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find(name).map(f -> linker.downcallHandle(f,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS))).orElse(null);
        } catch (RuntimeException | Error e) {
            return null;
        }
    }

    /** Whether this process can read and set its threads' affinity. */
    public static boolean available() {
        return GET != null && SET != null && current() != null;
    }

    /** The calling thread's mask, or null where it cannot be read. */
    public static byte[] current() {
        return maskOf(0);
    }

    /** The mask of thread {@code tid} (0: the calling thread), or null where it cannot be read. */
    private static byte[] maskOf(int tid) {
        if (GET == null) return null;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES);
            int rc = (int) GET.invokeExact(tid, (long) MASK_BYTES, mask);
            return rc == 0 ? mask.toArray(ValueLayout.JAVA_BYTE) : null;
        } catch (Throwable t) {
            return null;
        }
    }

    /** The CPUs set in {@code mask}, ascending. */
    public static int[] cpus(byte[] mask) {
        int count = 0;
        for (byte b : mask) count += Integer.bitCount(b & 0xff);
        int[] out = new int[count];
        int i = 0;
        for (int cpu = 0; cpu < mask.length * 8; cpu++) if ((mask[cpu >> 3] & (1 << (cpu & 7))) != 0) out[i++] = cpu;
        return out;
    }

    /** The CPUs this thread may run on (its mask), ascending; empty where it cannot be read. */
    public static int[] allowed() {
        byte[] mask = current();
        return mask == null ? new int[0] : cpus(mask);
    }

    /**
     * The CPUs this process may run on, ascending: the mask it was started with ({@code taskset -c
     * 1,3} gives 1 and 3), read once as its main thread's (the thread whose id is the process's,
     * which no pool pins); empty where it cannot be read. Not the calling thread's mask: a thread a
     * pool or {@code CoreSpeeds} has pinned to one CPU sees only that CPU, and a team it chose
     * CPUs for would then go unpinned.
     */
    public static int[] processCpus() {
        byte[] mask = ProcessMask.AT_START;
        return mask == null ? new int[0] : cpus(mask);
    }

    /** The process's mask, read at the first use of {@link #processCpus}. */
    private static final class ProcessMask {
        static final byte[] AT_START = maskOf((int) ProcessHandle.current().pid());
    }

    /**
     * The CPUs to pin a team's threads to, thread t on the t-th: the process's ({@link #processCpus})
     * where affinity can be set, else none; spread over the physical cores first
     * ({@link CoreSiblings#spreadOverCores}), so a team smaller than the machine never puts two
     * threads on one core's hyperthreads while a core is idle. The process's CPUs are read once.
     */
    public static int[] pinnable() {
        return available() ? PinOrder.CPUS.clone() : new int[0];
    }

    /** The process's CPUs in the order teams take them, worked out at the first use of {@link #pinnable}. */
    private static final class PinOrder {
        static final int[] CPUS = CoreSiblings.spreadOverCores(CoreSiblings.SYSFS, pinnable(ProcessMask.AT_START));
    }

    /**
     * The CPUs to pin a team's threads to from the process's {@code mask}, ascending: its CPUs where
     * there are two or more, none where there is one (nothing to choose) or the mask is unknown (null).
     */
    static int[] pinnable(byte[] mask) {
        if (mask == null) return new int[0];
        int[] cpus = cpus(mask);
        return cpus.length > 1 ? cpus : new int[0];
    }

    /** Pins the calling thread to {@code cpu}; false where that was refused. */
    public static boolean pin(int cpu) {
        if (cpu < 0 || cpu >= MASK_BYTES * 8) return false;
        byte[] mask = new byte[MASK_BYTES];
        mask[cpu >> 3] = (byte) (1 << (cpu & 7));
        return set(mask);
    }

    /** Gives the calling thread {@code mask} (as {@link #current} returned it); false where refused. */
    public static boolean set(byte[] mask) {
        if (SET == null || mask == null || mask.length != MASK_BYTES) return false;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = arena.allocate(MASK_BYTES);
            m.copyFrom(MemorySegment.ofArray(mask));
            return (int) SET.invokeExact(0, (long) MASK_BYTES, m) == 0;
        } catch (Throwable t) {
            return false;
        }
    }
}
