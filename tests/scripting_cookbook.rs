//! The recipes of docs/scripting.md, "Cookbook", run as written: each is
//! made into a variant over `titan` (its `ron` blocks its variables,
//! actions and options, its `lua` block its script), loads, and plays
//! random games (with battles, over the recipes) without a script error.

mod common;

use std::sync::Arc;

use titan_core::game::Game;
use titan_core::game::random::random_action;
use titan_core::rng::GameRng;

struct Recipe {
    title: String,
    variables: Option<String>,
    actions: Option<String>,
    options: Option<String>,
    script: String,
}

fn recipes() -> Vec<Recipe> {
    let doc = std::fs::read_to_string(common::root().join("docs/scripting.md")).unwrap();
    let start = doc.find("\n## Cookbook\n").expect("a cookbook");
    let section = &doc[start + 1..];
    let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
    let section = &section[..end];
    let mut out = Vec::new();
    for part in section.split("\n### ").skip(1) {
        let title = part.lines().next().unwrap().to_string();
        let mut r = Recipe {
            title: title.clone(),
            variables: None,
            actions: None,
            options: None,
            script: String::new(),
        };
        let mut rest = part;
        while let Some(i) = rest.find("```") {
            let after = &rest[i + 3..];
            let lang_end = after.find('\n').unwrap();
            let lang = &after[..lang_end];
            let body_start = lang_end + 1;
            let body_len = after[body_start..].find("```").expect("the block ends");
            let body = after[body_start..body_start + body_len].to_string();
            match lang {
                "lua" => r.script.push_str(&body),
                "ron" => {
                    let first = body.lines().next().unwrap_or_default();
                    let text = body.lines().skip(1).collect::<Vec<_>>().join("\n");
                    match first.trim() {
                        "// variables.ron" => r.variables = Some(text),
                        "// actions.ron" => r.actions = Some(text),
                        "// options" => r.options = Some(text),
                        other => panic!("{title}: a ron block names its file first, not {other:?}"),
                    }
                }
                other => panic!("{title}: a {other:?} block"),
            }
            rest = &after[body_start + body_len + 3..];
        }
        assert!(!r.script.is_empty(), "{title}: no lua block");
        out.push(r);
    }
    out
}

#[test]
fn every_recipe_loads_and_plays_without_a_script_error() {
    let recipes = recipes();
    assert!(recipes.len() >= 10, "{} recipes", recipes.len());
    let dir = tempfile::tempdir().unwrap();
    let mut all_battles = 0;
    for (i, r) in recipes.iter().enumerate() {
        let v = dir.path().join(format!("recipe-{i}"));
        std::fs::create_dir(&v).unwrap();
        let mut files = vec![r#"scripts: ["recipe.lua"]"#.to_string()];
        std::fs::write(v.join("recipe.lua"), &r.script).unwrap();
        if let Some(t) = &r.variables {
            std::fs::write(v.join("variables.ron"), t).unwrap();
            files.push(r#"variables: "variables.ron""#.into());
        }
        if let Some(t) = &r.actions {
            std::fs::write(v.join("actions.ron"), t).unwrap();
            files.push(r#"actions: "actions.ron""#.into());
        }
        let options = r
            .options
            .as_ref()
            .map_or(String::new(), |o| format!("options: {o},"));
        std::fs::write(
            v.join("variant.ron"),
            format!(
                r#"(id: "recipe-{i}", title: "Recipe {i}", version: "1.0.0", extends: "titan", {options}
                    files: ({}))"#,
                files.join(", ")
            ),
        )
        .unwrap();
        let mut opts = common::options();
        opts.search_paths.push(common::root().join("variants"));
        let variant =
            Arc::new(titan_core::load(&v, &opts).unwrap_or_else(|e| panic!("{}: {e:#?}", r.title)));
        let names = ["A", "B", "C"].map(String::from).to_vec();
        let (mut battles, mut taken) = (0, 0);
        for seed in 1..=3u64 {
            let (mut g, _) = Game::new(Arc::clone(&variant), Default::default(), &names, seed)
                .unwrap_or_else(|e| panic!("{}: {e}", r.title));
            let mut rng = GameRng::new(seed);
            for _ in 0..3000 {
                let Some((p, a)) = random_action(&g, &mut rng) else {
                    break;
                };
                if let Err(e) = g.apply(p, &a) {
                    panic!("{}: seed {seed}, {a:?}: {e}", r.title);
                }
                taken += 1;
                if g.battle().is_some() {
                    battles += 1;
                }
            }
            if let Some(e) = g.take_script_failure() {
                panic!("{}: seed {seed}: {e}", r.title);
            }
        }
        assert!(taken > 100, "{}: {taken} actions", r.title);
        all_battles += battles;
    }
    assert!(all_battles > 0, "no battle was fought");
}
