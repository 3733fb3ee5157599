//! Rewriting a RON file by its items, so that a saved edit changes only the
//! lines of what was edited.
//!
//! A variant file is mostly one list (lands, characters, terrains, ...) or
//! map (a battleland's hexes). To write an edited value back, the original
//! text is cut into its items (a small scanner that knows RON's strings,
//! comments and brackets); an item whose value is unchanged keeps its
//! text, byte for byte, comments around it included; a changed item is
//! written on one line in the canonical style (fields left at their
//! default dropped); a deleted one loses its line; a new one is appended
//! after the last, with the same indentation. The result is parsed again
//! and must equal the edited value, or the caller falls back to writing
//! the whole file canonically.

use serde::Serialize;
use serde::de::DeserializeOwned;
use titan_core::load::ron_options;

/// One item of a list or map in the original text.
struct Item<T> {
    /// Byte span of the item (without the separating comma).
    start: usize,
    end: usize,
    key: String,
    value: T,
}

/// Steps over a string literal starting at `i` (a `"`); returns the index
/// after its closing quote.
fn skip_string(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// Steps over whitespace and comments from `i`.
fn skip_blank(b: &[u8], mut i: usize) -> usize {
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            match find(b, i + 2, b"*/") {
                Some(end) => i = end + 2,
                None => return b.len(),
            }
        } else {
            return i;
        }
    }
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    (from..b.len()).find(|&i| b[i..].starts_with(needle))
}

/// The spans of the items of the list or map whose opening bracket is at
/// `open`, and the index of its closing bracket.
fn split(text: &str, open: usize) -> Option<(Vec<(usize, usize)>, usize)> {
    let b = text.as_bytes();
    let mut items = Vec::new();
    let mut i = open + 1;
    loop {
        i = skip_blank(b, i);
        if i >= b.len() {
            return None;
        }
        if matches!(b[i], b']' | b'}' | b')') {
            return Some((items, i));
        }
        let start = i;
        let mut depth = 0usize;
        let mut last = i; // end of the last non-blank byte of the item
        loop {
            if i >= b.len() {
                return None;
            }
            match b[i] {
                b'"' => {
                    i = skip_string(b, i);
                    last = i;
                    continue;
                }
                b'/' if b[i..].starts_with(b"//") || b[i..].starts_with(b"/*") => {
                    i = skip_blank(b, i);
                    continue;
                }
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' if depth == 0 => break,
                b')' | b']' | b'}' => depth -= 1,
                b',' if depth == 0 => break,
                c if c.is_ascii_whitespace() => {
                    i += 1;
                    continue;
                }
                _ => {}
            }
            i += 1;
            last = i;
        }
        items.push((start, last));
        if b[i] == b',' {
            i += 1;
        }
    }
}

/// Where the value of field `field` of the file's top-level struct starts.
pub fn field_value(text: &str, field: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = skip_blank(b, 0);
    if b.get(i) != Some(&b'(') {
        return None;
    }
    i += 1;
    let mut depth = 1usize;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = skip_string(b, i);
                continue;
            }
            b'/' if b[i..].starts_with(b"//") || b[i..].starts_with(b"/*") => {
                i = skip_blank(b, i);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.checked_sub(1)?,
            c if depth == 1 && (c.is_ascii_alphabetic() || c == b'_') => {
                let end = (i..b.len())
                    .find(|&j| !(b[j].is_ascii_alphanumeric() || b[j] == b'_'))
                    .unwrap_or(b.len());
                let after = skip_blank(b, end);
                if &text[i..end] == field && b.get(after) == Some(&b':') {
                    return Some(skip_blank(b, after + 1));
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The top-level fields of a struct's text, by name, each with the text
/// of its value.
pub fn split_fields(text: &str) -> Option<Vec<(String, String)>> {
    let (spans, _) = split(text, top_value(text))?;
    spans
        .into_iter()
        .map(|(start, end)| {
            let item = &text[start..end];
            let colon = item.find(':')?;
            Some((
                item[..colon].trim().to_string(),
                item[colon + 1..].trim().to_string(),
            ))
        })
        .collect()
}

/// The longest line a written field keeps on one line: past it, a struct
/// or list value is opened, a field or item per line, as an author writes
/// a long `files: (...)` or `start: (...)`.
pub const LINE: usize = 100;

/// `name: value` (the value on one line, as [`one_line`] writes it) laid out
/// at `indent`: kept on one line when it fits in [`LINE`], else a struct or
/// list value is opened with a field or item per line, each laid out the
/// same way one level deeper. Without the trailing comma.
pub fn wrap_field(name: &str, value: &str, indent: &str) -> String {
    let prefix = if name.is_empty() {
        String::new()
    } else {
        format!("{name}: ")
    };
    // (The trailing comma counts.)
    let fits = indent.len() + prefix.len() + value.len() < LINE;
    let open = value.as_bytes().first().copied();
    if fits || !matches!(open, Some(b'(' | b'[')) {
        return format!("{prefix}{value}");
    }
    let Some((spans, close)) = split(value, 0) else {
        return format!("{prefix}{value}");
    };
    if close != value.len() - 1 || spans.is_empty() {
        return format!("{prefix}{value}");
    }
    let inner = format!("{indent}    ");
    let mut out = format!("{prefix}{}\n", &value[..1]);
    for (start, end) in spans {
        let item = &value[start..end];
        let (name, value) = match field_name(item) {
            Some(n) => (n, item[n.len()..].trim_start()[1..].trim_start()),
            None => ("", item),
        };
        out.push_str(&format!("{inner}{},\n", wrap_field(name, value, &inner)));
    }
    out.push_str(&format!("{indent}{}", &value[close..]));
    out
}

/// The name of a struct field's text (`name: ...`), if it is one.
fn field_name(item: &str) -> Option<&str> {
    let end = item
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(item.len());
    (end > 0 && item[end..].trim_start().starts_with(':')).then(|| &item[..end])
}

/// The first value of a file (after its comments).
pub fn top_value(text: &str) -> usize {
    skip_blank(text.as_bytes(), 0)
}

/// One item written on one line, in the canonical style, with fields that
/// hold their default left out (each left out only if the item still reads
/// back the same).
pub fn one_line<T: Serialize + DeserializeOwned + PartialEq>(value: &T) -> Option<String> {
    let pretty = ron::ser::PrettyConfig::new().depth_limit(0);
    let text = ron_options().to_string_pretty(value, pretty).ok()?;
    Some(strip_defaults(text, |t| {
        ron_options().from_str::<T>(t).ok().as_ref() == Some(value)
    }))
}

/// Leaves out of RON text the fields that hold a default (`None`, `[]`,
/// `{}`, `false`, `true`, `0`, `1`), each only if `reads_back` still holds
/// without it.
pub fn strip_defaults(text: String, reads_back: impl Fn(&str) -> bool) -> String {
    // A field left empty by a pass (`movement: ()` once its own defaults
    // went) goes in the next one.
    let mut text = text;
    loop {
        let next = strip_pass(text.clone(), &reads_back);
        if next == text {
            return text;
        }
        text = next;
    }
}

fn strip_pass(mut text: String, reads_back: &impl Fn(&str) -> bool) -> String {
    // The usual defaults, plus the hazards' default movement and whom an
    // effect concerns, and an empty description.
    let defaults = [
        ": None", ": []", ": {}", ": ()", ": false", ": true", ": 0", ": 1", ": Free", ": Up",
        ": Anyone", ": \"\"",
    ];
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let blank = |t: &str| t.len() - t.trim_start().len();
    let mut from = 0;
    while from < text.len() {
        // The next field start: after `(` or `,` and any blanks (a field
        // per line in a struct file).
        let Some(at) = text[from..].find([',', '(']).map(|a| a + from) else {
            break;
        };
        let lead = 1 + blank(&text[at + 1..]);
        let rest = &text[at + lead..];
        let field_end = rest.find(|c: char| !ident(c)).unwrap_or(rest.len());
        let after = &rest[field_end..];
        let found = defaults.iter().find(|d| {
            field_end > 0
                && after.starts_with(**d)
                && matches!(after.get(d.len()..d.len() + 1), Some(",") | Some(")"))
        });
        if let Some(d) = found {
            let value_end = at + lead + field_end + d.len();
            let mut candidate = text.clone();
            if text[at..].starts_with(',') {
                // `, field: d` goes.
                candidate.replace_range(at..value_end, "");
            } else if text[value_end..].starts_with(',') {
                // `(field: d, ` keeps its `(`.
                let sep = 1 + blank(&text[value_end + 1..]);
                candidate.replace_range(at + 1..value_end + sep, "");
            } else {
                // `(field: d)` becomes `()`, itself a default next pass.
                candidate.replace_range(at + 1..value_end, "");
            }
            if reads_back(&candidate) {
                text = candidate;
                continue;
            }
        }
        from = at + 1;
    }
    text
}

/// Rewrites the list or map whose bracket is at `open` in `original` so
/// that it holds `items` (key, value, and the text of a changed item), in
/// order. `parse_item` reads an item's text back as its key and value.
/// `None` when the new order cannot be reached by keeping, replacing,
/// deleting and appending items.
pub fn patch_items<T: PartialEq>(
    original: &str,
    open: usize,
    items: &[(String, T)],
    parse_item: impl Fn(&str) -> Option<(String, T)>,
    write_item: impl Fn(&str, &T) -> Option<String>,
) -> Option<String> {
    let (spans, close) = split(original, open)?;
    let mut old = Vec::new();
    for (start, end) in spans {
        let (key, value) = parse_item(&original[start..end])?;
        old.push(Item {
            start,
            end,
            key,
            value,
        });
    }
    // The kept items must be in the same order, and new ones come last.
    let kept: Vec<&str> = old
        .iter()
        .map(|o| o.key.as_str())
        .filter(|k| items.iter().any(|(n, _)| n == k))
        .collect();
    let first_new = items
        .iter()
        .position(|(k, _)| !old.iter().any(|o| o.key == *k))
        .unwrap_or(items.len());
    let in_order: Vec<&str> = items[..first_new].iter().map(|(k, _)| k.as_str()).collect();
    if kept != in_order
        || items[first_new..]
            .iter()
            .any(|(k, _)| old.iter().any(|o| o.key == *k))
    {
        return None;
    }
    let last = old.last()?;
    let b = original.as_bytes();
    let line_start = |at: usize| original[..at].rfind('\n').map_or(0, |n| n + 1);
    let indent = &original[line_start(last.start)..last.start];
    let indent = if indent.trim().is_empty() { indent } else { "" };

    let mut out = String::with_capacity(original.len() + 256);
    let mut cursor = 0;
    for o in &old {
        match items.iter().find(|(k, _)| *k == o.key) {
            Some((_, v)) if *v == o.value => {}
            Some((k, v)) => {
                out.push_str(&original[cursor..o.start]);
                out.push_str(&write_item(k, v)?);
                cursor = o.end;
            }
            None => {
                // Drop the item, its comma, and its line if it is alone there.
                let mut start = o.start;
                let mut end = o.end;
                if b.get(end) == Some(&b',') {
                    end += 1;
                }
                let ls = line_start(start);
                let rest_of_line = original[end..]
                    .find('\n')
                    .map_or(original.len(), |n| end + n);
                // A comment after the item on its line goes with it.
                let tail = original[end..rest_of_line].trim();
                if original[ls..start].trim().is_empty()
                    && (tail.is_empty() || tail.starts_with("//"))
                {
                    start = ls;
                    end = (rest_of_line + 1).min(original.len());
                }
                out.push_str(&original[cursor..start]);
                cursor = end;
            }
        }
    }
    // New items after the last old one (and its comma).
    let mut after_last = last.end;
    let has_comma = b.get(after_last) == Some(&b',');
    if has_comma {
        after_last += 1;
    }
    if after_last > cursor {
        out.push_str(&original[cursor..after_last]);
        cursor = after_last;
    }
    let new_items = &items[first_new..];
    if !new_items.is_empty() {
        if !has_comma {
            out.push(',');
        }
        for (k, v) in new_items {
            out.push('\n');
            out.push_str(indent);
            out.push_str(&write_item(k, v)?);
            out.push(',');
        }
    }
    let _ = close;
    out.push_str(&original[cursor..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use titan_core::format::{LandDef, MasterboardDef};

    const BOARD: &str = "// head\n(\n    lands: [\n        (number: 1, terrain: \"Plains\", position: (x: 1, y: 1), exits: []), // one\n        // a comment\n        (number: 2, terrain: \"Woods\", position: (x: 2, y: 1), exits: [(to: 1, sign: Arch)]),\n    ],\n)\n";

    fn items(board: &MasterboardDef) -> Vec<(String, LandDef)> {
        board
            .lands
            .iter()
            .map(|l| (l.number.to_string(), l.clone()))
            .collect()
    }

    fn patch(board: &MasterboardDef) -> Option<String> {
        patch_items(
            BOARD,
            field_value(BOARD, "lands")?,
            &items(board),
            |t| {
                let l: LandDef = ron_options().from_str(t).ok()?;
                Some((l.number.to_string(), l))
            },
            |_, l| one_line(l),
        )
    }

    fn parse(t: &str) -> MasterboardDef {
        ron_options().from_str(t).unwrap()
    }

    #[test]
    fn unchanged_items_keep_their_text() {
        let mut board = parse(BOARD);
        assert_eq!(patch(&board).unwrap(), BOARD);
        board.lands[1].terrain = "Hills".into();
        let text = patch(&board).unwrap();
        assert_eq!(parse(&text), board);
        assert_eq!(
            text,
            BOARD.replace("\"Woods\"", "\"Hills\""),
            "only the edited land's line changes"
        );
    }

    #[test]
    fn deleted_and_new_items() {
        let mut board = parse(BOARD);
        board.lands.remove(0);
        let mut three = board.lands[0].clone();
        three.number = 3;
        three.name = Some("Three".into());
        board.lands.push(three);
        let text = patch(&board).unwrap();
        assert_eq!(parse(&text), board);
        assert!(!text.contains("// one"), "{text}");
        assert!(text.contains("// a comment"));
        assert!(
            text.contains("\n        (number: 3, name: \"Three\", terrain: \"Woods\""),
            "{text}"
        );
    }

    #[test]
    fn defaults_are_left_out_of_one_line() {
        let land: LandDef = ron_options()
            .from_str("(number: 4, terrain: \"Hills\", position: (x: 0, y: 0), exits: [])")
            .unwrap();
        assert_eq!(
            one_line(&land).unwrap(),
            "(number: 4, terrain: \"Hills\", position: (x: 0, y: 0), exits: [])"
        );
    }

    #[test]
    fn a_reordered_list_is_not_patched() {
        let mut board = parse(BOARD);
        board.lands.reverse();
        assert_eq!(patch(&board), None);
    }

    #[test]
    fn a_long_field_is_opened_a_field_or_item_per_line() {
        assert_eq!(
            wrap_field("files", "(rules: \"rules.ron\")", "    "),
            "files: (rules: \"rules.ron\")"
        );
        let files = "(terrains: \"terrains.ron\", hazards: \"hazards.ron\", characters: \"characters.ron\", battlelands: [\"battlelands/a.ron\"])";
        assert_eq!(
            wrap_field("files", files, "    "),
            "files: (\n        terrains: \"terrains.ron\",\n        hazards: \"hazards.ron\",\n        characters: \"characters.ron\",\n        battlelands: [\"battlelands/a.ron\"],\n    )"
        );
        // A list of structs too long for its line: an item per line.
        let list = format!(
            "[{}]",
            ["(character: \"Gargoyle\", count: 2)"; 4].join(", ")
        );
        let text = wrap_field("characters", &list, "        ");
        assert!(
            text.starts_with("characters: [\n            (character: \"Gargoyle\", count: 2),\n"),
            "{text}"
        );
        assert!(text.ends_with(",\n        ]"), "{text}");
        // Commas and brackets inside strings are not separators.
        let s = format!("(description: \"{}, [x]\")", "a".repeat(100));
        assert_eq!(
            wrap_field("o", &s, ""),
            format!("o: (\n    description: \"{}, [x]\",\n)", "a".repeat(100))
        );
    }
}
