//! Tests of the computer players that reach inside `ai` (the fallback
//! choice, the strong player's board). The rest, which name the bundled
//! variant's characters, are in `core/tests/ai_players.rs`.

use std::sync::Arc;

use super::play::play_game;
use super::*;

fn titan() -> Arc<Variant> {
    Arc::new(crate::titan_for_tests())
}

#[test]
fn a_variants_own_actions_are_chosen_without_conceding() {
    // Actions a player does not score (a variant's own) fall back to the
    // first one that does not concede the game.
    let legal = vec![Action::ConcedeGame, Action::DoneAfter];
    assert_eq!(fallback(&legal), Ok(Action::DoneAfter));
    assert_eq!(fallback(&[]), Err(AiError::NoAction));
}

/// Strong closes in on an enemy it could beat next turn, and weighs a
/// failed attack's loss by the defender's owner's material over its own
/// (docs/ai.md, "Games that stalled"): without either, full legions with
/// nothing left to muster and out of each other's reach never met, and
/// games of Gods of Titan stalled.
#[test]
fn strong_closes_in_and_presses_when_ahead() {
    use super::board::{Board, Style, occupancy};
    use crate::game::{Game, Marker, PlayerId};
    use crate::model::CharacterId;
    let v = titan();
    let names: Vec<String> = ["a", "b"].map(String::from).to_vec();
    let (mut g, _) = Game::new(v.clone(), Default::default(), &names, 3).unwrap();
    let mut players: Vec<Box<dyn Player>> =
        vec![player("simple", 1).unwrap(), player("simple", 2).unwrap()];
    play_game(&mut g, &mut players, 1);
    let (me, other) = (PlayerId(0), PlayerId(1));
    // Creatures by value (power times skill), named by no name: the two
    // strongest twice each against the two weakest (three and two).
    let mut by_value: Vec<CharacterId> = (0..v.characters.len())
        .map(|i| CharacterId(i as u16))
        .filter(|&c| c != v.rules.titan.character && v.character(c).count > 0)
        .collect();
    by_value.sort_by_key(|&c| {
        let ch = v.character(c);
        (u32::from(ch.power) * u32::from(ch.skill), c)
    });
    let ids = |n: &[CharacterId]| {
        let mut x = n.to_vec();
        x.sort();
        x
    };
    let (weak, strong) = (&by_value[..2], &by_value[by_value.len() - 2..]);
    let mut state = g.state.clone();
    state.legions.retain(|l| l.owner == me || l.owner == other);
    let mine_at = state.legions.iter().position(|l| l.owner == me).unwrap();
    let theirs_at = state.legions.iter().position(|l| l.owner == other).unwrap();
    state.legions[mine_at].characters = ids(&[strong[1], strong[1], strong[0], strong[0]]);
    state.legions[theirs_at].characters = ids(&[weak[0], weak[0], weak[0], weak[1], weak[1]]);
    let my_marker = state.legions[mine_at].marker;
    let target = state.legions[theirs_at].land;
    let game = |state: &crate::game::GameState| {
        Game::from_state(v.clone(), Default::default(), state.clone()).unwrap()
    };
    let g1 = game(&state);
    let obs = Observation::of(&g1, me);
    let occ = occupancy(&obs, me);
    let reaches = |from: crate::model::LandId, rolls: std::ops::RangeInclusive<u8>| {
        rolls.into_iter().any(|r| {
            obs.exits
                .moves(from, r, &occ)
                .iter()
                .any(|t| t.land == target)
        })
    };
    // A land next to the enemy, and one out of its reach by any roll.
    let near = v
        .board
        .lands()
        .find(|&l| l != target && reaches(l, 1..=1))
        .unwrap();
    let far = v
        .board
        .lands()
        .find(|&l| l != target && !reaches(l, 1..=6))
        .unwrap();
    let board = Board::new(&obs, Style::Strong, &mut crate::rng::GameRng::new(1));
    let chars = board.chars_of(my_marker).unwrap().clone();
    assert!(board.opportunity(&chars, near) > 0.0);
    assert_eq!(board.opportunity(&chars, far), 0.0);
    let simple = Board::new(&obs, Style::Simple, &mut crate::rng::GameRng::new(1));
    assert_eq!(simple.opportunity(&chars, near), 0.0, "simple is unchanged");
    // A failed attack costs less to a player with more material: the same
    // attack is worth more with a second legion of mine elsewhere.
    let (p1, ev1) = board.attack(std::slice::from_ref(&chars), target).unwrap();
    let mut richer = state.clone();
    let mut second = richer.legions[mine_at].clone();
    second.marker = Marker {
        player: me,
        number: 12,
    };
    second.land = far;
    richer.legions.push(second);
    let g2 = game(&richer);
    let obs2 = Observation::of(&g2, me);
    let board2 = Board::new(&obs2, Style::Strong, &mut crate::rng::GameRng::new(1));
    let (p2, ev2) = board2.attack(std::slice::from_ref(&chars), target).unwrap();
    assert_eq!(p1, p2);
    assert!(p1 < 1.0 && ev2 > ev1, "{ev1} {ev2}");
}
