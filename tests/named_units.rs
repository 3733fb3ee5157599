//! Unit-level checks of the battle engine and the Masterchart that need the
//! `titan` variant's names (kept out of `core/src`, which names nothing of
//! the game).

mod common;

use titan_core::Variant;
use titan_core::battle::position::Placed;
use titan_core::battle::strike::{Fighter, strike};
use titan_core::battle::{Action, Battle, BattleError, BattleSide, Phase, Position};
use titan_core::battleland::HexId;
use titan_core::game::muster::options;
use titan_core::model::CharacterId;
use titan_core::rng::GameRng;

fn titan() -> Variant {
    titan_core::load(&common::root().join("variants/titan"), &common::options()).unwrap()
}

fn legion(v: &Variant, names: &[&str]) -> Vec<CharacterId> {
    names
        .iter()
        .map(|n| v.character_by_name(n).unwrap())
        .collect()
}

fn recruits(v: &Variant, terrain: &str, names: &[&str]) -> Vec<(String, Vec<String>)> {
    let t = v.terrain_by_name(terrain).unwrap();
    options(v, t, &legion(v, names), &mut |_, _, _| false)
        .into_iter()
        .map(|o| {
            (
                v.character(o.recruit).name.clone(),
                o.reveal
                    .iter()
                    .map(|&c| v.character(c).name.clone())
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn on_plains_a_strike_is_the_chart() {
    let v = titan();
    let land = v.battleland(v.terrain_by_name("Plains").unwrap());
    let ogre = v.character_by_name("Ogre").unwrap();
    let centaur = v.character_by_name("Centaur").unwrap();
    let at = |c, h: &str| Fighter {
        character: c,
        power: v.character(c).power,
        hex: HexId::from_label(h).unwrap(),
    };
    let p = strike(&v, land, at(ogre, "C3"), at(centaur, "C4"), false);
    assert_eq!((p.strike_number, p.dice), (6, 6));
    let p = strike(&v, land, at(centaur, "C4"), at(ogre, "C3"), false);
    assert_eq!((p.strike_number, p.dice), (2, 3));
    assert_eq!((p.bonus_skill, p.bonus_dice), (0, 0));
}

#[test]
fn forgoing_drops_only_bonuses() {
    let v = titan();
    let land = v.battleland(v.terrain_by_name("Mountains").unwrap());
    let ogre = v.character_by_name("Ogre").unwrap();
    let troll = v.character_by_name("Troll").unwrap();
    let at = |c, h: &str| Fighter {
        character: c,
        power: v.character(c).power,
        hex: HexId::from_label(h).unwrap(),
    };
    // The Ogre (slope native) atop B2 striking down to B3: a bonus die.
    let with = strike(&v, land, at(ogre, "B2"), at(troll, "B3"), false);
    let without = strike(&v, land, at(ogre, "B2"), at(troll, "B3"), true);
    assert_eq!((with.dice, with.bonus_dice), (7, 1));
    assert_eq!((without.dice, without.bonus_dice), (6, 0));
    // The Troll striking up loses a factor, bonus or not.
    let up = strike(&v, land, at(troll, "B3"), at(ogre, "B2"), true);
    assert_eq!(up.strike_number, 5);
}

#[test]
fn placed_reads_name_at_hex() {
    assert_eq!(Placed::parse("Ogre").unwrap().hex, None);
    assert!(Placed::parse("@A1").is_err());
    assert!(Placed::parse("Ogre@A9").is_err());
}

#[test]
fn bad_positions_are_refused() {
    let v = titan();
    for (text, why) in [
        (r#"(battleland: "Moon")"#, "no battleland"),
        (
            r#"(battleland: "Plains", attacker: [(character: "Ogre", hex: "A1")], defender: [(character: "Troll", hex: "A1")])"#,
            "two characters on A1",
        ),
        (
            r#"(battleland: "Plains", attacker: [(character: "Ogre", hex: "A1", damage: 6)])"#,
            "would be slain",
        ),
        (
            r#"(battleland: "Plains", attacker: [(character: "Orc")])"#,
            "no character",
        ),
    ] {
        let p = Position::from_ron(text).unwrap();
        let err = Battle::from_position(&v, &p, GameRng::new(0)).unwrap_err();
        assert!(err.to_string().contains(why), "{err}");
    }
    assert!(Position::from_ron(r#"(battleland: "Plains", hexes: [])"#).is_err());
}

#[test]
fn a_position_in_a_strike_phase_starts_with_the_moving_side() {
    let v = titan();
    let p = Position::from_ron(
        r#"(battleland: "Plains", moving: Attacker, phase: Strike,
            attacker: [(character: "Ogre", hex: "C3")],
            defender: [(character: "Troll", hex: "C4", damage: 2)])"#,
    )
    .unwrap();
    let b = Battle::from_position(&v, &p, GameRng::new(0)).unwrap();
    assert_eq!(
        b.phase(),
        Phase::Strike {
            striking: BattleSide::Attacker
        }
    );
    assert_eq!(b.units()[1].damage, 2);
}

#[test]
fn an_ended_battle_refuses_every_action() {
    let v = titan();
    let p = Position::from_ron(
        r#"(battleland: "Plains", attacker: [(character: "Ogre", hex: "A1")],
            defender: [(character: "Troll", hex: "F4")])"#,
    )
    .unwrap();
    let mut b = Battle::from_position(&v, &p, GameRng::new(0)).unwrap();
    b.apply(Action::Concede(BattleSide::Defender)).unwrap();
    assert_eq!(b.phase(), Phase::Over);
    assert!(b.legal_actions().is_empty());
    assert_eq!(b.apply(Action::EndManeuver), Err(BattleError::Over));
    assert_eq!(b.result().unwrap().conceded, Some(BattleSide::Defender));
}

/// Reference sheet, "Enlistment": like, lesser, or upgraded with the
/// required number.
#[test]
fn masterchart_ladder() {
    let v = titan();
    let r = recruits(&v, "Marsh", &["Ogre", "Ogre", "Troll"]);
    let names: Vec<&str> = r.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"Ogre") && names.contains(&"Troll"));
    assert!(r.contains(&("Troll".into(), vec!["Ogre".into(), "Ogre".into()])));
    assert!(!names.contains(&"Ranger"));
    // Only Centaurs: nothing in the Marsh.
    assert!(recruits(&v, "Marsh", &["Centaur", "Centaur"]).is_empty());
}

/// Reference sheet, "Tower Lands".
#[test]
fn tower_cases() {
    let v = titan();
    let r = recruits(&v, "Tower", &["Titan", "Lion", "Lion", "Lion"]);
    let names: Vec<&str> = r.iter().map(|(n, _)| n.as_str()).collect();
    for n in ["Centaur", "Gargoyle", "Ogre", "Guardian", "Warlock"] {
        assert!(names.contains(&n), "{n}: {r:?}");
    }
    let r = recruits(&v, "Tower", &["Angel", "Ogre", "Ogre"]);
    let names: Vec<&str> = r.iter().map(|(n, _)| n.as_str()).collect();
    assert!(!names.contains(&"Guardian") && !names.contains(&"Warlock"));
    // A Guardian for a Guardian; three Angels are no creatures.
    assert!(
        recruits(&v, "Tower", &["Guardian", "Ogre"])
            .iter()
            .any(|(n, _)| n == "Guardian")
    );
    assert!(
        !recruits(&v, "Tower", &["Angel", "Angel", "Angel"])
            .iter()
            .any(|(n, _)| n == "Guardian")
    );
}
