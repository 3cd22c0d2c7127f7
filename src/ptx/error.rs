//! Located PTX errors: byte spans while parsing, line and column when reported.

use std::fmt;

/// A byte range in a PTX source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from byte offsets.
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
}

/// An error in a PTX module, with the position and text of the offending line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxError {
    /// The file, when known (set by the caller that read it).
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// What is wrong.
    pub message: String,
    /// The whole source line.
    pub line_text: String,
    /// Length of the offending text on that line, for the caret.
    pub len: u32,
}

/// 1-based line and column of a byte offset.
pub fn line_col(src: &str, offset: u32) -> (u32, u32) {
    let off = (offset as usize).min(src.len());
    let before = &src[..off];
    let line = before.bytes().filter(|&b| b == b'\n').count() as u32 + 1;
    let line_start = before.rfind('\n').map(|p| p + 1).unwrap_or(0);
    (line, (off - line_start) as u32 + 1)
}

/// The text of the 1-based line `line` of `src`.
pub fn line_text(src: &str, line: u32) -> &str {
    src.lines()
        .nth(line.saturating_sub(1) as usize)
        .unwrap_or("")
}

impl PtxError {
    /// An error at `span` of `src`.
    pub fn at(src: &str, span: Span, message: impl Into<String>) -> Self {
        let (line, col) = line_col(src, span.start);
        let text = line_text(src, line).to_string();
        let len = span.end.saturating_sub(span.start).max(1);
        PtxError {
            file: String::new(),
            line,
            col,
            message: message.into(),
            line_text: text,
            len,
        }
    }

    /// The same error, naming `file`.
    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        self.file = file.into();
        self
    }
}

impl fmt::Display for PtxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = if self.file.is_empty() {
            "<ptx>"
        } else {
            &self.file
        };
        writeln!(
            f,
            "{file}:{}:{}: error: {}",
            self.line, self.col, self.message
        )?;
        let num = self.line.to_string();
        writeln!(f, "{num:>5} | {}", self.line_text.replace('\t', " "))?;
        let pad = " ".repeat(self.col.saturating_sub(1) as usize);
        let carets = "^".repeat(self.len.min(80) as usize);
        write!(f, "{:>5} | {pad}{carets}", "")
    }
}

impl std::error::Error for PtxError {}
