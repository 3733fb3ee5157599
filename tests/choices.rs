//! An action whose effect needs a further choice from its player offers
//! that choice as his next legal actions, whatever its phase, and nothing
//! else until it is made (docs/scripting.md, "Choices inside an action").

mod common;

use std::sync::Arc;

use titan_core::format::VarValue;
use titan_core::game::{Action, Game, Phase, SCRIPTED_RULE};
use titan_core::script::ScriptArg;
use titan_core::vars::VarTarget;

#[test]
fn a_further_choice_comes_before_anything_else() {
    let dir = common::root().join("tests/fixtures/choices");
    let v =
        Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")));
    let names = ["A", "B"].map(String::from).to_vec();
    let (mut g, _) = Game::new(v, Default::default(), &names, 4).unwrap();
    while g.state.phase == Phase::InitialSplit {
        let p = g.state.active;
        let a = g.legal_actions(p).remove(0);
        g.apply(p, &a).unwrap();
    }
    let p = g.state.active;
    let draft = Action::Script {
        name: "draft".into(),
        args: Vec::new(),
    };
    assert!(g.legal_actions(p).contains(&draft));
    g.apply(p, &draft).unwrap();
    // Only the choice (one per legion of his) and conceding are offered.
    let mine: Vec<_> = g
        .state
        .legions
        .iter()
        .filter(|l| l.owner == p)
        .map(|l| l.marker)
        .collect();
    let mut want: Vec<Action> = mine
        .iter()
        .map(|&m| Action::Script {
            name: "assign".into(),
            args: vec![ScriptArg::Legion(m)],
        })
        .collect();
    want.push(Action::ConcedeGame);
    assert_eq!(g.legal_actions(p), want);
    // Anything else is refused as a rule of the variant, changing nothing.
    let before = g.fingerprint();
    let e = g.apply(p, &Action::Roll { distance: None }).unwrap_err();
    assert_eq!(e.rule, SCRIPTED_RULE, "{e}");
    assert!(
        e.message.contains("Assign the draft is to be chosen first"),
        "{e}"
    );
    assert_eq!(g.fingerprint(), before);
    // A save made now replays to the pending choice.
    let back = Game::from_save(Arc::clone(&g.variant), &g.to_save()).unwrap();
    assert_eq!(back.state, g.state);
    assert_eq!(back.state.choice.as_deref(), Some("assign"));
    g.apply(p, &want[0]).unwrap();
    let def = g.variant.variable("drafted").unwrap();
    assert_eq!(
        g.state.vars.get(def, VarTarget::Legion(mine[0])),
        &VarValue::Bool(true)
    );
    // The choice made, the phase goes on (the draft once a turn).
    assert_eq!(g.state.choice, None);
    let legal = g.legal_actions(p);
    assert!(legal.iter().any(|a| matches!(a, Action::Roll { .. })));
    assert!(!legal.contains(&draft));
}
