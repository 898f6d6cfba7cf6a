// CSR row-split SpMM, C[M x N] = A[M x K] (CSR, fp32) * B[K x N] (dense, row-major fp32).
// One warp per row of A (Yang, Buluc, Owens, Euro-Par 2018, "row-split"): the 32 lanes walk the
// output columns, so reads of B rows and writes of C are coalesced; every lane reads the row's
// (col, val) pairs, which the L1 broadcasts.
#include "common.cuh"

extern "C" __global__ void csr_spmm_rowsplit(int M, int N, const int* __restrict__ rowPtr,
                                             const int* __restrict__ colIdx, const float* __restrict__ vals,
                                             const float* __restrict__ B, float* __restrict__ C) {
    int warpsPerBlock = blockDim.x / SP_WARP;
    int row = blockIdx.x * warpsPerBlock + threadIdx.x / SP_WARP;
    int lane = threadIdx.x % SP_WARP;
    if (row >= M) return;
    int start = rowPtr[row];
    int end = rowPtr[row + 1];
    for (int n = lane; n < N; n += SP_WARP) {
        float acc = 0.0f;
        for (int j = start; j < end; ++j) {
            acc = fmaf(vals[j], B[(long long)colIdx[j] * N + n], acc);
        }
        C[(long long)row * N + n] = acc;
    }
}
