//! Conceding the game (reference sheet, Titans: a player who concedes
//! leaves the game with all his legions) at any moment, the initial split
//! included: the game goes on with the players still in it, and a player
//! out of the game is never the one to act.

use std::sync::Arc;

use titan_core::game::random::random_action;
use titan_core::game::{Action, Game, Outcome, Phase, PlayerId};
use titan_core::model::Variant;
use titan_core::rng::GameRng;

fn titan() -> Arc<Variant> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    Arc::new(titan_core::load(&dir, &Default::default()).unwrap())
}

fn names(n: usize) -> Vec<String> {
    ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][..n]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

fn seat(g: &Game, name: &str) -> PlayerId {
    let i = g.state.players.iter().position(|p| p.name == name).unwrap();
    PlayerId(i as u8)
}

/// The first division a player may make.
fn divide(g: &mut Game, p: PlayerId) {
    let a = g
        .legal_actions(p)
        .into_iter()
        .find(|a| matches!(a, Action::InitialSplit { .. }))
        .expect("a division to make");
    g.apply(p, &a).unwrap();
}

/// Whenever the game is not over, the players to act are in the game and
/// one of them at least has something to do.
fn someone_can_act(g: &Game) -> Result<(), String> {
    if g.state.phase == Phase::Over {
        return Ok(());
    }
    let to_act = g.to_act();
    if to_act.is_empty() {
        return Err(format!("nobody to act in the {:?} phase", g.state.phase));
    }
    for &p in &to_act {
        if !g.state.players[p.0 as usize].alive {
            return Err(format!(
                "{} is to act, out of the game",
                g.state.players[p.0 as usize].name
            ));
        }
    }
    if to_act.iter().all(|&p| g.legal_actions(p).is_empty()) {
        return Err(format!(
            "no player to act ({to_act:?}) has a legal action in the {:?} phase",
            g.state.phase
        ));
    }
    Ok(())
}

/// Three players, seed 2: Bob (in the highest tower) divides, Ann, still
/// to divide, concedes, Cy divides. Ann is out: the first turn begins, with
/// Bob to act, and the game goes on.
#[test]
fn a_concession_during_the_initial_split_passes_the_turn_on() {
    let (mut g, _) = Game::new(titan(), Default::default(), &names(3), 2).unwrap();
    let (ann, bob, cy) = (seat(&g, "Ann"), seat(&g, "Bob"), seat(&g, "Cy"));
    assert_eq!(g.state.phase, Phase::InitialSplit);
    assert_eq!(g.to_act(), vec![bob], "Bob's tower is the highest");
    divide(&mut g, bob);
    g.apply(ann, &Action::ConcedeGame).unwrap();
    assert!(!g.state.players[ann.0 as usize].alive);
    assert_eq!(g.to_act(), vec![cy]);
    divide(&mut g, cy);
    someone_can_act(&g).unwrap();
    assert_eq!(g.to_act(), vec![bob], "the first turn is Bob's");
    assert_ne!(g.state.phase, Phase::InitialSplit);
    assert_eq!(g.state.turn, 1);
    g.check_invariants().unwrap();
    // And it goes on: Bob's turn, then Cy's; Ann never acts again.
    let mut rng = GameRng::new(5);
    for _ in 0..200 {
        let Some((p, a)) = random_action(&g, &mut rng) else {
            break;
        };
        assert_ne!(p, ann);
        if a == Action::ConcedeGame {
            continue;
        }
        g.apply(p, &a).unwrap();
        someone_can_act(&g).unwrap();
    }
    assert!(g.state.players[cy.0 as usize].turns >= 1, "Cy had a turn");
}

/// Two of three players concede before dividing: the one left wins.
#[test]
fn the_last_player_left_during_the_initial_split_wins() {
    let (mut g, _) = Game::new(titan(), Default::default(), &names(3), 2).unwrap();
    let (ann, bob, cy) = (seat(&g, "Ann"), seat(&g, "Bob"), seat(&g, "Cy"));
    divide(&mut g, bob);
    g.apply(ann, &Action::ConcedeGame).unwrap();
    g.apply(cy, &Action::ConcedeGame).unwrap();
    assert_eq!(g.state.phase, Phase::Over);
    assert_eq!(g.state.outcome, Some(Outcome::Winner(bob)));
    assert!(g.to_act().is_empty());
}

/// A few hundred random 3- and 4-player games in which players, to act or
/// not, concede the game at random (often, so that many concede during the
/// initial split): whenever the game is not over, a player in the game is
/// to act and has a legal action.
#[test]
fn random_concessions_never_leave_the_game_without_a_player_to_act() {
    let v = titan();
    let mut initial_split_concessions = 0;
    let mut games_over = 0;
    for game in 0..400u64 {
        let players = 3 + (game % 2) as usize;
        let (mut g, _) = Game::new(v.clone(), Default::default(), &names(players), game).unwrap();
        let mut rng = GameRng::new(1000 + game);
        for step in 0..250 {
            someone_can_act(&g).unwrap_or_else(|e| panic!("game {game}, step {step}: {e}"));
            if g.state.phase == Phase::Over {
                games_over += 1;
                break;
            }
            // One time in twelve somebody concedes: early in the game,
            // when few actions have been made, that is often during the
            // initial split.
            if rng.roll(12) == 1 {
                let alive: Vec<PlayerId> = (0..players as u8)
                    .map(PlayerId)
                    .filter(|p| g.state.players[p.0 as usize].alive)
                    .collect();
                let p = alive[rng.int_in(0, alive.len() as i64 - 1) as usize];
                if g.state.phase == Phase::InitialSplit {
                    initial_split_concessions += 1;
                }
                g.apply(p, &Action::ConcedeGame)
                    .unwrap_or_else(|e| panic!("game {game}: {e}"));
            } else {
                let (p, a) = random_action(&g, &mut rng)
                    .unwrap_or_else(|| panic!("game {game}, step {step}: no action"));
                g.apply(p, &a)
                    .unwrap_or_else(|e| panic!("game {game}, step {step}: {a:?}: {e}"));
            }
            g.check_invariants()
                .unwrap_or_else(|e| panic!("game {game}, step {step}: {e}"));
        }
    }
    assert!(
        initial_split_concessions > 50,
        "{initial_split_concessions} concessions in the initial split"
    );
    assert!(games_over > 100, "{games_over} games over");
}
