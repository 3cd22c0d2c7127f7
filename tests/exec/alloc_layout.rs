//! Device allocations are placed as the H200's driver places them (tests/hw/h200/alloc/alloc.txt:
//! tests/hw/alloc/alloc.cu run on the H200), so an overflow lands where it would on the GPU.

use gpumemsim::mem::space::GlobalMemory;

/// (size, delta from the previous allocation) of the H200's first `cudaMalloc` round.
fn h200_round0() -> Vec<(u64, i64)> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/hw/h200/alloc/alloc.txt"
    ))
    .expect("the H200 record");
    text.lines()
        .skip_while(|l| !l.starts_with("round 0"))
        .skip(1)
        .take_while(|l| l.starts_with("size "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[1].parse().expect("size"), w[5].parse().expect("delta"))
        })
        .collect()
}

#[test]
fn consecutive_allocations_are_spaced_as_on_the_h200() {
    let rows = h200_round0();
    assert_eq!(rows.len(), 16, "{rows:?}");
    let mut g = GlobalMemory::new();
    let addrs: Vec<u64> = rows.iter().map(|(s, _)| g.malloc(*s, "b")).collect();
    let small = |s: u64| s <= 1 << 20;
    let mut compared = 0;
    for i in 1..rows.len() {
        // Moves between the pool and the large range cover a distance that is the driver's
        // choice (77,522,944 bytes there); within each class the spacing is the model's.
        if small(rows[i].0) != small(rows[i - 1].0) {
            continue;
        }
        let delta = addrs[i] as i64 - addrs[i - 1] as i64;
        assert_eq!(delta, rows[i].1, "allocation {i} of {} bytes", rows[i].0);
        compared += 1;
    }
    assert!(compared >= 11, "only {compared} spacings compared");
}

#[test]
fn an_overflow_past_a_large_allocation_is_not_in_the_next_one() {
    // Two buffers of 1,048,577 bytes: on the H200 each takes 2 MiB, so 600 bytes past the end
    // of the first is unmapped memory, not the second buffer (before: 256-byte packing put the
    // second buffer there and the overflow read it silently).
    let mut g = GlobalMemory::new();
    let a = g.malloc(1_048_577, "a");
    let b = g.malloc(1_048_577, "b");
    assert_eq!(b - a, 2 << 20);
    assert!(g.find(a + 1_048_577 + 600, 4).is_none());
    assert!(g.find(a + 1_048_576, 1).is_some());
}
