// Shared definitions of sparseprof's CUDA kernels. Every kernel is extern "C" so its PTX entry name
// is the plain function name the Java runner (dev.sparseprof.measure.gpu) asks cuModuleGetFunction for.
// All matrices are row-major unless a kernel says otherwise; sizes are int (the runner checks them).
#pragma once
#define SP_WARP 32

// The 16 x 8 output tile one warp computes in the tensor-core kernels and this lane's place in it
// (PTX ISA 9.7.14.5: groupID = lane >> 2, threadID_in_group = lane % 4): rows row0 = 16 tm + g and
// row1 = row0 + 8, column n = 8 tn + g of B, and the D fragment's columns c, c + 1 (c = 8 tn + 2t).
struct SpWarpTile {
    int row0, row1, n, c, t;
};

// False for the warps past the last tile. Tiles are row-major over (M / 16) x (N / 8).
__device__ inline bool sp_warp_tile_16x8(int M, int N, SpWarpTile& w) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / SP_WARP;
    int tilesN = N / 8;
    int tm = warp / tilesN;
    int tn = warp % tilesN;
    if (tm >= M / 16) return false;
    int lane = threadIdx.x % SP_WARP;
    int g = lane >> 2;
    w.t = lane & 3;
    w.row0 = tm * 16 + g;
    w.row1 = w.row0 + 8;
    w.n = tn * 8 + g;
    w.c = tn * 8 + 2 * w.t;
    return true;
}

// Stores the m16n8 f32 D fragment: d0 d1 at (row0, c..c+1), d2 d3 at (row1, c..c+1).
__device__ inline void sp_store_d(float* C, int N, const SpWarpTile& w, float d0, float d1, float d2, float d3) {
    C[(long long)w.row0 * N + w.c] = d0;
    C[(long long)w.row0 * N + w.c + 1] = d1;
    C[(long long)w.row1 * N + w.c] = d2;
    C[(long long)w.row1 * N + w.c + 1] = d3;
}
