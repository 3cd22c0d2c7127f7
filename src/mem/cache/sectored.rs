//! A set-associative cache of 128-byte lines, each of four 32-byte sectors with their own valid
//! and dirty bits: the organisation NVIDIA's L1 and L2 share since Volta (Jia et al., "Dissecting
//! the NVIDIA Volta GPU Architecture via Microbenchmarking", 2018, section 3: 128-byte lines,
//! 32-byte sectors filled on demand; Kernel Profiling Guide, "Memory Tables": "a sector is an
//! aligned 32 byte chunk of memory in a cache line").
//!
//! Replacement is least-recently-used within a set. The set of a line is a multiplicative hash
//! of its address ([`SectoredCache::set_of`]), so that strided walks spread over the sets as the
//! hardware's hashed indexing does: 32 lanes 4 KB apart, 256 threads each walking its own 4 KB,
//! hit on 7 of 8 loads on the H200 (tests/hw/h200/cache/ncu/global_patterns.csv launch 4), which
//! a plain modulo index would turn into conflict misses. The real hash uses physical address
//! bits a program cannot see; this one is an approximation, documented in `mod.rs`.

/// One line's state.
#[derive(Clone, Copy, Debug, Default)]
struct Way {
    /// The line address (byte address >> 7) plus 1; 0 marks an empty way.
    tag: u64,
    /// Last use, for LRU.
    stamp: u64,
    /// Valid sectors (bit i: sector i).
    valid: u8,
    /// Dirty sectors.
    dirty: u8,
    /// The instruction that last dirtied the line, for attributing its write-back.
    writer: u32,
}

/// What leaving the cache takes with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evicted {
    /// Line address (byte address >> 7).
    pub line: u64,
    /// Dirty sectors that must be written to the next level.
    pub dirty: u8,
    /// The instruction that last dirtied the line.
    pub writer: u32,
}

/// A sectored, set-associative, LRU cache. Holds tags and state only, no data: the functional
/// memory lives in `mem::space`, so the cache can never change what a program computes.
#[derive(Clone, Debug)]
pub struct SectoredCache {
    sets: usize,
    ways: usize,
    slots: Vec<Way>,
    clock: u64,
}

/// A line present in the cache: its slot, for the sector operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot(usize);

impl SectoredCache {
    /// A cache of `lines` lines in `ways`-way sets (`lines` is rounded down to a multiple of
    /// `ways`; at least one set).
    pub fn new(lines: usize, ways: usize) -> Self {
        let ways = ways.max(1);
        let sets = (lines / ways).max(1);
        SectoredCache {
            sets,
            ways,
            slots: vec![Way::default(); sets * ways],
            clock: 0,
        }
    }

    /// Lines the cache holds.
    pub fn lines(&self) -> usize {
        self.sets * self.ways
    }

    /// The set index of `line`.
    #[inline]
    fn set_of(&self, line: u64) -> usize {
        // Fibonacci hashing: the high half of the product with 2^64 / phi spreads every stride
        // (a power of two included) over the sets.
        let h = line.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
        (h % self.sets as u64) as usize
    }

    /// The slot holding `line`, if any (does not change the LRU order).
    #[inline]
    pub fn find(&self, line: u64) -> Option<Slot> {
        let base = self.set_of(line) * self.ways;
        let tag = line + 1;
        self.slots[base..base + self.ways]
            .iter()
            .position(|w| w.tag == tag)
            .map(|i| Slot(base + i))
    }

    /// Marks `slot` most recently used.
    #[inline]
    pub fn touch(&mut self, slot: Slot) {
        self.clock += 1;
        self.slots[slot.0].stamp = self.clock;
    }

    /// Valid sectors of `slot`.
    #[inline]
    pub fn valid(&self, slot: Slot) -> u8 {
        self.slots[slot.0].valid
    }

    /// Makes `sectors` of `slot` valid.
    #[inline]
    pub fn fill(&mut self, slot: Slot, sectors: u8) {
        self.slots[slot.0].valid |= sectors;
    }

    /// Makes `sectors` of `slot` valid and dirty, written by instruction `pc`.
    #[inline]
    pub fn write(&mut self, slot: Slot, sectors: u8, pc: u32) {
        let w = &mut self.slots[slot.0];
        w.valid |= sectors;
        w.dirty |= sectors;
        w.writer = pc;
    }

    /// Makes `line` present (as the most recently used line of its set, no sector valid),
    /// evicting the set's least recently used line when the set is full. A line already present
    /// is returned as it is.
    pub fn allocate(&mut self, line: u64) -> (Slot, Option<Evicted>) {
        if let Some(s) = self.find(line) {
            self.touch(s);
            return (s, None);
        }
        let base = self.set_of(line) * self.ways;
        let set = &self.slots[base..base + self.ways];
        let victim = match set.iter().position(|w| w.tag == 0) {
            Some(i) => i,
            None => {
                let mut best = 0;
                for (i, w) in set.iter().enumerate() {
                    if w.stamp < set[best].stamp {
                        best = i;
                    }
                }
                best
            }
        };
        let old = self.slots[base + victim];
        let evicted = (old.tag != 0).then(|| Evicted {
            line: old.tag - 1,
            dirty: old.dirty,
            writer: old.writer,
        });
        self.clock += 1;
        self.slots[base + victim] = Way {
            tag: line + 1,
            stamp: self.clock,
            valid: 0,
            dirty: 0,
            writer: 0,
        };
        (Slot(base + victim), evicted)
    }

    /// Makes `line` present and most recently used, like [`SectoredCache::allocate`], and says
    /// whether it was present and which sectors were valid before (one search of the set).
    #[inline]
    pub fn lookup(&mut self, line: u64) -> (Slot, bool, u8) {
        match self.find(line) {
            Some(s) => {
                self.touch(s);
                (s, true, self.slots[s.0].valid)
            }
            None => (self.allocate(line).0, false, 0),
        }
    }

    /// Removes `line` if present, returning what it held.
    pub fn invalidate(&mut self, line: u64) -> Option<Evicted> {
        let s = self.find(line)?;
        let old = std::mem::take(&mut self.slots[s.0]);
        Some(Evicted {
            line,
            dirty: old.dirty,
            writer: old.writer,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lru_evicts_the_oldest_line_of_a_full_set() {
        // One set of two ways.
        let mut c = SectoredCache::new(2, 2);
        let (a, e) = c.allocate(10);
        assert_eq!(e, None);
        c.write(a, 0b0001, 7);
        c.allocate(11);
        c.touch(c.find(10).unwrap());
        let (_, e) = c.allocate(12);
        assert_eq!(e.map(|e| e.line), Some(11), "11 was least recently used");
        let (_, e) = c.allocate(13);
        assert_eq!(
            e,
            Some(Evicted {
                line: 10,
                dirty: 0b0001,
                writer: 7
            })
        );
    }

    #[test]
    fn sectors_fill_independently() {
        let mut c = SectoredCache::new(64, 4);
        let (s, _) = c.allocate(5);
        assert_eq!(c.valid(s), 0);
        c.fill(s, 0b0100);
        assert_eq!(c.valid(c.find(5).unwrap()), 0b0100);
        assert!(c.find(6).is_none());
        assert_eq!(c.invalidate(5).map(|e| e.line), Some(5));
        assert!(c.find(5).is_none());
    }
}
