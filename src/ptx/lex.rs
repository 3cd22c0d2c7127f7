//! PTX lexer: text to tokens with byte spans (PTX ISA, chapter 4 "Syntax").
//!
//! Identifiers keep their dots (`ld.global.v4.f32`, `%tid.x`, `.reg`): the parser splits
//! opcodes into modifiers. Numbers stay text until the parser knows the type they feed.

use super::error::{PtxError, Span};

/// One token kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier, directive, register, opcode or number (`%r1`, `.reg`, `0f3F800000`, `42`).
    Word(String),
    /// A quoted string, without its quotes.
    Str(String),
    /// A single punctuation character: `, ; : { } [ ] ( ) < > + - | ! = @`.
    Punct(char),
}

/// A token and where it stands.
#[derive(Clone, Debug)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Its bytes in the source.
    pub span: Span,
}

fn is_word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'%' | b'.')
}

/// Splits `src` into tokens, dropping comments and whitespace.
pub fn lex(src: &str) -> Result<Vec<Token>, PtxError> {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(src.len() / 4);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let start = i;
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            if i + 1 >= b.len() {
                return Err(PtxError::at(
                    src,
                    Span::new(start, start + 2),
                    "unterminated comment",
                ));
            }
            i += 2;
        } else if c == b'"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += 1;
            }
            if i >= b.len() || b[i] != b'"' {
                return Err(PtxError::at(
                    src,
                    Span::new(start, i),
                    "unterminated string",
                ));
            }
            out.push(Token {
                tok: Tok::Str(src[start + 1..i].to_string()),
                span: Span::new(start, i + 1),
            });
            i += 1;
        } else if is_word_char(c) {
            let start = i;
            // `::` inside a word belongs to it: the state-space qualifiers of Hopper's
            // instructions (`cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes`,
            // PTX ISA 8.0); a label's single `:` does not.
            while i < b.len()
                && (is_word_char(b[i])
                    || (b[i] == b':'
                        && b.get(i + 1) == Some(&b':')
                        && b.get(i + 2).is_some_and(|&c| is_word_char(c))))
            {
                i += if b[i] == b':' { 2 } else { 1 };
            }
            out.push(Token {
                tok: Tok::Word(src[start..i].to_string()),
                span: Span::new(start, i),
            });
        } else if b",;:{}[]()<>+-|!=@".contains(&c) {
            out.push(Token {
                tok: Tok::Punct(c as char),
                span: Span::new(i, i + 1),
            });
            i += 1;
        } else {
            let ch = src[i..].chars().next().unwrap_or('?');
            return Err(PtxError::at(
                src,
                Span::new(i, i + ch.len_utf8()),
                format!("unexpected character '{ch}'"),
            ));
        }
    }
    Ok(out)
}
