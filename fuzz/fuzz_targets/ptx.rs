//! The PTX front end on arbitrary text: parsing and lowering must end in `Ok` or a located
//! error, never a panic, a hang or an unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(module) = gpumemsim::ptx::parse::parse(text) {
        let _ = gpumemsim::ptx::lower::lower(&module, text);
    }
});
