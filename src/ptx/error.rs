//! Located PTX errors: byte spans while parsing, line and column when reported.
//!
//! Spans are byte offsets. Lines and columns are found through a [`LineIndex`] (the line starts,
//! computed once per source and searched by bisection), so locating any number of instructions
//! costs time linear in the source, not quadratic.

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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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

/// Where each line of a source starts: built once (one pass over the text), then any byte offset
/// is located by bisection.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset of the first byte of each line; `starts[0] == 0`.
    starts: Vec<u32>,
    /// Length of the source in bytes.
    len: u32,
}

impl LineIndex {
    /// The line starts of `src` (offsets past `u32::MAX` are clamped; the parser refuses such
    /// sources).
    pub fn new(src: &str) -> Self {
        let clamp = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        let mut starts = vec![0u32];
        starts.extend(
            src.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| clamp(i + 1)),
        );
        LineIndex {
            starts,
            len: clamp(src.len()),
        }
    }

    /// 1-based line and column (in bytes) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let off = offset.min(self.len);
        // The last line start at or before `off`; `starts[0] == 0` so there is always one.
        let idx = self.starts.partition_point(|&s| s <= off).saturating_sub(1);
        let start = self.starts.get(idx).copied().unwrap_or(0);
        (idx as u32 + 1, off - start + 1)
    }

    /// The text of the 1-based line `line` of `src` (this index's source), without its newline.
    pub fn line_text<'s>(&self, src: &'s str, line: u32) -> &'s str {
        let idx = line.saturating_sub(1) as usize;
        let Some(&start) = self.starts.get(idx) else {
            return "";
        };
        let end = self
            .starts
            .get(idx + 1)
            .map(|&e| e as usize)
            .unwrap_or(src.len());
        let text = src.get(start as usize..end).unwrap_or("");
        text.trim_end_matches('\n').trim_end_matches('\r')
    }
}

/// 1-based line and column of a byte offset. Scans `src` once; to locate many offsets of one
/// source, build a [`LineIndex`] instead.
pub fn line_col(src: &str, offset: u32) -> (u32, u32) {
    LineIndex::new(src).line_col(offset)
}

impl PtxError {
    /// An error at `span` of `src`. Scans `src` once to find the line (an error ends the load,
    /// so this happens once per load); [`PtxError::at_indexed`] reuses a [`LineIndex`].
    pub fn at(src: &str, span: Span, message: impl Into<String>) -> Self {
        Self::at_indexed(src, &LineIndex::new(src), span, message)
    }

    /// An error at `span` of `src`, located through `index`, the [`LineIndex`] of `src`.
    pub fn at_indexed(
        src: &str,
        index: &LineIndex,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        let (line, col) = index.line_col(span.start);
        let text = index.line_text(src, line).to_string();
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

/// Bytes of the offending line shown before and after the column.
const WINDOW_BEFORE: usize = 80;
const WINDOW_AFTER: usize = 120;

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
        // A long line is shown as a window around the column.
        let text = &self.line_text;
        let col = (self.col.saturating_sub(1) as usize).min(text.len());
        let mut from = col.saturating_sub(WINDOW_BEFORE);
        while !text.is_char_boundary(from) {
            from -= 1;
        }
        let mut to = (col + WINDOW_AFTER).min(text.len());
        while !text.is_char_boundary(to) {
            to += 1;
        }
        let (lead, trail) = (
            if from > 0 { "..." } else { "" },
            if to < text.len() { "..." } else { "" },
        );
        writeln!(
            f,
            "{num:>5} | {lead}{}{trail}",
            text[from..to].replace('\t', " ")
        )?;
        let pad = " ".repeat(lead.len() + text[from..col].chars().count());
        let carets = "^".repeat(self.len.min(80) as usize);
        write!(f, "{:>5} | {pad}{carets}", "")
    }
}

impl std::error::Error for PtxError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Line and column by counting from the start: what the index must agree with.
    fn naive(src: &str, off: usize) -> (u32, u32) {
        let before = &src[..off];
        let line = before.matches('\n').count() as u32 + 1;
        let start = before.rfind('\n').map_or(0, |p| p + 1);
        (line, (off - start) as u32 + 1)
    }

    #[test]
    fn line_index_agrees_with_counting_at_every_offset() {
        let src = "\n.version 8.0\r\n\n\tmov.u32 %r1, 2; // é\nlast";
        let idx = LineIndex::new(src);
        for off in (0..=src.len()).filter(|&o| src.is_char_boundary(o)) {
            assert_eq!(idx.line_col(off as u32), naive(src, off), "offset {off}");
        }
        assert_eq!(idx.line_col(10_000), naive(src, src.len()));
        assert_eq!(idx.line_text(src, 2), ".version 8.0");
        assert_eq!(idx.line_text(src, 3), "");
        assert_eq!(idx.line_text(src, 5), "last");
        assert_eq!(idx.line_text(src, 6), "");
    }

    #[test]
    fn a_long_line_is_shown_around_the_column() {
        let line = format!("{}BAD{}", "a".repeat(5000), "b".repeat(5000));
        let src = format!("x\n{line}\n");
        let at = 2 + 5000;
        let e = PtxError::at(&src, Span::new(at, at + 3), "here").to_string();
        assert!(e.starts_with("<ptx>:2:5001: error: here"), "{e}");
        let lines: Vec<&str> = e.lines().collect();
        assert!(lines[1].len() < 250, "{}", lines[1]);
        // The carets stand under BAD.
        let bad = lines[1].find("BAD").unwrap();
        assert_eq!(lines[2].find('^'), Some(bad));
        assert!(lines[2].ends_with("^^^"));
    }
}
