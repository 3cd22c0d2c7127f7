//! The modelled GPU's parameters, one typed value per GPU, in the units of the vendor's documents.
//!
//! Sources:
//! - [CPG] CUDA C++ Programming Guide, "Compute Capabilities", table "Technical Specifications
//!   per Compute Capability" and section "Compute Capability 9.0" (shared memory capacities).
//! - [PROPS] `tests/hw/h200/occupancy_props.txt`: `cudaGetDeviceProperties` on a real H200,
//!   recorded with the command and versions that produced it.
//! - [OCC] the CUDA Occupancy Calculator's allocation rules (`cuda_occupancy.h`, CUDA 13 toolkit),
//!   as checked against `cudaOccupancyMaxActiveBlocksPerMultiprocessor` in
//!   `tests/hw/h200/occupancy.csv` (produced by `tests/hw/occupancy/occupancy.cu`).

/// Everything a model needs to know about one GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuConfig {
    /// Short name used in launch specs (`gpu = "h200"`).
    pub name: &'static str,
    /// Marketing name, as `cudaDeviceProp::name` reports it [PROPS].
    pub full_name: &'static str,
    /// Compute capability, major and minor [PROPS].
    pub compute_capability: (u32, u32),
    /// Streaming multiprocessors [PROPS].
    pub sm_count: u32,
    /// Threads per warp [CPG].
    pub warp_size: u32,
    /// Maximum threads per block [CPG].
    pub max_threads_per_block: u32,
    /// Maximum block dimensions x, y, z [CPG].
    pub max_block_dim: [u32; 3],
    /// Maximum grid dimensions x, y, z [CPG].
    pub max_grid_dim: [u32; 3],
    /// Maximum resident warps per SM [CPG].
    pub max_warps_per_sm: u32,
    /// Maximum resident blocks per SM [CPG].
    pub max_blocks_per_sm: u32,
    /// 32-bit registers per SM [CPG].
    pub regs_per_sm: u32,
    /// Maximum 32-bit registers per block [CPG].
    pub max_regs_per_block: u32,
    /// Maximum registers per thread [CPG].
    pub max_regs_per_thread: u32,
    /// The fewest registers allocated per thread, whatever ptxas uses (Nsight Compute's
    /// `launch__registers_per_thread` on the H200: 8, 10, 12 and 14 all read 16;
    /// tests/hw/h200/hw/ncu/*.csv).
    pub min_regs_per_thread: u32,
    /// Registers are allocated per warp in units of this many [OCC].
    pub reg_alloc_unit: u32,
    /// Unified L1/shared memory per SM in bytes [CPG].
    pub l1_shared_bytes_per_sm: u32,
    /// Largest shared-memory capacity an SM can be configured with, in bytes
    /// (`cudaDeviceProp::sharedMemPerMultiprocessor`) [CPG, 9.0; PROPS].
    pub max_shared_per_sm: u32,
    /// SM sub-partitions (processing blocks); registers are allocated per sub-partition [OCC,
    /// `cudaOccSubPartitionsPerMultiprocessor` in `cuda_occupancy.h`].
    pub sub_partitions_per_sm: u32,
    /// Shared-memory capacities (KiB) the carveout may select [CPG, 9.0].
    pub shared_carveout_kib: &'static [u32],
    /// Shared memory per block without the opt-in (the "48 KB wall") [CPG].
    pub max_shared_per_block: u32,
    /// Shared memory per block with `cudaFuncAttributeMaxDynamicSharedMemorySize` [CPG, PROPS].
    pub max_shared_per_block_optin: u32,
    /// Shared memory the system reserves per resident block [CPG, PROPS].
    pub reserved_shared_per_block: u32,
    /// Shared memory is allocated in units of this many bytes [OCC].
    pub shared_alloc_unit: u32,
    /// Constant memory in bytes [CPG].
    pub const_bytes: u32,
    /// Shared-memory banks [CPG, "Shared Memory" for 5.x and later].
    pub shared_banks: u32,
    /// Bytes each bank delivers per cycle [CPG].
    pub bank_width: u32,
    /// L1 cache line in bytes [CPG, "Global Memory" for 5.x and later].
    pub l1_line_bytes: u32,
    /// Sector size in bytes: the unit of L1, L2 and DRAM transfers [CPG].
    pub sector_bytes: u32,
    /// L2 cache in bytes [PROPS: `l2CacheSize=62914560` in tests/hw/h200/occupancy_props.txt].
    pub l2_bytes: u32,
    /// Device memory in bytes [PROPS: `totalGlobalMem=150109880320`].
    pub global_mem_bytes: u64,
}

/// The NVIDIA H200 (SXM), compute capability 9.0.
pub const H200: GpuConfig = GpuConfig {
    name: "h200",
    full_name: "NVIDIA H200",
    compute_capability: (9, 0),
    sm_count: 132,
    warp_size: 32,
    max_threads_per_block: 1024,
    max_block_dim: [1024, 1024, 64],
    max_grid_dim: [2_147_483_647, 65_535, 65_535],
    max_warps_per_sm: 64,
    max_blocks_per_sm: 32,
    regs_per_sm: 65_536,
    max_regs_per_block: 65_536,
    max_regs_per_thread: 255,
    min_regs_per_thread: 16,
    reg_alloc_unit: 256,
    l1_shared_bytes_per_sm: 256 * 1024,
    max_shared_per_sm: 228 * 1024,
    sub_partitions_per_sm: 4,
    shared_carveout_kib: &[0, 8, 16, 32, 64, 100, 132, 164, 196, 228],
    max_shared_per_block: 48 * 1024,
    max_shared_per_block_optin: 227 * 1024,
    reserved_shared_per_block: 1024,
    shared_alloc_unit: 128,
    const_bytes: 64 * 1024,
    shared_banks: 32,
    bank_width: 4,
    l1_line_bytes: 128,
    sector_bytes: 32,
    l2_bytes: 60 * 1024 * 1024,
    global_mem_bytes: 150_109_880_320,
};

/// Every GPU gpumemsim models, by spec name.
pub const GPUS: &[&GpuConfig] = &[&H200];

/// The GPU named `name` in a launch spec (`"h200"`), if gpumemsim models it.
pub fn by_name(name: &str) -> Option<&'static GpuConfig> {
    GPUS.iter()
        .copied()
        .find(|g| g.name.eq_ignore_ascii_case(name))
}
