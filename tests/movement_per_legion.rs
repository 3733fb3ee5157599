//! Movement without dice, a distance per legion (`rules.movement.per_legion`,
//! `must_move`, `muster_distances`), as Gods of Titan plays it: 8.4 (EN 204-205,
//! DE 502-506): "All Legions which have to move, must move between 1 to 6
//! lands. Each Legion may move a differently distance"; "Each Legion must
//! move, as long as it is not on its own Tower land"; "A Legion may muster
//! Creatures only if it moved either 3, 4 or 5 lands".

mod common;

use std::sync::Arc;

use titan_core::game::random::random_action;
use titan_core::game::{Action, Game, Phase, PlayerId};
use titan_core::rng::GameRng;

fn got() -> Arc<titan_core::Variant> {
    Arc::new(
        titan_core::load(
            &common::root().join("variants/gods-of-titan"),
            &common::options(),
        )
        .unwrap(),
    )
}

fn names() -> Vec<String> {
    ["A", "B", "C"].map(String::from).to_vec()
}

/// A new game played (first legal action) to player 0's movement phase.
fn to_first_move() -> Game {
    let (mut g, _) = Game::new(got(), Default::default(), &names(), 5).unwrap();
    while !(g.state.phase == Phase::Move && g.state.active == PlayerId(0)) {
        let p = g.to_act()[0];
        let mine = g.state.legions.iter().filter(|l| l.owner == p).count();
        // Two legions or more to move (a split when there is one).
        let split = g.state.phase == Phase::Split && mine < 2;
        let legal = g.legal_actions(p);
        let a = legal
            .iter()
            .find(|a| split && matches!(a, Action::Split { .. }))
            .or_else(|| {
                legal.iter().find(|a| {
                    let leave = matches!(a, Action::Split { .. } | Action::ConcedeGame);
                    !leave
                })
            })
            .unwrap()
            .clone();
        g.apply(p, &a).unwrap();
    }
    g
}

fn me() -> PlayerId {
    PlayerId(0)
}

/// Player 0's legions: marker and land.
/// The legions of seat 0 that may move (not its tower legion, 5.6).
fn my_legions(g: &Game) -> Vec<(titan_core::game::Marker, titan_core::model::LandId)> {
    g.state
        .legions
        .iter()
        .filter(|l| l.owner == me() && !l.stationed)
        .map(|l| (l.marker, l.land))
        .collect()
}

/// The moves of `legion` listed now.
fn moves(g: &Game, legion: titan_core::game::Marker) -> Vec<Action> {
    g.legal_actions(me())
        .into_iter()
        .filter(|a| matches!(a, Action::Move { legion: l, .. } if *l == legion))
        .collect()
}

/// The first move of `legion` listed now.
fn a_move(g: &Game, legion: titan_core::game::Marker) -> Option<Action> {
    moves(g, legion).into_iter().next()
}

#[test]
fn each_legion_moves_a_distance_of_its_own() {
    let mut g = to_first_move();
    let v = Arc::clone(&g.variant);
    let mine = my_legions(&g);
    assert!(mine.len() >= 2, "{mine:?}");
    // No roll, nor a distance to choose: every legion's moves of every
    // distance are listed at once.
    let legal = g.legal_actions(me());
    assert!(!legal.iter().any(|a| matches!(a, Action::Roll { .. })));
    let refused = g
        .apply(me(), &Action::Roll { distance: Some(3) })
        .unwrap_err();
    assert!(refused.to_string().contains("no roll"), "{refused}");
    let (first, from) = mine[0];
    let exits = Arc::clone(&g.exits);
    let occ = vec![titan_core::game::Occupancy::Empty; v.board.land_count()];
    let at = |d: u8| -> Vec<_> {
        exits
            .moves(from, d, &occ)
            .into_iter()
            .map(|t| t.land)
            .collect()
    };
    let listed: Vec<_> = moves(&g, first)
        .into_iter()
        .map(|a| match a {
            Action::Move { to, .. } => to,
            _ => unreachable!(),
        })
        .collect();
    // A land one away and a land six away, both listed.
    assert!(at(1).iter().any(|l| listed.contains(l)), "a land one away");
    let far = at(6)
        .into_iter()
        .find(|l| listed.contains(l) && !at(1).contains(l))
        .expect("six lands");
    let go = |g: &Game, m, to| {
        moves(g, m)
            .into_iter()
            .find(|a| matches!(a, Action::Move { to: t, .. } if *t == to))
            .unwrap()
    };
    let a = go(&g, first, far);
    g.apply(me(), &a).unwrap();
    let (second, _) = mine[1];
    let near2 = moves(&g, second)
        .into_iter()
        .find_map(|a| match a {
            Action::Move { to, .. } if to != far => Some(to),
            _ => None,
        })
        .unwrap();
    let a = go(&g, second, near2);
    g.apply(me(), &a).unwrap();
    let moved = |m| {
        g.state
            .legions
            .iter()
            .find(|l| l.marker == m)
            .unwrap()
            .distance
    };
    // The distance it is taken to have moved: one it may muster after (3,
    // 4 or 5) when such a one reaches the land, else the longest that does.
    let d1 = moved(first).unwrap();
    assert!((1..=6).contains(&d1));
    assert!(exits.moves(from, d1, &occ).iter().any(|t| t.land == far));
    assert!(moved(second).is_some());
}

#[test]
fn every_legion_that_can_move_must_but_on_its_own_tower() {
    let mut g = to_first_move();
    let tower = g.state.players[0].tower.unwrap();
    let city = g.variant.board.by_number(1).unwrap();
    let exempt = |land| land == tower || land == city;
    let mine = my_legions(&g);
    // Every legion starts in the City (5.7): none must move there (8.6),
    // but at most one may stay (8.6, `shared_limit`): "In the first
    // Game-Turn only one Legion has to leave the City" (5.8).
    assert!(mine.iter().all(|&(_, land)| land == city));
    assert!(!g.legal_actions(me()).contains(&Action::DoneMoving));
    let m = a_move(&g, mine[0].0).unwrap();
    g.apply(me(), &m).unwrap();
    assert!(g.legal_actions(me()).contains(&Action::DoneMoving));
    g.apply(me(), &Action::DoneMoving).unwrap();
    // Play on to player 0's next movement phase: the legion off its tower
    // must move now, and the phase may not end until it has.
    let mut rng = GameRng::new(1);
    while !(g.state.phase == Phase::Move && g.state.active == me()) {
        let (p, a) = random_action(&g, &mut rng).unwrap();
        if matches!(a, Action::ConcedeGame) {
            continue;
        }
        g.apply(p, &a).unwrap();
    }
    let off_tower: Vec<_> = g
        .state
        .legions
        .iter()
        .filter(|l| l.owner == me() && !exempt(l.land))
        .map(|l| l.marker)
        .collect();
    assert!(!off_tower.is_empty());
    assert!(!g.legal_actions(me()).contains(&Action::DoneMoving));
    let refused = g.apply(me(), &Action::DoneMoving).unwrap_err();
    assert!(refused.to_string().contains("must"), "{refused}");
    // Moved, each of them, the phase may end.
    for m in off_tower {
        if let Some(a) = a_move(&g, m) {
            g.apply(me(), &a).unwrap();
        }
    }
    let stay_home = g
        .state
        .legions
        .iter()
        .all(|l| l.owner != me() || l.moved || exempt(l.land));
    assert!(stay_home);
    assert!(g.legal_actions(me()).contains(&Action::DoneMoving));
}

#[test]
fn only_a_legion_that_moved_three_to_five_lands_musters() {
    // Over random games: every muster is of a legion that moved 3, 4 or 5
    // lands, and a legion that moved another distance is refused one.
    let mut seen_refusal = false;
    let mut musters = 0;
    for seed in 0..6 {
        let (mut g, _) = Game::new(got(), Default::default(), &names(), seed).unwrap();
        let mut rng = GameRng::new(seed);
        for _ in 0..4000 {
            if g.state.outcome.is_some() {
                break;
            }
            let Some((p, a)) = random_action(&g, &mut rng) else {
                break;
            };
            if g.state.phase == Phase::Muster && g.state.engagement.is_none() && !seen_refusal {
                let early = g
                    .state
                    .legions
                    .iter()
                    .find(|l| l.owner == p && l.moved && !matches!(l.distance, Some(3..=5)));
                if let Some(l) = early {
                    let recruit = l.characters[0];
                    let e = g
                        .clone()
                        .apply(
                            p,
                            &Action::Muster {
                                legion: l.marker,
                                recruit,
                                reveal: vec![recruit],
                            },
                        )
                        .unwrap_err();
                    assert!(e.to_string().contains("3 or 4 or 5 lands"), "{e}");
                    seen_refusal = true;
                }
            }
            if let Action::Muster { legion, .. } = &a {
                let l = g
                    .state
                    .legions
                    .iter()
                    .find(|l| l.marker == *legion)
                    .unwrap();
                assert!(matches!(l.distance, Some(3..=5)), "{:?}", l.distance);
                musters += 1;
            }
            if matches!(a, Action::ConcedeGame) {
                continue;
            }
            g.apply(p, &a).unwrap();
        }
    }
    assert!(seen_refusal);
    assert!(musters > 10, "{musters}");
}

/// A position of Gods of Titan in Ann's muster phase: her legion in the
/// Marsh (land 202) moved `distance` lands.
fn marsh(distance: Option<u8>) -> Result<Game, String> {
    let text = format!(
        r#"(
        seed: 3,
        players: [(name: "Ann", tower: 307), (name: "Bob", tower: 319), (name: "Cid", tower: 331)],
        legions: [
            (marker: "P1-01", land: 202, characters: ["Ogre", "Ogre", "Centaur"], moved: true, entered_from: Some(203), distance: {}),
            (marker: "P2-01", land: 319, characters: ["Titan", "Angel"]),
            (marker: "P3-01", land: 331, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Muster,
        turn: 3,
    )"#,
        match distance {
            Some(d) => format!("Some({d})"),
            None => "None".into(),
        }
    );
    let p: titan_core::game::save::Position =
        titan_core::load::ron_options().from_str(&text).unwrap();
    p.to_game(got()).map_err(|e| e.to_string())
}

#[test]
fn a_position_says_how_far_a_legion_moved() {
    // A scenario's legion moved 4 lands musters an Ogre in the Marsh; one
    // moved 2 none (8.4: only after 3, 4 or 5 lands).
    let musters = |g: &Game| {
        g.legal_actions(me())
            .iter()
            .filter(|a| matches!(a, Action::Muster { .. }))
            .count()
    };
    assert!(musters(&marsh(Some(4)).unwrap()) > 0);
    assert_eq!(musters(&marsh(Some(2)).unwrap()), 0);
    assert_eq!(musters(&marsh(None).unwrap()), 0);
    let e = marsh(Some(9)).unwrap_err();
    assert!(e.contains("a legion moves 1 to 6 lands"), "{e}");
}
