//! The random battle player draws as it would over the whole list of legal
//! actions (moved from `src/game/random.rs`: engine code names no
//! character, so a test that needs the bundled variant's names lives here).

use titan_core::game::random::random_battle_action;
use titan_core::rng::GameRng;

/// [`random_battle_action`] over the whole list, as it chose before it
/// counted (for the test that they agree).
fn random_battle_action_listed(
    battle: &titan_core::battle::Battle<'_>,
    rng: &mut GameRng,
) -> Option<titan_core::battle::Action> {
    if battle.result().is_some() {
        return None;
    }
    let mut actions = battle.legal_actions();
    let fight =
        |a: &titan_core::battle::Action| !matches!(a, titan_core::battle::Action::Concede(_));
    if actions.iter().any(|a| !fight(a)) && actions.iter().any(fight) && rng.roll(200) > 1 {
        actions.retain(fight);
    }
    if actions.is_empty() {
        None
    } else {
        let pick = rng.int_in(0, actions.len() as i64 - 1) as usize;
        Some(actions.swap_remove(pick))
    }
}

/// `random_battle_action` counts the battle's actions and builds only
/// the one it picks: it draws and chooses as over the whole list, on
/// every battleland, with summons, reinforcements and strikes.
#[test]
fn random_battle_action_chooses_as_over_the_whole_list() {
    use titan_core::battle::{Battle, BattleSetup, Fighter};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    let v = titan_core::load(&dir, &Default::default()).unwrap();
    let by = |names: &[&str]| Fighter::named(&v, names).unwrap();
    let angel = v.character_by_name("Angel").unwrap();
    let mut decisions = 0;
    for (t, terrain) in v.terrains.iter().enumerate() {
        let setup = BattleSetup {
            terrain: titan_core::model::TerrainId(t as _),
            attacker: by(&["Ogre", "Troll", "Lion", "Minotaur", "Giant", "Dragon"]),
            defender: by(&["Cyclops", "Warbear", "Unicorn", "Gorgon", "Ranger"]),
            attacker_edge: v.rules.battle.attacker_edges[0],
            summonable: vec![(1, angel)],
            reinforcements: vec![v.character_by_name("Centaur").unwrap()],
            teleported: false,
        };
        let mut b = Battle::new(&v, setup, GameRng::new(t as u64)).unwrap();
        let mut rng = GameRng::new(17 + t as u64);
        loop {
            let mut whole = rng.clone();
            let expected = random_battle_action_listed(&b, &mut whole);
            let got = random_battle_action(&b, &mut rng);
            assert_eq!(got, expected, "{}", terrain.name);
            assert_eq!(rng.word_pos(), whole.word_pos());
            // Every index picks the action listed there (now and then).
            if decisions % 5 == 0 {
                for (i, a) in b.legal_actions().into_iter().enumerate() {
                    assert_eq!(b.pick_action(|_| i), Some(a));
                }
            }
            let Some(a) = got else { break };
            b.apply(a).unwrap();
            decisions += 1;
        }
    }
    assert!(decisions > 500, "{decisions}");
}
