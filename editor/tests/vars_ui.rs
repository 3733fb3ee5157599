//! Headless test of the "Variables and actions" page: a copy of
//! house-spells gets a variable and an action through the page's forms, is
//! saved, and the saved folder loads and is checked as `titan check` does;
//! undo takes both away again.

mod common;

use common::{click, copy_tree, harness, repo, type_into, workspace};

use egui_kittest::kittest::Queryable;
use titan_core::format::VarType;

#[test]
fn add_a_variable_and_an_action_save_check_and_undo() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/house-spells");
    copy_tree(&repo().join("variants/house-spells"), &dir);
    let mut h = harness(&dir);
    click(&mut h, "Variables and actions");
    // The actions house-spells' script registers are shown beside.
    assert!(
        h.query_by_label_contains(
            "Actions the scripts register (titan.action): fireball, heal, reroll"
        )
        .is_some()
    );

    // A variable, renamed in its form and made a Bool (docs/scripting.md,
    // variables.ron).
    click(&mut h, "Add variable");
    type_into(&mut h, "Variable name:", "gold");
    type_into(&mut h, "Variable description:", "Gold of a player.");
    {
        let p = h.state().project.as_ref().unwrap();
        let gold = p
            .data()
            .variables
            .iter()
            .find(|v| v.name == "gold")
            .unwrap();
        assert_eq!(gold.kind, VarType::Int);
        assert_eq!(gold.description, "Gold of a player.");
    }

    // An action with a parameter and a cost paid from the new variable.
    click(&mut h, "Add action");
    type_into(&mut h, "Action name:", "bribe");
    type_into(&mut h, "Label:", "Bribe a legion");
    click(&mut h, "Add parameter");
    click(&mut h, "Has a cost");
    {
        let p = h.state().project.as_ref().unwrap();
        let bribe = p.data().actions.iter().find(|a| a.name == "bribe").unwrap();
        assert_eq!(bribe.label, "Bribe a legion");
        assert_eq!(bribe.parameters.len(), 1);
        // The first integer variable is offered first: house-spells' mana.
        assert_eq!(bribe.cost.as_ref().unwrap().variable, "mana");
    }
    // No script registers it: the editor says so, as the check does.
    assert!(h.query_by_label("bribe (no script)").is_some());
    assert!(h.query_by_label("fireball").is_some());
    assert!(h.query_by_label("fireball (no script)").is_none());
    assert!(
        h.query_all_by_label_contains("no script gives it its functions")
            .next()
            .is_some()
    );

    click(&mut h, "Save");
    let vars = std::fs::read_to_string(dir.join("variables.ron")).unwrap();
    assert!(vars.contains("(name: \"gold\", scope: Player, type: Int, default: Int(0),\n     description: \"Gold of a player.\"),"), "{vars}");
    // The unchanged variables keep their bytes.
    assert!(vars.starts_with(
        &std::fs::read_to_string(repo().join("variants/house-spells/variables.ron")).unwrap()
            [..200]
    ));
    let actions = std::fs::read_to_string(dir.join("actions.ron")).unwrap();
    assert!(actions.contains("        name: \"bribe\",\n"), "{actions}");
    // The saved folder loads; the check refuses only the action without a
    // script (compile.rs, actions).
    let loaded = titan_core::load::load_data(&dir, &Default::default()).unwrap();
    assert!(loaded.data.variables.iter().any(|v| v.name == "gold"));
    let errors = titan_core::compile(&loaded).unwrap_err();
    assert!(
        errors.iter().all(|d| d.message.contains("\"bribe\"")),
        "{errors:?}"
    );

    // Undo, step by step, takes both away.
    while h.state().project.as_ref().unwrap().can_undo() {
        h.state_mut().project.as_mut().unwrap().undo();
    }
    h.run_steps(2);
    let p = h.state().project.as_ref().unwrap();
    assert!(!p.data().variables.iter().any(|v| v.name == "gold"));
    assert!(!p.data().actions.iter().any(|a| a.name == "bribe"));
    assert!(p.problems().is_empty(), "{:?}", p.problems());
}
