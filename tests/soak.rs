//! Soak: seeded random games of 2 to 6 players, each played by picking random
//! legal actions until the game ends or a turn bound. After every action:
//! the invariants hold (no legion over its limit, one legion per land outside
//! engagements, markers unique, every character accounted for), and every
//! field of every seat's view reveals only what that seat may know (see
//! `common/hidden.rs`). Between actions, random well-formed actions by any
//! seat: one the engine accepts must be among that seat's legal actions, and
//! one it refuses must change nothing a later action can observe.
//!
//! `TITAN_SOAK=N` plays N games (default 100); it must be a positive number.

mod common;
#[path = "common/hidden.rs"]
mod hidden;

use std::sync::Arc;

use titan_core::battle::Action as B;
use titan_core::battleland::HexId;
use titan_core::game::random::random_action;
use titan_core::game::{Action, Game, Marker, Phase, PlayerId, TeleportKind};
use titan_core::model::{CharacterId, LandId};
use titan_core::rng::GameRng;

/// Game turns before a game is stopped (random players rarely finish).
const TURN_BOUND: u32 = 30;

fn pick<T: Clone>(rng: &mut GameRng, list: &[T]) -> Option<T> {
    (!list.is_empty()).then(|| list[(rng.roll(list.len() as u32) - 1) as usize].clone())
}

/// A random well-formed action: any kind, with markers, lands and characters
/// of the game (or just outside it), most of them illegal now.
fn any_action(g: &Game, rng: &mut GameRng) -> Action {
    let v = &g.variant;
    let marker = |rng: &mut GameRng| -> Marker {
        let markers: Vec<Marker> = g.state.legions.iter().map(|l| l.marker).collect();
        match pick(rng, &markers) {
            Some(m) if rng.roll(4) > 1 => m,
            _ => Marker {
                player: PlayerId((rng.roll(6) - 1) as u8),
                number: rng.roll(13) as u8,
            },
        }
    };
    let land =
        |rng: &mut GameRng| LandId::new((rng.roll(v.board.land_count() as u32) - 1) as usize);
    let ch = |rng: &mut GameRng| CharacterId((rng.roll(v.characters.len() as u32) - 1) as u16);
    let chars = |rng: &mut GameRng| -> Vec<CharacterId> {
        let n = rng.roll(5) - 1;
        (0..n).map(|_| ch(rng)).collect()
    };
    let unit = |rng: &mut GameRng| (rng.roll(16) - 1) as u8;
    let hex = |rng: &mut GameRng| HexId((rng.roll(27) - 1) as u8);
    match rng.roll(26) {
        1 => Action::InitialSplit {
            legions: vec![chars(rng), chars(rng)],
        },
        2 => Action::Split {
            legion: marker(rng),
            parts: vec![chars(rng)],
        },
        3 => Action::DoneSplitting,
        4 => Action::Roll {
            distance: (rng.roll(2) == 1).then(|| rng.roll(7) as u8),
        },
        5 => Action::Mulligan,
        6 | 7 => Action::Move {
            legion: marker(rng),
            to: land(rng),
            entered_from: land(rng),
        },
        8 => Action::Teleport {
            legion: marker(rng),
            to: land(rng),
            kind: if rng.roll(2) == 1 {
                TeleportKind::Tower
            } else {
                TeleportKind::Titan
            },
            lord: ch(rng),
        },
        9 => Action::DoneMoving,
        10 => Action::Engage { land: land(rng) },
        11 => Action::Flee,
        12 => Action::Stand,
        13 => Action::Concede,
        14 => Action::Propose {
            attacker_losses: chars(rng),
            defender_losses: chars(rng),
        },
        15 => Action::Accept,
        16 => Action::Reject,
        17 => Action::Fight,
        18 => Action::Summon {
            from: marker(rng),
            character: ch(rng),
        },
        19 => Action::Acquire { character: ch(rng) },
        20 => Action::Reinforce {
            recruit: ch(rng),
            reveal: chars(rng),
        },
        21 => Action::DoneAfter,
        22 => Action::Muster {
            legion: marker(rng),
            recruit: ch(rng),
            reveal: chars(rng),
        },
        23 => Action::EndTurn,
        _ => Action::Battle {
            battle: match rng.roll(8) {
                1 => B::Move {
                    unit: unit(rng),
                    to: hex(rng),
                },
                2 => B::Strike {
                    unit: unit(rng),
                    target: unit(rng),
                    strike_number: None,
                    forgo_bonus: false,
                },
                3 => B::Rangestrike {
                    unit: unit(rng),
                    target: unit(rng),
                },
                4 => B::CarryOver {
                    target: (rng.roll(2) == 1).then(|| unit(rng)),
                },
                5 => B::EndManeuver,
                6 => B::EndStrikes,
                7 => B::Concede(if rng.roll(2) == 1 {
                    titan_core::battle::BattleSide::Attacker
                } else {
                    titan_core::battle::BattleSide::Defender
                }),
                _ => B::ChooseEdge(titan_core::format::Edge::ALL[(rng.roll(6) - 1) as usize]),
            },
        },
    }
}

/// Whether an accepted action is one `legal` offers. Two kinds are listed
/// in a standard form only: agreements (`legal_actions` offers the simplest
/// ones; any other is free to propose when proposing is legal) and
/// conceding the game (always allowed to a player still in it).
fn offered(legal: &[Action], a: &Action) -> bool {
    match a {
        Action::Propose { .. } => legal.iter().any(|l| matches!(l, Action::Propose { .. })),
        _ => legal.contains(a),
    }
}

/// Tries a random well-formed action by a random seat; returns it when it
/// was accepted (and checked against the legal actions).
fn probe(game: &mut Game, rng: &mut GameRng, seed: u64) -> Option<(PlayerId, Action)> {
    let seats = game.state.players.len() as u32;
    let player = PlayerId((rng.roll(seats) - 1) as u8);
    // Half the time a legal action of another seat (or of this one, in
    // another phase): well-formed and often plausible.
    let action = if rng.roll(2) == 1 {
        let other = PlayerId((rng.roll(seats) - 1) as u8);
        pick(rng, &game.legal_actions(other)).unwrap_or_else(|| any_action(game, rng))
    } else {
        any_action(game, rng)
    };
    if action == Action::ConcedeGame {
        return None;
    }
    let legal = game.legal_actions(player);
    let before = game.fingerprint();
    match game.apply(player, &action) {
        Ok(_) => {
            assert!(
                offered(&legal, &action),
                "seed {seed}: {action:?} by {player:?} was accepted but is not among its legal actions {legal:?}"
            );
            Some((player, action))
        }
        Err(e) => {
            assert_eq!(
                before,
                game.fingerprint(),
                "seed {seed}: refused {action:?} ({e}) changed the game"
            );
            None
        }
    }
}

/// The soak's size: `TITAN_SOAK` if set (a positive number), else `default`.
fn soak_size(default: u64) -> u64 {
    match std::env::var("TITAN_SOAK") {
        Err(_) => default,
        Ok(s) => match s.parse::<u64>() {
            Ok(n) if n > 0 => n,
            _ => panic!("TITAN_SOAK={s:?}: give a positive number of games to play"),
        },
    }
}

#[test]
fn random_games_keep_the_invariants_and_hide_what_the_rules_hide() {
    let dir = common::root().join("variants/titan");
    let variant = Arc::new(titan_core::load(&dir, &common::options()).unwrap());
    let games = soak_size(100);
    let mut finished = 0;
    let mut actions = 0u64;
    let mut probes_accepted = 0u64;
    let mut proposals_seen = 0u64;
    for seed in 0..games {
        let players = 2 + (seed % 5) as usize;
        let names: Vec<String> = (1..=players).map(|i| format!("player {i}")).collect();
        let (mut game, events) =
            Game::new(variant.clone(), Default::default(), &names, seed).unwrap();
        let mut know = hidden::Knowledge::new(players);
        know.observe(&events);
        let mut rng = GameRng::new(seed ^ 0x5eed);
        while game.state.turn <= TURN_BOUND {
            // Now and then, a random well-formed action by anyone.
            if rng.roll(4) == 1 {
                let mut probe_game = game.clone();
                if probe(&mut probe_game, &mut rng, seed).is_some() {
                    probes_accepted += 1;
                }
            }
            let Some((player, action)) = random_action(&game, &mut rng) else {
                break;
            };
            let events = match game.apply(player, &action) {
                Ok(events) => events,
                Err(e) => panic!("seed {seed}: a legal action was refused: {action:?}: {e}"),
            };
            know.observe(&events);
            actions += 1;
            if let Err(e) = game.check_invariants() {
                panic!("seed {seed} after {action:?}: {e}");
            }
            if let Err(e) = know.check_views(&game) {
                panic!("seed {seed} after {action:?} by {player:?}: {e}");
            }
            if matches!(
                game.state.engagement.as_ref().map(|e| &e.step),
                Some(titan_core::game::EngagementStep::Negotiate { proposal: Some(_) })
            ) {
                proposals_seen += 1;
            }
        }
        if game.state.phase == Phase::Over {
            finished += 1;
        }
    }
    eprintln!(
        "{games} games, {actions} actions, {finished} played to the end, \
         {probes_accepted} probes accepted, {proposals_seen} positions with a proposal"
    );
    assert!(actions > games * 50, "{actions} actions");
    assert!(probes_accepted > 0 && proposals_seen > 0);
}
