//! The Reckoning of Titan 1980 (a showdown: one player against all the
//! others) played in the app, hot-seat by three people: the Beckoner's
//! button, each Defender's commit, the battle of teams passed from player
//! to player, to its end (Law of Titan 1980, 19).

mod common;

use common::play::{act_battle, click, eager, game, on_position, take_screen};

use std::path::Path;

use common::repo;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use titan_core::battle::{Action as BattleAction, BattleSide, Status};
use titan_core::game::{Action, PlayerId};
use titan_editor::PlayApp;
use titan_editor::play::Seat;

/// Red (390 points) has entered Blue's small legion on land 20, on Red's
/// turn; Blue and Green hold two legions each (a position of the variant's
/// tests); three people at one screen.
fn on_engagement(data: &Path) -> Harness<'static, PlayApp> {
    on_position(
        data,
        "titan-1980",
        &repo().join("variants/titan-1980/tests/reckoning.ron"),
        vec![
            Seat::person("Red"),
            Seat::person("Blue"),
            Seat::person("Green"),
        ],
    )
}

#[test]
fn the_reckoning_is_beckoned_committed_and_fought_in_the_app() {
    let data = tempfile::tempdir().unwrap();
    let mut h = on_engagement(data.path());
    take_screen(&mut h);
    click(&mut h, "Resolve the engagement in land 20");
    take_screen(&mut h);
    click(&mut h, "Flee");
    take_screen(&mut h);
    // On to the end of Red's Gameturn, where 19.B lets him beckon.
    for _ in 0..10 {
        take_screen(&mut h);
        if h.query_by_label_contains("Beckon the Reckoning").is_some() {
            break;
        }
        let next = game(&h)
            .my_actions()
            .into_iter()
            .find(|a| !matches!(a, Action::ConcedeGame));
        if let Some(a) = next {
            h.state_mut().game_mut().unwrap().act(&a);
        }
        h.run_steps(2);
    }
    click(&mut h, "Beckon the Reckoning");
    // 19.D-E: Green (150) commits first, then Blue (120).
    take_screen(&mut h);
    assert_eq!(game(&h).viewer, PlayerId(2));
    click(&mut h, "Commit Green's legion P3-02 to the showdown");
    take_screen(&mut h);
    assert_eq!(game(&h).viewer, PlayerId(1));
    click(&mut h, "Commit Blue's legion P2-03 to the showdown");
    let mut viewers = std::collections::BTreeSet::new();
    let mut strikes = 0;
    for _ in 0..600 {
        take_screen(&mut h);
        let viewer = game(&h).viewer;
        let Some(b) = game(&h).session.battle(viewer) else {
            break;
        };
        viewers.insert(viewer);
        let side = if viewer == PlayerId(0) {
            BattleSide::Attacker
        } else {
            BattleSide::Defender
        };
        assert_eq!(b.side, side);
        assert!(
            h.query_by_label_contains(if side == BattleSide::Attacker {
                "You are the attacker"
            } else {
                "You are the defender"
            })
            .is_some()
        );
        // 19.D: the other Defender's waiting characters are not shown.
        for u in &b.view.units {
            let theirs = b.view.teams.get(u.id as usize) != b.view.team.as_ref();
            if u.status == Status::Waiting && theirs {
                assert_eq!(u.character, "?");
            }
        }
        let actions = game(&h).battle_actions();
        let a = eager(&actions);
        let Some(a) = a else {
            // A Defender whose legion is gone commits another (19.G).
            let commit = game(&h)
                .my_actions()
                .into_iter()
                .find(|a| matches!(a, Action::Commit { .. }));
            match commit {
                Some(c) => h.state_mut().game_mut().unwrap().act(&c),
                None => break,
            }
            h.run_steps(2);
            continue;
        };
        if matches!(a, BattleAction::Strike { .. }) {
            strikes += 1;
        }
        act_battle(&mut h, &a);
    }
    assert_eq!(viewers.len(), 3, "all three players fought: {viewers:?}");
    assert!(strikes > 0);
    let red = game(&h).session.view(PlayerId(0));
    assert!(
        red.showdown.is_none(),
        "the Reckoning ended: {}",
        game(&h).status
    );
}
