//! The spec reader on arbitrary TOML text: `Spec::parse` must end in `Ok` or an error, never a
//! panic, a hang or an unbounded allocation. The initial bytes of each buffer are built too,
//! for buffers of at most 1 MiB (a spec may legitimately ask for large buffers; the simulated
//! memory budget that should refuse absurd ones is checked before allocation, not here).
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // A directory that does not exist: `file:` inputs and sources fail to resolve, nothing is read.
    let path = Path::new("/nonexistent-gpumemsim-fuzz/spec.toml");
    if let Ok(spec) = gpumemsim::spec::Spec::parse(text, "spec.toml", path) {
        for b in &spec.buffers {
            if b.byte_len() <= 1 << 20 {
                let _ = b.initial_bytes();
            }
        }
    }
});
