//! Device `printf`: what `vprintf(format, args)` prints.
//!
//! CUDA C's `printf` in device code compiles to a call of the extern function
//! `vprintf(const char *format, char *args)`, where `args` points to a buffer in the thread's
//! local memory holding the arguments after C's default promotions (`char`/`short` to `int`,
//! `float` to `double`), each at an offset aligned to its own size (CUDA C++ Programming Guide,
//! §"Formatted Output": the format string and argument types follow C's `printf`; the argument
//! buffer's layout is the one NVRTC's PTX builds with `st.local` before the call). The output of
//! a launch is returned in execution order, each thread's line whole, as the host prints the
//! device's printf buffer after the launch.
//!
//! Each conversion is formatted by the host C library's `snprintf` with exactly the flags, width
//! and precision the kernel wrote, so `%f`, `%e`, `%g` and `%a` round as the host's `printf`
//! rounds; only the argument's size is taken from the length modifier and the conversion.

use std::ffi::{c_char, c_int, CString};

/// The CUDA default of `cudaLimitPrintfFifoSize`: 1 MiB (CUDA Runtime API, `cudaDeviceSetLimit`).
/// gpumemsim applies it to the bytes printed, not to the device FIFO's record format.
pub const PRINTF_LIMIT: usize = 1 << 20;

/// The type of one argument in the argument buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A 4-byte integer (`%d`, `%c`, `%x` without `l`; `*` widths).
    I32,
    /// An 8-byte integer (`%ld`, `%lld`, `%zu`, `%p`).
    I64,
    /// An 8-byte double (`%f`, `%e`, `%g`, `%a`; `float` is promoted).
    F64,
    /// An 8-byte pointer to a NUL-terminated string (`%s`).
    Str,
}

impl ArgKind {
    fn size(self) -> u64 {
        match self {
            ArgKind::I32 => 4,
            _ => 8,
        }
    }
}

/// Where the formatter gets its arguments: the argument buffer and the strings `%s` points to.
pub trait Args {
    /// `size` bytes (4 or 8) of the argument buffer at `offset`, little-endian.
    fn read(&mut self, offset: u64, size: u64) -> Result<u64, String>;
    /// The NUL-terminated string at generic address `addr`.
    fn string(&mut self, addr: u64) -> Result<Vec<u8>, String>;
}

/// Formats `format` with the arguments from `args`; returns the text and the number of
/// arguments consumed (`vprintf`'s result).
pub fn format(format: &[u8], args: &mut dyn Args) -> Result<(Vec<u8>, i32), String> {
    let mut out = Vec::new();
    let mut offset = 0u64;
    let mut consumed = 0i32;
    let mut next = |kind: ArgKind, args: &mut dyn Args| -> Result<u64, String> {
        let size = kind.size();
        offset = offset.div_ceil(size) * size;
        let v = args.read(offset, size)?;
        offset += size;
        consumed += 1;
        Ok(v)
    };
    let mut i = 0;
    while i < format.len() {
        let c = format[i];
        if c != b'%' {
            out.push(c);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if format.get(i) == Some(&b'%') {
            out.push(b'%');
            i += 1;
            continue;
        }
        // flags, width, precision
        let mut spec = vec![b'%'];
        let mut star_values: Vec<c_int> = Vec::new();
        while let Some(&f) = format.get(i) {
            if b"-+ #0".contains(&f) {
                spec.push(f);
                i += 1;
            } else {
                break;
            }
        }
        let mut width_or_precision = |i: &mut usize, spec: &mut Vec<u8>, args: &mut dyn Args| {
            if format.get(*i) == Some(&b'*') {
                let v = next(ArgKind::I32, args)? as u32 as i32;
                star_values.push(v);
                spec.push(b'*');
                *i += 1;
            } else {
                while let Some(&d) = format.get(*i).filter(|d| d.is_ascii_digit()) {
                    spec.push(d);
                    *i += 1;
                }
            }
            Ok::<(), String>(())
        };
        width_or_precision(&mut i, &mut spec, args)?;
        if format.get(i) == Some(&b'.') {
            spec.push(b'.');
            i += 1;
            width_or_precision(&mut i, &mut spec, args)?;
        }
        // length modifier: decides the argument's size, dropped from the host format
        let mut long = false;
        while let Some(&l) = format.get(i) {
            match l {
                b'l' | b'j' | b'z' | b't' | b'L' | b'q' => long = true,
                b'h' => {}
                _ => break,
            }
            i += 1;
        }
        let Some(&conv) = format.get(i) else {
            return Err(format!(
                "format ends inside the conversion '{}'",
                String::from_utf8_lossy(&format[start..])
            ));
        };
        i += 1;
        let kind = match conv {
            b'd' | b'i' | b'u' | b'x' | b'X' | b'o' | b'c' => {
                if long && conv != b'c' {
                    ArgKind::I64
                } else {
                    ArgKind::I32
                }
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => ArgKind::F64,
            b'p' => ArgKind::I64,
            b's' => ArgKind::Str,
            other => {
                return Err(format!(
                    "unsupported printf conversion '{}' (%{})",
                    String::from_utf8_lossy(&format[start..i]),
                    other as char
                ))
            }
        };
        let value = next(kind, args)?;
        match kind {
            ArgKind::I32 | ArgKind::I64 => {
                if kind == ArgKind::I64 {
                    spec.extend_from_slice(b"ll");
                }
                spec.push(conv);
            }
            _ => spec.push(conv),
        }
        let text = match kind {
            ArgKind::I32 => host_format(&spec, &star_values, HostArg::Int(value as u32 as c_int)),
            ArgKind::I64 if conv == b'p' => host_format(
                &spec,
                &star_values,
                HostArg::Ptr(value as usize as *const u8),
            ),
            ArgKind::I64 => host_format(&spec, &star_values, HostArg::Long(value as i64)),
            ArgKind::F64 => {
                host_format(&spec, &star_values, HostArg::Double(f64::from_bits(value)))
            }
            ArgKind::Str => {
                let s = if value == 0 {
                    b"(null)".to_vec()
                } else {
                    args.string(value)?
                };
                let s = CString::new(s).map_err(|e| e.to_string())?;
                host_format(&spec, &star_values, HostArg::Str(&s))
            }
        };
        out.extend_from_slice(&text);
    }
    Ok((out, consumed))
}

enum HostArg<'a> {
    Int(c_int),
    Long(i64),
    Double(f64),
    Ptr(*const u8),
    Str(&'a CString),
}

extern "C" {
    fn snprintf(buf: *mut c_char, size: usize, format: *const c_char, ...) -> c_int;
}

/// One conversion formatted by the host C library.
fn host_format(spec: &[u8], stars: &[c_int], arg: HostArg) -> Vec<u8> {
    let Ok(fmt) = CString::new(spec) else {
        return Vec::new();
    };
    let call = |buf: *mut c_char, size: usize| -> c_int {
        // SAFETY: `fmt` is a NUL-terminated format holding exactly one conversion whose
        // length modifier matches `arg`'s C type (`ll` for i64, none for int and double, `p`
        // for the pointer, `s` for the NUL-terminated `CString`), preceded by one `int`
        // for each `*` in it (`stars`, in order); `buf` has room for `size` bytes or is null
        // with `size` 0, as snprintf allows.
        unsafe {
            let f = fmt.as_ptr();
            match (stars, &arg) {
                ([], HostArg::Int(v)) => snprintf(buf, size, f, *v),
                ([], HostArg::Long(v)) => snprintf(buf, size, f, *v),
                ([], HostArg::Double(v)) => snprintf(buf, size, f, *v),
                ([], HostArg::Ptr(v)) => snprintf(buf, size, f, *v),
                ([], HostArg::Str(v)) => snprintf(buf, size, f, v.as_ptr()),
                ([a], HostArg::Int(v)) => snprintf(buf, size, f, *a, *v),
                ([a], HostArg::Long(v)) => snprintf(buf, size, f, *a, *v),
                ([a], HostArg::Double(v)) => snprintf(buf, size, f, *a, *v),
                ([a], HostArg::Ptr(v)) => snprintf(buf, size, f, *a, *v),
                ([a], HostArg::Str(v)) => snprintf(buf, size, f, *a, v.as_ptr()),
                ([a, b], HostArg::Int(v)) => snprintf(buf, size, f, *a, *b, *v),
                ([a, b], HostArg::Long(v)) => snprintf(buf, size, f, *a, *b, *v),
                ([a, b], HostArg::Double(v)) => snprintf(buf, size, f, *a, *b, *v),
                ([a, b], HostArg::Ptr(v)) => snprintf(buf, size, f, *a, *b, *v),
                ([a, b], HostArg::Str(v)) => snprintf(buf, size, f, *a, *b, v.as_ptr()),
                _ => 0,
            }
        }
    };
    let n = call(std::ptr::null_mut(), 0);
    if n <= 0 {
        return Vec::new();
    }
    let mut buf = vec![0u8; n as usize + 1];
    call(buf.as_mut_ptr() as *mut c_char, buf.len());
    buf.truncate(n as usize);
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An argument buffer laid out as NVRTC lays it out, and strings by address.
    struct Buf(Vec<u8>, Vec<(u64, &'static [u8])>);

    impl Args for Buf {
        fn read(&mut self, offset: u64, size: u64) -> Result<u64, String> {
            let o = offset as usize;
            let b = self.0.get(o..o + size as usize).ok_or("past the end")?;
            let mut v = [0u8; 8];
            v[..b.len()].copy_from_slice(b);
            Ok(u64::from_le_bytes(v))
        }
        fn string(&mut self, addr: u64) -> Result<Vec<u8>, String> {
            self.1
                .iter()
                .find(|(a, _)| *a == addr)
                .map(|(_, s)| s.to_vec())
                .ok_or_else(|| "no string".to_string())
        }
    }

    #[test]
    fn promoted_arguments_at_aligned_offsets() {
        // printf("%d %5.2f|%-4s|%lld %x%%\n", 7, 1.23456f, "ab", -5LL, 255)
        let mut b = Vec::new();
        b.extend_from_slice(&7i32.to_le_bytes());
        b.extend_from_slice(&[0; 4]); // the double is 8-byte aligned
        b.extend_from_slice(&(1.23456f32 as f64).to_le_bytes());
        b.extend_from_slice(&0x1000u64.to_le_bytes());
        b.extend_from_slice(&(-5i64).to_le_bytes());
        b.extend_from_slice(&255i32.to_le_bytes());
        let mut args = Buf(b, vec![(0x1000, b"ab")]);
        let (text, n) = format(b"%d %5.2f|%-4s|%lld %x%%\n", &mut args).expect("format");
        assert_eq!(String::from_utf8_lossy(&text), "7  1.23|ab  |-5 ff%\n");
        assert_eq!(n, 5);
    }

    #[test]
    fn star_width_and_float_forms() {
        let mut b = Vec::new();
        b.extend_from_slice(&6i32.to_le_bytes());
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(&1.5f64.to_le_bytes());
        b.extend_from_slice(&0.0001f64.to_le_bytes());
        b.extend_from_slice(&1.0f64.to_le_bytes());
        let mut args = Buf(b, vec![]);
        let (text, _) = format(b"[%*.1f] %g %a", &mut args).expect("format");
        assert_eq!(String::from_utf8_lossy(&text), "[   1.5] 0.0001 0x1p+0");
    }

    #[test]
    fn a_bad_conversion_is_an_error() {
        let mut args = Buf(vec![0; 8], vec![]);
        assert!(format(b"%n", &mut args).is_err());
        assert!(format(b"%", &mut args).is_err());
    }
}
