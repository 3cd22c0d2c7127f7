//! PTX parser: tokens to [`Module`] (PTX ISA, chapter 4 "Syntax", chapter 5 "State Spaces,
//! Types, and Variables", chapter 11 "Directives").
//!
//! Nested constructs (brace initializers, vector and argument-list operands) are parsed by
//! recursion, bounded by [`MAX_NESTING`] so that no input can overflow the stack.

use super::ast::*;
use super::error::{PtxError, Span};
use super::lex::{lex, Tok, Token};
use crate::ir::types::ScalarType;

/// How deeply braces (`{ {1, 2}, {3, 4} }`) and operand lists may nest. NVRTC's PTX nests
/// initializers as deep as the C array's dimensions, and operands at most two levels.
pub const MAX_NESTING: usize = 256;

/// Parses a whole PTX module.
pub fn parse(src: &str) -> Result<Module, PtxError> {
    if u32::try_from(src.len()).is_err() {
        return Err(PtxError::at(
            src,
            Span::new(0, 0),
            format!(
                "the PTX text is {} bytes, more than the 4 GiB (u32 byte offsets) the front end addresses",
                src.len()
            ),
        ));
    }
    let toks = lex(src)?;
    let mut p = Parser {
        src,
        toks,
        pos: 0,
        depth: 0,
    };
    p.module()
}

struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    /// Current nesting depth of initializers and operands.
    depth: usize,
}

const PERF_DIRECTIVES: &[&str] = &[
    ".maxntid",
    ".reqntid",
    ".minnctapersm",
    ".maxnctapersm",
    ".maxnreg",
    ".noreturn",
    ".pragma",
    ".explicitcluster",
    ".reqnctapercluster",
    ".maxclusterrank",
    ".blocksareclusters",
];

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }
    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.pos + k).map(|t| &t.tok)
    }
    fn span(&self) -> Span {
        match self.toks.get(self.pos) {
            Some(t) => t.span,
            None => Span::new(self.src.len(), self.src.len()),
        }
    }
    fn err<T>(&self, msg: impl Into<String>) -> Result<T, PtxError> {
        Err(PtxError::at(self.src, self.span(), msg))
    }
    fn err_at<T>(&self, span: Span, msg: impl Into<String>) -> Result<T, PtxError> {
        Err(PtxError::at(self.src, span, msg))
    }
    fn next(&mut self) -> Option<Token> {
        let t = self.toks.get(self.pos).cloned();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }
    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }
    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect_punct(&mut self, c: char) -> Result<(), PtxError> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            let found = self.describe();
            self.err(format!("expected '{c}', found {found}"))
        }
    }
    fn describe(&self) -> String {
        match self.peek() {
            None => "end of file".to_string(),
            Some(Tok::Word(w)) => format!("'{w}'"),
            Some(Tok::Str(s)) => format!("\"{s}\""),
            Some(Tok::Punct(c)) => format!("'{c}'"),
        }
    }
    fn word(&mut self) -> Result<String, PtxError> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.pos += 1;
                Ok(w)
            }
            _ => {
                let found = self.describe();
                self.err(format!("expected a name, found {found}"))
            }
        }
    }
    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(x)) if x == w)
    }
    fn number(&mut self) -> Result<u64, PtxError> {
        let span = self.span();
        let neg = self.eat_punct('-');
        let w = self.word()?;
        match parse_int(&w) {
            Some(v) => Ok(if neg {
                (v as i64).wrapping_neg() as u64
            } else {
                v
            }),
            None => self.err_at(span, format!("expected a number, found '{w}'")),
        }
    }
    /// Enters one level of nesting at the current token (`what` names the construct).
    fn enter(&mut self, what: &str) -> Result<(), PtxError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return self.err(format!(
                "{what} nested more than {MAX_NESTING} levels deep (the front end's nesting limit)"
            ));
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
    /// `.align N`: a power of two (PTX ISA 5.4.5 "Variable and Parameter Attributes").
    fn alignment(&mut self) -> Result<u32, PtxError> {
        let span = self.span();
        let a = self.number()?;
        match u32::try_from(a) {
            Ok(a) if a.is_power_of_two() => Ok(a),
            _ => self.err_at(
                span,
                format!(".align needs a power of two below 2^32, found {a}"),
            ),
        }
    }
    fn skip_rest_of_line(&mut self) {
        while let (Some(prev), Some(next)) = (
            self.toks.get(self.pos.wrapping_sub(1)),
            self.toks.get(self.pos),
        ) {
            if self.src[prev.span.end as usize..next.span.start as usize].contains('\n') {
                break;
            }
            self.pos += 1;
        }
    }
    /// The rest of a `.loc` line: its `inlined_at file line col`, if any (anything else, such as
    /// `function_name`, is skipped).
    fn loc_inlined_at(&mut self) -> Option<(u32, u32, u32)> {
        let start = self.pos;
        self.skip_rest_of_line();
        let end = self.pos;
        let toks = &self.toks[start..end];
        let at = toks
            .iter()
            .position(|t| matches!(&t.tok, Tok::Word(w) if w == "inlined_at"))?;
        let num = |k: usize| match toks.get(at + k).map(|t| &t.tok) {
            Some(Tok::Word(w)) => w.parse::<u32>().ok(),
            _ => None,
        };
        Some((num(1)?, num(2)?, num(3)?))
    }
    fn skip_to_semicolon(&mut self) {
        while let Some(t) = self.next() {
            if t.tok == Tok::Punct(';') {
                break;
            }
        }
    }

    fn module(&mut self) -> Result<Module, PtxError> {
        let mut m = Module::default();
        while let Some(tok) = self.peek().cloned() {
            let span = self.span();
            match tok {
                Tok::Word(w) => match w.as_str() {
                    ".version" => {
                        self.pos += 1;
                        m.version = self.word()?;
                    }
                    ".target" => {
                        self.pos += 1;
                        m.target.push(self.word()?);
                        while self.eat_punct(',') {
                            m.target.push(self.word()?);
                        }
                    }
                    ".address_size" => {
                        self.pos += 1;
                        m.address_size = self.number()? as u32;
                    }
                    ".file" => {
                        self.pos += 1;
                        let idx = self.number()? as u32;
                        let path = match self.next().map(|t| t.tok) {
                            Some(Tok::Str(s)) => s,
                            _ => return self.err_at(span, ".file needs a quoted path"),
                        };
                        while self.eat_punct(',') {
                            self.number()?;
                        }
                        m.files.push((idx, path));
                    }
                    ".pragma" => {
                        self.pos += 1;
                        self.skip_to_semicolon();
                    }
                    ".section" => {
                        // DWARF sections (`.section .debug_str { ... }`): not executable.
                        self.pos += 1;
                        self.word()?;
                        self.expect_punct('{')?;
                        let mut depth = 1;
                        while depth > 0 {
                            match self.next().map(|t| t.tok) {
                                Some(Tok::Punct('{')) => depth += 1,
                                Some(Tok::Punct('}')) => depth -= 1,
                                Some(_) => {}
                                None => return self.err_at(span, "unterminated .section"),
                            }
                        }
                    }
                    _ => self.top_level(&mut m)?,
                },
                _ => {
                    let found = self.describe();
                    return self.err(format!("unexpected {found} at module scope"));
                }
            }
        }
        Ok(m)
    }

    fn top_level(&mut self, m: &mut Module) -> Result<(), PtxError> {
        // Linking directives, then a declaration or a function.
        let mut is_extern = false;
        loop {
            if self.is_word(".visible") || self.is_word(".weak") || self.is_word(".common") {
                self.pos += 1;
            } else if self.is_word(".extern") {
                is_extern = true;
                self.pos += 1;
            } else {
                break;
            }
        }
        if self.is_word(".entry") || self.is_word(".func") {
            let f = self.function()?;
            m.functions.push(f);
            return Ok(());
        }
        let mut d = self.var_decl()?;
        d.is_extern |= is_extern;
        m.vars.push(d);
        self.expect_punct(';')
    }

    fn function(&mut self) -> Result<Function, PtxError> {
        let is_entry = self.word()? == ".entry";
        let mut returns = Vec::new();
        if !is_entry && self.eat_punct('(') {
            returns = self.param_list()?;
        }
        let span = self.span();
        let name = self.word()?;
        let mut params = Vec::new();
        if self.eat_punct('(') {
            params = self.param_list()?;
        }
        let mut directives = Vec::new();
        while let Some(Tok::Word(w)) = self.peek() {
            if !PERF_DIRECTIVES.contains(&w.as_str()) {
                break;
            }
            let d = w.clone();
            self.pos += 1;
            let mut vals = Vec::new();
            if d == ".pragma" {
                if let Some(Tok::Str(_)) = self.peek() {
                    self.pos += 1;
                }
                self.eat_punct(';');
            } else if d != ".noreturn" {
                vals.push(self.number()?);
                while self.eat_punct(',') {
                    vals.push(self.number()?);
                }
            }
            directives.push((d, vals));
        }
        if self.eat_punct(';') {
            return Ok(Function {
                is_entry,
                name,
                returns,
                params,
                body: None,
                directives,
                span,
            });
        }
        self.expect_punct('{')?;
        let body = self.body()?;
        Ok(Function {
            is_entry,
            name,
            returns,
            params,
            body: Some(body),
            directives,
            span,
        })
    }

    fn param_list(&mut self) -> Result<Vec<VarDecl>, PtxError> {
        let mut v = Vec::new();
        if self.eat_punct(')') {
            return Ok(v);
        }
        loop {
            v.push(self.var_decl()?);
            if self.eat_punct(')') {
                return Ok(v);
            }
            self.expect_punct(',')?;
        }
    }

    /// `.space [.align N] [.vN] .type name[dims] [= init]` without the trailing `;`.
    fn var_decl(&mut self) -> Result<VarDecl, PtxError> {
        let span = self.span();
        let mut is_extern = false;
        if self.is_word(".extern") {
            is_extern = true;
            self.pos += 1;
        }
        let sw = self.word()?;
        let space = match sw.as_str() {
            ".reg" => DeclSpace::Reg,
            ".global" => DeclSpace::Global,
            ".shared" => DeclSpace::Shared,
            ".const" => DeclSpace::Const,
            ".local" => DeclSpace::Local,
            ".param" => DeclSpace::Param,
            _ => return self.err_at(span, format!("unknown directive or state space '{sw}'")),
        };
        let mut align = None;
        let mut vector = None;
        let mut ty = None;
        while let Some(Tok::Word(w)) = self.peek().cloned() {
            if w == ".align" {
                self.pos += 1;
                align = Some(self.alignment()?);
            } else if w == ".v2" || w == ".v4" || w == ".v8" {
                self.pos += 1;
                vector = Some(w[2..].parse().unwrap_or(1));
            } else if w == ".ptr"
                || w == ".global"
                || w == ".shared"
                || w == ".const"
                || w == ".local"
            {
                // `.param .u64 .ptr .global .align 8 p` (kernel pointer attributes)
                self.pos += 1;
            } else if let Some(t) = w.strip_prefix('.').and_then(ScalarType::from_suffix) {
                self.pos += 1;
                ty = Some(t);
            } else {
                break;
            }
        }
        let Some(ty) = ty else {
            return self.err("expected a type such as .u32 or .b8 in this declaration");
        };
        let name = self.word()?;
        let mut range = None;
        if self.eat_punct('<') {
            range = Some(self.number()?);
            self.expect_punct('>')?;
        }
        let mut dims = Vec::new();
        while self.eat_punct('[') {
            if self.eat_punct(']') {
                dims.push(None);
            } else {
                dims.push(Some(self.number()?));
                self.expect_punct(']')?;
            }
        }
        let mut init = Vec::new();
        if self.eat_punct('=') {
            self.initializer(ty, &mut init)?;
        }
        Ok(VarDecl {
            space,
            align,
            vector,
            ty,
            name,
            dims,
            is_extern,
            init,
            range,
            span,
        })
    }

    fn initializer(&mut self, ty: ScalarType, out: &mut Vec<InitValue>) -> Result<(), PtxError> {
        if self.is_punct('{') {
            self.enter("initializer")?;
            self.pos += 1;
            if !self.eat_punct('}') {
                loop {
                    self.initializer(ty, out)?;
                    if self.eat_punct('}') {
                        break;
                    }
                    self.expect_punct(',')?;
                }
            }
            self.leave();
            return Ok(());
        }
        let span = self.span();
        let neg = self.eat_punct('-');
        let w = self.word()?;
        if w == "generic" {
            self.expect_punct('(')?;
            let s = self.word()?;
            self.expect_punct(')')?;
            let off = if self.eat_punct('+') {
                self.number()? as i64
            } else {
                0
            };
            out.push(InitValue::Symbol(s, off));
            return Ok(());
        }
        if let Some(v) = parse_literal(&w, ty) {
            let v = if neg { negate(v, ty) } else { v };
            out.push(InitValue::Bits(v));
            return Ok(());
        }
        if w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$') {
            let off = if self.eat_punct('+') {
                self.number()? as i64
            } else {
                0
            };
            out.push(InitValue::Symbol(w, off));
            return Ok(());
        }
        self.err_at(span, format!("bad initializer '{w}'"))
    }

    fn body(&mut self) -> Result<Vec<Statement>, PtxError> {
        let mut out = Vec::new();
        let mut depth = 1;
        loop {
            let span = self.span();
            let Some(tok) = self.peek().cloned() else {
                return self.err("missing '}' at the end of this function");
            };
            match tok {
                Tok::Punct('{') => {
                    self.pos += 1;
                    depth += 1;
                    out.push(Statement::Open);
                }
                Tok::Punct('}') => {
                    self.pos += 1;
                    depth -= 1;
                    if depth == 0 {
                        return Ok(out);
                    }
                    out.push(Statement::Close);
                }
                Tok::Punct('@') => out.push(self.statement_instruction()),
                Tok::Word(w) => {
                    if self.peek_at(1) == Some(&Tok::Punct(':')) && !w.starts_with('.') {
                        self.pos += 2;
                        out.push(Statement::Label(w, span));
                    } else if w == ".loc" {
                        self.pos += 1;
                        let file = self.number()? as u32;
                        let line = self.number()? as u32;
                        let col = self.number()? as u32;
                        // `.loc 1 2 3, function_name label, inlined_at 1 2 3`: the rest of
                        // the line describes inlining; only the call site is kept.
                        let inlined_at = self.loc_inlined_at();
                        out.push(Statement::Loc {
                            file,
                            line,
                            col,
                            inlined_at,
                        });
                    } else if w == ".pragma" || w == ".section" {
                        self.pos += 1;
                        self.skip_to_semicolon();
                    } else if matches!(
                        w.as_str(),
                        ".reg" | ".local" | ".shared" | ".param" | ".const" | ".global" | ".extern"
                    ) {
                        let d = self.var_decl()?;
                        let mut decls = vec![d];
                        while self.eat_punct(',') {
                            // `.reg .b32 %a, %b;`
                            let mut d2 = decls[0].clone();
                            d2.span = self.span();
                            d2.name = self.word()?;
                            d2.range = None;
                            if self.eat_punct('<') {
                                d2.range = Some(self.number()?);
                                self.expect_punct('>')?;
                            }
                            decls.push(d2);
                        }
                        self.expect_punct(';')?;
                        out.extend(decls.into_iter().map(Statement::Decl));
                    } else if w.starts_with('.') {
                        return self.err_at(span, format!("unknown directive '{w}'"));
                    } else {
                        out.push(self.statement_instruction());
                    }
                }
                Tok::Punct(';') => {
                    self.pos += 1;
                }
                _ => {
                    let found = self.describe();
                    return self.err(format!("unexpected {found} in function body"));
                }
            }
        }
    }

    /// An instruction, or the error that kept it from parsing with the rest of it skipped (up
    /// to its `;`, or to a `}` that closes the function, which is left for the caller).
    fn statement_instruction(&mut self) -> Statement {
        let start = self.pos;
        match self.instruction() {
            Ok(i) => Statement::Instr(i),
            Err(e) => {
                self.depth = 0;
                self.pos = start;
                let mut braces = 0usize;
                while let Some(t) = self.peek().cloned() {
                    match t {
                        Tok::Punct(';') => {
                            self.pos += 1;
                            break;
                        }
                        Tok::Punct('{') => braces += 1,
                        Tok::Punct('}') if braces == 0 => break,
                        Tok::Punct('}') => braces -= 1,
                        _ => {}
                    }
                    self.pos += 1;
                }
                if self.pos == start {
                    // Nothing consumed: step over the offending token so the body loop ends.
                    self.pos += 1;
                }
                Statement::Bad(e)
            }
        }
    }

    fn instruction(&mut self) -> Result<Instruction, PtxError> {
        let start = self.span();
        let mut guard = None;
        if self.eat_punct('@') {
            let neg = self.eat_punct('!');
            guard = Some((neg, self.word()?));
        }
        let w = self.word()?;
        let mut parts = w.split('.');
        let opcode = parts.next().unwrap_or("").to_string();
        let mods: Vec<String> = parts.map(|s| s.to_string()).collect();
        if mods.iter().any(|m| m.is_empty()) {
            return self.err_at(start, format!("malformed instruction name '{w}'"));
        }
        let mut operands = Vec::new();
        if !self.is_punct(';') {
            loop {
                operands.push(self.operand()?);
                if self.eat_punct(',') {
                    continue;
                }
                break;
            }
        }
        if !self.is_punct(';') {
            let found = self.describe();
            return self.err(format!(
                "expected ';' after the operands of '{w}', found {found}"
            ));
        }
        let end = self.span().end;
        self.pos += 1;
        Ok(Instruction {
            guard,
            opcode,
            mods,
            operands,
            span: Span {
                start: start.start,
                end,
            },
        })
    }

    fn operand(&mut self) -> Result<Operand, PtxError> {
        let span = self.span();
        if self.eat_punct('[') {
            if matches!(self.peek(), Some(Tok::Word(_)))
                && self.peek_at(1) == Some(&Tok::Punct(','))
            {
                // `[tex, {x, y}]`, `[tex, sampler, {x}]` (PTX ISA 9.7.10.3 "tex").
                self.enter("operand")?;
                let mut v = Vec::new();
                loop {
                    v.push(self.operand()?);
                    if self.eat_punct(']') {
                        break;
                    }
                    self.expect_punct(',')?;
                }
                self.leave();
                return Ok(Operand::TexRef(v));
            }
            let mut base = None;
            let mut off: i64 = 0;
            if let Some(Tok::Word(w)) = self.peek().cloned() {
                if parse_int(&w).is_some() {
                    off = self.number()? as i64;
                } else {
                    self.pos += 1;
                    base = Some(w);
                }
            } else if self.is_punct('-') {
                off = self.number()? as i64;
            }
            while self.is_punct('+') || self.is_punct('-') {
                let neg = self.is_punct('-');
                self.pos += 1;
                let v = self.number()? as i64;
                off = if neg {
                    off.wrapping_sub(v)
                } else {
                    off.wrapping_add(v)
                };
            }
            self.expect_punct(']')?;
            return Ok(Operand::Address(base, off));
        }
        for (open, close) in [('{', '}'), ('(', ')')] {
            if !self.is_punct(open) {
                continue;
            }
            self.enter("operand")?;
            self.pos += 1;
            let mut v = Vec::new();
            if !self.eat_punct(close) {
                loop {
                    v.push(self.operand()?);
                    if self.eat_punct(close) {
                        break;
                    }
                    self.expect_punct(',')?;
                }
            }
            self.leave();
            if open == '{' && self.eat_punct('|') {
                return Ok(Operand::VectorPair(v, self.word()?));
            }
            return Ok(if open == '{' {
                Operand::Vector(v)
            } else {
                Operand::List(v)
            });
        }
        if self.eat_punct('!') {
            return Ok(Operand::Not(self.word()?));
        }
        if self.is_punct('-') {
            self.pos += 1;
            let w = self.word()?;
            return match parse_number_operand(&w) {
                Some(Operand::Int(v)) => Ok(Operand::Int(v.wrapping_neg())),
                Some(Operand::F32(b)) => Ok(Operand::F32(b ^ 0x8000_0000)),
                Some(Operand::F64(b)) => Ok(Operand::F64(b ^ (1 << 63))),
                _ => self.err_at(span, format!("bad number '-{w}'")),
            };
        }
        let w = self.word()?;
        if let Some(op) = parse_number_operand(&w) {
            return Ok(op);
        }
        if self.eat_punct('|') {
            let p = self.word()?;
            return Ok(Operand::Pair(w, p));
        }
        if self.is_punct('+') && !w.starts_with('%') {
            self.pos += 1;
            let off = self.number()? as i64;
            return Ok(Operand::SymOffset(w, off));
        }
        Ok(Operand::Name(w))
    }
}

/// Parses a PTX integer literal: decimal, `0x` hex, `0b` binary, octal with a leading 0, and an
/// optional `U` suffix.
pub fn parse_int(w: &str) -> Option<u64> {
    let w = w.strip_suffix('U').unwrap_or(w);
    if let Some(h) = w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = w.strip_prefix("0b").or_else(|| w.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()
    } else if w.len() > 1 && w.starts_with('0') && w.bytes().all(|c| c.is_ascii_digit()) {
        u64::from_str_radix(&w[1..], 8).ok()
    } else if !w.is_empty() && w.bytes().all(|c| c.is_ascii_digit()) {
        w.parse().ok()
    } else {
        None
    }
}

fn parse_number_operand(w: &str) -> Option<Operand> {
    let first = w.as_bytes().first()?;
    if !first.is_ascii_digit() {
        return None;
    }
    if let Some(h) = w.strip_prefix("0f").or_else(|| w.strip_prefix("0F")) {
        if h.len() == 8 {
            return u32::from_str_radix(h, 16).ok().map(Operand::F32);
        }
    }
    if let Some(h) = w.strip_prefix("0d").or_else(|| w.strip_prefix("0D")) {
        if h.len() == 16 {
            return u64::from_str_radix(h, 16).ok().map(Operand::F64);
        }
    }
    if let Some(v) = parse_int(w) {
        return Some(Operand::Int(v as i64));
    }
    // Decimal float literal: PTX treats it as f64.
    w.parse::<f64>().ok().map(|f| Operand::F64(f.to_bits()))
}

fn parse_literal(w: &str, ty: ScalarType) -> Option<u64> {
    match parse_number_operand(w)? {
        Operand::Int(v) => Some(match ty {
            ScalarType::F32 => (v as f32).to_bits() as u64,
            ScalarType::F64 => (v as f64).to_bits(),
            _ => v as u64,
        }),
        Operand::F32(b) => Some(match ty {
            ScalarType::F64 => (f32::from_bits(b) as f64).to_bits(),
            _ => b as u64,
        }),
        Operand::F64(b) => Some(match ty {
            ScalarType::F32 => (f64::from_bits(b) as f32).to_bits() as u64,
            _ => b,
        }),
        _ => None,
    }
}

fn negate(v: u64, ty: ScalarType) -> u64 {
    match ty {
        ScalarType::F32 => v ^ 0x8000_0000,
        ScalarType::F64 => v ^ (1 << 63),
        _ => (v as i64).wrapping_neg() as u64,
    }
}
