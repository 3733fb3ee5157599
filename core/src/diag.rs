//! Diagnostics: what is wrong in a variant, and where.
//!
//! Every error a variant can cause names a file, a line and a column (the
//! column is 0 when the source cannot tell, as for Lua errors). Errors found
//! after parsing (a dangling exit, an unknown name) are placed by searching the
//! file's text for the entity and the offending value, so that an editor can
//! jump to them.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// One error in a variant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl Diagnostic {
    /// An error about a whole file (line 1, column 1).
    pub fn file(path: &Path, message: impl Into<String>) -> Self {
        Diagnostic {
            file: path.display().to_string(),
            line: 1,
            column: 1,
            message: message.into(),
        }
    }
}

/// An index into [`Sources`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FileId(pub usize);

/// A file read while loading a variant.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
}

impl SourceFile {
    /// The 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        (line, column)
    }

    /// The place of `anchors` found one after another (each searched from
    /// where the previous one was found, as whole words). When an anchor is
    /// missing, the place of the last one found; the file's start if none.
    ///
    /// ```
    /// use titan_core::diag::SourceFile;
    /// let f = SourceFile { path: "b.ron".into(), text: "(number: 15, x: 1)\n(number: 1, to: 99)".into() };
    /// assert_eq!(f.locate(&["number: 1", "99"]), (2, 17));
    /// ```
    pub fn locate(&self, anchors: &[&str]) -> (usize, usize) {
        let mut from = 0;
        let mut found = None;
        for anchor in anchors {
            match find_word(&self.text, anchor, from) {
                Some(at) => {
                    found = Some(at);
                    from = at + anchor.len();
                }
                None => break,
            }
        }
        found.map_or((1, 1), |at| self.line_col(at))
    }
}

/// The first occurrence of `needle` at or after `from` that is not part of a
/// longer word or number (so `number: 1` does not match `number: 15`).
fn find_word(text: &str, needle: &str, from: usize) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut start = from;
    while start <= text.len() {
        let at = start + text.get(start..)?.find(needle)?;
        let end = at + needle.len();
        let before_ok = !needle.starts_with(is_word)
            || text[..at].chars().next_back().is_none_or(|c| !is_word(c));
        let after_ok =
            !needle.ends_with(is_word) || text[end..].chars().next().is_none_or(|c| !is_word(c));
        if before_ok && after_ok {
            return Some(at);
        }
        start = at + needle.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// The files read while loading a variant and its bases.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
    /// The folders the variant being loaded may read (see `load`).
    pub(crate) roots: Vec<PathBuf>,
}

impl Sources {
    pub fn add(&mut self, path: PathBuf, text: String) -> FileId {
        self.files.push(SourceFile { path, text });
        FileId(self.files.len() - 1)
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0]
    }

    /// Every file read, in the order read (a variant's manifest before its
    /// base's).
    pub fn files(&self) -> impl Iterator<Item = &SourceFile> {
        self.files.iter()
    }

    /// A diagnostic placed at `anchors` in file `id`.
    pub fn at(&self, id: FileId, anchors: &[&str], message: impl Into<String>) -> Diagnostic {
        let file = self.get(id);
        let (line, column) = file.locate(anchors);
        Diagnostic {
            file: file.path.display().to_string(),
            line,
            column,
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SourceFile {
        SourceFile {
            path: "x.ron".into(),
            text: text.into(),
        }
    }

    #[test]
    fn line_and_column_are_one_based() {
        let f = file("ab\ncdé\nf");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(f.text.find('f').unwrap()), (3, 1));
        assert_eq!(f.line_col(999), (3, 2));
    }

    #[test]
    fn anchors_match_whole_words_in_order() {
        let f = file("(number: 10, to: 1)\n(number: 1, to: 10)");
        assert_eq!(f.locate(&["number: 1", "10"]), (2, 17));
        assert_eq!(f.locate(&["number: 1", "missing"]), (2, 2));
        assert_eq!(f.locate(&["missing"]), (1, 1));
        assert_eq!(f.locate(&["\"absent\""]), (1, 1));
    }
}
