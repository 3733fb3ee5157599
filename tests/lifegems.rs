//! Gods of Titan's Lifegems (`variants/gods-of-titan/scripts/economy.lua`):
//! 20.2-20.4 (EN 440, 448-452): "The life stones are calculated by multiply
//! the number of all slain enemy characters by 10"; fleeing: "he receives the
//! number of his characters multiplied by 5 in Lifegems. The attacker
//! receives the same number"; an agreement: "the looser receives the number
//! of his characters multiplied by 5 ... the winning player ... the number
//! of enemy characters multiplied by 10"; a victory in battle: the winner 10
//! a character, the loser none; a draw or a time-out: none.

mod common;

use std::sync::Arc;

use titan_core::Variant;
use titan_core::format::VarValue;
use titan_core::game::save::Position;
use titan_core::game::{Action, Event, Game, Loss, PlayerId};
use titan_core::rng::GameRng;
use titan_core::vars::VarTarget;

fn got() -> Arc<Variant> {
    Arc::new(
        titan_core::load(
            &common::root().join("variants/gods-of-titan"),
            &common::options(),
        )
        .unwrap(),
    )
}

/// Three players; Ann's legion of three Creatures at land 302 and Bob's
/// at `bob` (a land number), Ann to move.
fn game(v: &Arc<Variant>, bob: u32) -> Game {
    let text = format!(
        r#"(
        seed: 9,
        players: [(name: "Ann", tower: 307), (name: "Bob", tower: 319), (name: "Cid", tower: 331)],
        legions: [
            (marker: "P1-01", land: 307, characters: ["Titan", "Angel"]),
            (marker: "P1-02", land: 302, characters: ["Ogre", "Ogre", "Centaur"]),
            (marker: "P2-01", land: 319, characters: ["Titan", "Angel"]),
            (marker: "P2-02", land: {bob}, characters: ["Gargoyle", "Centaur", "Ogre"]),
            (marker: "P3-01", land: 331, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Move,
        // After the treaty (8.3: no engagement through game turn 10).
        turn: 11,
    )"#
    );
    let p: Position = titan_core::load::ron_options().from_str(&text).unwrap();
    p.to_game(Arc::clone(v)).unwrap()
}

fn gems(g: &Game, seat: u8) -> i64 {
    let def = g.variant.variable("lifegems").unwrap();
    match g.state.vars.get(def, VarTarget::Player(PlayerId(seat))) {
        VarValue::Int(n) => *n,
        other => panic!("{other:?}"),
    }
}

/// Ann's legion P1-02 moved onto Bob's, and the engagement picked: Bob to
/// decide whether to flee.
fn engaged(v: &Arc<Variant>) -> Game {
    // A land one away from P1-02's: Bob's legion is put there.
    let probe = game(v, 2);
    let ann = PlayerId(0);
    let from = probe
        .state
        .legions
        .iter()
        .find(|l| l.marker.to_string() == "P1-02")
        .unwrap()
        .land;
    let empty = vec![titan_core::game::Occupancy::Empty; v.board.land_count()];
    let to = probe.exits.moves(from, 1, &empty)[0].land;
    let number = v.board.land(to).number;
    let mut g = game(v, number);
    let m = g
        .legal_actions(ann)
        .into_iter()
        .find(|a| matches!(a, Action::Move { legion, to: t, .. } if legion.to_string() == "P1-02" && *t == to))
        .unwrap();
    g.apply(ann, &m).unwrap();
    g.apply(ann, &Action::DoneMoving).unwrap();
    g.apply(ann, &Action::Engage { land: to }).unwrap();
    g
}

/// The winner passes on what he may still do (a summon, an acquisition):
/// the engagement is over.
fn finish(g: &mut Game) {
    while g.state.engagement.is_some() {
        let p = g.to_act()[0];
        g.apply(p, &Action::DoneAfter).unwrap();
    }
}

#[test]
fn fleeing_gives_both_five_for_each_fleeing_character() {
    let v = got();
    let mut g = engaged(&v);
    g.apply(PlayerId(1), &Action::Flee).unwrap();
    finish(&mut g);
    assert_eq!((gems(&g, 0), gems(&g, 1), gems(&g, 2)), (15, 15, 0));
}

#[test]
fn an_agreement_gives_the_winner_ten_and_the_loser_five_a_character() {
    let v = got();
    let mut g = engaged(&v);
    let bob = PlayerId(1);
    if g.legal_actions(bob).contains(&Action::Stand) {
        g.apply(bob, &Action::Stand).unwrap();
    }
    let lost: Vec<_> = g
        .state
        .legions
        .iter()
        .find(|l| l.marker.to_string() == "P2-02")
        .unwrap()
        .characters
        .clone();
    let proposal = Action::Propose {
        attacker_losses: vec![],
        defender_losses: lost,
    };
    g.apply(bob, &proposal).unwrap();
    g.apply(PlayerId(0), &Action::Accept).unwrap();
    finish(&mut g);
    assert_eq!((gems(&g, 0), gems(&g, 1)), (30, 15));
}

#[test]
fn a_battle_won_gives_the_winner_ten_a_slain_enemy_and_a_time_loss_none() {
    let v = got();
    let mut seen = [false; 3];
    for seed in 0..40 {
        let mut g = engaged(&v);
        let bob = PlayerId(1);
        if g.legal_actions(bob).contains(&Action::Stand) {
            g.apply(bob, &Action::Stand).unwrap();
        }
        let who = g.to_act()[0];
        g.apply(who, &Action::Fight).unwrap();
        let mut rng = GameRng::new(seed);
        let mut round = 0;
        let mut ann_slain = 0;
        while g.state.engagement.is_some() {
            round = round.max(g.battle().map_or(0, |b| b.defender_maneuver()));
            let p = g.to_act()[0];
            let legal = g.legal_actions(p);
            let battle: Vec<&Action> = legal
                .iter()
                .filter(|a| matches!(a, Action::Battle { .. }))
                .filter(|a| !matches!(a, Action::Battle { battle } if format!("{battle:?}").contains("Concede")))
                .collect();
            let a = match battle.len() {
                0 => legal
                    .iter()
                    .find(|a| matches!(a, Action::DoneAfter))
                    .or_else(|| legal.iter().find(|a| !matches!(a, Action::ConcedeGame)))
                    .unwrap()
                    .clone(),
                n => battle[rng.roll(n as u32) as usize - 1].clone(),
            };
            let mut events = Vec::new();
            g.apply_into(p, &a, &mut events).unwrap();
            for e in events {
                if let Event::Slain {
                    legion,
                    characters,
                    loss: Loss::Slain,
                } = e
                    && legion.to_string() == "P1-02"
                {
                    ann_slain += characters.len();
                }
            }
        }
        let ann = g
            .state
            .legions
            .iter()
            .any(|l| l.marker.to_string() == "P1-02");
        let bob_left = g
            .state
            .legions
            .iter()
            .any(|l| l.marker.to_string() == "P2-02");
        match (ann, bob_left) {
            // Ann won: Bob's three slain, and a fourth if he reinforced.
            (true, false) => {
                assert!(matches!((gems(&g, 0), gems(&g, 1)), (30 | 40, 0)));
                seen[0] = true;
            }
            // Bob won: Ann's slain, ten each; or Ann lost on time (the
            // battle's last round reached): none.
            (false, true) => {
                let limit = v.rules.battle.defender_maneuvers;
                match (gems(&g, 0), gems(&g, 1)) {
                    (0, 30 | 40) => seen[1] = true,
                    (0, 0) => {
                        assert_eq!(round, limit, "no Lifegems, yet no time loss");
                        // Some of Ann's were slain before time ran out: a
                        // battle won would have paid for them.
                        seen[2] |= ann_slain > 0;
                    }
                    other => panic!("{other:?}"),
                }
            }
            // A draw: none.
            _ => assert_eq!((gems(&g, 0), gems(&g, 1)), (0, 0)),
        }
    }
    assert!(seen.iter().all(|&s| s), "won, lost, lost on time: {seen:?}");
}
