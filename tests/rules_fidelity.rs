//! Rules the audit of issue 15 found read differently from the rulebooks:
//! tower rolls, turn order, entry sides. Each test names its rule.

mod common;

use std::sync::Arc;

use titan_core::Variant;
use titan_core::format::Edge;
use titan_core::game::save::{Position, PositionLegion, PositionPlayer};
use titan_core::game::{Action, Event, Game, Phase, PlayerId};

fn titan() -> Arc<Variant> {
    let dir = common::root().join("variants/titan");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap())
}

fn names(n: usize) -> Vec<String> {
    ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][..n]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// Law of Titan 1982 5.1: "If players roll the same number or roll the number
/// of a Tower Land already assigned to another player, they must roll again":
/// only they; an assigned tower stands. Replays every game's rolls by the rule.
#[test]
fn only_the_player_whose_roll_is_taken_rolls_again() {
    let v = titan();
    let mut rerolled_against_assigned = 0;
    for players in 2..=6 {
        for seed in 0..40 {
            let (g, events) = Game::new(v.clone(), Default::default(), &names(players), seed)
                .unwrap();
            let mut assigned: Vec<Option<u8>> = vec![None; players];
            for e in &events {
                let Event::TowerRolls { rolls } = e else {
                    continue;
                };
                for &(p, r) in rolls {
                    assert!(
                        assigned[p.0 as usize].is_none(),
                        "seed {seed}: {p:?} holds a tower but rolls again"
                    );
                    let taken = assigned.contains(&Some(r));
                    let tied = rolls.iter().any(|&(q, s)| q != p && s == r);
                    if taken {
                        rerolled_against_assigned += 1;
                    }
                    if !taken && !tied {
                        assigned[p.0 as usize] = Some(r);
                    }
                }
            }
            for (i, p) in g.state.players.iter().enumerate() {
                let tower = g.variant.board.land(p.tower.unwrap()).number;
                assert_eq!(Some((tower / 100) as u8), assigned[i], "seed {seed}");
            }
        }
    }
    assert!(rerolled_against_assigned > 0, "the case never came up");
}

/// The audit's case: seed 0, three players. P0 holds tower 400 from the first
/// round; when P2 rolls a 4 later, P2 rolls again and P0 keeps tower 400.
#[test]
fn an_assigned_tower_stands() {
    let (g, events) = Game::new(titan(), Default::default(), &names(3), 0).unwrap();
    let rounds: Vec<&Vec<(PlayerId, u8)>> = events
        .iter()
        .filter_map(|e| match e {
            Event::TowerRolls { rolls } => Some(rolls),
            _ => None,
        })
        .collect();
    assert!(rounds[0].contains(&(PlayerId(0), 4)), "{rounds:?}");
    assert!(
        rounds[1..].iter().all(|r| r.iter().all(|&(p, _)| p != PlayerId(0))),
        "{rounds:?}"
    );
    assert_eq!(g.variant.board.land(g.state.players[0].tower.unwrap()).number, 400);
}

fn player(name: &str, tower: u32) -> PositionPlayer {
    PositionPlayer {
        name: name.into(),
        score: 0,
        tower,
        alive: true,
        turns: 2,
    }
}

fn legion(marker: &str, land: u32, chars: &[&str]) -> PositionLegion {
    PositionLegion {
        marker: marker.parse().unwrap(),
        land,
        characters: chars.iter().map(|s| s.to_string()).collect(),
        moved: false,
        entered_from: None,
    }
}

/// The seats that take the next turns, from `first` in its muster phase.
fn turns_after(pos: &Position, count: usize) -> Vec<u8> {
    let mut g = pos.to_game(titan()).unwrap();
    let mut out = vec![g.state.active.0];
    for _ in 1..count {
        let p = g.state.active;
        if g.state.phase == Phase::Muster {
            g.apply(p, &Action::EndTurn).unwrap();
        }
        // Through a whole turn of the next player without moving.
        let p = g.state.active;
        out.push(p.0);
        for a in [Action::DoneSplitting, Action::Roll { distance: None }] {
            let _ = g.apply(p, &a);
        }
        // One legion must move (reference sheet, Movement).
        let mv = g
            .legal_actions(p)
            .into_iter()
            .find(|a| matches!(a, Action::Move { .. }))
            .unwrap();
        g.apply(p, &mv).unwrap();
        g.apply(p, &Action::DoneMoving).unwrap();
        assert_eq!(g.state.phase, Phase::Muster, "{:?}", g.legal_actions(p));
    }
    out
}

fn three_seats(options: &[(&str, bool)]) -> Position {
    Position {
        options: options
            .iter()
            .map(|&(n, b)| (n.to_string(), titan_core::format::OptionValue::Bool(b)))
            .collect(),
        seed: 1,
        players: vec![player("Ann", 300), player("Bob", 500), player("Cy", 100)],
        legions: vec![
            legion("P1-01", 300, &["Titan", "Ogre"]),
            legion("P2-01", 500, &["Titan", "Ogre"]),
            legion("P3-01", 100, &["Titan", "Ogre"]),
        ],
        active: 1,
        phase: Phase::Muster,
        roll: None,
        turn: 3,
    }
}

/// Law of Titan 1982 5.1 and 6.0: the player in the highest tower plays first,
/// then play proceeds clockwise around the table: the seats in order (Bob in
/// 500, then Cy, then Ann), not the towers (which would give Ann in 300 before
/// Cy in 100).
#[test]
fn play_goes_round_the_table_from_the_highest_tower() {
    assert_eq!(turns_after(&three_seats(&[]), 4), vec![1, 2, 0, 1]);
}

/// The option `tower_order` plays by tower, highest first (variant README).
#[test]
fn tower_order_is_an_option() {
    assert_eq!(
        turns_after(&three_seats(&[("tower_order", true)]), 4),
        vec![1, 0, 2, 1]
    );
}

/// The game's first player is the one in the highest tower whatever the seat
/// (Law of Titan 1982 5.1).
#[test]
fn the_highest_tower_plays_first() {
    for seed in 0..20 {
        let (g, _) = Game::new(titan(), Default::default(), &names(4), seed).unwrap();
        let tower = |p: usize| g.variant.board.land(g.state.players[p].tower.unwrap()).number;
        let best = (0..4).max_by_key(|&p| tower(p)).unwrap();
        assert_eq!(g.state.active.0 as usize, best, "seed {seed}");
    }
}

/// The attacker's edge in the battle a legion entering `land` from `from`
/// starts, as masterplay's battle request gives it.
fn entry_in(v: &Arc<Variant>, land: u32, from: u32) -> (Edge, Edge) {
    let mut att = legion("P1-01", land, &["Titan", "Ogre"]);
    att.moved = true;
    att.entered_from = Some(from);
    let pos = Position {
        options: Default::default(),
        seed: 3,
        players: vec![player("Ann", 300), player("Bob", 500)],
        legions: vec![
            att,
            legion("P1-02", 300, &["Angel", "Ogre"]),
            legion("P2-01", land, &["Titan", "Ogre"]),
        ],
        active: 0,
        phase: Phase::Engage,
        roll: None,
        turn: 3,
    };
    let mut g = pos.to_game(v.clone()).unwrap();
    let l = g.variant.board.by_number(land).unwrap();
    g.apply(PlayerId(0), &Action::Engage { land: l }).unwrap();
    // Titans do not flee: straight to the battle.
    let _ = g.apply(PlayerId(1), &Action::Fight);
    let _ = g.apply(PlayerId(0), &Action::Fight);
    let req = g.battle_request().expect("a battle");
    let battle = g.battle().expect("a battle");
    (req.attacker_edge, battle.attacker_edge())
}

fn entry(land: u32, from: u32) -> (Edge, Edge) {
    entry_in(&titan(), land, from)
}

/// Law of the Battlelands 25.A: the battleland's name-side lies on the land's
/// numbered side and the attacker enters on "the same relative side"
/// (reference sheet: the same relative 4-hex side). Land 10 points up, its
/// number on its lower right corner: from 200 (its bottom border) the
/// attacker enters by the East edge, from 9 (left) by the SouthWest, from 11
/// (right) by the NorthWest.
#[test]
fn entry_sides_of_a_land_pointing_up() {
    assert_eq!(entry(10, 200).0, Edge::East);
    assert_eq!(entry(10, 9).0, Edge::SouthWest);
    assert_eq!(entry(10, 11).0, Edge::NorthWest);
}

/// Land 1 points down, its number on its bottom corner: from 1000 (its top
/// border) the attacker enters by the SouthWest edge, from 42 (left) by the
/// East, from 2 (right) by the NorthWest (Law of the Battlelands 25.A).
#[test]
fn entry_sides_of_a_land_pointing_down() {
    assert_eq!(entry(1, 1000).0, Edge::SouthWest);
    assert_eq!(entry(1, 42).0, Edge::East);
    assert_eq!(entry(1, 2).0, Edge::NorthWest);
}

/// Law of the Battlelands 25.B: in the Tower the attacker always enters by the
/// lower left side; the engine's battle request says so too, as the battle
/// does (land 100 entered from 41).
#[test]
fn the_tower_entry_is_the_same_in_the_request_and_the_battle() {
    let (request, battle) = entry(100, 41);
    assert_eq!(request, Edge::SouthWest);
    assert_eq!(battle, Edge::SouthWest);
}

/// Every entry the board allows gives a wide edge, the three borders of a land
/// three different edges, and the request agrees with the battle.
#[test]
fn every_border_of_every_land_gives_its_own_wide_edge() {
    let v = titan();
    for l in v.board.lands() {
        let land = v.board.land(l);
        if v.terrains[land.terrain.index()].tower {
            continue;
        }
        let mut seen = Vec::new();
        for n in v.board.lands() {
            let other = v.board.land(n).position;
            let (dx, dy) = (other.x - land.position.x, other.y - land.position.y);
            let up = (land.position.x + land.position.y).rem_euclid(2) == 1;
            let touching = (dy == 0 && dx.abs() == 1) || (dx == 0 && dy == if up { 1 } else { -1 });
            if !touching {
                continue;
            }
            let (req, battle) = entry_in(&v, land.number, v.board.land(n).number);
            assert_eq!(req, battle, "land {} from {}", land.number, v.board.land(n).number);
            assert!(v.rules.battle.attacker_edges.contains(&req));
            seen.push(req);
        }
        let mut unique = seen.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), seen.len(), "land {}: {seen:?}", land.number);
    }
}
