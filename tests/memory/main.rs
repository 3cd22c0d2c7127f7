//! Integration tests of one area, "memory". The memory models against the H200 (tests/hw): the
//! L1/L2/DRAM counters, and the texture path: fetched words, the block-linear layout of CUDA
//! arrays, and the texture pipe's counters for 2D, 3D, filtered, scattered, paired, partial-quad
//! and random fetches.
//!
//! One test binary per area (tests/README.md lists them). Each module below was a test binary of
//! its own before issue 27; a test is now run alone with
//! `cargo test --release --test memory MODULE::NAME`.

#[path = "../common/texture3d.rs"]
mod texture3d;
#[path = "../common/texture_sweep.rs"]
mod texture_sweep;

/// The L1, L2 and DRAM counters and the driver's shared-memory size against the H200. (Formerly the
/// test binary `cache_hw`.)
mod cache;
/// The texture pipe's L1-side counters of 3D fetches against the H200. (Formerly the test binary
/// `texture3d_hw`.)
mod texture_3d;
/// The texture pipe's L1-side counters of filtered 3D passes against the H200. (Formerly the test
/// binary `texture3d_run6_hw`.)
mod texture_3d_filtered;
/// The texture path's counters (requests, sectors, L1 hits, wavefronts, tag lookups, L2 and DRAM
/// sectors) against the H200, on the fetch patterns of tests/hw/texture_mem/tex_probe.cu and the
/// seed's rotation example. (Formerly the test binary `texture_mem_hw`.)
mod texture_counters;
/// `tex1Dfetch` of scattered elements against the H200. (Formerly the test binary
/// `texture_fetch_hw`.)
mod texture_fetch;
/// The block-linear layout of CUDA arrays (`gpumemsim::mem::texture::layout`) against the raw bytes
/// of arrays on the H200. (Formerly the test binary `texture_layout_hw`.)
mod texture_layout;
/// How the H200 pairs the lanes of a trilinear quad of a 3D array into its two lookup passes.
/// (Formerly the test binary `texture_pair_hw`.)
mod texture_pair;
/// Texture-pipe counters of single-warp fetches where only some lanes of a quad are active, and of
/// four-channel integer texels, against the H200. (Formerly the test binary `texture_partial_hw`.)
mod texture_partial;
/// The texture pipe's L1-side counters of random fetches, one warp at a time, against the H200.
/// (Formerly the test binary `texture_random_hw`.)
mod texture_random;
/// Texture and surface fetches against the H200, word for word. (Formerly the test binary
/// `texture_hw`.)
mod texture_words;
