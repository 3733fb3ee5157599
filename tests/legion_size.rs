//! A character flagged `uncounted` (docs/variant-format.md, characters) is
//! not counted toward `rules.legions.max_size`: in the battle's setup and
//! in mustering. Over tests/battle/variants/uncounted, whose Griffon is so.

mod common;

use std::sync::Arc;

use titan_core::Variant;
use titan_core::battle::{Battle, BattleError, BattleSetup, Fighter};
use titan_core::format::Edge;
use titan_core::game::save::Position;
use titan_core::game::{Action, Marker, PlayerId};
use titan_core::rng::GameRng;

fn uncounted() -> Arc<Variant> {
    let dir = common::root().join("tests/battle/variants/uncounted");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap())
}

fn fighters(v: &Variant, names: &[&str]) -> Vec<Fighter> {
    Fighter::named(v, names).unwrap()
}

#[test]
fn an_uncounted_character_is_beyond_the_legion_size_in_battle() {
    let v = uncounted();
    let ogres = ["Ogre"; 7];
    let with = |extra: &str| BattleSetup {
        terrain: v.terrain_by_name("Plains").unwrap(),
        attacker: fighters(&v, &[&ogres[..], &[extra]].concat()),
        defender: fighters(&v, &["Troll"]),
        attacker_edge: Edge::SouthWest,
        summonable: vec![],
        reinforcements: vec![],
        teleported: false,
    };
    // Seven Ogres and a Griffon: seven that count.
    assert_eq!(
        v.legion_size(with("Griffon").attacker.iter().map(|f| f.character)),
        7
    );
    assert!(Battle::new(&v, with("Griffon"), GameRng::new(1)).is_ok());
    // Eight that count are refused.
    let err = Battle::new(&v, with("Ogre"), GameRng::new(1)).unwrap_err();
    assert!(
        matches!(&err, BattleError::Setup(m) if m.contains("at most 7")),
        "{err}"
    );
}

#[test]
fn an_uncounted_character_leaves_room_to_muster() {
    let path = common::root().join("tests/battle/variants/uncounted/muster-position.ron");
    let g = Position::read(&path).unwrap().to_game(uncounted()).unwrap();
    let musters = |legion: &str| {
        g.legal_actions(PlayerId(0))
            .into_iter()
            .filter(|a| matches!(a, Action::Muster { legion: l, .. } if *l == legion.parse::<Marker>().unwrap()))
            .count()
    };
    // Seven characters, six that count: it musters (Titan would refuse).
    assert!(musters("P1-01") > 0);
    // Eight, seven that count: full.
    assert_eq!(musters("P1-02"), 0);
}

/// Gods of Titan 4.2 (EN 106): "the maximum Legion size ... can be exceeded
/// by the characters Titan and Pegasus, to 8 or even 9"; EN 1023: "Like
/// Master characters the Pegasus don't count toward the maximum Legion
/// size" (variant README, Special abilities, Pegasus).
#[test]
fn gods_of_titan_masters_and_the_pegasus_are_beyond_the_legion_size() {
    let dir = common::root().join("variants/gods-of-titan");
    let v = titan_core::load(&dir, &common::options()).unwrap();
    let mut legion = vec!["Ogre"; 7];
    legion.extend(["Titan", "Pegasus"]);
    let ids = || legion.iter().map(|n| v.character_by_name(n).unwrap());
    assert_eq!(v.legion_size(ids()), 7);
    let setup = BattleSetup {
        terrain: v.terrain_by_name("Plains").unwrap(),
        attacker: fighters(&v, &legion),
        defender: fighters(&v, &["Troll"]),
        attacker_edge: Edge::SouthWest,
        summonable: vec![],
        reinforcements: vec![],
        teleported: false,
    };
    assert!(Battle::new(&v, setup, GameRng::new(1)).is_ok());
}

#[test]
fn the_computer_players_split_count_the_legion_as_the_rules_do() {
    // The simple player splits a full legion only, the strong player one
    // full or one short of full (docs/ai.md): full by `rules.legions.max_size`
    // counted as the rules count it, the uncounted Griffon aside.
    let pos = |chars: &str| {
        let text = format!(
            r#"(
            players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
            legions: [
                (marker: "P1-01", land: 100, characters: [{chars}]),
                (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
            ],
            active: 0,
            phase: Split,
            turn: 5,
        )"#
        );
        let p: Position = titan_core::load::ron_options().from_str(&text).unwrap();
        p.to_game(uncounted()).unwrap()
    };
    let splits = |g: &titan_core::game::Game, level: &str| {
        let mut p = titan_core::ai::player(level, 1).unwrap();
        let a = p
            .choose(&titan_core::ai::Observation::of(g, PlayerId(0)))
            .unwrap();
        matches!(a, Action::Split { .. })
    };
    // Seven characters, six that count: not full, so simple keeps it whole.
    let six = pos(r#""Titan", "Griffon", "Ogre", "Ogre", "Troll", "Troll", "Centaur""#);
    assert!(!splits(&six, "simple"));
    // Eight, seven that count: full, and split.
    let seven =
        pos(r#""Titan", "Griffon", "Ogre", "Ogre", "Troll", "Troll", "Centaur", "Centaur""#);
    assert!(splits(&seven, "simple"));
    // Six characters, five that count: two short of full, which strong
    // does not split.
    let five = pos(r#""Titan", "Griffon", "Ogre", "Ogre", "Troll", "Troll""#);
    assert!(!splits(&five, "strong"));
}
