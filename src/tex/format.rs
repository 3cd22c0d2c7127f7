//! Channel formats (`cudaChannelFormatDesc`): the channel type and count of a CUDA array's or a
//! texture's texels, and how one texel's bytes decode into what a fetch returns.
//!
//! Decoding rules: CUDA C++ Programming Guide, "Texture Fetching" and "Texture Object API"
//! (`cudaReadModeNormalizedFloat`: an unsigned 8/16-bit integer `v` reads as `v / (2^n - 1)`,
//! a signed one as `max(v / (2^(n-1) - 1), -1)`), PTX ISA 9.7.10.3 (`tex`: missing channels).
//! The exact bits are the H200's (tests/hw/h200/texture/).

use half::f16;

/// A channel's type (`cudaChannelFormatKind` and bit width).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelType {
    /// 8-bit unsigned (`cudaChannelFormatKindUnsigned`, 8).
    U8,
    /// 8-bit signed.
    I8,
    /// 16-bit unsigned.
    U16,
    /// 16-bit signed.
    I16,
    /// 32-bit unsigned.
    U32,
    /// 32-bit signed.
    I32,
    /// 16-bit float (`cudaChannelFormatKindFloat`, 16).
    F16,
    /// 32-bit float.
    F32,
}

/// All channel types, in the spec's order.
pub const ALL_CHANNEL_TYPES: [ChannelType; 8] = [
    ChannelType::U8,
    ChannelType::I8,
    ChannelType::U16,
    ChannelType::I16,
    ChannelType::U32,
    ChannelType::I32,
    ChannelType::F16,
    ChannelType::F32,
];

impl ChannelType {
    /// Bytes per channel.
    pub fn bytes(self) -> u32 {
        match self {
            ChannelType::U8 | ChannelType::I8 => 1,
            ChannelType::U16 | ChannelType::I16 | ChannelType::F16 => 2,
            _ => 4,
        }
    }
    /// The spec's name (`u8` .. `f32`).
    pub fn name(self) -> &'static str {
        match self {
            ChannelType::U8 => "u8",
            ChannelType::I8 => "i8",
            ChannelType::U16 => "u16",
            ChannelType::I16 => "i16",
            ChannelType::U32 => "u32",
            ChannelType::I32 => "i32",
            ChannelType::F16 => "f16",
            ChannelType::F32 => "f32",
        }
    }
    /// From the spec's name.
    pub fn from_name(s: &str) -> Option<ChannelType> {
        ALL_CHANNEL_TYPES.into_iter().find(|t| t.name() == s)
    }
    /// Signed integer channel.
    pub fn is_signed(self) -> bool {
        matches!(self, ChannelType::I8 | ChannelType::I16 | ChannelType::I32)
    }
    /// Float channel.
    pub fn is_float(self) -> bool {
        matches!(self, ChannelType::F16 | ChannelType::F32)
    }
    /// Whether `cudaReadModeNormalizedFloat` applies (8- and 16-bit integers).
    pub fn normalizable(self) -> bool {
        matches!(
            self,
            ChannelType::U8 | ChannelType::I8 | ChannelType::U16 | ChannelType::I16
        )
    }
    /// `cudaChannelFormatKind` (0 signed, 1 unsigned, 2 float).
    pub fn cuda_kind(self) -> u32 {
        if self.is_float() {
            2
        } else if self.is_signed() {
            0
        } else {
            1
        }
    }
}

/// A texel format: channel type and count (1, 2 or 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChannelFormat {
    /// The type of every channel.
    pub ty: ChannelType,
    /// 1, 2 or 4.
    pub channels: u8,
}

impl ChannelFormat {
    /// Bytes per texel.
    pub fn texel_bytes(self) -> u32 {
        self.ty.bytes() * u32::from(self.channels)
    }
}

/// How a fetch converts channels (`cudaTextureReadMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReadMode {
    /// `cudaReadModeElementType`: the channel's value (floats as floats, integers as integers).
    ElementType,
    /// `cudaReadModeNormalizedFloat`: 8/16-bit integers mapped to [0, 1] or [-1, 1].
    NormalizedFloat,
}

/// A decoded texel: four channels, each the 32-bit word a fetch returns for it, and whether
/// they are floats (filterable) or integers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Texel {
    /// Channel words (f32 bits or integers).
    pub w: [u32; 4],
}

/// Decodes channel `c` of a texel's bytes.
pub fn channel_word(f: ChannelFormat, read: ReadMode, bytes: &[u8], c: usize) -> u32 {
    let n = f.ty.bytes() as usize;
    let b = &bytes[c * n..c * n + n];
    let raw = match n {
        1 => u32::from(b[0]),
        2 => u32::from(u16::from_le_bytes([b[0], b[1]])),
        _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
    };
    match (f.ty, read) {
        (ChannelType::F32, _) => raw,
        (ChannelType::F16, _) => f16::from_bits(raw as u16).to_f32().to_bits(),
        (ChannelType::U8, ReadMode::NormalizedFloat) => unorm(raw, 255),
        (ChannelType::U16, ReadMode::NormalizedFloat) => unorm(raw, 65535),
        (ChannelType::I8, ReadMode::NormalizedFloat) => snorm(raw as u8 as i8 as i32, 127),
        (ChannelType::I16, ReadMode::NormalizedFloat) => snorm(raw as u16 as i16 as i32, 32767),
        (ChannelType::I8, _) => raw as u8 as i8 as i32 as u32,
        (ChannelType::I16, _) => raw as u16 as i16 as i32 as u32,
        _ => raw,
    }
}

fn unorm(v: u32, max: u32) -> u32 {
    (v as f32 / max as f32).to_bits()
}

fn snorm(v: i32, max: i32) -> u32 {
    (v as f32 / max as f32).max(-1.0).to_bits()
}

/// Whether a fetch of this format and read mode returns floats (and may filter linearly).
pub fn returns_float(f: ChannelFormat, read: ReadMode) -> bool {
    f.ty.is_float() || read == ReadMode::NormalizedFloat
}

/// The texel a fetch returns: present channels decoded, missing ones 0 with the fourth 1
/// (1.0 for float results).
pub fn decode(f: ChannelFormat, read: ReadMode, bytes: &[u8]) -> Texel {
    let one = if returns_float(f, read) {
        1.0f32.to_bits()
    } else {
        1
    };
    let mut w = [0, 0, 0, one];
    for (c, slot) in w.iter_mut().enumerate().take(f.channels as usize) {
        *slot = channel_word(f, read, bytes, c);
    }
    Texel { w }
}
