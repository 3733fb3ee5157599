//! How the editor reads a variant's files into values and writes them back
//! as an author would lay them out (see the module above, "How files stay
//! byte-stable").

use serde::Serialize;
use serde::de::DeserializeOwned;
use titan_core::format::{
    ActionDef, BattlelandDef, CharacterDef, HazardDef, HexDef, Manifest, MasterboardDef,
    MusterTable, RulesDef, TerrainDef, VariableDef,
};
use titan_core::load::ron_options;

use super::MANIFEST;

/// The parsed value of one file of the edited variant.
// A project holds one manifest: boxing it would save nothing worth the noise.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum FileValue {
    Manifest(Manifest),
    Terrains(Vec<TerrainDef>),
    Hazards(Vec<HazardDef>),
    Characters(Vec<CharacterDef>),
    Mustering(Vec<MusterTable>),
    Masterboard(MasterboardDef),
    Battleland(BattlelandDef),
    Rules(RulesDef),
    /// The variables the engine keeps for the scripts (`variables.ron`).
    Variables(Vec<VariableDef>),
    /// The actions the scripts define (`actions.ron`).
    Actions(Vec<ActionDef>),
    /// A Lua script of the variant: its text, written as it is.
    Script(String),
}

/// What kind of file a name in the manifest is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Manifest,
    Terrains,
    Hazards,
    Characters,
    Mustering,
    Masterboard,
    Battleland,
    Rules,
    Variables,
    Actions,
    Script,
}

impl FileKind {
    /// Parses a file's text as this kind, with the loader's RON dialect.
    pub fn parse(self, text: &str) -> Result<FileValue, ron::error::SpannedError> {
        fn p<T: DeserializeOwned>(text: &str) -> Result<T, ron::error::SpannedError> {
            ron_options().from_str(text)
        }
        Ok(match self {
            FileKind::Manifest => FileValue::Manifest(p(text)?),
            FileKind::Terrains => FileValue::Terrains(p(text)?),
            FileKind::Hazards => FileValue::Hazards(p(text)?),
            FileKind::Characters => FileValue::Characters(p(text)?),
            FileKind::Mustering => FileValue::Mustering(p(text)?),
            FileKind::Masterboard => FileValue::Masterboard(p(text)?),
            FileKind::Battleland => FileValue::Battleland(p(text)?),
            FileKind::Rules => FileValue::Rules(p(text)?),
            FileKind::Variables => FileValue::Variables(p(text)?),
            FileKind::Actions => FileValue::Actions(p(text)?),
            FileKind::Script => FileValue::Script(text.to_string()),
        })
    }
}

/// The files a manifest names, with their kinds (the manifest first).
pub fn files_of(manifest: &Manifest) -> Vec<(String, FileKind)> {
    let f = &manifest.files;
    let mut out = vec![(MANIFEST.to_string(), FileKind::Manifest)];
    let singles = [
        (&f.terrains, FileKind::Terrains),
        (&f.hazards, FileKind::Hazards),
        (&f.characters, FileKind::Characters),
        (&f.mustering, FileKind::Mustering),
        (&f.masterboard, FileKind::Masterboard),
        (&f.rules, FileKind::Rules),
        (&f.variables, FileKind::Variables),
        (&f.actions, FileKind::Actions),
    ];
    for (name, kind) in singles {
        if let Some(name) = name {
            out.push((name.clone(), kind));
        }
    }
    for name in &f.battlelands {
        out.push((name.clone(), FileKind::Battleland));
    }
    // The variant's own scripts (shared ones live outside its folder).
    for name in &f.scripts {
        if !name.starts_with(titan_core::load::SHARED_PREFIX) {
            out.push((name.clone(), FileKind::Script));
        }
    }
    out
}

/// The leading comment block of a file (its first lines that are `//`
/// comments or blank), kept when the file is rewritten.
pub fn leading_comments(text: &str) -> &str {
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.is_empty() || t.starts_with("//") {
            end += line.len();
        } else {
            break;
        }
    }
    &text[..end]
}

/// The canonical text of a file: its leading comments from `original`, then
/// the value as pretty RON, nested structures past the second level on one
/// line (one land, hex or character per line, as the bundled files are).
///
/// ```
/// use titan_editor::project::{render, FileKind, FileValue};
/// use titan_core::format::TerrainDef;
/// let value = FileValue::Terrains(vec![TerrainDef { name: "Tower".into(), color: "#a0a0a0".parse().unwrap(), tower: true, shared: false }]);
/// let text = render(&value, Some("// Terrains.\n[]\n"));
/// assert!(text.starts_with("// Terrains.\n[\n    (name: \"Tower\""));
/// assert_eq!(FileKind::Terrains.parse(&text).unwrap(), value);
/// ```
pub fn render(value: &FileValue, original: Option<&str>) -> String {
    render_with(value, original, None)
}

/// [`render`] for a file of a variant whose `rules.ron` sections may give
/// only some of their fields: `base` (the base variant's rules) completes
/// them when the original text is read (`titan_core::rules_patch`), so a
/// partial section that did not change keeps its text.
pub fn render_with(value: &FileValue, original: Option<&str>, base: Option<&RulesDef>) -> String {
    if let FileValue::Script(text) = value {
        return text.clone();
    }
    if let Some(text) = original.and_then(|o| patch_file(value, o, base)) {
        return text;
    }
    canonical(value, original)
}

/// Parses a file's text; a `rules.ron` is first completed from `base`.
pub fn parse_with(
    kind: FileKind,
    text: &str,
    base: Option<&RulesDef>,
) -> Result<FileValue, ron::error::SpannedError> {
    match (kind, base) {
        (FileKind::Rules, Some(base)) => kind.parse(&titan_core::rules_patch::complete(text, base)),
        _ => kind.parse(text),
    }
}

/// The kind of a file value.
pub fn kind_of(value: &FileValue) -> FileKind {
    match value {
        FileValue::Manifest(_) => FileKind::Manifest,
        FileValue::Terrains(_) => FileKind::Terrains,
        FileValue::Hazards(_) => FileKind::Hazards,
        FileValue::Characters(_) => FileKind::Characters,
        FileValue::Mustering(_) => FileKind::Mustering,
        FileValue::Masterboard(_) => FileKind::Masterboard,
        FileValue::Battleland(_) => FileKind::Battleland,
        FileValue::Rules(_) => FileKind::Rules,
        FileValue::Variables(_) => FileKind::Variables,
        FileValue::Actions(_) => FileKind::Actions,
        FileValue::Script(_) => FileKind::Script,
    }
}

/// `original` with only the items that changed rewritten (see
/// [`crate::patch`]); `None` when that cannot give `value`.
fn patch_file(value: &FileValue, original: &str, base: Option<&RulesDef>) -> Option<String> {
    use crate::patch::{field_value, one_line, patch_items, top_value};
    fn list<T: Serialize + DeserializeOwned + PartialEq + Clone>(
        original: &str,
        open: usize,
        items: &[T],
        key: impl Fn(&T) -> String,
    ) -> Option<String> {
        let keyed: Vec<(String, T)> = items.iter().map(|i| (key(i), i.clone())).collect();
        patch_items(
            original,
            open,
            &keyed,
            |t| {
                let v: T = ron_options().from_str(t).ok()?;
                Some((key(&v), v))
            },
            |_, v| one_line(v),
        )
    }
    let old = parse_with(kind_of(value), original, base).ok()?;
    if old == *value {
        return Some(original.to_string());
    }
    let text = match (value, &old) {
        (FileValue::Terrains(v), _) => list(original, top_value(original), v, |t| t.name.clone()),
        (FileValue::Hazards(v), _) => list(original, top_value(original), v, |t| t.name.clone()),
        (FileValue::Characters(v), _) => list(original, top_value(original), v, |t| t.name.clone()),
        (FileValue::Variables(v), _) => {
            let keyed: Vec<(String, VariableDef)> =
                v.iter().map(|x| (x.name.clone(), x.clone())).collect();
            patch_items(
                original,
                top_value(original),
                &keyed,
                |t| {
                    let v: VariableDef = ron_options().from_str(t).ok()?;
                    Some((v.name.clone(), v))
                },
                |_, v| variable_line(v, "    "),
            )
        }
        (FileValue::Actions(v), _) => {
            let keyed: Vec<(String, ActionDef)> =
                v.iter().map(|a| (a.name.clone(), a.clone())).collect();
            patch_items(
                original,
                top_value(original),
                &keyed,
                |t| {
                    let v: ActionDef = ron_options().from_str(t).ok()?;
                    Some((v.name.clone(), v))
                },
                |_, a| action_text(a, "    "),
            )
        }
        (FileValue::Mustering(v), _) => {
            let keyed: Vec<(String, MusterTable)> =
                v.iter().map(|t| (t.terrain.clone(), t.clone())).collect();
            patch_items(
                original,
                top_value(original),
                &keyed,
                |t| {
                    let v: MusterTable = ron_options().from_str(t).ok()?;
                    Some((v.terrain.clone(), v))
                },
                |_, t| muster_table_text(t, "    "),
            )
        }
        (FileValue::Masterboard(v), _) => {
            list(original, field_value(original, "lands")?, &v.lands, |l| {
                l.number.to_string()
            })
        }
        (FileValue::Battleland(v), FileValue::Battleland(o))
            if v.terrain == o.terrain
                && v.attacker_edge == o.attacker_edge
                && v.defender_area == o.defender_area =>
        {
            let items: Vec<(String, HexDef)> = v
                .hexes
                .iter()
                .map(|(k, h)| (k.clone(), h.clone()))
                .collect();
            patch_items(
                original,
                field_value(original, "hexes")?,
                &items,
                |t| {
                    let colon = t.find(':')?;
                    let key: String = ron_options().from_str(t[..colon].trim()).ok()?;
                    let hex: HexDef = ron_options().from_str(t[colon + 1..].trim()).ok()?;
                    Some((key, hex))
                },
                |k, h| Some(format!("{k:?}: {}", one_line(h)?)),
            )
        }
        (FileValue::Manifest(_) | FileValue::Rules(_), _) => patch_struct(original, &old, value),
        _ => None,
    }?;
    (parse_with(kind_of(value), &text, base).ok()? == *value).then_some(text)
}

/// A struct file (`variant.ron`, `rules.ron`) with only its changed
/// top-level fields rewritten: a field is compared by its canonical text
/// in the old and new value; a changed one is written in the canonical
/// style, the others keep their text and comments.
fn patch_struct(original: &str, old: &FileValue, new: &FileValue) -> Option<String> {
    use crate::patch::{field_value, patch_items, split_fields, top_value};
    let old_fields = split_fields(&compact_struct(old)?)?;
    let new_fields = split_fields(&compact_struct(new)?)?;
    let in_original = |name: &str| field_value(original, name).is_some();
    let items: Vec<(String, String)> = new_fields
        .iter()
        .filter(|(name, text)| {
            in_original(name)
                || old_fields.iter().find(|(n, _)| n == name).map(|f| &f.1) != Some(text)
        })
        .cloned()
        .collect();
    patch_items(
        original,
        top_value(original),
        &items,
        |t| {
            let name = t[..t.find(':')?].trim().to_string();
            let text = old_fields.iter().find(|(n, _)| *n == name)?.1.clone();
            Some((name, text))
        },
        |name, text| Some(crate::patch::wrap_field(name, text, "    ")),
    )
}

/// A struct file with each top-level field on one line, defaults left out.
fn compact_struct(value: &FileValue) -> Option<String> {
    fn ron<T: Serialize>(value: &T) -> Option<String> {
        let pretty = ron::ser::PrettyConfig::new()
            .indentor("    ".to_string())
            .depth_limit(1);
        ron_options().to_string_pretty(value, pretty).ok()
    }
    let text = match value {
        FileValue::Manifest(v) => ron(v)?,
        FileValue::Rules(v) => ron(v)?,
        _ => return None,
    };
    let kind = kind_of(value);
    Some(crate::patch::strip_defaults(text, |t| {
        kind.parse(t).ok().as_ref() == Some(value)
    }))
}

/// A struct's text with a field per line, each laid out by
/// [`crate::patch::wrap_field`].
fn wrapped_struct(compact: &str) -> Option<String> {
    let fields = crate::patch::split_fields(compact)?;
    let mut out = String::from("(\n");
    for (name, text) in fields {
        out.push_str(&format!(
            "    {},\n",
            crate::patch::wrap_field(&name, &text, "    ")
        ));
    }
    out.push(')');
    Some(out)
}

/// The whole file in the canonical layout.
fn canonical(value: &FileValue, original: Option<&str>) -> String {
    fn ron<T: Serialize>(value: &T, depth: usize) -> String {
        let pretty = ron::ser::PrettyConfig::new()
            .indentor("    ".to_string())
            .depth_limit(depth);
        // The loader's options already allow a bare value for `Some(..)`.
        ron_options()
            .to_string_pretty(value, pretty)
            .unwrap_or_else(|e| format!("// cannot write this file: {e}\n"))
    }
    let comments = original.map(leading_comments).unwrap_or("");
    if let Some(body) = one_item_per_line(value) {
        return format!("{comments}{body}\n");
    }
    // A manifest or rules file: a field per line, defaults left out, a long
    // one opened a field or item per line.
    if let Some(body) = compact_struct(value)
        .and_then(|c| wrapped_struct(&c))
        .filter(|body| kind_of(value).parse(body).ok().as_ref() == Some(value))
    {
        return format!("{comments}{body}\n");
    }
    let body = match value {
        FileValue::Manifest(v) => ron(v, 2),
        FileValue::Terrains(v) => ron(v, 1),
        FileValue::Hazards(v) => ron(v, 2),
        FileValue::Characters(v) => ron(v, 1),
        FileValue::Mustering(v) => ron(v, 2),
        FileValue::Masterboard(v) => ron(v, 2),
        FileValue::Battleland(v) => ron(v, 2),
        FileValue::Rules(v) => ron(v, 2),
        FileValue::Variables(v) => ron(v, 1),
        FileValue::Actions(v) => ron(v, 2),
        FileValue::Script(text) => return text.clone(),
    };
    format!("{comments}{body}\n")
}

/// A list file, board or battleland with one item per line, as the bundled
/// files are written (checked to read back the same).
fn one_item_per_line(value: &FileValue) -> Option<String> {
    use crate::patch::one_line;
    fn lines<T: Serialize + DeserializeOwned + PartialEq>(
        items: &[T],
        indent: &str,
    ) -> Option<String> {
        items
            .iter()
            .map(|i| Some(format!("{indent}{},\n", one_line(i)?)))
            .collect()
    }
    let text = match value {
        FileValue::Mustering(v) => {
            let tables: Option<String> = v
                .iter()
                .map(|t| Some(format!("    {},\n", muster_table_text(t, "    ")?)))
                .collect();
            format!("[\n{}]", tables?)
        }
        FileValue::Terrains(v) => format!("[\n{}]", lines(v, "    ")?),
        FileValue::Hazards(v) => format!("[\n{}]", lines(v, "    ")?),
        FileValue::Characters(v) => format!("[\n{}]", lines(v, "    ")?),
        FileValue::Variables(v) => {
            let vars: Option<String> = v
                .iter()
                .map(|x| Some(format!("    {},\n", variable_line(x, "    ")?)))
                .collect();
            format!("[\n{}]", vars?)
        }
        FileValue::Actions(v) => {
            let actions: Option<String> = v
                .iter()
                .map(|a| Some(format!("    {},\n", action_text(a, "    ")?)))
                .collect();
            format!("[\n{}]", actions?)
        }
        FileValue::Masterboard(v) => {
            format!("(\n    lands: [\n{}    ],\n)", lines(&v.lands, "        ")?)
        }
        FileValue::Battleland(b) => {
            let mut t = format!("(\n    terrain: {:?},\n    hexes: {{\n", b.terrain);
            for (label, hex) in &b.hexes {
                t.push_str(&format!("        {label:?}: {},\n", one_line(hex)?));
            }
            t.push_str("    },\n");
            if let Some(edge) = b.attacker_edge {
                t.push_str(&format!("    attacker_edge: {edge:?},\n"));
            }
            if !b.defender_area.is_empty() {
                t.push_str(&format!("    defender_area: {:?},\n", b.defender_area));
            }
            t.push(')');
            t
        }
        _ => return None,
    };
    (kind_of(value).parse(&text).ok()? == *value).then_some(text)
}

/// A mustering table as the bundled files write one: its terrain and flags
/// on the first line, then a row per line (`indent` is the table's).
fn muster_table_text(table: &MusterTable, indent: &str) -> Option<String> {
    use crate::patch::one_line;
    let empty = MusterTable {
        rows: Vec::new(),
        ..table.clone()
    };
    let head = one_line(&empty)?;
    if table.rows.is_empty() {
        return Some(head);
    }
    let open = head.strip_suffix("rows: [])")?;
    let mut text = format!("{open}rows: [\n");
    for row in &table.rows {
        text.push_str(&format!("{indent}    {},\n", one_line(row)?));
    }
    text.push_str(&format!("{indent}])"));
    Some(text)
}

/// An action as the bundled files write one: a field per line (`indent` is
/// the action's), defaults left out, each field's value on one line.
fn action_text(action: &ActionDef, indent: &str) -> Option<String> {
    use crate::patch::one_line;
    let mut t = format!("(\n{indent}    name: {:?},\n", action.name);
    t.push_str(&format!("{indent}    label: {:?},\n", action.label));
    if !action.description.is_empty() {
        t.push_str(&format!(
            "{indent}    description: {:?},\n",
            action.description
        ));
    }
    t.push_str(&format!("{indent}    who: {},\n", one_line(&action.who)?));
    t.push_str(&format!("{indent}    when: {},\n", one_line(&action.when)?));
    if !action.parameters.is_empty() {
        t.push_str(&format!(
            "{indent}    parameters: {},\n",
            one_line(&action.parameters)?
        ));
    }
    if let Some(limit) = &action.limit {
        t.push_str(&format!("{indent}    limit: {},\n", one_line(limit)?));
    }
    if let Some(cost) = &action.cost {
        t.push_str(&format!("{indent}    cost: {},\n", one_line(cost)?));
    }
    t.push_str(&format!("{indent})"));
    let back: ActionDef = ron_options().from_str(&t).ok()?;
    (back == *action).then_some(t)
}

/// A variable as house-spells writes one: on one line, its description
/// (if any) on a second one under the opening parenthesis (`indent` is the
/// item's), its default visibility (everyone) left out as an author leaves it.
fn variable_line(var: &VariableDef, indent: &str) -> Option<String> {
    let reads_back = |t: &str| ron_options().from_str::<VariableDef>(t).ok().as_ref() == Some(var);
    let mut text = crate::patch::one_line(var)?;
    let short = text.replace(", visibility: Everyone", "");
    if reads_back(&short) {
        text = short;
    }
    if !var.description.is_empty()
        && let Some(at) = text.rfind(", description: ")
    {
        let wrapped = format!("{},\n{indent} {}", &text[..at], &text[at + 2..]);
        if reads_back(&wrapped) {
            text = wrapped;
        }
    }
    Some(text)
}
