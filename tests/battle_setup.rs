//! Battle rules checked through the setup masterplay hands over: entry sides,
//! Titan teleport, setup errors, reproducibility, views.

mod common;

use titan_core::Variant;
use titan_core::battle::{Action, Battle, BattleError, BattleSetup, BattleSide, Fighter, Phase};
use titan_core::battleland::HexId;
use titan_core::format::Edge;
use titan_core::rng::GameRng;

fn titan() -> Variant {
    titan_core::load(&common::root().join("variants/titan"), &common::options()).unwrap()
}

fn fighter(v: &Variant, name: &str) -> Fighter {
    let c = v.character_by_name(name).unwrap();
    Fighter {
        character: c,
        power: v.character(c).power,
    }
}

fn setup(v: &Variant, terrain: &str, edge: Edge) -> BattleSetup {
    BattleSetup {
        terrain: v.terrain_by_name(terrain).unwrap(),
        attacker: vec![fighter(v, "Ogre"), fighter(v, "Centaur")],
        defender: vec![fighter(v, "Troll"), fighter(v, "Lion")],
        attacker_edge: edge,
        summonable: vec![],
        reinforcements: vec![],
        teleported: false,
    }
}

fn entry_hexes(b: &Battle, unit: u8) -> Vec<String> {
    let mut v: Vec<String> = b
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { unit: u, to } if u == unit => Some(to.label()),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

/// Law of the Battlelands 25.A: the attacker enters on the wide side matching
/// the border it crossed, the defender on the narrow side opposite.
#[test]
fn entry_sides_follow_the_masterboard_entry() {
    let v = titan();
    for (edge, defender_first_hexes) in [
        (Edge::SouthWest, ["D6", "E5", "F4"]),
        (Edge::NorthWest, ["D1", "E1", "F1"]),
        (Edge::East, ["A1", "A2", "A3"]),
    ] {
        let b = Battle::new(&v, setup(&v, "Plains", edge), GameRng::new(1)).unwrap();
        assert_eq!(
            b.moving(),
            BattleSide::Defender,
            "the defender maneuvers first"
        );
        assert_eq!(b.defender_edge(), edge.opposite());
        let troll = entry_hexes(&b, 2);
        for h in defender_first_hexes {
            assert!(troll.contains(&h.to_string()), "{edge:?}: {h} in {troll:?}");
        }
    }
}

/// Law of the Battlelands 25.A: only the rules' attacker edges (the wide ones).
#[test]
fn the_attacker_enters_only_by_a_wide_side() {
    let v = titan();
    let err = Battle::new(&v, setup(&v, "Plains", Edge::NorthEast), GameRng::new(1)).unwrap_err();
    assert!(matches!(err, BattleError::Setup(m) if m.contains("25.A")));
}

/// Law of the Battlelands 25.B: the Tower fixes the attacker's side whatever
/// masterplay passes.
#[test]
fn the_tower_fixes_the_attacker_edge() {
    let v = titan();
    let b = Battle::new(&v, setup(&v, "Tower", Edge::East), GameRng::new(1)).unwrap();
    assert_eq!(b.attacker_edge(), Edge::SouthWest);
    // The defender deploys in the walled area.
    assert_eq!(
        entry_hexes(&b, 2),
        ["C3", "C4", "D3", "D4", "D5", "E3", "E4"]
    );
}

/// Reference sheet, "Battle Overview": after a Titan teleport the attacker
/// chooses the (wide) side it enters by; the defender enters opposite.
#[test]
fn after_a_titan_teleport_the_attacker_picks_its_side() {
    let v = titan();
    let mut s = setup(&v, "Plains", Edge::SouthWest);
    s.teleported = true;
    let mut b = Battle::new(&v, s, GameRng::new(1)).unwrap();
    assert_eq!(b.phase(), Phase::ChooseEdge);
    assert_eq!(b.moving(), BattleSide::Attacker);
    let edges: Vec<Action> = b.legal_actions();
    assert_eq!(
        edges,
        [Edge::NorthWest, Edge::East, Edge::SouthWest].map(Action::ChooseEdge)
    );
    assert!(b.apply(Action::ChooseEdge(Edge::West)).is_err());
    b.apply(Action::ChooseEdge(Edge::East)).unwrap();
    assert_eq!(b.phase(), Phase::Maneuver);
    assert_eq!(b.moving(), BattleSide::Defender);
    assert_eq!(b.defender_edge(), Edge::West);
    assert!(entry_hexes(&b, 2).contains(&"A2".to_string()));
}

#[test]
fn bad_setups_are_refused_with_a_reason() {
    let v = titan();
    let mut s = setup(&v, "Plains", Edge::SouthWest);
    s.defender.clear();
    assert!(Battle::new(&v, s, GameRng::new(1)).is_err());
    let mut s = setup(&v, "Plains", Edge::SouthWest);
    s.attacker = vec![fighter(&v, "Ogre"); 8];
    assert!(matches!(
        Battle::new(&v, s, GameRng::new(1)),
        Err(BattleError::Setup(m)) if m.contains("at most 7")
    ));
    let mut s = setup(&v, "Plains", Edge::SouthWest);
    s.attacker[0].power = 0;
    assert!(Battle::new(&v, s, GameRng::new(1)).is_err());
}

/// The same seed and actions give the same battle; another seed, other
/// dice (so that a generator that ignored its seed would fail).
#[test]
fn battles_are_reproducible_from_the_seed() {
    let v = titan();
    let play = |seed| {
        let mut b = Battle::new(
            &v,
            setup(&v, "Mountains", Edge::SouthWest),
            GameRng::new(seed),
        )
        .unwrap();
        let mut pick = GameRng::new(99);
        let mut log = Vec::new();
        while b.result().is_none() {
            let a = b.legal_actions();
            let act = a[(pick.roll(a.len() as u32) - 1) as usize].clone();
            log.push(format!("{:?}", b.apply(act).unwrap()));
        }
        (log, format!("{:?}", b.result()))
    };
    assert_eq!(play(5), play(5));
    // The same choices of actions, other dice: the strikes' rolls differ.
    let rolls = |log: &[String]| -> Vec<String> {
        log.iter()
            .filter(|e| e.contains("Struck"))
            .cloned()
            .collect()
    };
    let (five, six) = (play(5).0, play(6).0);
    assert!(!rolls(&five).is_empty(), "{five:?}");
    assert_ne!(rolls(&five), rolls(&six));
    // Over a few seeds, battles of all sorts: not one or two repeated.
    let played: std::collections::BTreeSet<_> = (0..6).map(play).collect();
    assert!(played.len() >= 5, "{} different battles of 6", played.len());
}

/// A refused action leaves everything as it was, the dice included.
#[test]
fn a_refused_action_changes_nothing() {
    let v = titan();
    let mut b = Battle::new(&v, setup(&v, "Plains", Edge::SouthWest), GameRng::new(3)).unwrap();
    // The fingerprint holds the state and the generator's position.
    let before = b.fingerprint();
    for bad in [
        Action::EndStrikes,
        Action::Move {
            unit: 0,
            to: HexId(0),
        },
        Action::Move {
            unit: 99,
            to: HexId(0),
        },
        Action::Strike {
            unit: 2,
            target: 0,
            strike_number: None,
            forgo_bonus: false,
        },
        Action::CarryOver { target: None },
        Action::Summon {
            choice: 0,
            to: HexId(0),
        },
    ] {
        assert!(b.apply(bad.clone()).is_err(), "{bad:?}");
        assert_eq!(before, b.fingerprint(), "{bad:?}");
    }
}

#[test]
fn each_side_sees_the_battle() {
    let v = titan();
    let b = Battle::new(&v, setup(&v, "Plains", Edge::SouthWest), GameRng::new(3)).unwrap();
    let view = b.view(BattleSide::Attacker);
    assert_eq!(view.you, BattleSide::Attacker);
    assert_eq!(view.to_act, BattleSide::Defender);
    assert_eq!(view.units.len(), 4);
    assert_eq!(view.units[0].character, "Ogre");
    assert_eq!(view.battleland, "Plains");
}

/// A game may start its variant's scripts once and share its generator and
/// Lua VM with every battle; the dice come from the game's generator.
#[test]
fn battles_can_share_the_games_generator_and_scripts() {
    use std::cell::RefCell;
    use std::rc::Rc;
    let v = titan_core::load(
        &common::root().join("tests/battle/variants/lua-battle"),
        &common::options(),
    )
    .unwrap();
    let rng = Rc::new(RefCell::new(GameRng::new(11)));
    let lua = Battle::start_scripts(&v, &rng).unwrap();
    assert!(lua.is_some());
    let start = rng.borrow().word_pos();
    let mut rolled = 0;
    for seed in 0..10 {
        let mut b = Battle::with_scripts(
            &v,
            setup(&v, "Tundra", Edge::SouthWest),
            rng.clone(),
            lua.clone(),
        )
        .unwrap();
        let mut pick = GameRng::new(seed);
        while b.result().is_none() {
            let a = b.legal_actions();
            let events = b
                .apply(a[(pick.roll(a.len() as u32) - 1) as usize].clone())
                .unwrap();
            for e in events {
                if let titan_core::battle::BattleEvent::Struck { rolls, .. } = e {
                    rolled += rolls.len();
                }
            }
        }
    }
    assert!(rolled > 0, "no dice rolled in ten battles");
    assert!(
        rng.borrow().word_pos() > start,
        "the dice came from elsewhere"
    );
}
