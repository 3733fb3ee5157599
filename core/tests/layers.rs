//! The layers of `core/` (ARCHITECTURE.md, "Layers of core"): every
//! `crate::` path in core's sources, tests and doc comments left out, names
//! a module of its own layer listed before it or of a layer below. The
//! table is read from ARCHITECTURE.md, so the document and the check are
//! one list; a module missing from it fails too.
//!
//! Sources are read as Rust (`syn`): `use` trees, paths in types and
//! expressions, and paths inside macro calls (`matches!`, `format!`).
//! Items under `#[cfg(test)]` and files named `tests.rs` or under a
//! `tests` folder are tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// A module's place: its layer's number and name, and its rank (its
/// position in the whole list, bottom first).
#[derive(Debug, Clone)]
struct Place {
    layer: usize,
    layer_name: String,
    rank: usize,
}

/// The layer table of ARCHITECTURE.md: rows `| n | name | `a`, `b` | ... |`
/// between the heading "Layers of core" and the next heading.
fn layers(architecture: &str) -> Result<BTreeMap<String, Place>, String> {
    let start = architecture
        .find("Layers of core")
        .ok_or("ARCHITECTURE.md has no section \"Layers of core\"")?;
    let section = &architecture[start..];
    let section = &section[..section[1..].find("\n#").map_or(section.len(), |i| i + 1)];
    let mut out = BTreeMap::new();
    for line in section.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 {
            continue;
        }
        let Ok(layer) = cells[1].parse::<usize>() else {
            continue;
        };
        for module in cells[3].split(',') {
            let module = module.trim().trim_matches('`').trim_end_matches('/');
            let module = module.trim_end_matches(".rs");
            if module.is_empty() {
                continue;
            }
            let rank = out.len();
            let place = Place {
                layer,
                layer_name: cells[2].to_string(),
                rank,
            };
            if out.insert(module.to_string(), place).is_some() {
                return Err(format!("ARCHITECTURE.md lists {module} twice"));
            }
        }
    }
    if out.is_empty() {
        return Err("ARCHITECTURE.md's \"Layers of core\" has no table of layers".into());
    }
    Ok(out)
}

/// One `crate::` path: the line and the path as written.
#[derive(Debug)]
struct Import {
    line: usize,
    path: String,
}

/// Collects the `crate::` paths of a file, tests left out.
#[derive(Default)]
struct Paths {
    found: Vec<Import>,
}

fn is_test_cfg(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<TokenStream>()
                .is_ok_and(|t| t.to_string().split_whitespace().any(|w| w == "test"))
    })
}

impl Paths {
    fn add(&mut self, line: usize, segments: Vec<String>) {
        if segments.first().is_some_and(|s| s == "crate") && segments.len() > 1 {
            self.found.push(Import {
                line,
                path: segments.join("::"),
            });
        }
    }

    /// `crate :: a :: b` inside a macro's tokens.
    fn tokens(&mut self, tokens: TokenStream) {
        let list: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < list.len() {
            match &list[i] {
                TokenTree::Group(g) => self.tokens(g.stream()),
                TokenTree::Ident(id) if id == "crate" => {
                    let line = id.span().start().line;
                    let mut segments = vec!["crate".to_string()];
                    let mut j = i + 1;
                    while j + 2 < list.len() + 1 {
                        match (&list.get(j), &list.get(j + 1), &list.get(j + 2)) {
                            (
                                Some(TokenTree::Punct(a)),
                                Some(TokenTree::Punct(b)),
                                Some(TokenTree::Ident(name)),
                            ) if a.as_char() == ':' && b.as_char() == ':' => {
                                segments.push(name.to_string());
                                j += 3;
                            }
                            _ => break,
                        }
                    }
                    self.add(line, segments);
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Const(c) => &c.attrs,
            syn::Item::Static(s) => &s.attrs,
            syn::Item::Struct(s) => &s.attrs,
            syn::Item::Enum(e) => &e.attrs,
            syn::Item::Type(t) => &t.attrs,
            syn::Item::Trait(t) => &t.attrs,
            syn::Item::Macro(m) => &m.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !is_test_cfg(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test_cfg(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        fn walk(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Paths, line: usize) {
            match tree {
                syn::UseTree::Path(p) => {
                    prefix.push(p.ident.to_string());
                    walk(&p.tree, prefix, out, line);
                    prefix.pop();
                }
                syn::UseTree::Name(n) => {
                    let mut s = prefix.clone();
                    s.push(n.ident.to_string());
                    out.add(line, s);
                }
                syn::UseTree::Rename(r) => {
                    let mut s = prefix.clone();
                    s.push(r.ident.to_string());
                    out.add(line, s);
                }
                syn::UseTree::Glob(_) => {
                    let mut s = prefix.clone();
                    s.push("*".into());
                    out.add(line, s);
                }
                syn::UseTree::Group(g) => {
                    for t in &g.items {
                        walk(t, prefix, out, line);
                    }
                }
            }
        }
        let line = u.use_token.span.start().line;
        walk(&u.tree, &mut Vec::new(), self, line);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let line = p
            .segments
            .first()
            .map_or(0, |s| s.ident.span().start().line);
        self.add(
            line,
            p.segments.iter().map(|s| s.ident.to_string()).collect(),
        );
        syn::visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.visit_path(&m.path);
        self.tokens(m.tokens.clone());
    }
}

/// The top-level module a file of `core/src` belongs to (`None` for
/// lib.rs, which stands above every layer).
fn module_of(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.trim_end_matches(".rs");
    (name != "lib").then(|| name.to_string())
}

fn is_test_file(rel: &Path) -> bool {
    rel.file_name()
        .is_some_and(|f| f == "tests.rs" || f.to_string_lossy().ends_with("_tests.rs"))
        || rel.components().any(|c| c.as_os_str() == "tests")
}

/// Every breach of the layers in `files` (path relative to `core/src`,
/// source), one line each: file, line, the import and both layers.
fn breaches(files: &[(PathBuf, String)], places: &BTreeMap<String, Place>) -> Vec<String> {
    let mut out = Vec::new();
    for (rel, source) in files {
        if is_test_file(rel) {
            continue;
        }
        let Some(module) = module_of(rel) else {
            continue;
        };
        let Some(own) = places.get(&module) else {
            out.push(format!(
                "core/src/{}: module `{module}` is in no layer of ARCHITECTURE.md's \"Layers of core\"",
                rel.display()
            ));
            continue;
        };
        let file = match syn::parse_file(source) {
            Ok(f) => f,
            Err(e) => {
                out.push(format!(
                    "core/src/{}: cannot be read as Rust: {e}",
                    rel.display()
                ));
                continue;
            }
        };
        let mut paths = Paths::default();
        paths.visit_file(&file);
        for import in paths.found {
            let target = import.path.split("::").nth(1).unwrap_or_default();
            if target == module {
                continue;
            }
            let Some(theirs) = places.get(target) else {
                // Items of lib.rs (`crate::load`) and the like.
                continue;
            };
            if theirs.rank > own.rank {
                let how = if theirs.layer == own.layer {
                    format!("listed after it in layer {}", own.layer)
                } else {
                    format!("layer {} ({}), above", theirs.layer, theirs.layer_name)
                };
                out.push(format!(
                    "core/src/{}:{}: `{module}` (layer {}, {}) imports `{}`: `{target}` is in {how}",
                    rel.display(),
                    import.line,
                    own.layer,
                    own.layer_name,
                    import.path,
                ));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

fn sources(dir: &Path, root: &Path, out: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("core/src is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(&p, root, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&p).expect("a source file is text");
            out.push((p.strip_prefix(root).unwrap().to_path_buf(), text));
        }
    }
}

fn core_places() -> BTreeMap<String, Place> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("../ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    layers(&doc).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_import_of_core_points_down_its_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    assert!(files.len() > 50, "core/src has {} files", files.len());
    let places = core_places();
    let found = breaches(&files, &places);
    assert!(
        found.is_empty(),
        "imports against the layers of ARCHITECTURE.md:\n{}",
        found.join("\n")
    );
    // Every layer listed is a module of core (the table names no ghost).
    for module in places.keys() {
        assert!(
            root.join(module).is_dir() || root.join(format!("{module}.rs")).is_file(),
            "ARCHITECTURE.md's layers list `{module}`, which core/src does not have"
        );
    }
}

/// The check itself fails on a wrong import, naming the file, the line and
/// the import, and passes the same tree without it.
#[test]
fn a_wrong_import_is_named_with_its_file_and_line() {
    let places = core_places();
    let clean = |p: &str, s: &str| (PathBuf::from(p), s.to_string());
    let files = vec![
        clean("ids.rs", "pub struct PlayerId(pub u8);\n"),
        clean(
            "battle/events.rs",
            "use crate::model::Variant;\n\nfn f() -> bool { matches!(crate::ids::BattleSide::Attacker, _) }\n",
        ),
        clean(
            "model/mod.rs",
            "//! Imports in doc comments do not count: crate::game::Game.\n\
             use crate::ids::HazardId;\n\
             #[cfg(test)]\nmod tests { use crate::game::Game; }\n",
        ),
    ];
    assert_eq!(breaches(&files, &places), Vec::<String>::new());
    let mut wrong = files.clone();
    wrong.push(clean(
        "battle/striking.rs",
        "use crate::ids::UnitId;\nuse crate::game::{Game, PlayerId};\n",
    ));
    wrong.push(clean(
        "lua.rs",
        "fn f() { let _ = format!(\"{:?}\", crate::script::EVENTS); }\n",
    ));
    wrong.push(clean(
        "model/tables.rs",
        "type T = crate::battle::Battle<'static>;\n",
    ));
    let found = breaches(&wrong, &places);
    assert_eq!(found.len(), 4, "{found:#?}");
    assert!(
        found[0].starts_with("core/src/battle/striking.rs:2: `battle` (layer")
            && found[0].contains("imports `crate::game::Game`"),
        "{found:#?}"
    );
    assert!(
        found[1].contains("imports `crate::game::PlayerId`"),
        "{found:#?}"
    );
    assert!(
        found[2].starts_with("core/src/lua.rs:1: `lua`"),
        "{found:#?}"
    );
    assert!(found[2].contains("`crate::script::EVENTS`"), "{found:#?}");
    assert!(
        found[3].starts_with("core/src/model/tables.rs:1: `model`"),
        "{found:#?}"
    );
    // A module the table does not place is named too.
    let stray = vec![clean("physics.rs", "pub fn g() {}\n")];
    assert!(breaches(&stray, &places)[0].contains("module `physics` is in no layer"));
}
