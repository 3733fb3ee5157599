//! Every bundled variant loads, holds what it should, and survives a round
//! trip through RON.

mod common;

use titan_core::Variant;
use titan_core::battleland::HexId;
use titan_core::format::{OptionValue, Side, Sign};
use titan_core::model::Needs;

fn load(name: &str) -> Variant {
    let dir = common::root().join("variants").join(name);
    titan_core::load(&dir, &common::options()).unwrap_or_else(|errors| {
        panic!(
            "{name} does not load:\n{}",
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        )
    })
}

#[test]
fn every_bundled_variant_loads() {
    let dirs = common::bundled_dirs();
    for dir in dirs {
        if let Err(errors) = titan_core::load(&dir, &common::options()) {
            panic!("{}: {errors:#?}", dir.display());
        }
    }
}

#[test]
fn titan_has_the_whole_avalon_hill_game() {
    let titan = load("titan");
    let s = titan.summary();
    assert_eq!(
        (s.lands, s.battlelands, s.hexes, s.characters, s.terrains),
        (96, 11, 297, 24, 11)
    );
    assert_eq!(titan.board.exit_count(), s.exits);
    let towers: Vec<u32> = titan
        .board
        .lands()
        .filter(|&l| titan.terrains[titan.board.land(l).terrain.index()].tower)
        .map(|l| titan.board.land(l).number)
        .collect();
    assert_eq!(towers.len(), 6);
    assert!(
        towers
            .iter()
            .all(|n| n % 100 == 0 && (100..=600).contains(n))
    );
    assert_eq!(titan.players.min, 2);
    assert_eq!(titan.players.max, 6);
}

/// Law of Titan 7.D: every block, arch or arrow is answered by a block, arch
/// or arrow pointing back; triple arrows are one-way.
#[test]
fn titan_signs_are_paired() {
    let titan = load("titan");
    let board = &titan.board;
    let mut triple = 0;
    for land in board.lands() {
        for (sign, to) in board.exits(land) {
            if sign == Sign::TripleArrow {
                triple += 1;
                continue;
            }
            assert!(
                board
                    .exits(to)
                    .any(|(back, l)| l == land && back.is_single()),
                "land {}",
                board.land(land).number
            );
        }
    }
    assert!(triple > 0);
}

#[test]
fn titan_characters_follow_the_1982_chart() {
    let titan = load("titan");
    let get = |n: &str| titan.character(titan.character_by_name(n).unwrap());
    let serpent = get("Serpent");
    assert_eq!((serpent.power, serpent.skill, serpent.count), (18, 2, 10));
    assert_eq!(serpent.value, 36);
    assert!(get("Archangel").flies && get("Archangel").summonable);
    let warlock = get("Warlock");
    assert!(warlock.rangestrike.as_ref().unwrap().magic);
    assert_eq!(titan.class(warlock.class).name, "demilord");
    assert_eq!(titan.class(get("Angel").class).name, "lord");
    let dragon = titan.character_by_name("Dragon").unwrap();
    assert!(titan.is_native(dragon, titan.hazard_by_name("Volcano").unwrap()));
    assert!(!titan.is_native(dragon, titan.hazard_by_name("Bog").unwrap()));
}

/// Reference sheet, "Tower Lands": Centaur, Gargoyle or Ogre for any legion; a
/// Guardian for three identical creatures; a Warlock for the Titan.
#[test]
fn titan_tower_mustering() {
    let titan = load("titan");
    let tower = titan.terrain_by_name("Tower").unwrap();
    let table = &titan.mustering[tower.index()];
    assert!(!table.ladder);
    let row = |n: &str| {
        let id = titan.character_by_name(n).unwrap();
        table.rows.iter().find(|r| r.character == id).unwrap()
    };
    assert_eq!(row("Ogre").needs, [Needs::Free]);
    assert!(matches!(
        row("Guardian").needs[..],
        [Needs::Identical {
            count: 3,
            class: Some(_)
        }]
    ));
    let titan_id = titan.character_by_name("Titan").unwrap();
    assert_eq!(
        row("Warlock").needs,
        [Needs::Character {
            character: titan_id,
            count: 1
        }]
    );
    let swamp = &titan.mustering[titan.terrain_by_name("Swamp").unwrap().index()];
    assert_eq!(swamp.rows[1].needs, [Needs::Previous(3)]);
}

#[test]
fn titan_battlelands_match_the_printed_ones() {
    let titan = load("titan");
    let hex = |l: &str| HexId::from_label(l).unwrap();
    let tower = titan.battleland(titan.terrain_by_name("Tower").unwrap());
    let wall = titan.hazard_by_name("Wall").unwrap();
    let keep = tower.hex(hex("D4"));
    assert_eq!(keep.elevation, 2);
    for side in Side::ALL {
        let h = tower.hexside(hex("D4"), side).unwrap();
        assert_eq!(h.hazard, wall);
        assert!(h.top);
        // Seen from outside, the same wall is not on its top side.
        let outside = tower.board.neighbour(hex("D4"), side).unwrap();
        assert!(!tower.hexside(outside, side.opposite()).unwrap().top);
    }
    assert_eq!(tower.defender_area.len(), 7);
    let mountains = titan.battleland(titan.terrain_by_name("Mountains").unwrap());
    let volcano = mountains.hex(hex("D4"));
    assert_eq!(titan.hazard(volcano.hazard).name, "Volcano");
    assert_eq!(volcano.elevation, 2);
    let cliff = titan.hazard_by_name("Cliff").unwrap();
    assert_eq!(
        mountains.hexside(hex("D4"), Side::SW).unwrap().hazard,
        cliff
    );
    let plains = titan.battleland(titan.terrain_by_name("Plains").unwrap());
    assert!(
        plains
            .board
            .ids()
            .all(|h| plains.hex(h).sides.iter().all(Option::is_none))
    );
}

/// Reference sheet, "For a Shorter Game", through `extends`.
#[test]
fn titan_shorter_extends_titan() {
    let titan = load("titan");
    let short = load("titan-shorter");
    assert_eq!(short.extends, ["titan"]);
    assert_eq!(short.characters.len(), 21);
    for gone in ["Centaur", "Gargoyle", "Ogre"] {
        assert!(short.character_by_name(gone).is_none(), "{gone}");
    }
    assert_eq!(short.rules.legions.markers_per_player, 8);
    assert_eq!(short.option("point_limit"), Some(&OptionValue::Int(300)));
    assert_eq!(titan.option("point_limit"), Some(&OptionValue::Int(0)));
    let starting: Vec<(&str, u8)> = short
        .rules
        .start
        .characters
        .iter()
        .map(|&(c, n)| (short.character(c).name.as_str(), n))
        .collect();
    assert_eq!(
        starting,
        [
            ("Titan", 1),
            ("Angel", 1),
            ("Cyclops", 2),
            ("Lion", 2),
            ("Troll", 2)
        ]
    );
    // The Plains now start at the Lion, which no longer needs Centaurs.
    let plains = &short.mustering[short.terrain_by_name("Plains").unwrap().index()];
    assert_eq!(short.character(plains.rows[0].character).name, "Lion");
    assert!(plains.rows[0].needs.is_empty());
    // What the house rules do not touch is the base's.
    assert_eq!(short.board, titan.board);
    assert_eq!(short.battlelands, titan.battlelands);
    assert_eq!(short.hazards, titan.hazards);
    assert_eq!(short.rules.battle, titan.rules.battle);
}

#[test]
fn every_variant_round_trips_through_ron() {
    let mut dirs = common::bundled_dirs();
    // A variant with scripts and hooks, too.
    dirs.push(common::root().join("tests/fixtures/hooked"));
    for dir in dirs {
        let original = titan_core::load(&dir, &common::options()).unwrap();
        let out = tempfile::tempdir().unwrap();
        titan_core::write_flat(&original.data, out.path()).unwrap();
        let reloaded = titan_core::load(out.path(), &common::options()).unwrap_or_else(|e| {
            panic!("{}: the written copy does not load: {e:#?}", dir.display())
        });
        assert_eq!(original, reloaded, "{}", dir.display());
        assert_eq!(original.summary(), reloaded.summary());
    }
}

/// Gods of Titan's provisional masterplay (its README, "Provisional
/// masterplay") plays whole random 3-player games, battles and its scripts
/// included, to their end without a refused or failed action, and every
/// position keeps the invariants.
#[test]
fn gods_of_titan_games_run_to_their_end() {
    use std::sync::Arc;
    use titan_core::game::{Game, random::random_action};
    use titan_core::rng::GameRng;
    let v = Arc::new(load("gods-of-titan"));
    let names: Vec<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
    let mut finished = 0;
    for seed in 0..4u64 {
        let (mut game, _) = Game::new(v.clone(), Default::default(), &names, seed).unwrap();
        let mut pick = GameRng::new(seed + 100);
        let mut actions = 0;
        while game.state.outcome.is_none() && actions < 20_000 {
            let Some((player, action)) = random_action(&game, &mut pick) else {
                break;
            };
            if let Err(e) = game.apply(player, &action) {
                panic!("seed {seed}, action {actions} ({action:?}): {e}");
            }
            game.check_invariants()
                .unwrap_or_else(|e| panic!("seed {seed}, action {actions}: {e}"));
            actions += 1;
        }
        finished += usize::from(game.state.outcome.is_some());
    }
    assert_eq!(finished, 4, "every game reaches its end");
}
