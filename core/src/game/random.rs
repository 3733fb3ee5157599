//! A player that picks legal actions at random: for soak tests, benchmarks
//! and as the simplest opponent.

use super::{Action, Game, PlayerId};
use crate::rng::GameRng;

/// One random legal action of a player who has a decision to make, or None
/// when the game is over. Conceding the game is picked only rarely.
pub fn random_action(game: &Game, rng: &mut GameRng) -> Option<(PlayerId, Action)> {
    // `Game::to_act` without its list.
    let (players, n) = super::rules::acting(game);
    if n == 0 {
        return None;
    }
    let player = players[rng.int_in(0, n as i64 - 1) as usize];
    if let Some(a) = split_shortcut(game, player, rng) {
        return Some((player, a));
    }
    if let Some(a) = battle_shortcut(game, player, rng) {
        return a.map(|a| (player, a));
    }
    // One list kept by the game, listed into and emptied at every action.
    let mut actions = game.kept.random_list.take();
    super::rules::legal_actions_into(game, player, &mut actions);
    let chosen = choose_in(&mut actions, rng);
    actions.clear();
    game.kept.random_list.set(actions);
    chosen.map(|a| (player, a))
}

/// At a decision in the battle being fought the list is the script
/// actions, the battle's actions, the battle concession (unless carry-over
/// hits wait or the battle lists nothing) and `ConcedeGame`: the draws of
/// [`choose`] over it are made here from the counts, and only the action
/// picked is built (the battle's by [`crate::battle::Battle::pick_action`]).
/// None: not such a decision (nothing drawn).
fn battle_shortcut(game: &Game, player: PlayerId, rng: &mut GameRng) -> Option<Option<Action>> {
    use crate::battle::Action as BattleAction;
    let s = &game.state;
    let e = s.engagement.as_ref()?;
    if !matches!(s.phase, super::Phase::Engage | super::Phase::Muster)
        || e.step != super::EngagementStep::Battle
        || game.legion(e.attacker).is_none()
        || game.legion(e.defender).is_none()
        || !s.players.get(player.0 as usize).is_some_and(|p| p.alive)
        || !super::rules::is_to_act(game, player)
    {
        return None;
    }
    let mut scripts = Vec::new();
    super::events::script_actions(game, player, &mut scripts);
    let n_s = scripts.len();
    let mut slot = None;
    let (side, battle_pick) = super::rules::with_battle(game, |b| {
        let side = b.to_act();
        let carry = b.carry().is_some();
        let picked = b.pick_action(|n_b| {
            let chosen = choose_slot(n_s, n_b, !carry, rng);
            let k = match chosen {
                Some(Slot::Battle(k)) => k,
                // Past the end: the battle builds nothing.
                _ => n_b,
            };
            slot = Some(chosen);
            k
        });
        (side, picked)
    })?;
    // The battle listed nothing: no concession either.
    let chosen = slot.unwrap_or_else(|| choose_slot(n_s, 0, false, rng));
    Some(match chosen? {
        Slot::Script(i) => Some(scripts.swap_remove(i)),
        Slot::Battle(_) => battle_pick.map(|battle| Action::Battle { battle }),
        Slot::Concede => Some(Action::Battle {
            battle: BattleAction::Concede(side),
        }),
        Slot::ConcedeGame => Some(Action::ConcedeGame),
    })
}

/// Where [`choose`] picks in a battle decision's list (see
/// [`battle_shortcut`]).
enum Slot {
    Script(usize),
    Battle(usize),
    Concede,
    ConcedeGame,
}

/// [`choose`]'s draws over a list of `n_s` script actions, `n_b` battle
/// actions, the battle concession if `concede`, and `ConcedeGame`.
fn choose_slot(n_s: usize, n_b: usize, concede: bool, rng: &mut GameRng) -> Option<Slot> {
    let mut len = n_s + n_b + usize::from(concede) + 1;
    // `ConcedeGame` is last: dropping it keeps the order of the rest.
    let keep_game = !(len > 1 && rng.roll(2000) > 1);
    if !keep_game {
        len -= 1;
    }
    // The concession is dropped by a swap with the last action: with
    // `ConcedeGame` kept, that one takes its place.
    let keep_concede = concede && !(len > 1 && rng.roll(200) > 1);
    if concede && !keep_concede {
        len -= 1;
    }
    if len == 0 {
        return None;
    }
    // No `DoneSplitting` here: no draw for it.
    let pick = rng.int_in(0, len as i64 - 1) as usize;
    Some(if pick < n_s {
        Slot::Script(pick)
    } else if pick < n_s + n_b {
        Slot::Battle(pick - n_s)
    } else {
        match (pick - n_s - n_b, keep_concede) {
            (0, true) => Slot::Concede,
            _ => Slot::ConcedeGame,
        }
    })
}

/// At a Split decision the list is the script actions, every split of every
/// legion, `DoneSplitting` and `ConcedeGame`, and [`choose`] draws whether
/// to keep the concession and then whether to pass before it looks at the
/// splits: those two draws are made here, and when the player does not pass
/// (one time in four) the pick is drawn from the list's length and only the
/// action picked is built, so that the draws and the choice are those of
/// [`choose`] over the whole list. None: not a Split decision (nothing
/// drawn).
fn split_shortcut(game: &Game, player: PlayerId, rng: &mut GameRng) -> Option<Action> {
    let s = &game.state;
    if s.phase != super::Phase::Split || !s.players.get(player.0 as usize).is_some_and(|p| p.alive)
    {
        return None;
    }
    // Scripts that may hold the player in his phase: the whole list.
    if game
        .hooks
        .as_ref()
        .is_some_and(|h| h.host.has_handlers("may_end_phase"))
    {
        return None;
    }
    // The list holds at least `DoneSplitting` and `ConcedeGame` (last).
    let drop_concede = rng.roll(2000) > 1;
    if rng.roll(4) > 1 {
        return Some(Action::DoneSplitting);
    }
    let mut scripts = Vec::new();
    super::events::script_actions(game, player, &mut scripts);
    let splits = super::rules::split_count(game, player);
    // Dropping the concession (last) keeps the order of the rest.
    let len = scripts.len() + splits + if drop_concede { 1 } else { 2 };
    let pick = rng.int_in(0, len as i64 - 1) as usize;
    Some(if pick < scripts.len() {
        scripts.swap_remove(pick)
    } else if pick < scripts.len() + splits {
        super::rules::nth_split(game, player, pick - scripts.len())?
    } else if pick == scripts.len() + splits {
        Action::DoneSplitting
    } else {
        Action::ConcedeGame
    })
}

/// The random player's choice among a player's legal actions: conceding the
/// game or a battle only rarely, splitting mostly passed.
pub fn choose(mut actions: Vec<Action>, rng: &mut GameRng) -> Option<Action> {
    choose_in(&mut actions, rng)
}

/// [`choose`] taking the action chosen out of `actions` (the rest left in
/// some order, for the caller to clear).
fn choose_in(actions: &mut Vec<Action>, rng: &mut GameRng) -> Option<Action> {
    let concede = actions
        .iter()
        .position(|a| matches!(a, Action::ConcedeGame));
    if let Some(i) = concede
        && actions.len() > 1
        && rng.roll(2000) > 1
    {
        actions.swap_remove(i);
    }
    // Conceding a battle too, so that battles are mostly fought out.
    let concede = actions.iter().position(|a| {
        matches!(
            a,
            Action::Battle {
                battle: crate::battle::Action::Concede(_)
            }
        )
    });
    if let Some(i) = concede
        && actions.len() > 1
        && rng.roll(200) > 1
    {
        actions.swap_remove(i);
    }
    if actions.is_empty() {
        return None;
    }
    // Splitting is optional and its choices are many: mostly pass.
    if actions.iter().any(|a| matches!(a, Action::DoneSplitting)) && rng.roll(4) > 1 {
        return Some(Action::DoneSplitting);
    }
    let pick = rng.int_in(0, actions.len() as i64 - 1) as usize;
    Some(actions.swap_remove(pick))
}

/// One random legal battle action, or None when the battle is over.
/// Conceding is picked only rarely (as in a game's battles above), so that
/// random battles are mostly fought out.
///
/// The battle's own list holds no concession (masterplay adds its own), so
/// the pick is drawn from the count of its actions and only the action
/// picked is built: the draws and the choice are those of choosing over the
/// whole list (`random_battle_action_chooses_as_over_the_whole_list`).
pub fn random_battle_action(
    battle: &crate::battle::Battle<'_>,
    rng: &mut GameRng,
) -> Option<crate::battle::Action> {
    if battle.phase() == crate::battle::Phase::Over {
        return None;
    }
    let picked = battle.pick_action(|n| rng.int_in(0, n as i64 - 1) as usize);
    debug_assert!(
        !matches!(picked, Some(crate::battle::Action::Concede(_))),
        "a battle lists no concession"
    );
    picked
}

/// [`random_battle_action`] carried out in the same call
/// ([`crate::battle::Battle::play_picked`]): the same draws and the same
/// action, without the checks a listed action needs not. Whether the battle
/// had an action to pick, or the action and why it was not carried out.
pub fn play_random_battle_action(
    battle: &mut crate::battle::Battle<'_>,
    rng: &mut GameRng,
    events: &mut Vec<crate::battle::BattleEvent>,
) -> Result<bool, Box<(crate::battle::Action, crate::battle::BattleError)>> {
    battle.play_picked(|n| rng.int_in(0, n as i64 - 1) as usize, events)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_games_are_reproducible() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
        let v = std::sync::Arc::new(crate::load(&dir, &Default::default()).unwrap());
        let play = |seed| {
            let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
            let (mut g, _) = Game::new(v.clone(), Default::default(), &names, seed).unwrap();
            let mut rng = GameRng::new(seed);
            for _ in 0..400 {
                let Some((p, a)) = random_action(&g, &mut rng) else {
                    break;
                };
                g.apply(p, &a).unwrap();
                g.check_invariants().unwrap();
            }
            g.state_hash()
        };
        assert_eq!(play(3), play(3));
        assert_ne!(play(3), play(4));
    }

    /// The shortcuts of `random_action` draw and choose as `choose` over
    /// the whole list of legal actions.
    #[test]
    fn random_action_chooses_as_over_the_whole_list() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
        let v = std::sync::Arc::new(crate::load(&dir, &Default::default()).unwrap());
        let mut battle_decisions = 0;
        for seats in [2usize, 4, 6] {
            let names: Vec<String> = (0..seats).map(|i| format!("p{i}")).collect();
            let (mut g, _) = Game::new(v.clone(), Default::default(), &names, 7).unwrap();
            let mut rng = GameRng::new(11);
            for _ in 0..1500 {
                let mut whole = rng.clone();
                let players = g.to_act();
                if players.is_empty() {
                    break;
                }
                let player = players[whole.int_in(0, players.len() as i64 - 1) as usize];
                let expected = choose(g.legal_actions(player), &mut whole).map(|a| (player, a));
                let got = random_action(&g, &mut rng);
                if g.battle().is_some() {
                    battle_decisions += 1;
                }
                assert_eq!(got, expected);
                assert_eq!(rng.word_pos(), whole.word_pos());
                let Some((p, a)) = got else { break };
                g.apply(p, &a).unwrap();
            }
        }
        assert!(battle_decisions > 100, "{battle_decisions}");
    }
}
