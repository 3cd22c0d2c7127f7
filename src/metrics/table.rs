//! The table: one row per metric. Add a metric here and everything else (the counters' array
//! slot, the JSON report, the text and HTML reports' lookups, `compare`, `diff`) follows.
//!
//! Columns: the identifier the code uses, the name in the reports (Nsight Compute's, or
//! `gpumemsim__...` where Nsight Compute has none), the unit, how values combine, which model or
//! stage produces it, whether it is reported per CUDA source line, and one line of description
//! (shown by `gpumemsim metrics`, in the HTML report's hover text and by `compare`).
//!
//! The Nsight Compute names are those of the Kernel Profiling Guide, "Metrics Reference", and of
//! `ncu --query-metrics --chip gh100` (tests/hw/h200/texture_mem/ncu/query_metrics.txt.gz).

use super::{Aggregation::*, MetricDef, Source::*, Unit::*};

super::metric_table! {
    // --- Shared memory through the LSU pipe (mem::shared_banks) ---
    SharedLdInst = "smsp__sass_inst_executed_op_shared_ld.sum", Instruction, Sum, Lsu, true,
        "warp-level shared-memory loads executed (LDS, LD on a shared address)";
    SharedStInst = "smsp__sass_inst_executed_op_shared_st.sum", Instruction, Sum, Lsu, true,
        "warp-level shared-memory stores executed (STS, ST on a shared address)";
    SharedAtomInst = "smsp__sass_inst_executed_op_shared_atom.sum", Instruction, Sum, Lsu, true,
        "warp-level shared-memory atomics and reductions executed (ATOMS)";
    SharedLdWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", Wavefront, Sum,
        Lsu, true, "data-stage passes of shared loads: 1 per instruction without bank conflicts";
    SharedStWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", Wavefront, Sum,
        Lsu, true, "data-stage passes of shared stores";
    SharedAtomWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", Wavefront,
        Sum, Lsu, true, "data-stage passes of shared atomics and reductions";
    SharedLdConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", Conflict, Sum,
        Lsu, true, "wavefronts of shared loads beyond the ideal: the cost of bank conflicts";
    SharedStConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", Conflict, Sum,
        Lsu, true, "wavefronts of shared stores beyond the ideal";
    SharedAtomConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum", Conflict,
        Sum, Lsu, true, "wavefronts of shared atomics beyond the ideal";
    SharedMaxWay = "gpumemsim__shared_max_way", Count, Max, Internal, false,
        "worst N-way bank conflict of one shared access (the line report's max_way)";

    // --- Global memory through the LSU pipe (mem::coalesce) ---
    GlobalLdInst = "smsp__sass_inst_executed_op_global_ld.sum", Instruction, Sum, Lsu, true,
        "warp-level global loads executed (LDG, LD on a global address)";
    GlobalStInst = "smsp__sass_inst_executed_op_global_st.sum", Instruction, Sum, Lsu, true,
        "warp-level global stores executed (STG)";
    GlobalAtomInst = "smsp__sass_inst_executed_op_global_atom.sum", Instruction, Sum, Lsu, true,
        "warp-level global atomics with a result executed (ATOMG)";
    GlobalRedInst = "smsp__sass_inst_executed_op_global_red.sum", Instruction, Sum, Lsu, true,
        "warp-level global reductions executed (RED)";
    GlobalLdRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", Request, Sum, Lsu, true,
        "requests of global loads to L1's tag stage";
    GlobalLdSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", Sector, Sum, Lsu, true,
        "32-byte sectors global loads touch: 4 per request when 32 lanes read consecutive words";
    GlobalStRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", Request, Sum, Lsu, true,
        "requests of global stores";
    GlobalStSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", Sector, Sum, Lsu, true,
        "sectors global stores touch";
    GlobalAtomRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", Request, Sum, Lsu,
        true, "requests of global atomics";
    GlobalAtomSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", Sector, Sum, Lsu, true,
        "sectors of global atomics";
    GlobalRedRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", Request, Sum, Lsu,
        true, "requests of global reductions";
    GlobalRedSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", Sector, Sum, Lsu, true,
        "sectors of global reductions";
    GlobalAtomRedDistinctSectors = "gpumemsim__global_atom_red_distinct_sectors", Sector, Sum,
        Internal, false,
        "distinct sectors of global atomics and reductions (the Source page's theoretical sectors)";
    LdgstsInst = "smsp__sass_inst_executed_op_ldgsts.sum", Instruction, Sum, Lsu, true,
        "LDGSTS (cp.async) instructions executed";
    LdgstsAccessInst = "smsp__sass_inst_executed_op_ldgsts_cache_access.sum", Instruction, Sum,
        Lsu, true, "LDGSTS that allocate in L1 (cp.async.ca)";
    LdgstsBypassInst = "smsp__sass_inst_executed_op_ldgsts_cache_bypass.sum", Instruction, Sum,
        Lsu, true, "LDGSTS that bypass L1 (cp.async.cg, LDGSTS.BYPASS)";
    LdgstsRequests = "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum", Request, Sum,
        Lsu, true, "global requests of LDGSTS (their sectors count under global loads)";

    // --- Local memory (mem::coalesce) ---
    LocalLdInst = "smsp__sass_inst_executed_op_local_ld.sum", Instruction, Sum, Lsu, true,
        "warp-level local loads executed (LDL: spill reloads, local arrays)";
    LocalStInst = "smsp__sass_inst_executed_op_local_st.sum", Instruction, Sum, Lsu, true,
        "warp-level local stores executed (STL)";
    LocalLdRequests = "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", Request, Sum, Lsu, true,
        "requests of local loads";
    LocalLdSectors = "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", Sector, Sum, Lsu, true,
        "sectors of local loads";
    LocalStRequests = "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", Request, Sum, Lsu, true,
        "requests of local stores";
    LocalStSectors = "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", Sector, Sum, Lsu, true,
        "sectors of local stores";

    // --- Constant memory (mem::constant) ---
    ConstInst = "gpumemsim__const_inst_executed.sum", Instruction, Sum, Lsu, true,
        "warp-level loads of __constant__ variables (and, under PTX, of kernel parameters)";
    ConstRequests = "gpumemsim__const_requests.sum", Request, Sum, Lsu, true,
        "constant-cache requests of those loads: one per distinct address in the warp";
    ConstSerialization = "gpumemsim__const_serialization.sum", Request, Sum, Lsu, true,
        "constant requests beyond one per instruction: the cost of lanes reading different words";
    LdcInst = "smsp__inst_executed_op_ldc.sum", Instruction, Sum, SassOnly, true,
        "LDC instructions executed (constant-bank loads into registers; not ULDC)";
    LdcBankRequests = "gpumemsim__ldc_bank_requests", Request, Sum, Internal, false,
        "requests of the LDCs of banks other than the user's constants (kernel parameters, \
         ptxas's tables): one per distinct address";
    IdcRequests = "idc__requests.sum", Request, Sum, SassOnly, true,
        "requests to the indexed constant cache that serves LDC: one per distinct address";

    // --- The texture pipe (mem::texture) ---
    TexTexels = "gpumemsim__tex_texels.sum", Texel, Sum, Texture, true,
        "texels texture and surface instructions read or wrote";
    TexLaneFetches = "gpumemsim__tex_lane_fetches.sum", Lane, Sum, Texture, true,
        "lanes that fetched through the texture pipe";
    TexInst = "smsp__sass_inst_executed_op_texture.sum", Instruction, Sum, Texture, true,
        "texture fetch instructions executed (TEX, TLD, TLD4)";
    TexRequests = "l1tex__t_requests_pipe_tex_mem_texture.sum", Request, Sum, Texture, true,
        "requests of texture fetches to L1's tag stage";
    TexSectors = "l1tex__t_sectors_pipe_tex_mem_texture.sum", Sector, Sum, Texture, true,
        "sectors texture fetches touch";
    TexSetAccesses = "l1tex__t_set_accesses_pipe_tex_mem_texture.sum", Count, Sum, Texture, true,
        "tag-set lookups of texture fetches";
    TexSetConflicts = "l1tex__t_set_conflicts_pipe_tex_mem_texture.sum", Conflict, Sum, Texture,
        true, "tag-set conflicts of texture fetches";
    TexWavefronts = "l1tex__data_pipe_tex_wavefronts_mem_texture.sum", Wavefront, Sum, Texture,
        true, "data-stage passes of texture fetches";
    TexTexinRequests = "l1tex__texin_requests_mem_texture.sum", Request, Sum, Texture, true,
        "texture requests into the pipe's input stage";
    SurfTexinRequests = "l1tex__texin_requests_mem_surface.sum", Request, Sum, Texture, true,
        "surface requests into the pipe's input stage";
    SurfLdInst = "smsp__inst_executed_op_surface_ld.sum", Instruction, Sum, Texture, true,
        "surface loads executed (SULD)";
    SurfStInst = "smsp__inst_executed_op_surface_st.sum", Instruction, Sum, Texture, true,
        "surface stores executed (SUST)";
    SurfLdRequests = "l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum", Request, Sum, Texture,
        true, "requests of surface loads";
    SurfLdSectors = "l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum", Sector, Sum, Texture, true,
        "sectors of surface loads";
    SurfLdSetConflicts = "l1tex__t_set_conflicts_pipe_tex_mem_surface_op_ld.sum", Conflict, Sum,
        Texture, true, "tag-set conflicts of surface loads";
    SurfStRequests = "l1tex__t_requests_pipe_tex_mem_surface_op_st.sum", Request, Sum, Texture,
        true, "requests of surface stores";
    SurfStSectors = "l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum", Sector, Sum, Texture, true,
        "sectors of surface stores";
    SurfStSetConflicts = "l1tex__t_set_conflicts_pipe_tex_mem_surface_op_st.sum", Conflict, Sum,
        Texture, true, "tag-set conflicts of surface stores";
    SurfWavefronts = "l1tex__data_pipe_tex_wavefronts_mem_surface.sum", Wavefront, Sum, Texture,
        true, "data-stage passes of surface loads (surface stores have none)";
    Gld2dRequests = "gpumemsim__global_ld_2d_requests.sum", Request, Sum, Texture, true,
        "uncoalesced 2D global loads (the texture advice's candidates)";
    Gld2dSectors = "gpumemsim__global_ld_2d_sectors.sum", Sector, Sum, Texture, true,
        "sectors those loads touch in their row-major buffer";
    Gld2dSectorsBlockLinear = "gpumemsim__global_ld_2d_sectors_block_linear.sum", Sector, Sum,
        Texture, true, "sectors the same texels would touch as a texture fetch (block-linear)";

    // --- L1, L2 and DRAM (mem::cache) ---
    L1GlobalLdHit = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", Sector, Sum,
        Cache, false, "global load sectors that hit in L1";
    L1GlobalLdMiss = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", Sector, Sum,
        Cache, false, "global load sectors that missed in L1";
    L1GlobalStHit = "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum", Sector, Sum,
        Cache, false, "global store sectors whose line was in L1";
    L1GlobalStMiss = "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum", Sector, Sum,
        Cache, false, "global store sectors whose line was not in L1";
    L1LocalLdHit = "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum", Sector, Sum, Cache,
        false, "local load sectors that hit in L1";
    L1LocalLdMiss = "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum", Sector, Sum,
        Cache, false, "local load sectors that missed in L1";
    L1LocalStHit = "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum", Sector, Sum, Cache,
        false, "local store sectors whose line was in L1";
    L1LocalStMiss = "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_miss.sum", Sector, Sum,
        Cache, false, "local store sectors whose line was not in L1";
    L1TexHit = "l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum", Sector, Sum, Cache, false,
        "texture sectors that hit in L1";
    L1TexMiss = "l1tex__t_sectors_pipe_tex_mem_texture_lookup_miss.sum", Sector, Sum, Cache, false,
        "texture sectors that missed in L1";
    L1SurfLdHit = "l1tex__t_sectors_pipe_tex_mem_surface_op_ld_lookup_hit.sum", Sector, Sum, Cache,
        false, "surface load sectors that hit in L1";
    L1SurfLdMiss = "l1tex__t_sectors_pipe_tex_mem_surface_op_ld_lookup_miss.sum", Sector, Sum,
        Cache, false, "surface load sectors that missed in L1";
    L1SurfStHit = "l1tex__t_sectors_pipe_tex_mem_surface_op_st_lookup_hit.sum", Sector, Sum, Cache,
        false, "surface store sectors whose line was in L1";
    L1SurfStMiss = "l1tex__t_sectors_pipe_tex_mem_surface_op_st_lookup_miss.sum", Sector, Sum,
        Cache, false, "surface store sectors whose line was not in L1";
    L1HitRate = "l1tex__t_sector_hit_rate.pct", Percent, Ratio, Cache, false,
        "share of L1 sector lookups (every pipe) that hit";
    L1XbarReadSectors = "l1tex__m_xbar2l1tex_read_sectors.sum", Sector, Sum, Cache, false,
        "sectors L1 received from L2 over the crossbar";
    L1XbarWriteSectors = "l1tex__m_l1tex2xbar_write_sectors.sum", Sector, Sum, Cache, false,
        "sectors L1 sent to L2 over the crossbar (stores, atomics, reductions)";
    // The LSU's share of the crossbar traffic: its loads' L1 misses and its stores' sectors
    // (measured: equal on 101 and 102 of the 113 launches of tests/hw/h200/cache2/ncu, within
    // 2% on the others; atomics and reductions count only in the totals above, k_cache
    // launches 25-28).
    L1XbarReadSectorsLd = "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum", Sector, Sum,
        Cache, false, "sectors L1 received from L2 for global and local loads";
    L1XbarWriteSectorsSt = "l1tex__m_l1tex2xbar_write_sectors_mem_lg_op_st.sum", Sector, Sum,
        Cache, false, "sectors L1 sent to L2 for global and local stores";
    L2ReadRequests = "lts__t_requests_srcunit_tex_op_read.sum", Request, Sum, Cache, false,
        "read requests from L1 to L2";
    L2ReadSectors = "lts__t_sectors_srcunit_tex_op_read.sum", Sector, Sum, Cache, false,
        "sectors L1 read from L2";
    L2ReadHits = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", Sector, Sum, Cache, false,
        "of those, hits in L2";
    // Not Nsight's lookup_miss, which counts the lookups of both partitions (metrics::NOT_MODELLED).
    L2ReadMisses = "gpumemsim__lts_sectors_srcunit_tex_op_read_near_miss.sum", Sector, Sum, Cache,
        false, "of those, misses in the near L2 partition (filled from the far one or DRAM)";
    L2WriteRequests = "lts__t_requests_srcunit_tex_op_write.sum", Request, Sum, Cache, false,
        "write requests from L1 to L2";
    L2WriteSectors = "lts__t_sectors_srcunit_tex_op_write.sum", Sector, Sum, Cache, false,
        "sectors L1 wrote to L2";
    L2WriteHits = "lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum", Sector, Sum, Cache, false,
        "of those, lookup hits (every written sector counts as one)";
    L2AtomRequests = "lts__t_requests_srcunit_tex_op_atom.sum", Request, Sum, Cache, false,
        "atomic requests performed at L2";
    L2AtomSectors = "lts__t_sectors_srcunit_tex_op_atom.sum", Sector, Sum, Cache, false,
        "sectors of atomics at L2";
    L2AtomHits = "lts__t_sectors_srcunit_tex_op_atom_lookup_hit.sum", Sector, Sum, Cache, false,
        "of those, hits";
    L2RedRequests = "lts__t_requests_srcunit_tex_op_red.sum", Request, Sum, Cache, false,
        "reduction requests performed at L2";
    L2RedSectors = "lts__t_sectors_srcunit_tex_op_red.sum", Sector, Sum, Cache, false,
        "sectors of reductions at L2";
    L2RedHits = "lts__t_sectors_srcunit_tex_op_red_lookup_hit.sum", Sector, Sum, Cache, false,
        "of those, hits";
    // All of L1's sectors at L2 and their hits: the sums of the four operations above
    // (measured: equal on 111 and 110 of the 113 launches of tests/hw/h200/cache2/ncu).
    L2Sectors = "lts__t_sectors_srcunit_tex.sum", Sector, Sum, Cache, false,
        "sectors of every operation from L1 at L2";
    L2SectorHits = "lts__t_sectors_srcunit_tex_lookup_hit.sum", Sector, Sum, Cache, false,
        "of those, hits";
    // Not Nsight's lts__t_sector_hit_rate.pct, which covers every L2 lookup (metrics::NOT_MODELLED).
    L2HitRate = "gpumemsim__lts_sector_hit_rate_srcunit_tex.pct", Percent, Ratio, Cache, false,
        "share of L2 sector lookups from L1 that hit";
    DramReadSectors = "dram__sectors_read.sum", Sector, Sum, Cache, false,
        "sectors read from DRAM (L2 fills)";
    DramWriteSectors = "dram__sectors_write.sum", Sector, Sum, Cache, false,
        "sectors written to DRAM (dirty L2 evictions during the kernel)";
    DramBytesRead = "dram__bytes_read.sum", Byte, Sum, Cache, false,
        "bytes read from DRAM";
    DramBytesWrite = "dram__bytes_write.sum", Byte, Sum, Cache, false,
        "bytes written to DRAM";

    // --- Instructions (the executor) ---
    InstExecuted = "smsp__inst_executed.sum", Instruction, Sum, SassOnly, true,
        "warp-level SASS instructions executed";
    InstUnattributed = "gpumemsim__sass_inst_unattributed.sum", Instruction, Sum, SassOnly, false,
        "warp-level instructions the H200 counts in the total but on no Source-page instruction";
    SassThreadInstExecuted = "smsp__sass_thread_inst_executed.sum", ThreadInstruction, Sum,
        SassOnly, true, "thread-level SASS instructions executed (active lanes)";
    SassThreadInstExecutedPredOn = "smsp__sass_thread_inst_executed_pred_on.sum",
        ThreadInstruction, Sum, SassOnly, true,
        "thread-level SASS instructions executed whose guard predicate was true";
    PtxInstExecuted = "gpumemsim__ptx_inst_executed.sum", Instruction, Sum, PtxOnly, false,
        "warp-level PTX instructions executed (under --isa ptx)";
    PtxThreadInstExecuted = "gpumemsim__ptx_thread_inst_executed.sum", ThreadInstruction, Sum,
        PtxOnly, false, "thread-level PTX instructions executed whose guard was true";

    // --- The launch and its occupancy (gpu::occupancy) ---
    GridSize = "launch__grid_size", Block, Launch, LaunchConfig, false,
        "blocks in the grid";
    BlockSize = "launch__block_size", Thread, Launch, LaunchConfig, false,
        "threads per block";
    SharedMemPerBlockDynamic = "launch__shared_mem_per_block_dynamic", Byte, Launch, LaunchConfig,
        false, "dynamic shared memory per block";
    SharedMemPerBlockStatic = "launch__shared_mem_per_block_static", Byte, Launch, LaunchConfig,
        false, "static shared memory per block";
    RegistersPerThread = "launch__registers_per_thread", Register, Launch, Occupancy, false,
        "registers allocated per thread (ptxas's count rounded to the allocation unit)";
    OccupancyLimitRegisters = "launch__occupancy_limit_registers", Block, Launch, Occupancy, false,
        "blocks per SM the register file allows";
    OccupancyLimitSharedMem = "launch__occupancy_limit_shared_mem", Block, Launch, Occupancy,
        false, "blocks per SM the driver's shared-memory configuration allows";
    SharedMemConfigSize = "launch__shared_mem_config_size", Byte, Launch, Occupancy, false,
        "shared memory the driver configures per SM (the rest of the 256 KB is L1)";
    OccupancyLimitWarps = "launch__occupancy_limit_warps", Block, Launch, Occupancy, false,
        "blocks per SM the warp slots allow";
    OccupancyLimitBlocks = "launch__occupancy_limit_blocks", Block, Launch, Occupancy, false,
        "blocks per SM the block slots allow";
    MaximumWarpsPct = "sm__maximum_warps_per_active_cycle_pct", Percent, Launch, Occupancy, false,
        "theoretical occupancy: resident warps per SM over the maximum";
}
