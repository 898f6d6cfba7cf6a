package dev.sparseprof.measure.gpu;

import static jcuda.driver.JCudaDriver.cuCtxCreate;
import static jcuda.driver.JCudaDriver.cuCtxDestroy;
import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDeviceTotalMem;
import static jcuda.driver.JCudaDriver.cuDriverGetVersion;
import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;
import static jcuda.driver.JCudaDriver.cuInit;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuMemsetD8;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;
import static jcuda.driver.JCudaDriver.cuModuleUnload;

import dev.sparseprof.util.SparseprofException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.JCudaDriver;

/**
 * A CUDA context on device 0 through JCuda's driver API only ({@code cuInit}, {@code cuModuleLoadData},
 * {@code cuLaunchKernel}, CUDA events), so the only native need is the driver's {@code libcuda.so.1}.
 * {@link #open()} turns every reason there is no usable GPU (no driver library, {@code cuInit}
 * failing, no device) into one {@link GpuUnavailableException} line. Buffers and modules live until
 * {@link #close()}.
 */
public final class GpuSession implements AutoCloseable {
    private final CUcontext context;
    private final GpuDevice device;
    private final Map<String, CUmodule> modules = new HashMap<>();
    private final EnumMap<GpuKernel, CUfunction> functions = new EnumMap<>(GpuKernel.class);
    private final List<DeviceBuffer> buffers = new ArrayList<>();

    private GpuSession(CUcontext context, GpuDevice device) {
        this.context = context;
        this.device = device;
    }

    /** Opens a context on GPU 0, or throws a one-line {@link GpuUnavailableException}. */
    public static GpuSession open() {
        try {
            JCudaDriver.setExceptionsEnabled(true);
            cuInit(0);
            int[] count = new int[1];
            cuDeviceGetCount(count);
            if (count[0] == 0) throw new GpuUnavailableException("the driver reports no CUDA device");
            CUdevice dev = new CUdevice();
            cuDeviceGet(dev, 0);
            CUcontext ctx = new CUcontext();
            cuCtxCreate(ctx, 0, dev);
            return new GpuSession(ctx, describe(dev));
        } catch (GpuUnavailableException e) {
            throw e;
        } catch (LinkageError e) {
            throw new GpuUnavailableException(reasonFor(e));
        } catch (CudaException e) {
            throw new GpuUnavailableException("cuInit failed (" + e.getMessage() + ")");
        }
    }

    /** The one-line reason for a failed native load: usually the missing driver library. */
    static String reasonFor(Throwable e) {
        String msg = String.valueOf(e.getMessage());
        if (msg.contains("libcuda")) return "libcuda.so.1 not found (no NVIDIA driver on this machine)";
        int nl = msg.indexOf('\n');
        return "cannot load JCuda's driver bindings (" + (nl > 0 ? msg.substring(0, nl) : msg) + ")";
    }

    private static GpuDevice describe(CUdevice dev) {
        byte[] name = new byte[256];
        cuDeviceGetName(name, name.length, dev);
        int len = 0;
        while (len < name.length && name[len] != 0) len++;
        int[] major = new int[1];
        int[] minor = new int[1];
        int[] sms = new int[1];
        cuDeviceGetAttribute(major, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
        cuDeviceGetAttribute(minor, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
        cuDeviceGetAttribute(sms, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
        long[] mem = new long[1];
        cuDeviceTotalMem(mem, dev);
        int[] driver = new int[1];
        cuDriverGetVersion(driver);
        return new GpuDevice(new String(name, 0, len, StandardCharsets.US_ASCII), major[0], minor[0], sms[0], mem[0], driver[0]);
    }

    public GpuDevice device() {
        return device;
    }

    /** The kernel's function, loading its PTX module on first use; refuses kernels the device cannot run. */
    CUfunction function(GpuKernel kernel) {
        CUfunction f = functions.get(kernel);
        if (f != null) return f;
        if (device.computeMajor() < kernel.minComputeMajor()) {
            throw new SparseprofException(kernel.key() + ": needs compute capability " + kernel.minComputeMajor()
                    + ".0 or later, " + device.name() + " has " + device.computeCapability());
        }
        CUmodule module = modules.get(kernel.resource());
        if (module == null) {
            module = new CUmodule();
            cuModuleLoadData(module, PtxResources.load(kernel));
            modules.put(kernel.resource(), module);
        }
        f = new CUfunction();
        cuModuleGetFunction(f, module, kernel.entry());
        functions.put(kernel, f);
        return f;
    }

    public DeviceBuffer upload(float[] host) {
        DeviceBuffer b = allocate(4L * host.length);
        cuMemcpyHtoD(b.pointer(), Pointer.to(host), b.sizeBytes());
        return b;
    }

    public DeviceBuffer upload(int[] host) {
        DeviceBuffer b = allocate(4L * host.length);
        cuMemcpyHtoD(b.pointer(), Pointer.to(host), b.sizeBytes());
        return b;
    }

    public DeviceBuffer upload(short[] host) {
        DeviceBuffer b = allocate(2L * host.length);
        cuMemcpyHtoD(b.pointer(), Pointer.to(host), b.sizeBytes());
        return b;
    }

    /** A zero-filled buffer of {@code bytes}. */
    public DeviceBuffer allocate(long bytes) {
        CUdeviceptr p = new CUdeviceptr();
        cuMemAlloc(p, Math.max(4, bytes));
        cuMemsetD8(p, (byte) 0, Math.max(4, bytes));
        DeviceBuffer b = new DeviceBuffer(p, bytes);
        buffers.add(b);
        return b;
    }

    public float[] downloadFloats(DeviceBuffer b, int count) {
        float[] host = new float[count];
        cuMemcpyDtoH(Pointer.to(host), b.pointer(), 4L * count);
        return host;
    }

    /**
     * Launches {@code kernel} on a {@code gridX x gridY} grid of {@code blockX x blockY} blocks.
     * Arguments are {@link Integer}s (kernel {@code int}s) or {@link DeviceBuffer}s (pointers), in
     * the kernel's order.
     */
    public void launch(GpuKernel kernel, int gridX, int gridY, int blockX, int blockY, Object... args) {
        Pointer[] params = new Pointer[args.length];
        for (int i = 0; i < args.length; i++) {
            params[i] = switch (args[i]) {
                case Integer v -> Pointer.to(new int[] {v});
                case DeviceBuffer b -> Pointer.to(b.pointer());
                default -> throw new IllegalArgumentException("kernel argument " + i + " is a " + args[i].getClass());
            };
        }
        cuLaunchKernel(function(kernel), gridX, gridY, 1, blockX, blockY, 1, 0, null, Pointer.to(params), null);
    }

    /** Seconds of each of {@code reps} runs of {@code launch}, timed by CUDA events, after {@code warmup} untimed runs. */
    public double[] time(Runnable launch, int warmup, int reps) {
        for (int i = 0; i < warmup; i++) launch.run();
        cuCtxSynchronize();
        CUevent start = new CUevent();
        CUevent stop = new CUevent();
        cuEventCreate(start, 0);
        cuEventCreate(stop, 0);
        double[] seconds = new double[reps];
        float[] ms = new float[1];
        try {
            for (int i = 0; i < reps; i++) {
                cuEventRecord(start, null);
                launch.run();
                cuEventRecord(stop, null);
                cuEventSynchronize(stop);
                cuEventElapsedTime(ms, start, stop);
                seconds[i] = ms[0] * 1e-3;
            }
        } finally {
            cuEventDestroy(start);
            cuEventDestroy(stop);
        }
        return seconds;
    }

    @Override
    public void close() {
        for (DeviceBuffer b : buffers) cuMemFree(b.pointer());
        buffers.clear();
        for (CUmodule m : modules.values()) cuModuleUnload(m);
        modules.clear();
        functions.clear();
        cuCtxDestroy(context);
    }
}
