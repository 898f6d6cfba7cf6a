// Shared definitions of sparseprof's CUDA kernels. Every kernel is extern "C" so its PTX entry name
// is the plain function name the Java runner (dev.sparseprof.measure.gpu) asks cuModuleGetFunction for.
// All matrices are row-major unless a kernel says otherwise; sizes are int (the runner checks them).
#pragma once
#define SP_WARP 32
