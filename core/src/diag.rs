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

/// A RON parse error as a message: RON's own, and for an error in a value
/// the field being read ("expected an integer for field `max_size`"), when
/// the text before the error shows it (see [`ron_field_at`]).
pub fn ron_message(text: &str, e: &ron::error::SpannedError) -> String {
    use ron::Error as E;
    let what = match &e.code {
        E::ExpectedInteger => "expected an integer".to_string(),
        E::ExpectedBoolean => "expected true or false".to_string(),
        E::ExpectedString => "expected a string in double quotes".to_string(),
        E::ExpectedFloat => "expected a number".to_string(),
        E::ExpectedChar => "expected a character in single quotes".to_string(),
        E::ExpectedArray => "expected a list (opening `[`)".to_string(),
        E::ExpectedMap
        | E::ExpectedOption
        | E::ExpectedStructLike
        | E::ExpectedNamedStructLike(_)
        | E::ExpectedDifferentStructName { .. }
        | E::ExpectedUnit
        | E::ExpectedByteString
        | E::ExpectedIdentifier
        | E::IntegerOutOfBounds
        | E::InvalidIntegerDigit { .. }
        | E::InvalidValueForType { .. }
        | E::ExpectedDifferentLength { .. }
        | E::NoSuchEnumVariant { .. }
        | E::Message(_) => lower_first(&e.code.to_string()),
        // Syntax, and errors that name their field themselves.
        other => return other.to_string(),
    };
    let at = offset_of(text, e.span.start.line, e.span.start.col);
    match ron_field_at(text, at) {
        Some(field) => format!("{what} for field `{field}`"),
        None => what,
    }
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The byte offset of a 1-based line and column (in characters).
fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(i, _)| i + 1)
    };
    text[start..]
        .char_indices()
        .nth(col.saturating_sub(1))
        .map_or(text.len(), |(i, _)| start + i)
}

/// The field whose value a RON text is at `offset`: the last `name:` read
/// at the innermost nesting that has one (a list or tuple is the value of
/// the field around it). None when it is unclear: at a struct's level
/// between its fields (after a comma), or before any field.
pub fn ron_field_at(text: &str, offset: usize) -> Option<String> {
    /// A nesting level: whether it has named fields, and the field whose
    /// value is being read.
    #[derive(Default)]
    struct Level {
        keyed: bool,
        field: Option<String>,
    }
    let bytes = text.as_bytes();
    let end = offset.min(bytes.len());
    let mut levels = vec![Level::default()];
    let mut i = 0;
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < end {
        let b = bytes[i];
        match b {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |n| i + 2 + n + 2);
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'\'' => {
                // A char literal ('a', '\n'); anything else is left alone.
                let close = text[i + 1..]
                    .char_indices()
                    .take(3)
                    .find(|&(n, c)| c == '\'' && n > 0);
                i += close.map_or(1, |(n, _)| n + 2);
            }
            b'r' if matches!(bytes.get(i + 1), Some(b'"' | b'#')) => {
                // A raw string: r"..." or r#"..."#.
                let hashes = bytes[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if bytes.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                let from = i + 2 + hashes;
                i = text[from..]
                    .find(&close)
                    .map_or(bytes.len(), |n| from + n + close.len());
            }
            b'(' | b'[' | b'{' => {
                levels.push(Level::default());
                i += 1;
            }
            b')' | b']' | b'}' => {
                if levels.len() > 1 {
                    levels.pop();
                }
                i += 1;
            }
            b',' => {
                if let Some(l) = levels.last_mut() {
                    l.field = None;
                }
                i += 1;
            }
            _ if b.is_ascii_alphabetic() || b == b'_' => {
                let start = i;
                while i < bytes.len() && ident(bytes[i]) {
                    i += 1;
                }
                let mut j = i;
                while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                    j += 1;
                }
                if bytes.get(j) == Some(&b':') && bytes.get(j + 1) != Some(&b':') && j < end {
                    let l = levels.last_mut().expect("the top level stays");
                    l.keyed = true;
                    l.field = Some(text[start..i].to_string());
                    i = j + 1;
                }
            }
            _ => i += 1,
        }
    }
    for l in levels.iter().rev() {
        if let Some(f) = &l.field {
            return Some(f.clone());
        }
        if l.keyed {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_field_of_a_ron_error_is_the_nearest_name_at_its_nesting() {
        let at = |text: &str| ron_field_at(&text.replace('@', ""), text.find('@').unwrap());
        assert_eq!(at("(a: 1, max_size: @\"x\")").as_deref(), Some("max_size"));
        // In a list or a tuple: the field the list is the value of.
        assert_eq!(
            at("(lands: [(number: 1), @\"x\"])").as_deref(),
            Some("lands")
        );
        assert_eq!(at("(default: Int(@\"x\"))").as_deref(), Some("default"));
        assert_eq!(at("(l: [(number: @true)])").as_deref(), Some("number"));
        // Names in strings and comments are not fields.
        assert_eq!(at("(a: \"b: c\", // d: e\n f: @x)").as_deref(), Some("f"));
        assert_eq!(
            at("(a: r#\"x: \"y\"#, g: /* h: */ @1)").as_deref(),
            Some("g")
        );
        assert_eq!(at("(c: 'x', d: @1)").as_deref(), Some("d"));
        // Unclear: between fields, or before any.
        assert_eq!(at("(a: 1, @b: 2)"), None);
        assert_eq!(at("@(a: 1)"), None);
        assert_eq!(at("[(a: 1), @2]"), None);
    }

    #[test]
    fn ron_messages_name_the_field_of_a_wrong_value() {
        let text = "(\n  name: \"x\",\n  max_size: \"seven\",\n)";
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct S {
            name: String,
            max_size: u8,
        }
        let e = ron::from_str::<S>(text).unwrap_err();
        assert_eq!(
            ron_message(text, &e),
            "expected an integer for field `max_size`"
        );
    }

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
