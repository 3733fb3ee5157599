//! The examples of docs/scripting.md run as written: its `variables.ron`
//! (section "Variables") and its `actions.ron` and Fireball script (section
//! "Actions"), copied into a variant over `titan`, load; and the unit fields
//! the Fireball reads are the ones the `ctx` table documents.

mod common;

/// The first block of `lang` after the heading that starts with `heading`.
fn block(doc: &str, heading: &str, lang: &str) -> String {
    let start = doc
        .find(&format!("\n{heading}"))
        .unwrap_or_else(|| panic!("no heading {heading:?}"));
    let open = format!("```{lang}\n");
    let from = start + doc[start..].find(&open).expect("a block") + open.len();
    let len = doc[from..].find("```").expect("the block ends");
    doc[from..from + len].to_string()
}

#[test]
fn the_variables_and_actions_examples_make_a_variant_that_loads() {
    let doc = std::fs::read_to_string(common::root().join("docs/scripting.md")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("doc-spells");
    std::fs::create_dir(&v).unwrap();
    std::fs::write(v.join("variables.ron"), block(&doc, "## Variables", "ron")).unwrap();
    std::fs::write(v.join("actions.ron"), block(&doc, "## Actions", "ron")).unwrap();
    // The doc gives `reroll` its declaration only; its functions are the
    // simplest a re-roll can have.
    let script = block(&doc, "## Actions", "lua")
        + "titan.action(\"reroll\", {\n  legal = function(ctx) return { true } end,\n  \
           apply = function(ctx, args) ctx:roll_again() end,\n})\n";
    std::fs::write(v.join("spells.lua"), script).unwrap();
    std::fs::write(
        v.join("variant.ron"),
        r#"(id: "doc-spells", title: "Doc spells", version: "1.0.0", description: "",
            extends: "titan",
            files: (variables: "variables.ron", actions: "actions.ron", scripts: ["spells.lua"]))"#,
    )
    .unwrap();
    if let Err(errors) = titan_core::load(&v, &common::options()) {
        let all: Vec<String> = errors.iter().map(ToString::to_string).collect();
        panic!("the doc's examples do not load:\n{}", all.join("\n"));
    }
}

#[test]
fn the_fireball_reads_only_documented_unit_fields() {
    let doc = std::fs::read_to_string(common::root().join("docs/scripting.md")).unwrap();
    let row = doc
        .lines()
        .find(|l| l.starts_with("| `ctx:units()`, `ctx:get_unit(id)`"))
        .expect("the ctx table's units row");
    assert!(
        row.contains("`strikes_left`"),
        "the Fireball example reads `me.strikes_left`: {row}"
    );
}

#[test]
fn the_effects_example_is_the_bundled_house_rule() {
    // docs/scripting.md, "Effects": the example is
    // variants/house-regeneration's script, its code line for line.
    let doc = std::fs::read_to_string(common::root().join("docs/scripting.md")).unwrap();
    let at = doc
        .find("Example (the bundled `variants/house-regeneration`")
        .expect("the example");
    let from = at + doc[at..].find("```lua\n").unwrap() + "```lua\n".len();
    let example = &doc[from..from + doc[from..].find("```").unwrap()];
    let bundled = std::fs::read_to_string(
        common::root().join("variants/house-regeneration/regeneration.lua"),
    )
    .unwrap();
    let code = |text: &str| -> Vec<String> {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("--"))
            .map(String::from)
            .collect()
    };
    assert_eq!(code(example), code(&bundled));
}
