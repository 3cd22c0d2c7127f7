//! Element types of launch-spec buffers and symbols, and the conversion of written values to
//! their little-endian bytes.
//!
//! Sources: the CUDA C++ types they stand for (`uint8_t` … `double`, `__half`, `__nv_bfloat16`)
//! and the PTX fundamental types (PTX ISA, section 5.2.1 "Fundamental Types"). Which PTX
//! parameter types a buffer element may be passed as follows the PTX ISA's "Type Information
//! for Instructions and Operands" rules: a bit-size type `.bN` stands for any type of N bits,
//! and signed and unsigned integers of one size are interchangeable.

use std::fmt;

/// The type of one element of a buffer or symbol (`type = "f32"` in a spec).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    /// `uint8_t`.
    U8,
    /// `int8_t`.
    I8,
    /// `uint16_t`.
    U16,
    /// `int16_t`.
    I16,
    /// `uint32_t` / `unsigned int`.
    U32,
    /// `int32_t` / `int`.
    I32,
    /// `uint64_t`.
    U64,
    /// `int64_t`.
    I64,
    /// IEEE 754 binary16 (`__half`).
    F16,
    /// bfloat16 (`__nv_bfloat16`).
    Bf16,
    /// IEEE 754 binary32 (`float`).
    F32,
    /// IEEE 754 binary64 (`double`).
    F64,
}

/// Every element type, in the order the spec documentation lists them.
pub const ALL_ELEM_TYPES: [ElemType; 12] = [
    ElemType::U8,
    ElemType::I8,
    ElemType::U16,
    ElemType::I16,
    ElemType::U32,
    ElemType::I32,
    ElemType::U64,
    ElemType::I64,
    ElemType::F16,
    ElemType::Bf16,
    ElemType::F32,
    ElemType::F64,
];

impl ElemType {
    /// The spelling used in specs (`"f32"`), or `None` for an unknown name.
    pub fn from_name(name: &str) -> Option<ElemType> {
        ALL_ELEM_TYPES.iter().copied().find(|t| t.name() == name)
    }

    /// The spelling used in specs.
    pub fn name(self) -> &'static str {
        match self {
            ElemType::U8 => "u8",
            ElemType::I8 => "i8",
            ElemType::U16 => "u16",
            ElemType::I16 => "i16",
            ElemType::U32 => "u32",
            ElemType::I32 => "i32",
            ElemType::U64 => "u64",
            ElemType::I64 => "i64",
            ElemType::F16 => "f16",
            ElemType::Bf16 => "bf16",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
        }
    }

    /// Size of one element in bytes.
    pub fn size(self) -> usize {
        match self {
            ElemType::U8 | ElemType::I8 => 1,
            ElemType::U16 | ElemType::I16 | ElemType::F16 | ElemType::Bf16 => 2,
            ElemType::U32 | ElemType::I32 | ElemType::F32 => 4,
            ElemType::U64 | ElemType::I64 | ElemType::F64 => 8,
        }
    }

    /// Whether the type is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            ElemType::F16 | ElemType::Bf16 | ElemType::F32 | ElemType::F64
        )
    }

    /// Whether the type is a signed integer.
    pub fn is_signed_int(self) -> bool {
        matches!(
            self,
            ElemType::I8 | ElemType::I16 | ElemType::I32 | ElemType::I64
        )
    }

    /// The PTX fundamental type of the same kind and size, without the dot (`"s32"`, `"bf16"`).
    pub fn ptx_type(self) -> &'static str {
        match self {
            ElemType::U8 => "u8",
            ElemType::I8 => "s8",
            ElemType::U16 => "u16",
            ElemType::I16 => "s16",
            ElemType::U32 => "u32",
            ElemType::I32 => "s32",
            ElemType::U64 => "u64",
            ElemType::I64 => "s64",
            ElemType::F16 => "f16",
            ElemType::Bf16 => "bf16",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
        }
    }

    /// Whether a value of this type may be held in a PTX variable of type `ptx` (with or
    /// without the leading dot): the same type, a bit-size type `.bN` of the same size, or an
    /// integer of the same size and the other signedness.
    pub fn ptx_compatible(self, ptx: &str) -> bool {
        let ptx = ptx.strip_prefix('.').unwrap_or(ptx);
        let bits = self.size() * 8;
        if ptx == self.ptx_type() || ptx == format!("b{bits}") {
            return true;
        }
        if self.is_float() {
            return false;
        }
        ptx == format!("u{bits}") || ptx == format!("s{bits}")
    }

    /// The C type the CUDA host-program export uses for the element's raw bits.
    pub fn c_bits_type(self) -> &'static str {
        match self.size() {
            1 => "uint8_t",
            2 => "uint16_t",
            4 => "uint32_t",
            _ => "uint64_t",
        }
    }

    /// Inclusive integer range of the type, or `None` for float types.
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            ElemType::U8 => (0, u8::MAX as i128),
            ElemType::I8 => (i8::MIN as i128, i8::MAX as i128),
            ElemType::U16 => (0, u16::MAX as i128),
            ElemType::I16 => (i16::MIN as i128, i16::MAX as i128),
            ElemType::U32 => (0, u32::MAX as i128),
            ElemType::I32 => (i32::MIN as i128, i32::MAX as i128),
            ElemType::U64 => (0, u64::MAX as i128),
            ElemType::I64 => (i64::MIN as i128, i64::MAX as i128),
            _ => return None,
        })
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The comma-separated list of type names, for error messages.
pub(crate) fn type_names() -> String {
    ALL_ELEM_TYPES
        .iter()
        .map(|t| t.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// One element's raw bits, zero-extended to 64 bits (only the low `size()` bytes matter).
pub(crate) type Bits = u64;

/// Writes the low `ty.size()` bytes of `bits` little-endian.
pub(crate) fn push_bits(out: &mut Vec<u8>, ty: ElemType, bits: Bits) {
    out.extend_from_slice(&bits.to_le_bytes()[..ty.size()]);
}

/// The bits of an integer already checked to lie in the type's range (two's complement).
pub(crate) fn int_bits(ty: ElemType, v: i128) -> Bits {
    let mask: u128 = if ty.size() == 8 {
        u64::MAX as u128
    } else {
        (1u128 << (ty.size() * 8)) - 1
    };
    ((v as u128) & mask) as u64
}

/// The bits of `v` rounded to nearest even in a float type, or `None` when a finite `v`
/// becomes infinite (out of range). Infinities and NaNs pass through.
pub(crate) fn float_bits(ty: ElemType, v: f64) -> Option<Bits> {
    let (bits, inf) = match ty {
        ElemType::F64 => (v.to_bits(), v.is_infinite()),
        ElemType::F32 => {
            let x = v as f32;
            (u64::from(x.to_bits()), x.is_infinite())
        }
        ElemType::F16 => {
            let x = half::f16::from_f64(v);
            (u64::from(x.to_bits()), x.is_infinite())
        }
        ElemType::Bf16 => {
            let x = half::bf16::from_f64(v);
            (u64::from(x.to_bits()), x.is_infinite())
        }
        _ => return None,
    };
    if inf && v.is_finite() {
        None
    } else {
        Some(bits)
    }
}

/// The bits of an `f32` value rounded to nearest even in `ty` (a float type).
pub(crate) fn f32_to_bits(ty: ElemType, v: f32) -> Bits {
    match ty {
        ElemType::F16 => u64::from(half::f16::from_f32(v).to_bits()),
        ElemType::Bf16 => u64::from(half::bf16::from_f32(v).to_bits()),
        ElemType::F64 => f64::from(v).to_bits(),
        _ => u64::from(v.to_bits()),
    }
}

/// Parses a scalar written as text (`fill:V`, or a string in `values`) as the type.
/// Integers: decimal with optional sign, or `0x` hexadecimal; floats: Rust/TOML float syntax
/// including `inf` and `nan`.
pub(crate) fn parse_scalar(ty: ElemType, text: &str) -> Result<Bits, String> {
    let t = text.trim();
    if let Some((lo, hi)) = ty.int_range() {
        let (neg, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let parsed = match digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            Some(hex) => i128::from_str_radix(&hex.replace('_', ""), 16),
            None => digits.replace('_', "").parse::<i128>(),
        };
        let signed_twice = digits.starts_with(['+', '-']);
        let mag = parsed
            .ok()
            .filter(|_| !signed_twice)
            .ok_or_else(|| format!("{text:?} is not an integer"))?;
        let v = if neg { -mag } else { mag };
        check_int(ty, v, lo, hi)
    } else {
        let bad = || format!("{text:?} is not a number");
        let wide = t.parse::<f64>().map_err(|_| bad())?;
        let out_of_range = || format!("{text} is out of range for {ty}");
        if ty == ElemType::F32 {
            // Parsed directly so the decimal is rounded once (correctly) to f32.
            let x = t.parse::<f32>().map_err(|_| bad())?;
            if x.is_infinite() && wide.is_finite() {
                return Err(out_of_range());
            }
            return Ok(u64::from(x.to_bits()));
        }
        float_bits(ty, wide).ok_or_else(out_of_range)
    }
}

/// The bits of an integer written in a spec, checked against the type's range.
pub(crate) fn int_value_bits(ty: ElemType, v: i64) -> Result<Bits, String> {
    match ty.int_range() {
        Some((lo, hi)) => check_int(ty, i128::from(v), lo, hi),
        // An integer written for a float type: converted exactly or rounded to nearest even.
        None => float_bits(ty, v as f64).ok_or_else(|| format!("{v} is out of range for {ty}")),
    }
}

fn check_int(ty: ElemType, v: i128, lo: i128, hi: i128) -> Result<Bits, String> {
    if v < lo || v > hi {
        Err(format!("{v} is out of range for {ty} ({lo} to {hi})"))
    } else {
        Ok(int_bits(ty, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_names_round_trip() {
        for t in ALL_ELEM_TYPES {
            assert_eq!(ElemType::from_name(t.name()), Some(t));
        }
        assert_eq!(ElemType::from_name("float"), None);
        assert_eq!(ElemType::Bf16.size(), 2);
        assert_eq!(ElemType::I64.size(), 8);
    }

    #[test]
    fn ptx_compatibility() {
        assert!(ElemType::F32.ptx_compatible(".f32"));
        assert!(ElemType::F32.ptx_compatible("b32"));
        assert!(!ElemType::F32.ptx_compatible("u32"));
        assert!(ElemType::I32.ptx_compatible(".u32"));
        assert!(!ElemType::I32.ptx_compatible(".u64"));
        assert!(ElemType::Bf16.ptx_compatible(".b16"));
        assert!(!ElemType::Bf16.ptx_compatible(".f16"));
    }

    #[test]
    fn scalar_parsing_and_ranges() {
        assert_eq!(parse_scalar(ElemType::U8, "255"), Ok(0xff));
        assert!(parse_scalar(ElemType::U8, "256").is_err());
        assert_eq!(parse_scalar(ElemType::I16, "-1"), Ok(0xffff));
        assert_eq!(parse_scalar(ElemType::U32, "0xdeadbeef"), Ok(0xdead_beef));
        assert_eq!(
            parse_scalar(ElemType::U64, "18446744073709551615"),
            Ok(u64::MAX)
        );
        assert!(parse_scalar(ElemType::I32, "1.5").is_err());
        assert!(parse_scalar(ElemType::I32, "--5").is_err());
        // 0.5 = 0x3f000000 (f32), 0x3800 (f16), 0x3f00 (bf16), 0x3fe0000000000000 (f64).
        assert_eq!(parse_scalar(ElemType::F32, "0.5"), Ok(0x3f00_0000));
        assert_eq!(parse_scalar(ElemType::F16, "0.5"), Ok(0x3800));
        assert_eq!(parse_scalar(ElemType::Bf16, "0.5"), Ok(0x3f00));
        assert_eq!(
            parse_scalar(ElemType::F64, "0.5"),
            Ok(0x3fe0_0000_0000_0000)
        );
        // f16 max is 65504; 70000 rounds to infinity: out of range. inf itself is allowed.
        assert_eq!(parse_scalar(ElemType::F16, "65504"), Ok(0x7bff));
        assert!(parse_scalar(ElemType::F16, "70000").is_err());
        assert_eq!(parse_scalar(ElemType::F16, "inf"), Ok(0x7c00));
        assert!(parse_scalar(ElemType::F32, "1e39").is_err());
        assert_eq!(int_value_bits(ElemType::F32, 3), Ok(0x4040_0000));
        assert!(int_value_bits(ElemType::U16, -1).is_err());
    }
}
