//! The PTX syntax tree: what the text says, before any meaning is given to it.

use super::error::Span;
use crate::ir::types::ScalarType;

/// A PTX state space as written on a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclSpace {
    /// `.reg`
    Reg,
    /// `.global`
    Global,
    /// `.shared`
    Shared,
    /// `.const`
    Const,
    /// `.local`
    Local,
    /// `.param`
    Param,
}

/// A variable declaration (`.shared .align 4 .b8 tile[4224];`).
#[derive(Clone, Debug)]
pub struct VarDecl {
    /// Its state space.
    pub space: DeclSpace,
    /// `.align N`, if written.
    pub align: Option<u32>,
    /// `.v2`/`.v4`, if written.
    pub vector: Option<u32>,
    /// Element type.
    pub ty: ScalarType,
    /// Name.
    pub name: String,
    /// Array dimensions; `None` for `[]` (an extern, unsized array).
    pub dims: Vec<Option<u64>>,
    /// `.extern`.
    pub is_extern: bool,
    /// Initializer values, flattened.
    pub init: Vec<InitValue>,
    /// `%r<36>`: a parameterized register range of this many.
    pub range: Option<u64>,
    /// Where it stands.
    pub span: Span,
}

impl VarDecl {
    /// Element count (1 for a scalar; 0 for an unsized extern array); `None` when the product
    /// of the dimensions does not fit in 64 bits.
    pub fn elements(&self) -> Option<u64> {
        let mut n = self.vector.unwrap_or(1) as u64;
        for d in &self.dims {
            n = n.checked_mul(d.unwrap_or(0))?;
        }
        Some(n)
    }

    /// Size in bytes (elements times the element size); `None` when it does not fit in 64 bits.
    pub fn bytes(&self) -> Option<u64> {
        self.elements()?.checked_mul(self.ty.size() as u64)
    }
}

/// One initializer element.
#[derive(Clone, Debug, PartialEq)]
pub enum InitValue {
    /// An integer or a float's bits.
    Bits(u64),
    /// The address of a symbol (`generic(sym)` or `sym`), plus an offset.
    Symbol(String, i64),
}

/// An operand as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A register or symbol name (`%r1`, `%tid.x`, `c_tab`, `$L__BB0_3`).
    Name(String),
    /// `!%p1` (negated predicate source).
    Not(String),
    /// An integer literal.
    Int(i64),
    /// `0fXXXXXXXX`: f32 bits.
    F32(u32),
    /// `0dXXXXXXXXXXXXXXXX`: f64 bits.
    F64(u64),
    /// `name+offset` outside brackets (`mov.u64 %rd1, tab+16`).
    SymOffset(String, i64),
    /// `[base+offset]`, `[offset]`.
    Address(Option<String>, i64),
    /// `{a, b, c, d}`; `_` is written as `Name("_")`.
    Vector(Vec<Operand>),
    /// `%r1|%p1`: a destination pair.
    Pair(String, String),
    /// `{a, b, c, d}|%p1`: a vector destination and a predicate (`tex`'s `d|p`).
    VectorPair(Vec<Operand>, String),
    /// `(a, b)`: an argument list of `call`.
    List(Vec<Operand>),
    /// `[tex, {x, y}]`, `[tex, sampler, {x, y}]`: the texture or surface reference and
    /// coordinates of `tex`, `tld4`, `suld` and `sust`.
    TexRef(Vec<Operand>),
}

/// An instruction as written.
#[derive(Clone, Debug)]
pub struct Instruction {
    /// `@%p` (false) or `@!%p` (true).
    pub guard: Option<(bool, String)>,
    /// Opcode, first word before the first dot (`ld`).
    pub opcode: String,
    /// Modifiers without dots (`["global", "v4", "f32"]`).
    pub mods: Vec<String>,
    /// Operands in order.
    pub operands: Vec<Operand>,
    /// Where the whole instruction stands.
    pub span: Span,
}

/// A statement of a function body.
#[derive(Clone, Debug)]
pub enum Statement {
    /// A variable or register declaration.
    Decl(VarDecl),
    /// `name:`
    Label(String, Span),
    /// An instruction.
    Instr(Instruction),
    /// `.loc file line col`.
    Loc {
        /// File index from `.file`.
        file: u32,
        /// Source line (0: none).
        line: u32,
        /// Source column.
        col: u32,
        /// `inlined_at file line col`: the call site this location's function was inlined into.
        inlined_at: Option<(u32, u32, u32)>,
    },
    /// `{`: opens a scope (used around calls).
    Open,
    /// `}`
    Close,
    /// An instruction that did not parse: the error, kept so that only the kernels that
    /// contain it (or call a function that does) are set aside, reported when launched.
    Bad(super::error::PtxError),
}

/// A `.entry` or `.func`.
#[derive(Clone, Debug)]
pub struct Function {
    /// `.entry` (a kernel) or `.func`.
    pub is_entry: bool,
    /// Name.
    pub name: String,
    /// Return parameters of a `.func`.
    pub returns: Vec<VarDecl>,
    /// Parameters.
    pub params: Vec<VarDecl>,
    /// Body; `None` for a prototype declaration.
    pub body: Option<Vec<Statement>>,
    /// Performance directives (`.maxntid`, `.reqntid`, ...), name and values.
    pub directives: Vec<(String, Vec<u64>)>,
    /// Where the name stands.
    pub span: Span,
}

/// A whole PTX module.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// `.version`.
    pub version: String,
    /// `.target` words.
    pub target: Vec<String>,
    /// `.address_size`.
    pub address_size: u32,
    /// Module-scope variables.
    pub vars: Vec<VarDecl>,
    /// Functions and kernels.
    pub functions: Vec<Function>,
    /// `.file` index to path.
    pub files: Vec<(u32, String)>,
}
