//! memcheck: where an invalid access lies, in compute-sanitizer's words, and the per-line count
//! of faulting accesses that `--check memcheck --continue` lists.
//!
//! The executor itself finds the faults (always on): a global access outside every live
//! allocation, or outside the allocation its pointer parameter points into
//! ([`super::provenance`]), a shared access outside the block's static plus dynamic shared
//! memory, a local access outside the thread's frame, a misaligned access. Bounds are each
//! allocation's exact byte size, not the driver's 512-byte granules (tests/hw/h200/alloc).
//! compute-sanitizer's bounds are exact too (it reports a write 1 byte after a 4,000-byte
//! buffer: tests/hw/h200/sanitize/oob_write_off_by_one.memcheck.log), but an address inside
//! another live allocation is valid to it: a read one element past a 16 KiB buffer, which lands
//! in the next one, goes unreported there (oob_16k_one_past.memcheck.log) and is reported here.
//!
//! compute-sanitizer's messages (CUDA 13.0, tests/hw/h200/sanitize/*.memcheck.log) read
//! `Invalid __global__ read of size 4 bytes` and place the address relative to the nearest
//! allocation; ours name the allocation by its spec name and give its exact size. Distances
//! are counted as compute-sanitizer counts them: "N bytes after" from the allocation's last
//! byte (the first byte past the end is 1 byte after it: oob_write_off_by_one.memcheck.log,
//! `0x...1fa0` for a 4,000-byte allocation at `0x...1000`), "N bytes before" from its first.

use crate::mem::space::GlobalMemory;

/// `n` with thousands separators: 1,048,576.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Where global address `a` (an access of `size` bytes) lies: relative to `expected` (the
/// allocation its pointer came from) when known, else to the nearest allocation; a freed
/// allocation is named as such.
pub fn describe_global(g: &GlobalMemory, expected: Option<usize>, a: u64, size: u32) -> String {
    let place = |base: u64, len: u64, name: &str| -> String {
        let end = base.saturating_add(len);
        if a >= end {
            format!(
                "{} bytes after the end of allocation `{name}` at {base:#x} of {} bytes",
                thousands(a - end + 1),
                thousands(len)
            )
        } else if a >= base {
            format!(
                "straddles the end of allocation `{name}` at {base:#x} of {} bytes (at offset {})",
                thousands(len),
                thousands(a - base)
            )
        } else {
            format!(
                "{} bytes before the start of allocation `{name}` at {base:#x} of {} bytes",
                thousands(base - a),
                thousands(len)
            )
        }
    };
    if let Some((base, len, name)) = g.freed_at(a) {
        let _ = size;
        return format!(
            "inside allocation `{name}` at {base:#x} of {} bytes (at offset {}), which the host has freed (use after free)",
            thousands(*len),
            thousands(a - base)
        );
    }
    match expected {
        Some(i) => {
            let al = g.alloc(i);
            let mut s = place(al.base, al.data.len() as u64, &al.name);
            if let Some(j) = g.find(a, 1) {
                s.push_str(&format!(", inside allocation `{}`", g.alloc(j).name));
            }
            s
        }
        None => match g.nearest(a) {
            Some(al) => place(al.base, al.data.len() as u64, &al.name),
            None => "outside every allocation (none is live)".to_string(),
        },
    }
}

/// Where address `a` of a window of `total` bytes (shared memory, a local frame) lies.
pub fn describe_window(what: &str, total: u64, a: u64, size: u32) -> String {
    let signed = a as i64;
    if signed < 0 && signed > -(1 << 32) {
        return format!(
            "{} bytes before the start of {what} of {} bytes",
            thousands(signed.unsigned_abs()),
            thousands(total)
        );
    }
    if a >= total {
        format!(
            "{} bytes after the end of {what} of {} bytes",
            thousands(a - total + 1),
            thousands(total)
        )
    } else {
        format!(
            "access of {size} bytes at offset {} straddles the end of {what} of {} bytes",
            thousands(a),
            thousands(total)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_048_576), "1,048,576");
    }

    #[test]
    fn the_nearest_allocation_is_looked_for_on_both_sides() {
        use crate::mem::space::{GLOBAL_HEAP_BASE, GLOBAL_LARGE_BASE};
        let mut g = GlobalMemory::new();
        // Two 1 MiB buffers fill the first 2 MiB pool; the third starts a range of its own.
        let a = g.malloc(1 << 20, "a");
        let b = g.malloc(1 << 20, "b");
        let c = g.malloc(1 << 20, "c");
        assert_eq!((a, b), (GLOBAL_HEAP_BASE, GLOBAL_HEAP_BASE + (1 << 20)));
        assert_eq!(c, GLOBAL_LARGE_BASE);
        // 2,048 bytes before `c`: far above `b`'s end, so `c` is the nearest.
        let d = describe_global(&g, None, c - 2048, 4);
        assert!(
            d.starts_with("2,048 bytes before the start of allocation `c`"),
            "{d}"
        );
        // 16 bytes past `b` is nearer `b`.
        let d = describe_global(&g, None, b + (1 << 20) + 15, 4);
        assert!(
            d.starts_with("16 bytes after the end of allocation `b`"),
            "{d}"
        );
        // Below every allocation, and above every one.
        let d = describe_global(&g, None, a - 4, 4);
        assert!(
            d.starts_with("4 bytes before the start of allocation `a`"),
            "{d}"
        );
        let d = describe_global(&g, None, c + (1 << 20), 4);
        assert!(
            d.starts_with("1 bytes after the end of allocation `c`"),
            "{d}"
        );
    }

    #[test]
    fn a_negative_shared_offset_is_before_the_start() {
        let d = describe_window("shared", 512, (-4i64) as u64, 4);
        assert_eq!(d, "4 bytes before the start of shared of 512 bytes");
        // Counted from the last byte, as compute-sanitizer counts.
        let d = describe_window("shared", 512, 512 + 8, 4);
        assert_eq!(d, "9 bytes after the end of shared of 512 bytes");
    }
}
