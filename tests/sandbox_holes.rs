//! What scripts may not do at game time (docs/scripting.md, "Errors"), each
//! a script error that refuses the action and changes nothing, where a
//! script would otherwise change the game unseen or break its saves.

mod common;

use std::sync::Arc;

use titan_core::game::{Action, Event, Game, Outcome, Phase};

fn game() -> Game {
    let dir = common::root().join("tests/fixtures/sandbox-holes");
    let v =
        Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")));
    let names = ["A", "B", "C"].map(String::from).to_vec();
    let (mut g, _) = Game::new(v, Default::default(), &names, 5).unwrap();
    while g.state.phase == Phase::InitialSplit {
        let p = g.state.active;
        let a = g.legal_actions(p).remove(0);
        g.apply(p, &a).unwrap();
    }
    assert_eq!(g.state.phase, Phase::Move);
    g
}

fn act(name: &str) -> Action {
    Action::Script {
        name: name.to_string(),
        args: Vec::new(),
    }
}

/// `name` is refused as a script error saying `why`, the game unchanged,
/// and its save still loads.
fn refused(g: &mut Game, name: &str, why: &str) {
    let p = g.state.active;
    let before = g.fingerprint();
    let e = g.apply(p, &act(name)).unwrap_err();
    assert!(e.is_script_failure(), "{name}: {e}");
    assert!(e.message.contains(why), "{name}: {e}");
    assert_eq!(
        g.fingerprint(),
        before,
        "{name}: a refused action changes nothing"
    );
    let back = Game::from_save(Arc::clone(&g.variant), &g.to_save()).unwrap();
    assert_eq!(back.state, g.state);
}

#[test]
fn handlers_and_hooks_are_registered_only_while_scripts_load() {
    let mut g = game();
    // The legal that registers is a script error: the action is not
    // offered, and the failure is reported, not kept as a handler.
    let p = g.state.active;
    let listed = g.legal_actions(p);
    assert!(!listed.contains(&act("register_late")));
    let failure = g
        .take_script_failure()
        .expect("the listing's failure is reported");
    assert!(
        failure
            .message
            .contains("handlers are registered while a script loads"),
        "{failure}"
    );
    refused(
        &mut g,
        "register_late",
        "handlers are registered while a script loads",
    );
    refused(
        &mut g,
        "hook_late",
        "hooks are registered while a script loads",
    );
    // The game plays on, and replays, with nothing registered late.
    for _ in 0..200 {
        let p = g.state.active;
        let Some(a) = g
            .legal_actions(p)
            .into_iter()
            .find(|a| !matches!(a, Action::Script { .. }))
        else {
            break;
        };
        g.apply(p, &a).unwrap();
    }
    let back = Game::from_save(Arc::clone(&g.variant), &g.to_save()).unwrap();
    assert_eq!(back.state, g.state);
}

#[test]
fn legal_may_not_request_effects_and_apply_returns_nothing() {
    let mut g = game();
    refused(
        &mut g,
        "award_in_legal",
        "may read ctx but not request effects",
    );
    refused(&mut g, "refuse_by_value", "returns nothing, not a boolean");
}

#[test]
fn a_ctx_kept_past_its_event_is_an_error() {
    let mut g = game();
    refused(&mut g, "use_kept_ctx", "belongs to an event that is over");
}

#[test]
fn putting_every_player_out_ends_the_game_as_a_draw_and_nothing_follows() {
    let mut g = game();
    let p = g.state.active;
    let events = g.apply(p, &act("end_everyone")).unwrap();
    let over = events
        .iter()
        .position(|e| matches!(e, Event::GameOver { .. }))
        .expect("the game ends");
    assert_eq!(
        over,
        events.len() - 1,
        "no event follows GameOver: {events:?}"
    );
    let Event::GameOver { outcome } = &events[over] else {
        unreachable!()
    };
    assert!(
        matches!(outcome, Outcome::Draw(all) if all.len() == 3),
        "{outcome:?}"
    );
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::PlayerEliminated { .. }))
            .count(),
        3
    );
}
