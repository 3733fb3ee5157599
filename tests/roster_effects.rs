//! Masterplay effects on characters and scores (docs/scripting.md,
//! "Effects", "Characters and scores"): `ctx:move_character`,
//! `ctx:return_character`, `ctx:add_character` and `ctx:lower_score`, each
//! checked when requested (an illegal one is a script error that refuses the
//! action and changes nothing), and scores that never wrap.

mod common;

use std::sync::Arc;

use titan_core::game::{Action, Event, Game, Phase, PlayerId};
use titan_core::ids::Marker;
use titan_core::script::ScriptArg;

fn game() -> Game {
    let dir = common::root().join("tests/fixtures/roster");
    let v =
        Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")));
    let names = ["A", "B"].map(String::from).to_vec();
    let (mut g, _) = Game::new(v, Default::default(), &names, 11).unwrap();
    // Through the initial splits to the first player's move phase (no split on the first turn).
    while g.state.phase == Phase::InitialSplit {
        let p = g.state.active;
        let a = g.legal_actions(p).remove(0);
        g.apply(p, &a).unwrap();
    }
    assert_eq!(g.state.phase, Phase::Move);
    g
}

fn script(name: &str, args: Vec<ScriptArg>) -> Action {
    Action::Script {
        name: name.to_string(),
        args,
    }
}

fn id(g: &Game, name: &str) -> titan_core::model::CharacterId {
    g.variant.character_by_name(name).unwrap()
}

fn legions(g: &Game, p: PlayerId) -> Vec<Marker> {
    g.state
        .legions
        .iter()
        .filter(|l| l.owner == p)
        .map(|l| l.marker)
        .collect()
}

fn count(g: &Game, m: Marker, c: titan_core::model::CharacterId) -> usize {
    g.legion(m)
        .map_or(0, |l| l.characters.iter().filter(|&&x| x == c).count())
}

/// Applies `a`, which must be refused as a script error containing `why`,
/// with the game unchanged.
fn refused(g: &mut Game, p: PlayerId, a: &Action, why: &str) {
    let before = g.fingerprint();
    let e = g.apply(p, a).unwrap_err();
    assert!(e.is_script_failure(), "{e}");
    assert!(e.message.contains(why), "{e}");
    assert_eq!(g.fingerprint(), before, "a refused action changes nothing");
}

#[test]
fn a_character_moves_between_two_of_a_players_legions() {
    let mut g = game();
    let p = g.state.active;
    let [a, b] = legions(&g, p)[..] else { panic!() };
    // A character the first legion has and is not its only one.
    let from = g.legion(a).unwrap().characters.clone();
    let c = *from
        .iter()
        .find(|&&c| c != g.variant.rules.titan.character)
        .unwrap();
    let (in_a, in_b) = (count(&g, a, c), count(&g, b, c));
    let caretaker = g.state.caretaker.clone();
    let act = script(
        "transfer",
        vec![
            ScriptArg::Legion(a),
            ScriptArg::Legion(b),
            ScriptArg::Character(c),
        ],
    );
    let events = g.apply(p, &act).unwrap();
    assert_eq!(count(&g, a, c), in_a - 1);
    assert_eq!(count(&g, b, c), in_b + 1);
    assert_eq!(
        g.state.caretaker, caretaker,
        "the caretaker is not involved"
    );
    assert!(events.iter().any(|e| matches!(e,
        Event::CharacterMoved { from, to, character } if *from == a && *to == b && *character == c)));
    // A save replays to the same position.
    let back = Game::from_save(Arc::clone(&g.variant), &g.to_save()).unwrap();
    assert_eq!(back.state, g.state);
}

#[test]
fn a_legion_is_never_emptied_nor_overfilled() {
    let mut g = game();
    let p = g.state.active;
    let [a, b] = legions(&g, p)[..] else { panic!() };
    // Move all but the last character of `a` into `b`, then the last one
    // is refused; `b` holds at most the legion limit.
    let max = usize::from(g.variant.rules.legions.max_size);
    loop {
        let chars = g.legion(a).unwrap().characters.clone();
        let c = chars[0];
        let act = script(
            "transfer",
            vec![
                ScriptArg::Legion(a),
                ScriptArg::Legion(b),
                ScriptArg::Character(c),
            ],
        );
        if chars.len() == 1 {
            refused(&mut g, p, &act, "is the last character");
            break;
        }
        if g.legion(b).unwrap().characters.len() == max {
            refused(&mut g, p, &act, "is full");
            break;
        }
        g.apply(p, &act).unwrap();
    }
}

#[test]
fn a_character_goes_back_to_the_caretaker_and_comes_out_again() {
    let mut g = game();
    let p = g.state.active;
    let [a, _] = legions(&g, p)[..] else { panic!() };
    let ogre = id(&g, "Ogre");
    let titan = g.variant.rules.titan.character;
    // A Titan never goes back; a character that is not a Titan does.
    let holder = *legions(&g, p)
        .iter()
        .find(|&&m| count(&g, m, titan) == 1)
        .unwrap();
    refused(
        &mut g,
        p,
        &script(
            "dismiss",
            vec![ScriptArg::Legion(holder), ScriptArg::Character(titan)],
        ),
        "a Titan does not go back",
    );
    let other = *g
        .legion(a)
        .unwrap()
        .characters
        .iter()
        .find(|&&c| c != titan)
        .unwrap();
    let left = g.state.caretaker[other.index()];
    let height = g.legion(a).unwrap().characters.len();
    let events = g
        .apply(
            p,
            &script(
                "dismiss",
                vec![ScriptArg::Legion(a), ScriptArg::Character(other)],
            ),
        )
        .unwrap();
    assert_eq!(
        g.state.caretaker[other.index()],
        left + 1,
        "its count is available again"
    );
    assert_eq!(g.legion(a).unwrap().characters.len(), height - 1);
    assert!(events.iter().any(|e| matches!(e, Event::Returned { .. })));
    // One Titan per player (rules.titan.per_player, 1 by default).
    refused(
        &mut g,
        p,
        &script(
            "enlist",
            vec![ScriptArg::Legion(a), ScriptArg::Character(titan)],
        ),
        "has his Titan already",
    );
    let ogres = g.state.caretaker[ogre.index()];
    g.apply(
        p,
        &script(
            "enlist",
            vec![ScriptArg::Legion(a), ScriptArg::Character(ogre)],
        ),
    )
    .unwrap();
    assert_eq!(g.state.caretaker[ogre.index()], ogres - 1);
}

#[test]
fn scores_rise_and_fall_and_never_wrap() {
    let mut g = game();
    let p = g.state.active;
    let score = |g: &Game| g.state.players[p.0 as usize].score;
    let pts = |n: i64| script("score", vec![ScriptArg::Number(n)]);
    g.apply(p, &pts(10)).unwrap();
    assert_eq!(score(&g), 10);
    let events = g.apply(p, &pts(-3)).unwrap();
    assert_eq!(score(&g), 7);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::ScoreLowered {
            points: 3,
            score: 7,
            ..
        }
    )));
    // Lowered below nothing: 0.
    g.apply(p, &pts(-1000)).unwrap();
    assert_eq!(score(&g), 0);
    g.apply(p, &pts(4_294_967_295)).unwrap();
    assert_eq!(score(&g), u32::MAX);
    refused(&mut g, p, &pts(4_294_967_295), "would pass 4294967295");
    refused(&mut g, p, &pts(10), "would pass 4294967295");
    assert_eq!(score(&g), u32::MAX);
}
