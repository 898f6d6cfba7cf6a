// BSR SpMM, C[M x N] = A (BSR, R x Cb blocks, fp32) * B[K x N] (row-major fp32).
// One thread block per block row; each thread owns one output column n and the R outputs of that
// column in the block row (R <= 16, checked by the runner), so a block's values are reused R x Cb
// times from registers/L1 and B rows are read coalesced.
#include "common.cuh"
#define SP_BSR_MAX_R 16

extern "C" __global__ void bsr_spmm(int blockRows, int R, int Cb, int N, const int* __restrict__ blockRowPtr,
                                    const int* __restrict__ blockColIdx, const float* __restrict__ blockVals,
                                    const float* __restrict__ B, float* __restrict__ C) {
    int br = blockIdx.x;
    if (br >= blockRows) return;
    int start = blockRowPtr[br];
    int end = blockRowPtr[br + 1];
    for (int n = blockIdx.y * blockDim.x + threadIdx.x; n < N; n += gridDim.y * blockDim.x) {
        float acc[SP_BSR_MAX_R];
#pragma unroll
        for (int r = 0; r < SP_BSR_MAX_R; ++r) acc[r] = 0.0f;
        for (int b = start; b < end; ++b) {
            const float* v = blockVals + (long long)b * R * Cb;
            long long k0 = (long long)blockColIdx[b] * Cb;
            for (int c = 0; c < Cb; ++c) {
                float x = B[(k0 + c) * N + n];
#pragma unroll
                for (int r = 0; r < SP_BSR_MAX_R; ++r) {
                    if (r < R) acc[r] = fmaf(v[r * Cb + c], x, acc[r]);
                }
            }
        }
#pragma unroll
        for (int r = 0; r < SP_BSR_MAX_R; ++r) {
            if (r < R) C[((long long)br * R + r) * N + n] = acc[r];
        }
    }
}
