//! Functional memory: the contents of global, constant, shared, local and parameter memory,
//! and the generic address windows that map a generic address to its state space.
//!
//! Generic addressing (PTX ISA 6.4.1.1): the shared, local and constant windows sit at fixed
//! generic addresses chosen here (the hardware's values are not architectural); global
//! addresses are their own generic addresses.
//!
//! Device allocations are placed as the H200's driver places them (measured:
//! tests/hw/h200/alloc/alloc.txt, `cudaMalloc` and `cuMemAlloc` alike): an allocation of up to
//! 1 MiB is packed into a 2 MiB pool at 512-byte granularity (1, 100, 256 and 257 bytes each take
//! 512; 4,096 takes 4,096), a new pool starting when one is full; a larger one is aligned to 2 MiB
//! and rounded up to 2 MiB in its own range (5,000,000 bytes take 6 MiB). So an access past the
//! end of a buffer lands in the rounding, in the next buffer, or in unmapped memory, where it
//! would on the H200; every access outside a live allocation's bytes is a fault here.

use crate::mem::request::Space;

/// First address of `cudaMalloc`'d memory (the first small-allocation pool).
pub const GLOBAL_HEAP_BASE: u64 = 0x7f00_0000_0000;
/// First address of allocations above [`SMALL_ALLOC_MAX`] (on the H200 they lie in a range apart
/// from the pools; the distance is the driver's, not architectural).
pub const GLOBAL_LARGE_BASE: u64 = 0x7f40_0000_0000;
/// Allocations up to this size are sub-allocated from pools.
pub const SMALL_ALLOC_MAX: u64 = 1 << 20;
/// A pool's size, and the alignment and granularity of a large allocation.
pub const POOL_BYTES: u64 = 2 << 20;
/// The granularity of a pooled allocation.
pub const SMALL_ALLOC_GRANULE: u64 = 512;
/// First address of module-scope `.global` variables.
pub const GLOBAL_VARS_BASE: u64 = 0x7e00_0000_0000;
/// Generic window of the block's shared memory.
pub const SHARED_WINDOW: u64 = 0x1000_0000_0000;
/// Generic window of the thread's local memory.
pub const LOCAL_WINDOW: u64 = 0x2000_0000_0000;
/// Generic window of constant memory.
pub const CONST_WINDOW: u64 = 0x3000_0000_0000;
/// Size of each window.
pub const WINDOW_SIZE: u64 = 1 << 32;
/// Marks a `.param` address that names a per-thread call parameter (kept in the local frame).
pub const PARAM_FRAME_BIT: u64 = 1 << 40;

/// The space and in-space address of a generic address.
#[inline(always)]
pub fn resolve_generic(addr: u64) -> (Space, u64) {
    if addr.wrapping_sub(SHARED_WINDOW) < WINDOW_SIZE {
        (Space::Shared, addr - SHARED_WINDOW)
    } else if addr.wrapping_sub(LOCAL_WINDOW) < WINDOW_SIZE {
        (Space::Local, addr - LOCAL_WINDOW)
    } else if addr.wrapping_sub(CONST_WINDOW) < WINDOW_SIZE {
        (Space::Const, addr - CONST_WINDOW)
    } else {
        (Space::Global, addr)
    }
}

/// The generic address of `addr` in `space`.
#[inline(always)]
pub fn to_generic(space: Space, addr: u64) -> u64 {
    match space {
        Space::Shared => SHARED_WINDOW.wrapping_add(addr & 0xffff_ffff),
        Space::Local => LOCAL_WINDOW.wrapping_add(addr & 0xffff_ffff),
        Space::Const => CONST_WINDOW.wrapping_add(addr & 0xffff_ffff),
        _ => addr,
    }
}

/// The address in `space` of a generic address (`cvta.to`).
#[inline(always)]
pub fn from_generic(space: Space, addr: u64) -> u64 {
    match space {
        Space::Shared => addr.wrapping_sub(SHARED_WINDOW),
        Space::Local => addr.wrapping_sub(LOCAL_WINDOW),
        Space::Const => addr.wrapping_sub(CONST_WINDOW),
        _ => addr,
    }
}

/// One device allocation.
#[derive(Clone, Debug)]
pub struct Allocation {
    /// First address.
    pub base: u64,
    /// Contents.
    pub data: Vec<u8>,
    /// What it is, for messages (a buffer or a symbol name).
    pub name: String,
}

/// Global memory: a sorted set of allocations.
#[derive(Clone, Debug, Default)]
pub struct GlobalMemory {
    allocs: Vec<Allocation>,
    /// Next free address in the current pool, and the pool's end.
    pool_next: u64,
    pool_end: u64,
    /// Next free 2 MiB-aligned address for large allocations and new pools.
    large_next: u64,
    /// Allocations `cudaFree` released: first address, size and name (for use-after-free
    /// messages; the addresses are not handed out again).
    freed: Vec<(u64, u64, String)>,
}

impl GlobalMemory {
    /// Empty global memory.
    pub fn new() -> Self {
        GlobalMemory {
            allocs: Vec::new(),
            pool_next: GLOBAL_HEAP_BASE,
            pool_end: GLOBAL_HEAP_BASE + POOL_BYTES,
            large_next: GLOBAL_LARGE_BASE,
            freed: Vec::new(),
        }
    }

    /// Where the next allocation of `size` bytes goes (see the module docs).
    fn place(&mut self, size: u64) -> u64 {
        let size = size.max(1);
        if size <= SMALL_ALLOC_MAX {
            let len = size.div_ceil(SMALL_ALLOC_GRANULE) * SMALL_ALLOC_GRANULE;
            if self.pool_next + len > self.pool_end {
                self.pool_next = self.large_next;
                self.pool_end = self.large_next + POOL_BYTES;
                self.large_next = self.pool_end;
            }
            let base = self.pool_next;
            self.pool_next += len;
            base
        } else {
            let base = self.large_next;
            self.large_next =
                base.saturating_add(size.div_ceil(POOL_BYTES).saturating_mul(POOL_BYTES));
            base
        }
    }

    /// `cudaMalloc`: a new zeroed allocation of `size` bytes.
    pub fn malloc(&mut self, size: u64, name: &str) -> u64 {
        let base = self.place(size);
        self.insert(Allocation {
            base,
            data: vec![0; size as usize],
            name: name.to_string(),
        });
        base
    }

    /// `cudaMalloc` whose contents are `data` (moved in): the allocation is `data.len()` bytes.
    pub fn malloc_with(&mut self, data: Vec<u8>, name: &str) -> u64 {
        let base = self.place(data.len() as u64);
        self.insert(Allocation {
            base,
            data,
            name: name.to_string(),
        });
        base
    }

    /// Removes the allocation starting at `base` and returns its contents.
    pub fn take(&mut self, base: u64) -> Option<Vec<u8>> {
        let i = self.allocs.iter().position(|a| a.base == base)?;
        Some(self.allocs.remove(i).data)
    }

    /// Places an allocation at a fixed address (module variables).
    pub fn insert(&mut self, a: Allocation) {
        let pos = self.allocs.partition_point(|x| x.base < a.base);
        self.allocs.insert(pos, a);
    }

    /// `cudaFree`.
    pub fn free(&mut self, base: u64) -> bool {
        match self.allocs.iter().position(|a| a.base == base) {
            Some(i) => {
                let a = self.allocs.remove(i);
                self.freed.push((a.base, a.data.len() as u64, a.name));
                true
            }
            None => false,
        }
    }

    /// The index of the allocation holding `[addr, addr+len)`.
    #[inline]
    pub fn find(&self, addr: u64, len: u64) -> Option<usize> {
        let i = self.allocs.partition_point(|a| a.base <= addr);
        if i == 0 {
            return None;
        }
        let a = &self.allocs[i - 1];
        let end = a.base + a.data.len() as u64;
        (addr.checked_add(len)? <= end).then_some(i - 1)
    }

    /// The allocation at `i`.
    pub fn alloc(&self, i: usize) -> &Allocation {
        &self.allocs[i]
    }

    /// The allocation at `i`, mutably.
    pub fn alloc_mut(&mut self, i: usize) -> &mut Allocation {
        &mut self.allocs[i]
    }

    /// Bytes `[addr, addr+len)` if they lie in one allocation.
    pub fn slice(&self, addr: u64, len: u64) -> Option<&[u8]> {
        let i = self.find(addr, len)?;
        let a = &self.allocs[i];
        let off = (addr - a.base) as usize;
        Some(&a.data[off..off + len as usize])
    }

    /// Mutable bytes `[addr, addr+len)` if they lie in one allocation.
    pub fn slice_mut(&mut self, addr: u64, len: u64) -> Option<&mut [u8]> {
        let i = self.find(addr, len)?;
        let a = &mut self.allocs[i];
        let off = (addr - a.base) as usize;
        Some(&mut a.data[off..off + len as usize])
    }

    /// The allocation nearest `addr` on either side, for messages: of the last allocation
    /// starting at or below `addr` and the first above it, the one whose bytes are closer
    /// (counted as compute-sanitizer counts: "N bytes after" from the last byte, "N bytes
    /// before" from the first), the lower on a tie. An address far below a large allocation is
    /// so named rather than as billions of bytes past the small allocations below it.
    pub fn nearest(&self, addr: u64) -> Option<&Allocation> {
        let i = self.allocs.partition_point(|a| a.base <= addr);
        let below = i.checked_sub(1).map(|j| &self.allocs[j]);
        let above = self.allocs.get(i);
        match (below, above) {
            (Some(b), Some(u)) => {
                let end = b.base.saturating_add(b.data.len() as u64);
                let after = if addr >= end { addr - end + 1 } else { 0 };
                Some(if u.base - addr < after { u } else { b })
            }
            (b, u) => b.or(u),
        }
    }

    /// The freed allocation (first address, size, name) whose bytes hold `addr`.
    pub fn freed_at(&self, addr: u64) -> Option<&(u64, u64, String)> {
        self.freed
            .iter()
            .rev()
            .find(|(b, n, _)| addr >= *b && addr - *b < (*n).max(1))
    }

    /// Total bytes allocated.
    pub fn bytes(&self) -> u64 {
        self.allocs.iter().map(|a| a.data.len() as u64).sum()
    }
}

/// Reads `n` (1, 2, 4, 8) little-endian bytes.
#[inline(always)]
pub fn read_le(b: &[u8], n: usize) -> u64 {
    match n {
        1 => b[0] as u64,
        2 => u16::from_le_bytes([b[0], b[1]]) as u64,
        4 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64,
        8 => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        _ => {
            let mut v = [0u8; 8];
            v[..n].copy_from_slice(&b[..n]);
            u64::from_le_bytes(v)
        }
    }
}

/// Writes the low `n` bytes of `v` little-endian.
#[inline(always)]
pub fn write_le(b: &mut [u8], n: usize, v: u64) {
    match n {
        1 => b[0] = v as u8,
        2 => b[..2].copy_from_slice(&(v as u16).to_le_bytes()),
        4 => b[..4].copy_from_slice(&(v as u32).to_le_bytes()),
        8 => b[..8].copy_from_slice(&v.to_le_bytes()),
        _ => b[..n].copy_from_slice(&v.to_le_bytes()[..n]),
    }
}
