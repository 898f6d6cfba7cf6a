// 2:4 structured-sparse GEMM on Sparse Tensor Cores (sm_80+), C[M x N] = A (2:4, M x K) * B (K x N).
// mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32, sparsity selector 0 (threads T0, T1 of each
// quad supply the metadata), PTX ISA 9.7.14.6.
//   Acomp: M x K/2 fp16, row-major: the two kept values of every group of 4, in column order.
//   Meta:  per 16 x 32 tile (tile index tm * (K/32) + tk), 16 words; word 2*g + p belongs to thread
//          pair member p of quad g: bits 0..15 hold row g, bits 16..31 row g+8, for the 4 groups
//          (16 logical columns) 16p..16p+15 of the tile; each group is a nibble idx0 | idx1 << 2
//          (idx0 < idx1 the positions of the kept values in the group). Built by the Java packer
//          dev.sparseprof.measure.gpu.Sparse24Packer.
//   Bt:    B column-major (N x K row-major) fp16; C row-major fp32.
// One warp per 16 x 8 output tile; requires M % 16 == 0, N % 8 == 0, K % 32 == 0 (the runner pads).
#include "common.cuh"
#include <cuda_fp16.h>

extern "C" __global__ void sp24_gemm_mma(int M, int N, int K, const __half* __restrict__ Acomp,
                                         const unsigned* __restrict__ Meta, const __half* __restrict__ Bt,
                                         float* __restrict__ C) {
    SpWarpTile w;
    if (!sp_warp_tile_16x8(M, N, w)) return;
    int tm = w.row0 / 16;
    int g = w.row0 % 16;  // the lane's quad (row0 = 16 tm + g)
    int Kc = K / 2;
    int tilesK = K / 32;
    float d0 = 0.0f, d1 = 0.0f, d2 = 0.0f, d3 = 0.0f;
    for (int tk = 0; tk < tilesK; ++tk) {
        int kc0 = tk * 16;  // compressed column of the tile's start
        int k0 = tk * 32;   // logical column of the tile's start
        // A fragment (PTX ISA 9.7.14.6.2.2): reg0 row g group t, reg1 row g+8 group t,
        // reg2 row g group t+4, reg3 row g+8 group t+4; each register the group's two kept values.
        unsigned a0 = *reinterpret_cast<const unsigned*>(Acomp + (long long)w.row0 * Kc + kc0 + 2 * w.t);
        unsigned a1 = *reinterpret_cast<const unsigned*>(Acomp + (long long)w.row1 * Kc + kc0 + 2 * w.t);
        unsigned a2 = *reinterpret_cast<const unsigned*>(Acomp + (long long)w.row0 * Kc + kc0 + 2 * w.t + 8);
        unsigned a3 = *reinterpret_cast<const unsigned*>(Acomp + (long long)w.row1 * Kc + kc0 + 2 * w.t + 8);
        // B fragment (m16n8k32): bi holds rows 2t + 8i, 2t + 8i + 1 of column n.
        const __half* bcol = Bt + (long long)w.n * K + k0 + 2 * w.t;
        unsigned b0 = *reinterpret_cast<const unsigned*>(bcol);
        unsigned b1 = *reinterpret_cast<const unsigned*>(bcol + 8);
        unsigned b2 = *reinterpret_cast<const unsigned*>(bcol + 16);
        unsigned b3 = *reinterpret_cast<const unsigned*>(bcol + 24);
        unsigned e = Meta[((long long)tm * tilesK + tk) * 16 + 2 * g + (w.t & 1)];
        asm volatile(
            "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
            "{%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, 0x0;\n"
            : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(b2), "r"(b3), "r"(e));
    }
    sp_store_d(C, N, w, d0, d1, d2, d3);
}
