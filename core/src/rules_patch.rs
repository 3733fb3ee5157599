//! An extending variant's `rules.ron` merged over its base's field by field:
//! a section that names only some of its fields takes the others from the
//! base (docs/variant-format.md, `extends`), so a house rule is a few lines.
//!
//! The merge works on the text: the base's missing fields, written as RON on
//! one line, are put just before each section's closing parenthesis, and the
//! result is parsed as usual. Lines do not move, so errors keep the places of
//! the author's own file.

use crate::format::RulesDef;

/// A field of a RON struct: its name and where its value is.
struct Field {
    name: String,
    value: std::ops::Range<usize>,
}

/// A RON struct's fields, the index of its closing parenthesis, and whether
/// the last field has a trailing comma.
struct Body {
    fields: Vec<Field>,
    close: usize,
    trailing_comma: bool,
}

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
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else {
            return i;
        }
    }
}

fn ident_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        i += 1;
    }
    i
}

/// The end of the value starting at `i`: the next `,` or closing bracket at
/// its own depth, skipping strings, characters and comments.
fn value_end(b: &[u8], mut i: usize) -> Option<usize> {
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'\'' => {
                i += 1;
                while i < b.len() && b[i] != b'\'' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if b[i..].starts_with(b"//") || b[i..].starts_with(b"/*") => {
                i = skip_blank(b, i);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                if depth == 0 {
                    return Some(i);
                }
                depth -= 1;
            }
            b',' if depth == 0 => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The struct whose `(` is at `open`; `None` when the text is not one.
fn body(b: &[u8], open: usize) -> Option<Body> {
    let mut i = open + 1;
    let mut fields = Vec::new();
    let mut trailing_comma = false;
    loop {
        i = skip_blank(b, i);
        if *b.get(i)? == b')' {
            return Some(Body {
                fields,
                close: i,
                trailing_comma,
            });
        }
        let end = ident_end(b, i);
        if end == i {
            return None;
        }
        let name = String::from_utf8_lossy(&b[i..end]).into_owned();
        i = skip_blank(b, end);
        if *b.get(i)? != b':' {
            return None;
        }
        let start = skip_blank(b, i + 1);
        let stop = value_end(b, start)?;
        fields.push(Field {
            name,
            value: start..stop,
        });
        i = stop;
        trailing_comma = b[i] == b',';
        if trailing_comma {
            i += 1;
        }
    }
}

/// Where the struct of a value starts: past an optional struct name, or
/// inside `Some(...)` (the format lets an author write it or leave it out
/// around an optional section, so both merge alike).
fn struct_open(b: &[u8], i: usize) -> Option<usize> {
    let i = skip_blank(b, i);
    let end = ident_end(b, i);
    if &b[i..end] == b"Some" {
        let j = skip_blank(b, end);
        return if b.get(j) == Some(&b'(') {
            struct_open(b, j + 1)
        } else {
            None
        };
    }
    let j = skip_blank(b, end);
    (b.get(j) == Some(&b'(')).then_some(j)
}

/// The base's sections as RON text, by name (lists such as `classes` are
/// replaced whole, so they are not here).
fn base_sections(base: &RulesDef) -> Vec<(&'static str, String)> {
    fn text<T: serde::Serialize>(v: &Option<T>) -> Option<String> {
        v.as_ref().and_then(|s| ron::to_string(s).ok())
    }
    [
        ("legions", text(&base.legions)),
        ("start", text(&base.start)),
        ("movement", text(&base.movement)),
        ("titan", text(&base.titan)),
        ("scoring", text(&base.scoring)),
        ("strike_chart", text(&base.strike_chart)),
        ("battle", text(&base.battle)),
        ("scripts", text(&base.scripts)),
    ]
    .into_iter()
    .filter_map(|(n, t)| t.map(|t| (n, t)))
    .collect()
}

/// `text` (an extending variant's `rules.ron`) with each section it gives
/// completed by the fields of `base`'s that it leaves out. Text that is not
/// read as expected is returned unchanged, for the parser to report.
pub fn complete(text: &str, base: &RulesDef) -> String {
    let b = text.as_bytes();
    let Some(top) = struct_open(b, 0).and_then(|o| body(b, o)) else {
        return text.to_string();
    };
    let base = base_sections(base);
    // Insertions, applied from the end so earlier indices stay valid.
    let mut inserts: Vec<(usize, String)> = Vec::new();
    for section in &top.fields {
        let Some((_, base_text)) = base.iter().find(|(n, _)| *n == section.name) else {
            continue;
        };
        let Some(child) = struct_open(b, section.value.start).and_then(|o| body(b, o)) else {
            continue;
        };
        let bb = base_text.as_bytes();
        let Some(parent) = struct_open(bb, 0).and_then(|o| body(bb, o)) else {
            continue;
        };
        let missing: Vec<String> = parent
            .fields
            .iter()
            .filter(|f| !child.fields.iter().any(|c| c.name == f.name))
            .map(|f| format!("{}: {}", f.name, &base_text[f.value.clone()]))
            .collect();
        if missing.is_empty() {
            continue;
        }
        let sep = if child.fields.is_empty() || child.trailing_comma {
            ""
        } else {
            ", "
        };
        inserts.push((child.close, format!("{sep}{}", missing.join(", "))));
    }
    let mut out = text.to_string();
    inserts.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
    for (at, s) in inserts {
        out.insert_str(at, &s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::LegionRules;

    fn base() -> RulesDef {
        crate::load::ron_options()
            .from_str(
                "(legions: (max_size: 7, markers_per_player: 12, min_split_size: 2, max_split_parts: 2), \
                 strike_chart: (base: 4, min: 1, max: 6))",
            )
            .unwrap()
    }

    fn read(text: &str) -> RulesDef {
        crate::load::ron_options()
            .from_str(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn a_section_takes_the_fields_it_leaves_out_from_the_base() {
        let text = "// house rule\n(\n    legions: (max_size: 8), // bigger\n)\n";
        let done = complete(text, &base());
        let r = read(&done);
        // The whole section: the given field, every other of the base's.
        assert_eq!(
            r.legions,
            Some(LegionRules {
                max_size: 8,
                markers_per_player: 12,
                min_split_size: 2,
                max_split_parts: 2,
                full_legions_move: true,
                marker_names: Vec::new(),
                muster_per_turn: Vec::new(),
            })
        );
        assert!(r.strike_chart.is_none(), "sections not given stay out");
        assert_eq!(done.lines().count(), text.lines().count());
    }

    #[test]
    fn marker_names_are_a_field_like_the_others() {
        // A base that names its markers: a house rule of another legions
        // field keeps the names; one that gives names replaces them whole.
        let mut named = base();
        if let Some(l) = named.legions.as_mut() {
            l.marker_names = vec![vec!["Axes".into(), "Eye (\"big\")".into()], vec![]];
        }
        let kept = read(&complete("(legions: (max_size: 8))", &named));
        assert_eq!(
            kept.legions.unwrap().marker_names,
            named.legions.as_ref().unwrap().marker_names
        );
        let own = read(&complete("(legions: (marker_names: [[\"Rose\"]]))", &named));
        assert_eq!(
            own.legions.unwrap().marker_names,
            vec![vec!["Rose".to_string()]]
        );
        // A base without names gives none (the field is not written).
        let none = complete("(legions: (max_size: 8))", &base());
        assert!(!none.contains("marker_names"), "{none}");
    }

    #[test]
    fn trailing_commas_comments_and_strings_are_read() {
        let text = "(strike_chart: (\n  base: 5, /* ) */\n),\n legions: (max_size: 9,),)";
        let done = complete(text, &base());
        let r: RulesDef = crate::load::ron_options().from_str(&done).unwrap();
        assert_eq!(r.strike_chart.unwrap().base, 5);
        assert_eq!(r.legions.unwrap().min_split_size, 2);
    }

    #[test]
    fn a_section_written_in_some_is_merged_too() {
        // docs/variant-format.md: `Some(...)` may be left out around
        // optional values, so writing it must not change what a house rule means.
        let text = "(legions: Some((max_size: 8)), strike_chart: Some ( ( base: 5, ) ))";
        let done = complete(text, &base());
        let r: RulesDef = crate::load::ron_options().from_str(&done).unwrap();
        let l = r.legions.unwrap();
        assert_eq!((l.max_size, l.markers_per_player), (8, 12));
        let c = r.strike_chart.unwrap();
        assert_eq!((c.base, c.min, c.max), (5, 1, 6));
    }

    #[test]
    fn text_that_is_not_a_struct_is_left_to_the_parser() {
        // Not read as a struct of sections (or a section that is not a
        // struct, or one the base does not have): unchanged, for the
        // parser to report.
        for text in [
            "",
            "[1, 2]",
            "(legions: ",
            "(legions: 5)",
            "(legions: (max_size: 1)",
            "(unknown: (max_size: 1))",
            "(legions: (max_size: 8, markers_per_player: 12, min_split_size: 2, max_split_parts: 2, full_legions_move: true))",
        ] {
            assert_eq!(complete(text, &base()), text);
        }
        // Nested in `Some`, unclosed outside: still completed inside.
        let done = complete("(legions: Some((max_size: 1)))", &base());
        assert_eq!(read(&done).legions.map(|l| l.markers_per_player), Some(12));
    }

    /// The bundled `titan-shorter` gives only its legions and start
    /// sections: merged over `titan`'s, every other section is titan's
    /// as it is, and the two it gives are its own, whole.
    #[test]
    fn a_bundled_house_rule_keeps_its_bases_other_sections() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants");
        let load = |name: &str| crate::load_data(&root.join(name), &Default::default()).unwrap();
        let (titan, shorter) = (load("titan").data.rules, load("titan-shorter").data.rules);
        assert_eq!(
            shorter.legions,
            Some(LegionRules {
                max_size: 7,
                markers_per_player: 8,
                min_split_size: 2,
                max_split_parts: 3,
                full_legions_move: true,
                marker_names: Vec::new(),
                muster_per_turn: Vec::new(),
            })
        );
        let start = shorter.start.as_ref().unwrap();
        assert_eq!(start.characters.len(), 5);
        assert_ne!(shorter.start, titan.start);
        assert_eq!(shorter.movement, titan.movement);
        assert_eq!(shorter.titan, titan.titan);
        assert_eq!(shorter.scoring, titan.scoring);
        assert_eq!(shorter.strike_chart, titan.strike_chart);
        assert_eq!(shorter.battle, titan.battle);
        assert_eq!(shorter.scripts, titan.scripts);
        assert_eq!(shorter.classes, titan.classes);
    }
}
