//! The sample recorder: one representative warp instance per memory instruction, for the HTML
//! report's bank diagrams and sector maps.
//!
//! [`Sampler`] wraps the launch's observer (the [`Profile`](super::profile::Profile)) and
//! forwards every call to it unchanged, so the counters are the same with and without it. For
//! each warp-level request with at least one active lane it asks the memory model what the
//! instruction cost (shared: wavefronts, [`shared_wavefronts`]; global: sectors,
//! [`global_sectors`]; local: sectors, [`local_sectors`]; constant: requests,
//! [`constant_requests`]), keeps how many executions had each cost, and the lanes' addresses of
//! the FIRST execution with each cost. When the launch is done, [`Sampler::finish`] names two of
//! them: the worst (the highest cost) and the typical one (the cost most executions had).
//!
//! Texture and surface instructions are sampled the same way ([`TexSample`]): their cost is the
//! sector lookups the texture pipe makes ([`crate::mem::texture::request`]), and an instance
//! keeps each lane's texels with their device addresses, for the texel maps.
//!
//! Kernel-parameter loads (`ld.param`) are not sampled: they are warp-uniform by construction
//! and say nothing about the memory system.
//!
//! The recorder is off the hot path: a run without `--html` never constructs it (the executor is
//! generic over its observer, so the plain `Profile` instantiation is the code that ran before),
//! and with it the extra work is one model evaluation per memory request.

use serde::Serialize;

use crate::exec::simt::Observer;
use crate::gpu::config::GpuConfig;
use crate::mem::coalesce::{global_sectors, local_sectors};
use crate::mem::constant::constant_requests;
use crate::mem::request::{AccessKind, MemRequest, Space};
use crate::mem::shared_banks::shared_wavefronts;
use crate::mem::texture::path::TexturePath;
use crate::tex::event::{Geometry, ResourceKind, TexOp, TexRequest};

/// One warp's execution of a memory instruction, as the memory model saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WarpInstance {
    /// What the model charged for it: wavefronts (shared), sectors (global, local) or
    /// requests (constant).
    pub cost: u32,
    /// How many executions of the instruction had this cost.
    pub executions: u64,
    /// The block (`%ctaid`) the warp belongs to.
    pub block: [u32; 3],
    /// The warp's index in its block.
    pub warp: u32,
    /// Bit `i` set when lane `i` took part.
    pub mask: u32,
    /// Lane `i`'s byte address in its state space (0 for an inactive lane).
    pub addrs: [u64; 32],
}

/// The recorded executions of one memory instruction.
#[derive(Clone, Debug, Serialize)]
pub struct InstSample {
    /// The instruction's index in its kernel.
    pub pc: u32,
    /// `shared`, `global`, `local` or `const` (the PTX state space).
    pub space: &'static str,
    /// `ld`, `st`, `atom` or `red`.
    pub op: &'static str,
    /// Bytes per lane (vector width included).
    pub width: u32,
    /// What [`WarpInstance::cost`] counts: `wavefronts`, `sectors` or `requests`.
    pub unit: &'static str,
    /// Executions with at least one active lane.
    pub executions: u64,
    /// The total cost over all executions.
    pub total_cost: u64,
    /// How many executions had each cost, lowest cost first.
    pub histogram: Vec<(u32, u64)>,
    /// The execution with the highest cost (the first one seen).
    pub worst: WarpInstance,
    /// The first execution with the cost most executions had (ties: the lower cost).
    pub typical: WarpInstance,
}

/// One lane of a sampled texture or surface instruction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TexLaneSample {
    /// Lane index (0-31).
    pub lane: u8,
    /// The texels it read or wrote (x, y, z), after the address mode; none for a border texel.
    pub texels: Vec<[u32; 3]>,
}

/// One warp's execution of a texture or surface instruction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TexInstance {
    /// Sector lookups the texture pipe made for it (summed over its requests).
    pub cost: u32,
    /// Its L1 requests (a quad of lanes each for `tex`/`tld4`, 8 lanes otherwise).
    pub requests: u32,
    /// How many executions of the instruction had this cost.
    pub executions: u64,
    /// The block (`%ctaid`) the warp belongs to.
    pub block: [u32; 3],
    /// The warp's index in its block.
    pub warp: u32,
    /// The active lanes whose guard passed, lowest first.
    pub lanes: Vec<TexLaneSample>,
}

/// Where a sampled texture's texels are (the resource of the instance's first lane).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TexResource {
    /// `array` (a CUDA array, block-linear), `linear` or `pitch2d` (row-major global memory).
    pub kind: &'static str,
    /// The array's index in the device's texture state (0 for linear and pitch memory).
    pub array: u32,
    /// Device address of texel (0, 0, 0) for linear and pitch memory.
    pub base: u64,
    /// Bytes per row of linear and pitch memory.
    pub pitch: u64,
    /// Extent in texels (height and depth 1 where the resource has fewer dimensions).
    pub extent: [u32; 3],
    /// Bytes per texel.
    pub texel_bytes: u32,
}

impl TexResource {
    fn of(g: &Geometry) -> TexResource {
        let (kind, array) = match g.kind {
            ResourceKind::Array(id) => ("array", id),
            ResourceKind::Linear => ("linear", 0),
            ResourceKind::Pitch2d => ("pitch2d", 0),
        };
        TexResource {
            kind,
            array,
            base: g.base,
            pitch: g.pitch,
            extent: [g.width, g.height, g.depth],
            texel_bytes: g.texel_bytes,
        }
    }

    /// The geometry the texture path addresses texels with (`channels` is not kept: a texel's
    /// place depends on its bytes, not on how they split into channels).
    pub fn geometry(&self) -> Geometry {
        Geometry {
            kind: match self.kind {
                "array" => ResourceKind::Array(self.array),
                "pitch2d" => ResourceKind::Pitch2d,
                _ => ResourceKind::Linear,
            },
            base: self.base,
            pitch: self.pitch,
            width: self.extent[0],
            height: self.extent[1],
            depth: self.extent[2],
            texel_bytes: self.texel_bytes,
            channels: 1,
        }
    }
}

/// The recorded executions of one texture or surface instruction (not `txq`).
#[derive(Clone, Debug, Serialize)]
pub struct TexSample {
    /// The instruction's index in its kernel.
    pub pc: u32,
    /// `tex` (a filtered or point fetch), `tld4` (a gather), `fetch` (`tex1Dfetch`), `suld`
    /// or `sust`.
    pub op: &'static str,
    /// Its resource.
    pub resource: TexResource,
    /// Executions with at least one active lane.
    pub executions: u64,
    /// The sector lookups of all executions.
    pub total_cost: u64,
    /// How many executions had each cost, lowest cost first.
    pub histogram: Vec<(u32, u64)>,
    /// The execution with the most sector lookups (the first one seen).
    pub worst: TexInstance,
    /// The first execution with the cost most executions had (ties: the lower cost).
    pub typical: TexInstance,
}

/// What [`Sampler::finish`] returns: the memory instructions' samples and the texture ones'.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Shared, global, local and constant instructions.
    pub mem: Vec<InstSample>,
    /// Texture and surface instructions.
    pub tex: Vec<TexSample>,
}

/// An execution kept by cost.
trait Kept: Clone {
    fn cost(&self) -> u32;
    fn executions(&self) -> u64;
}

impl Kept for WarpInstance {
    fn cost(&self) -> u32 {
        self.cost
    }
    fn executions(&self) -> u64 {
        self.executions
    }
}

impl Kept for TexInstance {
    fn cost(&self) -> u32 {
        self.cost
    }
    fn executions(&self) -> u64 {
        self.executions
    }
}

/// Executions, total cost, histogram, worst and typical instance of one instruction.
type Picked<T> = (u64, u64, Vec<(u32, u64)>, T, T);

/// [`Picked`] from the first execution of each cost.
fn pick<T: Kept>(mut seen: Vec<T>) -> Option<Picked<T>> {
    seen.sort_by_key(|s| s.cost());
    let worst = seen.last()?.clone();
    let executions = seen.iter().map(|s| s.executions()).sum();
    let total_cost = seen
        .iter()
        .map(|s| u64::from(s.cost()) * s.executions())
        .sum();
    let histogram = seen.iter().map(|s| (s.cost(), s.executions())).collect();
    // Most executions; on a tie the lower cost (the first in ascending order).
    let mut typical = &seen[0];
    for s in &seen {
        if s.executions() > typical.executions() {
            typical = s;
        }
    }
    let typical = typical.clone();
    Some((executions, total_cost, histogram, worst, typical))
}

#[derive(Clone, Debug, Default)]
struct TexRecord {
    op: Option<&'static str>,
    resource: Option<TexResource>,
    seen: Vec<TexInstance>,
}

#[derive(Clone, Debug, Default)]
struct PcRecord {
    space: Option<Space>,
    kind: Option<AccessKind>,
    width: u32,
    /// The first execution with each cost seen, with the count of executions of that cost.
    seen: Vec<WarpInstance>,
}

/// Observer wrapper that records representative warp instances (see the module docs).
pub struct Sampler<'o, O: Observer> {
    inner: &'o mut O,
    gpu: &'static GpuConfig,
    ctaid: [u32; 3],
    per_pc: Vec<PcRecord>,
    tex_path: TexturePath,
    tex_per_pc: Vec<TexRecord>,
}

impl<'o, O: Observer> Sampler<'o, O> {
    /// Wraps `inner` for a kernel of `code_len` instructions.
    pub fn new(inner: &'o mut O, gpu: &'static GpuConfig, code_len: usize) -> Self {
        Sampler {
            inner,
            gpu,
            ctaid: [0; 3],
            per_pc: vec![PcRecord::default(); code_len],
            tex_path: TexturePath::default(),
            tex_per_pc: vec![TexRecord::default(); code_len],
        }
    }

    /// What the model charges for `req` (`None`: not sampled).
    fn cost(&self, req: &MemRequest) -> Option<u32> {
        Some(match req.space {
            Space::Shared => shared_wavefronts(req, self.gpu).wavefronts,
            Space::Global => global_sectors(req, self.gpu).sectors,
            Space::Local => local_sectors(req, self.gpu).sectors,
            Space::Const => constant_requests(req),
            Space::Param => return None,
        })
    }

    /// The samples of every memory, texture and surface instruction that executed with an
    /// active lane, in instruction order.
    pub fn finish(self) -> Samples {
        let mut mem = Vec::new();
        for (pc, r) in self.per_pc.into_iter().enumerate() {
            let (Some(space), Some(kind)) = (r.space, r.kind) else {
                continue;
            };
            let Some((executions, total_cost, histogram, worst, typical)) = pick(r.seen) else {
                continue;
            };
            let unit = match space {
                Space::Shared => "wavefronts",
                Space::Const | Space::Param => "requests",
                Space::Global | Space::Local => "sectors",
            };
            mem.push(InstSample {
                pc: pc as u32,
                space: space.ptx_name(),
                op: match kind {
                    AccessKind::Load => "ld",
                    AccessKind::Store => "st",
                    AccessKind::Atomic => "atom",
                    AccessKind::Reduction => "red",
                },
                width: r.width,
                unit,
                executions,
                total_cost,
                histogram,
                worst,
                typical,
            });
        }
        let mut tex = Vec::new();
        for (pc, r) in self.tex_per_pc.into_iter().enumerate() {
            let (Some(op), Some(resource)) = (r.op, r.resource) else {
                continue;
            };
            let Some((executions, total_cost, histogram, worst, typical)) = pick(r.seen) else {
                continue;
            };
            tex.push(TexSample {
                pc: pc as u32,
                op,
                resource,
                executions,
                total_cost,
                histogram,
                worst,
                typical,
            });
        }
        Samples { mem, tex }
    }
}

impl<O: Observer> Observer for Sampler<'_, O> {
    fn mem(&mut self, req: &MemRequest) {
        self.inner.mem(req);
        if req.mask == 0 {
            return;
        }
        let Some(cost) = self.cost(req) else {
            return;
        };
        let ctaid = self.ctaid;
        let Some(r) = self.per_pc.get_mut(req.pc as usize) else {
            return;
        };
        r.space = Some(req.space);
        r.kind = Some(req.kind);
        r.width = r.width.max(req.width);
        match r.seen.iter_mut().find(|s| s.cost == cost) {
            Some(s) => s.executions += 1,
            None => {
                let mut addrs = [0u64; 32];
                for l in req.active_lanes() {
                    addrs[l] = req.addrs[l];
                }
                r.seen.push(WarpInstance {
                    cost,
                    executions: 1,
                    block: ctaid,
                    warp: req.warp,
                    mask: req.mask,
                    addrs,
                })
            }
        }
    }

    fn tex(&mut self, req: &TexRequest<'_>) {
        self.inner.tex(req);
        let Some(first) = req.lanes.first() else {
            return;
        };
        let Some((_, cost)) = self.tex_path.instruction(req) else {
            return;
        };
        let ctaid = self.ctaid;
        let Some(r) = self.tex_per_pc.get_mut(req.pc as usize) else {
            return;
        };
        r.op = Some(match req.op {
            TexOp::Tex => "tex",
            TexOp::Tld4 => "tld4",
            TexOp::Fetch => "fetch",
            TexOp::Suld => "suld",
            TexOp::Sust => "sust",
            TexOp::Txq => return,
        });
        r.resource
            .get_or_insert_with(|| TexResource::of(&first.geometry));
        let sectors = u32::try_from(cost.sectors).unwrap_or(u32::MAX);
        match r.seen.iter_mut().find(|s| s.cost == sectors) {
            Some(s) => s.executions += 1,
            None => r.seen.push(TexInstance {
                cost: sectors,
                requests: u32::try_from(cost.requests).unwrap_or(u32::MAX),
                executions: 1,
                block: ctaid,
                warp: req.warp,
                lanes: req
                    .lanes
                    .iter()
                    .map(|l| TexLaneSample {
                        lane: l.lane,
                        texels: l.texels().to_vec(),
                    })
                    .collect(),
            }),
        }
    }

    #[inline]
    fn inst(&mut self, pc: u32, active: u32, exec: u32) {
        self.inner.inst(pc, active, exec);
    }

    fn block_begin(&mut self, linear: u64, ctaid: [u32; 3]) {
        self.ctaid = ctaid;
        self.inner.block_begin(linear, ctaid);
    }

    fn block_end(&mut self, linear: u64) {
        self.inner.block_end(linear);
    }

    fn ldc(&mut self, pc: u32, requests: u32) {
        self.inner.ldc(pc, requests);
    }

    fn barrier(&mut self) {
        self.inner.barrier();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::simt::NoObserver;
    use crate::gpu::config::H200;
    use crate::mem::request::CacheOp;

    fn req(pc: u32, warp: u32, addr: impl Fn(u64) -> u64) -> MemRequest {
        let mut addrs = [0u64; 32];
        for (l, a) in addrs.iter_mut().enumerate() {
            *a = addr(l as u64);
        }
        MemRequest {
            warp,
            space: Space::Shared,
            kind: AccessKind::Load,
            width: 4,
            addrs,
            mask: u32::MAX,
            pc,
            cache_op: CacheOp::Default,
            cas: crate::mem::request::Cas::No,
            ldgsts: false,
        }
    }

    #[test]
    fn worst_and_typical() {
        let mut inner = NoObserver;
        let mut s = Sampler::new(&mut inner, &H200, 2);
        s.block_begin(0, [0, 0, 0]);
        // pc 0: three conflict-free executions and one 32-way one (stride 32 words).
        s.mem(&req(0, 0, |l| l * 4));
        s.mem(&req(0, 1, |l| l * 4 + 128));
        s.block_begin(1, [1, 0, 0]);
        s.mem(&req(0, 2, |l| l * 128));
        s.mem(&req(0, 3, |l| l * 4));
        // A predicated-off execution is not sampled.
        let mut off = req(1, 0, |l| l * 4);
        off.mask = 0;
        s.mem(&off);
        let v = s.finish().mem;
        assert_eq!(v.len(), 1);
        let i = &v[0];
        assert_eq!(
            (i.pc, i.space, i.op, i.unit),
            (0, "shared", "ld", "wavefronts")
        );
        assert_eq!(i.executions, 4);
        assert_eq!(i.total_cost, 3 + 32);
        assert_eq!(i.histogram, vec![(1, 3), (32, 1)]);
        assert_eq!(
            (i.worst.cost, i.worst.block, i.worst.warp),
            (32, [1, 0, 0], 2)
        );
        assert_eq!(i.worst.addrs[1], 128);
        assert_eq!(
            (i.typical.cost, i.typical.warp, i.typical.executions),
            (1, 0, 3)
        );
    }
}
