//! PTX fundamental types (PTX ISA, section 5.2.1 "Fundamental Types") and rounding modifiers
//! (section 9.7.3 "Floating-Point Instructions", 9.7.9.21 "cvt").

/// A PTX scalar type as written on an instruction (`.u32`, `.f16x2`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    /// `.b8`
    B8,
    /// `.b16`
    B16,
    /// `.b32`
    B32,
    /// `.b64`
    B64,
    /// `.b128`
    B128,
    /// `.u8`
    U8,
    /// `.u16`
    U16,
    /// `.u32`
    U32,
    /// `.u64`
    U64,
    /// `.s8`
    S8,
    /// `.s16`
    S16,
    /// `.s32`
    S32,
    /// `.s64`
    S64,
    /// `.f16`
    F16,
    /// `.f16x2`: two f16 packed in 32 bits, element 0 in the low half.
    F16x2,
    /// `.bf16`
    BF16,
    /// `.bf16x2`
    BF16x2,
    /// `.tf32`
    TF32,
    /// `.f32`
    F32,
    /// `.f64`
    F64,
    /// `.pred`
    Pred,
}

impl ScalarType {
    /// Parses a type suffix without its dot (`"u32"`).
    pub fn from_suffix(s: &str) -> Option<Self> {
        use ScalarType::*;
        Some(match s {
            "b8" => B8,
            "b16" => B16,
            "b32" => B32,
            "b64" => B64,
            "b128" => B128,
            "u8" => U8,
            "u16" => U16,
            "u32" => U32,
            "u64" => U64,
            "s8" => S8,
            "s16" => S16,
            "s32" => S32,
            "s64" => S64,
            "f16" => F16,
            "f16x2" => F16x2,
            "bf16" => BF16,
            "bf16x2" => BF16x2,
            "tf32" => TF32,
            "f32" => F32,
            "f64" => F64,
            "pred" => Pred,
            _ => return None,
        })
    }

    /// Size in bytes (`.pred` counts as 1).
    pub fn size(self) -> u32 {
        use ScalarType::*;
        match self {
            B8 | U8 | S8 | Pred => 1,
            B16 | U16 | S16 | F16 | BF16 => 2,
            B32 | U32 | S32 | F16x2 | BF16x2 | TF32 | F32 => 4,
            B64 | U64 | S64 | F64 => 8,
            B128 => 16,
        }
    }

    /// Size in bits.
    pub fn bits(self) -> u32 {
        self.size() * 8
    }

    /// True for `.sN`.
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            ScalarType::S8 | ScalarType::S16 | ScalarType::S32 | ScalarType::S64
        )
    }

    /// True for the floating-point types, packed ones included.
    pub fn is_float(self) -> bool {
        use ScalarType::*;
        matches!(self, F16 | F16x2 | BF16 | BF16x2 | TF32 | F32 | F64)
    }
}

/// Floating-point rounding of a result (`.rn .rz .rm .rp`), and for `cvt` to an integer the
/// integer rounding (`.rni .rzi .rmi .rpi`) which maps to the same four directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rounding {
    /// Round to nearest, ties to even.
    #[default]
    Rn,
    /// Round towards zero.
    Rz,
    /// Round towards negative infinity.
    Rm,
    /// Round towards positive infinity.
    Rp,
    /// `.rna`: round to nearest, ties away from zero (cvt to tf32 and some fp8 conversions).
    Rna,
}
