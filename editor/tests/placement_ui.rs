//! A battle of Titan 1980 played in the app, hot-seat: the Placement
//! Phases (the defender places first, then the attacker) and the Strike
//! Phases of `variants/titan-1980` (Law of Titan 1980, 10-12), driven by
//! the screen's labels and the battle actions its panel offers, to the
//! battle's end.

mod common;

use common::play::{act_battle, click, eager, game, on_position, take_screen};

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use titan_core::battle::{Action as BattleAction, Phase};
use titan_core::game::PlayerId;
use titan_editor::PlayApp;
use titan_editor::play::Seat;

/// Red's legion has entered Blue's in land 41 (a Marsh: the Marsh's
/// Battleboard), on Red's turn; both seats are people.
fn on_engagement(data: &Path) -> Harness<'static, PlayApp> {
    let text = r#"(
        seed: 11,
        players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
        legions: [
            (marker: "P1-01", land: 41, characters: ["Troll", "Ogre", "Ogre"], moved: true, entered_from: 40),
            (marker: "P1-02", land: 100, characters: ["Titan", "Angel", "Centaur"]),
            (marker: "P2-01", land: 41, characters: ["Ogre", "Centaur"]),
            (marker: "P2-02", land: 400, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Engage,
        turn: 4,
    )"#;
    let file = data.join("position.ron");
    std::fs::write(&file, text).unwrap();
    on_position(
        data,
        "titan-1980",
        &file,
        vec![Seat::person("Red"), Seat::person("Blue")],
    )
}

#[test]
fn a_battle_of_placement_phases_is_played_to_its_end() {
    let data = tempfile::tempdir().unwrap();
    let mut h = on_engagement(data.path());
    take_screen(&mut h);
    click(&mut h, "Resolve the engagement in land 41");
    take_screen(&mut h);
    click(&mut h, "Stand and fight");
    take_screen(&mut h);
    click(&mut h, "Fight");
    take_screen(&mut h);
    // 11.C: the defender goes first in every Placement Phase.
    assert_eq!(game(&h).viewer, PlayerId(1));
    assert!(
        h.query_by_label_contains("the defender places").is_some(),
        "the panel names the defender's Placement Phase"
    );
    assert!(h.query_by_label_contains("You are the defender").is_some());
    let mut placed_by = Vec::new();
    let mut strikes = 0;
    for _ in 0..400 {
        take_screen(&mut h);
        let Some(b) = game(&h).session.battle(game(&h).viewer) else {
            break;
        };
        if b.view.phase == Phase::Over {
            break;
        }
        let actions = game(&h).battle_actions();
        // Commit and strike first; end the phase when nothing else is
        // offered (the panel offers what the rules allow).
        let a = eager(&actions).or_else(|| {
            actions
                .iter()
                .find(|a| !matches!(a, BattleAction::Concede(_)))
                .cloned()
        });
        let Some(a) = a else {
            h.run_steps(2);
            continue;
        };
        match &a {
            BattleAction::Move { .. } => placed_by.push(b.view.moving),
            BattleAction::Strike { .. } => strikes += 1,
            _ => {}
        }
        act_battle(&mut h, &a);
    }
    // Both sides placed, the defender first; blows were struck; the battle
    // ended with one legion gone (10.B), and the game goes on.
    use titan_core::battle::BattleSide::{Attacker, Defender};
    assert_eq!(placed_by.first(), Some(&Defender), "{placed_by:?}");
    assert!(placed_by.contains(&Attacker), "{placed_by:?}");
    assert!(strikes > 0);
    let over = game(&h).session.battle(PlayerId(0)).map(|b| b.view.phase);
    assert!(
        matches!(over, None | Some(Phase::Over)),
        "{over:?} {} {:?}",
        game(&h).status,
        game(&h).battle_actions()
    );
    let red = game(&h).session.view(PlayerId(0));
    let gone = ["P1-01", "P2-01"]
        .iter()
        .filter(|m| !red.legions.iter().any(|l| l.marker.to_string() == **m))
        .count();
    assert!(gone >= 1, "a legion of the engagement is gone");
}
