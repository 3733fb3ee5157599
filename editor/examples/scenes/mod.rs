//! Game positions for the examples: the masterboard with 24 legions and a
//! battle with 14 characters on the battleland.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use titan_core::battle::{self, Status, UnitId};
use titan_core::battleland::HexId;
use titan_core::format::Side;
use titan_core::game::random::random_action;
use titan_core::game::save::Position;
use titan_core::game::{Action, Event, Game, Marker, Phase, PlayerId};
use titan_core::model::Variant;
use titan_core::rng::GameRng;
use titan_editor::play::Seat;

/// A game, the events so far, the seats, and what is selected.
pub type Scene<S> = (Game, Vec<Event>, Vec<Seat>, Option<S>);

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub fn variant() -> Result<Arc<Variant>, String> {
    titan_editor::play::load_variant(&root().join("variants/titan"))
}

/// Everyone a computer but the seat in front of the screen.
pub fn seats(n: usize, me: PlayerId) -> Vec<Seat> {
    const NAMES: [&str; 6] = ["Red", "Blue", "Green", "Yellow", "Purple", "Cyan"];
    (0..n)
        .map(|i| Seat {
            computer: i != me.0 as usize,
            ..Seat::person(NAMES[i])
        })
        .collect()
}

/// Six players' random play (splitting whenever possible) until 24 legions
/// stand at a movement phase, the roll made (with `want_teleport`, played on
/// until a teleport is offered, with at least 12 legions); and the mover's
/// legion with the most moves.
pub fn board(want_teleport: bool) -> Result<Scene<Marker>, String> {
    let variant = variant()?;
    let names: Vec<String> = seats(6, PlayerId(0)).into_iter().map(|s| s.name).collect();
    let mut fallback = None;
    for seed in 0..200 {
        let (mut g, mut log) = Game::new(variant.clone(), Default::default(), &names, seed)
            .map_err(|e| e.to_string())?;
        let mut rng = GameRng::new(seed);
        // Play until at least 24 legions stand at a movement roll; keep the
        // first such position where a teleport is offered (both kinds of
        // move show), else the first at all.
        let mut reached = false;
        for _ in 0..20_000 {
            if g.state.legions.len() >= 24 && g.state.phase == Phase::Move && g.state.roll.is_some()
            {
                reached = true;
                break;
            }
            let Some((p, a)) = random_action(&g, &mut rng) else {
                break;
            };
            let a = g
                .legal_actions(p)
                .into_iter()
                .find(|x| matches!(x, Action::Split { .. }))
                .unwrap_or(a);
            log.extend(g.apply(p, &a).map_err(|e| e.to_string())?);
        }
        if !reached {
            continue;
        }
        if fallback.is_none() {
            fallback = Some((g.clone(), log.clone()));
        }
        break;
    }
    if want_teleport {
        return teleport_scene(&variant, &names);
    }
    let (g, log) = fallback.ok_or("no position with 24 legions found")?;
    let me = g.state.active;
    let pick = most_moves(&g);
    Ok((g, log, seats(6, me), pick))
}

/// The mover's legion with the most moves.
fn most_moves(g: &Game) -> Option<Marker> {
    let me = g.state.active;
    let actions = g.legal_actions(me);
    let count = |m: Marker| {
        actions
            .iter()
            .filter(|a| matches!(a, Action::Move { legion, .. } if *legion == m))
            .count()
    };
    g.state
        .legions
        .iter()
        .filter(|l| l.owner == me)
        .map(|l| l.marker)
        .max_by_key(|m| count(*m))
}

/// Two legions of seven engaged in land 1000, every character brought on in
/// each side's first maneuver; and a character that may strike.
pub fn battle() -> Result<Scene<UnitId>, String> {
    let variant = variant()?;
    let pos: Position = titan_core::load::ron_options()
        .from_str(BATTLE)
        .map_err(|e| e.to_string())?;
    let mut g = pos.to_game(variant).map_err(|e| e.to_string())?;
    let mut log = Vec::new();
    let land = g.legion("P1-01".parse()?).ok_or("no P1-01")?.land;
    for (p, a) in [
        (PlayerId(0), Action::Engage { land }),
        // The defender has lords: it may not flee, so no choice to stand.
        (PlayerId(0), Action::Fight),
    ] {
        log.extend(g.apply(p, &a).map_err(|e| e.to_string())?);
    }
    // Each side's first maneuver: every character onto the battleland, the
    // attacker's next to the defender's where it can, until a strike may be
    // made.
    for _ in 0..200 {
        let b = g.battle().ok_or("no battle")?;
        let actions = b.legal_actions();
        let striking = actions
            .iter()
            .any(|a| matches!(a, battle::Action::Strike { .. }));
        let waiting: Vec<u8> = b
            .units()
            .iter()
            .enumerate()
            .filter(|(_, u)| u.status == Status::Waiting && u.side == b.moving())
            .map(|(i, _)| i as u8)
            .collect();
        let all_on = b.units().iter().all(|u| u.status != Status::Waiting);
        if striking && all_on {
            break;
        }
        let enemy_next_to = |to: HexId, unit: u8| {
            let side = b.units()[usize::from(unit)].side;
            Side::ALL
                .iter()
                .filter_map(|s| b.board().neighbour(to, *s))
                .any(|n| {
                    b.unit_at(n)
                        .is_some_and(|o| b.units()[usize::from(o)].side != side)
                })
        };
        let moves: Vec<&battle::Action> = actions
            .iter()
            .filter(|a| matches!(a, battle::Action::Move { unit, .. } if waiting.contains(unit)))
            .collect();
        let next = moves
            .iter()
            .find(|a| matches!(a, battle::Action::Move { unit, to } if enemy_next_to(*to, *unit)))
            .or(moves.first())
            .map(|a| (*a).clone());
        let a = match next {
            Some(a) => a,
            None => actions
                .iter()
                .find(|a| matches!(a, battle::Action::EndManeuver | battle::Action::EndStrikes))
                .cloned()
                .ok_or("nothing to end")?,
        };
        drop(b);
        let p = g.to_act()[0];
        log.extend(
            g.apply(p, &Action::Battle { battle: a })
                .map_err(|e| e.to_string())?,
        );
    }
    let acting = g.to_act()[0];
    let striker = g.battle().and_then(|b| {
        b.legal_actions().into_iter().find_map(|a| match a {
            battle::Action::Strike { unit, .. } | battle::Action::Rangestrike { unit, .. } => {
                Some(unit)
            }
            _ => None,
        })
    });
    Ok((g, log, seats(2, acting), striker))
}

/// Two legions of seven engaged in land 1000 (Mountains).
const BATTLE: &str = r#"(
    seed: 9,
    players: [
        (name: "Red", tower: 100, score: 100),
        (name: "Blue", tower: 400, score: 100),
    ],
    legions: [
        (marker: "P1-01", land: 1000, characters: ["Titan", "Angel", "Troll", "Troll", "Ranger", "Ranger", "Ogre"], moved: true, entered_from: 1),
        (marker: "P2-01", land: 1000, characters: ["Titan", "Angel", "Gorgon", "Gorgon", "Lion", "Lion", "Cyclops"]),
    ],
    active: 0,
    phase: Engage,
    turn: 5,
)"#;

/// Early in a six-player game, a movement roll of 6 with a lord in a tower:
/// normal moves and tower teleports both offered; the legion that may
/// teleport selected.
fn teleport_scene(variant: &Arc<Variant>, names: &[String]) -> Result<Scene<Marker>, String> {
    for seed in 0..500 {
        let (mut g, mut log) = Game::new(variant.clone(), Default::default(), names, seed)
            .map_err(|e| e.to_string())?;
        let mut rng = GameRng::new(seed);
        for _ in 0..400 {
            if g.state.phase == Phase::Move && g.state.roll.is_some() {
                let me = g.state.active;
                let actions = g.legal_actions(me);
                let pick = actions.iter().find_map(|a| match a {
                    Action::Teleport { legion, .. } => Some(*legion),
                    _ => None,
                });
                if pick.is_some() {
                    return Ok((g, log, seats(6, me), pick));
                }
            }
            let Some((p, a)) = random_action(&g, &mut rng) else {
                break;
            };
            log.extend(g.apply(p, &a).map_err(|e| e.to_string())?);
        }
    }
    Err("no position with a teleport found".into())
}

/// Gods of Titan, three players' random play (splitting whenever possible)
/// into the movement phase of game turn 8 (the treaty still on), and the
/// mover's legion with the most moves: the board with the City, the
/// Dungeon, the Sea and the Whirls, legions standing together.
#[allow(dead_code)] // Only `show_play` shows it.
pub fn gods() -> Result<Scene<Marker>, String> {
    let variant = titan_editor::play::load_variant(&root().join("variants/gods-of-titan"))?;
    let names: Vec<String> = seats(3, PlayerId(0)).into_iter().map(|s| s.name).collect();
    let (mut g, mut log) =
        Game::new(variant, Default::default(), &names, 7).map_err(|e| e.to_string())?;
    let mut rng = GameRng::new(7);
    for _ in 0..20_000 {
        if g.state.turn >= 8 && g.state.phase == Phase::Move && g.state.active == PlayerId(0) {
            break;
        }
        let Some((p, a)) = random_action(&g, &mut rng) else {
            break;
        };
        if matches!(a, Action::ConcedeGame) {
            continue;
        }
        let a = g
            .legal_actions(p)
            .into_iter()
            .find(|x| matches!(x, Action::Split { .. }))
            .unwrap_or(a);
        log.extend(g.apply(p, &a).map_err(|e| e.to_string())?);
    }
    let me = g.state.active;
    let pick = most_moves(&g);
    Ok((g, log, seats(3, me), pick))
}
