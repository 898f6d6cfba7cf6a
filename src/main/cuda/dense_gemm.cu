// Dense GEMMs, the baselines the sparse kernels are compared with.
//  dense_gemm_tiled:   fp32 CUDA cores, C[M x N] = A[M x K] * B[K x N], 16 x 16 shared-memory tiles.
//  dense_gemm_mma_f16: fp16 tensor cores (mma.sync m16n8k16, fp32 accumulate), one warp per 16 x 8
//                      output tile, A row-major M x K, B stored column-major (N x K row-major), the
//                      same structure as sp24_gemm_mma so the two differ only in the 2:4 operand.
#include "common.cuh"
#include <cuda_fp16.h>
#define SP_TILE 16

extern "C" __global__ void dense_gemm_tiled(int M, int N, int K, const float* __restrict__ A,
                                            const float* __restrict__ B, float* __restrict__ C) {
    __shared__ float As[SP_TILE][SP_TILE];
    __shared__ float Bs[SP_TILE][SP_TILE + 1];
    int row = blockIdx.y * SP_TILE + threadIdx.y;
    int col = blockIdx.x * SP_TILE + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += SP_TILE) {
        int ka = k0 + threadIdx.x;
        int kb = k0 + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? A[(long long)row * K + ka] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (kb < K && col < N) ? B[(long long)kb * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < SP_TILE; ++k) acc = fmaf(As[threadIdx.y][k], Bs[k][threadIdx.x], acc);
        __syncthreads();
    }
    if (row < M && col < N) C[(long long)row * N + col] = acc;
}

// Requires M % 16 == 0, N % 8 == 0, K % 16 == 0 (the runner pads).
extern "C" __global__ void dense_gemm_mma_f16(int M, int N, int K, const __half* __restrict__ A,
                                              const __half* __restrict__ Bt, float* __restrict__ C) {
    SpWarpTile w;
    if (!sp_warp_tile_16x8(M, N, w)) return;
    float d0 = 0.0f, d1 = 0.0f, d2 = 0.0f, d3 = 0.0f;
    for (int k0 = 0; k0 < K; k0 += 16) {
        // A fragment (PTX ISA 9.7.14.5.8, m16n8k16 .f16): a0a1 row g cols 2t..2t+1, a2a3 row g+8,
        // a4a5 row g cols 2t+8.., a6a7 row g+8 cols 2t+8..
        unsigned a0 = *reinterpret_cast<const unsigned*>(A + (long long)w.row0 * K + k0 + 2 * w.t);
        unsigned a1 = *reinterpret_cast<const unsigned*>(A + (long long)w.row1 * K + k0 + 2 * w.t);
        unsigned a2 = *reinterpret_cast<const unsigned*>(A + (long long)w.row0 * K + k0 + 2 * w.t + 8);
        unsigned a3 = *reinterpret_cast<const unsigned*>(A + (long long)w.row1 * K + k0 + 2 * w.t + 8);
        // B fragment: b0b1 rows k 2t..2t+1 of column n, b2b3 rows 2t+8..; Bt is column-major so the pairs are adjacent.
        unsigned b0 = *reinterpret_cast<const unsigned*>(Bt + (long long)w.n * K + k0 + 2 * w.t);
        unsigned b1 = *reinterpret_cast<const unsigned*>(Bt + (long long)w.n * K + k0 + 2 * w.t + 8);
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
            : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
    sp_store_d(C, N, w, d0, d1, d2, d3);
}
