//! Exports of a launch spec to other forms: today a standalone CUDA host program
//! ([`cuda::cuda_host_program_ptx`]) that runs the same PTX with the same launches on a real GPU
//! with the same input bytes, so its outputs and Nsight Compute metrics can be compared with the
//! simulator's.

pub mod cuda;

use std::fmt;

/// The type of one kernel parameter as the PTX `.entry` declares it, which decides how a spec
/// argument is passed (PTX ISA, section 5.1.6 "Parameter State Space": kernel parameters are
/// `.param` variables of a fundamental type, or byte arrays for aggregates). PTX declares
/// pointers as `.u64` and C `int` as `.u32`, so the export accepts a buffer for `U64` and
/// any integer that fits the width, signed or unsigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamKind {
    /// A pointer (`.u64` holding a device address): takes a buffer name.
    Pointer,
    /// `.u8` / `.b8`.
    U8,
    /// `.u16` / `.b16`.
    U16,
    /// `.u32` / `.b32`.
    U32,
    /// `.u64` / `.b64` used as an integer.
    U64,
    /// `.s8`.
    I8,
    /// `.s16`.
    I16,
    /// `.s32`.
    I32,
    /// `.s64`.
    I64,
    /// `.f32`.
    F32,
    /// `.f64`.
    F64,
    /// Anything else (a struct passed by value, `.align N .b8 p[bytes]`): its size in bytes.
    Other(u32),
}

impl fmt::Display for ParamKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamKind::Pointer => f.write_str("pointer"),
            ParamKind::U8 => f.write_str("u8"),
            ParamKind::U16 => f.write_str("u16"),
            ParamKind::U32 => f.write_str("u32"),
            ParamKind::U64 => f.write_str("u64"),
            ParamKind::I8 => f.write_str("i8"),
            ParamKind::I16 => f.write_str("i16"),
            ParamKind::I32 => f.write_str("i32"),
            ParamKind::I64 => f.write_str("i64"),
            ParamKind::F32 => f.write_str("f32"),
            ParamKind::F64 => f.write_str("f64"),
            ParamKind::Other(n) => write!(f, "{n}-byte aggregate"),
        }
    }
}

/// Why a spec could not be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The spec has no CUDA C `source` to `#include` (only `ptx`).
    #[error("{file}: source: the CUDA export needs a CUDA C `source` to include")]
    NoSource {
        /// The spec file.
        file: String,
    },
    /// `kernel_params` does not have one entry per launch.
    #[error("{file}: {launches} launches but parameter lists for {given}")]
    ParamLists {
        /// The spec file.
        file: String,
        /// `[[launch]]` count.
        launches: usize,
        /// Parameter lists given.
        given: usize,
    },
    /// `mangled_names` does not have one entry per launch.
    #[error("{file}: {launches} launches but kernel names for {given}")]
    NameLists {
        /// The spec file.
        file: String,
        /// `[[launch]]` count.
        launches: usize,
        /// Names given.
        given: usize,
    },
    /// A launch's arguments do not fit its kernel's parameters.
    #[error("{file}: {launch} {key}: {message}")]
    Args {
        /// The spec file.
        file: String,
        /// The launch's key: `[[launch]] #2`, `[[step]] #3`.
        launch: String,
        /// `args` or `args[i]`.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// Two outputs would be written to the same file name in the output directory.
    #[error("{file}: [outputs]: {a} and {b} both write {name}")]
    OutputClash {
        /// The spec file.
        file: String,
        /// First buffer.
        a: String,
        /// Second buffer.
        b: String,
        /// The shared file name.
        name: String,
    },
    /// A path cannot be written into the program (not UTF-8, or no file name).
    #[error("{file}: {key}: path {path} cannot be used in the program")]
    Path {
        /// The spec file.
        file: String,
        /// Which key holds it.
        key: String,
        /// The path.
        path: String,
    },
}
