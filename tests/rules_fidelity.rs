//! Rules a rules audit found read differently from the rulebooks:
//! tower rolls, turn order, entry sides. Each test names its rule.

mod common;

use std::sync::Arc;

use titan_core::Variant;
use titan_core::format::Edge;
use titan_core::game::save::{Position, PositionLegion, PositionPlayer};
use titan_core::game::{Action, Event, Game, Phase, PlayerId};

fn titan() -> Arc<Variant> {
    let dir = common::root().join("variants/titan");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap())
}

fn names(n: usize) -> Vec<String> {
    ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][..n]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// Law of Titan 1982 5.1: "If players roll the same number or roll the number
/// of a Tower Land already assigned to another player, they must roll again":
/// only they; an assigned tower stands. Replays every game's rolls by the rule.
#[test]
fn only_the_player_whose_roll_is_taken_rolls_again() {
    let v = titan();
    let mut rerolled_against_assigned = 0;
    for players in 2..=6 {
        for seed in 0..40 {
            let (g, events) =
                Game::new(v.clone(), Default::default(), &names(players), seed).unwrap();
            let mut assigned: Vec<Option<u8>> = vec![None; players];
            for e in &events {
                let Event::TowerRolls { rolls } = e else {
                    continue;
                };
                for &(p, r) in rolls {
                    assert!(
                        assigned[p.0 as usize].is_none(),
                        "seed {seed}: {p:?} holds a tower but rolls again"
                    );
                    let taken = assigned.contains(&Some(r));
                    let tied = rolls.iter().any(|&(q, s)| q != p && s == r);
                    if taken {
                        rerolled_against_assigned += 1;
                    }
                    if !taken && !tied {
                        assigned[p.0 as usize] = Some(r);
                    }
                }
            }
            for (i, p) in g.state.players.iter().enumerate() {
                let tower = g.variant.board.land(p.tower.unwrap()).number;
                assert_eq!(Some((tower / 100) as u8), assigned[i], "seed {seed}");
            }
        }
    }
    assert!(rerolled_against_assigned > 0, "the case never came up");
}

/// The audit's case: seed 0, three players. P0 holds tower 400 from the first
/// round; when P2 rolls a 4 later, P2 rolls again and P0 keeps tower 400.
#[test]
fn an_assigned_tower_stands() {
    let (g, events) = Game::new(titan(), Default::default(), &names(3), 0).unwrap();
    let rounds: Vec<&Vec<(PlayerId, u8)>> = events
        .iter()
        .filter_map(|e| match e {
            Event::TowerRolls { rolls } => Some(rolls),
            _ => None,
        })
        .collect();
    assert!(rounds[0].contains(&(PlayerId(0), 4)), "{rounds:?}");
    assert!(
        rounds[1..]
            .iter()
            .all(|r| r.iter().all(|&(p, _)| p != PlayerId(0))),
        "{rounds:?}"
    );
    assert_eq!(
        g.variant
            .board
            .land(g.state.players[0].tower.unwrap())
            .number,
        400
    );
}

fn player(name: &str, tower: u32) -> PositionPlayer {
    PositionPlayer {
        name: name.into(),
        score: 0,
        tower,
        alive: true,
        turns: 2,
    }
}

fn legion(marker: &str, land: u32, chars: &[&str]) -> PositionLegion {
    PositionLegion {
        marker: marker.parse().unwrap(),
        land,
        characters: chars.iter().map(|s| s.to_string()).collect(),
        moved: false,
        entered_from: None,
        distance: None,
        stationed: false,
    }
}

/// The seats that take the next turns, from `first` in its muster phase.
fn turns_after(pos: &Position, count: usize) -> Vec<u8> {
    let mut g = pos.to_game(titan()).unwrap();
    let mut out = vec![g.state.active.0];
    for _ in 1..count {
        let p = g.state.active;
        if g.state.phase == Phase::Muster {
            g.apply(p, &Action::EndTurn).unwrap();
        }
        // Through a whole turn of the next player without moving.
        let p = g.state.active;
        out.push(p.0);
        for a in [Action::DoneSplitting, Action::Roll { distance: None }] {
            let _ = g.apply(p, &a);
        }
        // One legion must move (reference sheet, Movement).
        let mv = g
            .legal_actions(p)
            .into_iter()
            .find(|a| matches!(a, Action::Move { .. }))
            .unwrap();
        g.apply(p, &mv).unwrap();
        g.apply(p, &Action::DoneMoving).unwrap();
        assert_eq!(g.state.phase, Phase::Muster, "{:?}", g.legal_actions(p));
    }
    out
}

fn three_seats(options: &[(&str, bool)]) -> Position {
    Position {
        options: options
            .iter()
            .map(|&(n, b)| (n.to_string(), titan_core::format::OptionValue::Bool(b)))
            .collect(),
        seed: 1,
        players: vec![player("Ann", 300), player("Bob", 500), player("Cy", 100)],
        legions: vec![
            legion("P1-01", 300, &["Titan", "Ogre"]),
            legion("P2-01", 500, &["Titan", "Ogre"]),
            legion("P3-01", 100, &["Titan", "Ogre"]),
        ],
        active: 1,
        phase: Phase::Muster,
        roll: None,
        turn: 3,
    }
}

/// Law of Titan 1982 5.1 and 6.0: the player in the highest tower plays first,
/// then play proceeds clockwise around the table: the seats in order (Bob in
/// 500, then Cy, then Ann), not the towers (which would give Ann in 300 before
/// Cy in 100).
#[test]
fn play_goes_round_the_table_from_the_highest_tower() {
    assert_eq!(turns_after(&three_seats(&[]), 4), vec![1, 2, 0, 1]);
}

/// The option `tower_order` plays by tower, highest first (variant README).
#[test]
fn tower_order_is_an_option() {
    assert_eq!(
        turns_after(&three_seats(&[("tower_order", true)]), 4),
        vec![1, 0, 2, 1]
    );
}

/// The game's first player is the one in the highest tower whatever the seat
/// (Law of Titan 1982 5.1).
#[test]
fn the_highest_tower_plays_first() {
    for seed in 0..20 {
        let (g, _) = Game::new(titan(), Default::default(), &names(4), seed).unwrap();
        let tower = |p: usize| {
            g.variant
                .board
                .land(g.state.players[p].tower.unwrap())
                .number
        };
        let best = (0..4).max_by_key(|&p| tower(p)).unwrap();
        assert_eq!(g.state.active.0 as usize, best, "seed {seed}");
    }
}

/// The attacker's edge in the battle a legion entering `land` from `from`
/// starts, as masterplay's battle request gives it.
fn entry_in(v: &Arc<Variant>, land: u32, from: u32) -> (Edge, Edge) {
    let mut att = legion("P1-01", land, &["Titan", "Ogre"]);
    att.moved = true;
    att.entered_from = Some(from);
    let pos = Position {
        options: Default::default(),
        seed: 3,
        players: vec![player("Ann", 300), player("Bob", 500)],
        legions: vec![
            att,
            legion("P1-02", 300, &["Angel", "Ogre"]),
            legion("P2-01", land, &["Titan", "Ogre"]),
        ],
        active: 0,
        phase: Phase::Engage,
        roll: None,
        turn: 3,
    };
    let mut g = pos.to_game(v.clone()).unwrap();
    let l = g.variant.board.by_number(land).unwrap();
    g.apply(PlayerId(0), &Action::Engage { land: l }).unwrap();
    // Titans do not flee: straight to the battle.
    let _ = g.apply(PlayerId(1), &Action::Fight);
    let _ = g.apply(PlayerId(0), &Action::Fight);
    let req = g.battle_request().expect("a battle");
    let battle = g.battle().expect("a battle");
    (req.attacker_edge, battle.attacker_edge())
}

fn entry(land: u32, from: u32) -> (Edge, Edge) {
    entry_in(&titan(), land, from)
}

/// Law of the Battlelands 25.A: the battleland's name-side lies on the land's
/// numbered side and the attacker enters on "the same relative side"
/// (reference sheet: the same relative 4-hex side). Land 10 points up, its
/// number on its lower right corner: from 200 (its bottom border) the
/// attacker enters by the East edge, from 9 (left) by the SouthWest, from 11
/// (right) by the NorthWest.
#[test]
fn entry_sides_of_a_land_pointing_up() {
    assert_eq!(entry(10, 200).0, Edge::East);
    assert_eq!(entry(10, 9).0, Edge::SouthWest);
    assert_eq!(entry(10, 11).0, Edge::NorthWest);
}

/// Land 1 points down, its number on its bottom corner: from 1000 (its top
/// border) the attacker enters by the SouthWest edge, from 42 (left) by the
/// East, from 2 (right) by the NorthWest (Law of the Battlelands 25.A).
#[test]
fn entry_sides_of_a_land_pointing_down() {
    assert_eq!(entry(1, 1000).0, Edge::SouthWest);
    assert_eq!(entry(1, 42).0, Edge::East);
    assert_eq!(entry(1, 2).0, Edge::NorthWest);
}

/// The printed board is six like sectors turned about its centre, and the
/// derivation of the numbered corners turns with them: the six lands 1, 8,
/// 15, 22, 29 and 36, entered from their inner-ring neighbour (1000 to 6000),
/// all give the same edge (Law of the Battlelands 25.A).
#[test]
fn entry_sides_turn_with_the_boards_sectors() {
    let v = titan();
    for (land, inner) in [
        (1, 1000),
        (8, 2000),
        (15, 3000),
        (22, 4000),
        (29, 5000),
        (36, 6000),
    ] {
        assert_eq!(entry_in(&v, land, inner).0, Edge::SouthWest, "land {land}");
    }
}

/// Law of the Battlelands 25.B: in the Tower the attacker always enters by the
/// lower left side; the engine's battle request says so too, as the battle
/// does (land 100 entered from 41).
#[test]
fn the_tower_entry_is_the_same_in_the_request_and_the_battle() {
    let (request, battle) = entry(100, 41);
    assert_eq!(request, Edge::SouthWest);
    assert_eq!(battle, Edge::SouthWest);
}

/// Every entry the board allows gives a wide edge, the three borders of a land
/// three different edges, and the request agrees with the battle.
#[test]
fn every_border_of_every_land_gives_its_own_wide_edge() {
    let v = titan();
    for l in v.board.lands() {
        let land = v.board.land(l);
        if v.terrains[land.terrain.index()].tower {
            continue;
        }
        let mut seen = Vec::new();
        for n in v.board.lands() {
            let other = v.board.land(n).position;
            let (dx, dy) = (other.x - land.position.x, other.y - land.position.y);
            let up = (land.position.x + land.position.y).rem_euclid(2) == 1;
            let touching = (dy == 0 && dx.abs() == 1) || (dx == 0 && dy == if up { 1 } else { -1 });
            if !touching {
                continue;
            }
            let (req, battle) = entry_in(&v, land.number, v.board.land(n).number);
            assert_eq!(
                req,
                battle,
                "land {} from {}",
                land.number,
                v.board.land(n).number
            );
            assert!(v.rules.battle.attacker_edges.contains(&req));
            seen.push(req);
        }
        let mut unique = seen.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), seen.len(), "land {}: {seen:?}", land.number);
    }
}

// --- Refusals that say why ---------------------------------------------------

fn game_at(
    players: Vec<PositionPlayer>,
    legions: Vec<PositionLegion>,
    phase: Phase,
    roll: Option<u8>,
) -> Game {
    Position {
        options: Default::default(),
        seed: 2,
        players,
        legions,
        active: 0,
        phase,
        roll,
        turn: 3,
    }
    .to_game(titan())
    .unwrap()
}

/// The action is refused naming `rule` and saying `why`, and nothing changes.
fn refused_because(g: &mut Game, p: u8, a: Action, rule: &str, why: &str) {
    let before = g.state_hash();
    let err = g.apply(PlayerId(p), &a).expect_err("refused");
    assert!(err.rule.contains(rule), "{a:?}: {err}");
    assert!(err.message.contains(why), "{a:?}: {err}");
    assert_eq!(g.state_hash(), before);
}

fn two_players() -> Vec<PositionPlayer> {
    vec![player("Ann", 100), player("Bob", 400)]
}

fn mv(g: &Game, marker: &str, to: u32, from: u32) -> Action {
    Action::Move {
        legion: marker.parse().unwrap(),
        to: g.variant.board.by_number(to).unwrap(),
        entered_from: g.variant.board.by_number(from).unwrap(),
    }
}

/// Reference sheet, Movement: "A Legion may move through a friendly Legion's
/// Land but may not end its move there."
#[test]
fn ending_on_a_friendly_legion_says_so() {
    let mut g = game_at(
        two_players(),
        vec![
            legion("P1-01", 1, &["Titan", "Ogre"]),
            legion("P1-02", 2, &["Angel", "Ogre"]),
            legion("P2-01", 400, &["Titan", "Ogre"]),
        ],
        Phase::Move,
        Some(1),
    );
    let a = mv(&g, "P1-01", 2, 1);
    refused_because(&mut g, 0, a, "Movement", "your legion P1-02 is there");
}

/// Reference sheet, Movement: once engaged, "no further movement into or
/// across that Land is allowed this turn".
#[test]
fn entering_an_engaged_land_says_so() {
    let mut engaged = legion("P1-02", 2, &["Angel", "Ogre"]);
    engaged.moved = true;
    engaged.entered_from = Some(1);
    let mut g = game_at(
        two_players(),
        vec![
            legion("P1-01", 1, &["Titan", "Ogre"]),
            engaged,
            legion("P2-01", 2, &["Titan", "Ogre"]),
        ],
        Phase::Move,
        Some(1),
    );
    let a = mv(&g, "P1-01", 2, 1);
    refused_because(&mut g, 0, a, "Movement", "land 2 is engaged this turn");
}

/// A move the signs do not allow names the signs (reference sheet, Movement
/// Signs).
#[test]
fn a_move_against_the_signs_says_so() {
    let mut g = game_at(
        two_players(),
        vec![
            legion("P1-01", 1, &["Titan", "Ogre"]),
            legion("P2-01", 400, &["Titan", "Ogre"]),
        ],
        Phase::Move,
        Some(1),
    );
    let a = mv(&g, "P1-01", 42, 1);
    refused_because(
        &mut g,
        0,
        a,
        "Movement Signs",
        "the signs do not lead there",
    );
}

fn teleport(
    g: &Game,
    marker: &str,
    to: u32,
    kind: titan_core::game::TeleportKind,
    lord: &str,
) -> Action {
    Action::Teleport {
        legion: marker.parse().unwrap(),
        to: g.variant.board.by_number(to).unwrap(),
        kind,
        lord: g.variant.character_by_name(lord).unwrap(),
    }
}

/// Reference sheet, Teleportation: "Only one Legion may be teleported per
/// Movement Phase."
#[test]
fn a_second_teleport_says_so() {
    use titan_core::game::TeleportKind::Tower;
    let mut g = game_at(
        vec![player("Ann", 100), player("Bob", 400), player("Cy", 600)],
        vec![
            legion("P1-01", 100, &["Titan", "Ogre"]),
            legion("P1-02", 200, &["Angel", "Ogre"]),
            legion("P2-01", 400, &["Titan", "Ogre"]),
            legion("P3-01", 600, &["Titan", "Ogre"]),
        ],
        Phase::Move,
        Some(6),
    );
    let first = teleport(&g, "P1-01", 300, Tower, "Titan");
    g.apply(PlayerId(0), &first).unwrap();
    let second = teleport(&g, "P1-02", 500, Tower, "Angel");
    refused_because(
        &mut g,
        0,
        second,
        "Teleportation",
        "only 1 legion may be teleported",
    );
}

/// Reference sheet, Teleportation: Titan teleportation goes "to any Land that
/// contains another player's Legion".
#[test]
fn a_titan_teleport_onto_a_vacant_land_says_so() {
    use titan_core::game::TeleportKind::Titan;
    let mut ann = player("Ann", 100);
    ann.score = 400;
    let mut g = game_at(
        vec![ann, player("Bob", 400)],
        vec![
            legion("P1-01", 1, &["Titan", "Ogre"]),
            legion("P2-01", 400, &["Titan", "Ogre"]),
        ],
        Phase::Move,
        Some(6),
    );
    let a = teleport(&g, "P1-01", 20, Titan, "Titan");
    refused_because(&mut g, 0, a, "Teleportation", "land 20 holds none");
    let ok = teleport(&g, "P1-01", 400, Titan, "Titan");
    g.apply(PlayerId(0), &ok).unwrap();
}

/// Law of Titan 1982 5.0: the caretaker hands out the counters there are; when
/// a stack is empty, nobody musters that character.
#[test]
fn mustering_from_an_empty_stack_says_so() {
    let mut here = legion("P1-01", 100, &["Titan", "Ogre"]);
    here.moved = true;
    here.entered_from = Some(3);
    let mut g = game_at(
        two_players(),
        vec![
            here,
            // All six Warlocks are in play.
            legion("P1-02", 1, &["Warlock", "Warlock", "Warlock"]),
            legion("P2-01", 400, &["Titan", "Warlock", "Warlock", "Warlock"]),
        ],
        Phase::Muster,
        None,
    );
    let a = Action::Muster {
        legion: "P1-01".parse().unwrap(),
        recruit: g.variant.character_by_name("Warlock").unwrap(),
        reveal: vec![g.variant.character_by_name("Titan").unwrap()],
    };
    refused_because(&mut g, 0, a, "caretaker", "no Warlock is left");
    // What does not qualify says that instead.
    let b = Action::Muster {
        legion: "P1-01".parse().unwrap(),
        recruit: g.variant.character_by_name("Guardian").unwrap(),
        reveal: vec![],
    };
    refused_because(
        &mut g,
        0,
        b,
        "Enlistment",
        "does not qualify to muster a Guardian",
    );
}

/// Reference sheet, Engagement: the defender may flee "as long as his Legion
/// does not contain a Lord".
#[test]
fn fleeing_with_a_lord_says_so() {
    let mut att = legion("P1-01", 5, &["Titan", "Ogre"]);
    att.moved = true;
    att.entered_from = Some(4);
    let mut g = game_at(
        two_players(),
        vec![
            att,
            legion("P2-01", 5, &["Angel", "Ogre"]),
            legion("P2-02", 400, &["Titan"]),
        ],
        Phase::Engage,
        None,
    );
    let land = g.variant.board.by_number(5).unwrap();
    g.apply(PlayerId(0), &Action::Engage { land }).unwrap();
    refused_because(
        &mut g,
        1,
        Action::Flee,
        "Engagement",
        "holds Angel: a legion with a lord may not flee",
    );
}

/// Law of the Battlelands 25.D: a character not brought on in its side's first
/// maneuver phase is out of the battle; moving it later says so.
#[test]
fn a_character_that_failed_to_enter_cannot_move() {
    use titan_core::battle::{Action as B, Battle, BattleSetup, Fighter};
    use titan_core::rng::GameRng;
    let v = titan();
    let f = |n: &str| {
        let c = v.character_by_name(n).unwrap();
        Fighter {
            character: c,
            power: v.character(c).power,
        }
    };
    let setup = BattleSetup {
        terrain: v.terrain_by_name("Plains").unwrap(),
        attacker: vec![f("Ogre"), f("Centaur")],
        defender: vec![f("Troll"), f("Lion")],
        attacker_edge: Edge::SouthWest,
        summonable: vec![],
        reinforcements: vec![],
        teleported: false,
    };
    let mut b = Battle::new(&v, setup, GameRng::new(1)).unwrap();
    // Units 2 and 3 are the defender's: the Troll enters, the Lion does not.
    let hex = |l: &str| titan_core::battleland::HexId::from_label(l).unwrap();
    let end_maneuver = |b: &mut Battle| {
        b.apply(B::EndManeuver).unwrap();
        while b.phase() != titan_core::battle::Phase::Maneuver {
            b.apply(B::EndStrikes).unwrap();
        }
    };
    b.apply(B::Move {
        unit: 2,
        to: hex("E5"),
    })
    .unwrap();
    end_maneuver(&mut b);
    // The attacker's maneuver, then the defender's second one.
    b.apply(B::Move {
        unit: 0,
        to: hex("A1"),
    })
    .unwrap();
    b.apply(B::Move {
        unit: 1,
        to: hex("B1"),
    })
    .unwrap();
    end_maneuver(&mut b);
    let err = b
        .apply(B::Move {
            unit: 3,
            to: hex("E4"),
        })
        .unwrap_err();
    assert!(
        err.to_string().contains("failed to enter") && err.to_string().contains("25.D"),
        "{err}"
    );
}

// --- Traps for a variant author ----------------------------------------------

/// The Titan's power has one source, its row in the characters file: a game
/// and `titan rules strike` give the same (reference sheet, Titans: the
/// base power grows by one per 100 points).
#[test]
fn the_titans_power_is_the_same_in_a_game_and_in_rules_strike() {
    let dir = common::root().join("tests/fixtures/strong-titan");
    let v = Arc::new(titan_core::load(&dir, &common::options()).unwrap());
    let (g, _) = Game::new(v, Default::default(), &names(2), 1).unwrap();
    assert_eq!(g.titan_power(PlayerId(0)), 8);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_titan"))
        .args([
            "rules",
            "strike",
            "--variant",
            "tests/fixtures/strong-titan",
            "--battleland",
            "Plains",
            "--striker",
            "Titan@C3",
            "--target",
            "Ogre@C4",
        ])
        .current_dir(common::root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["dice"], 8);
}

/// docs/variant-format.md, `extends`: a `rules.ron` section of an extending
/// variant names only the fields it changes; the others are the base's.
#[test]
fn a_rules_section_overrides_one_field() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("variant.ron"),
        r#"(id: "longer-range", title: "Longer range", version: "0.1.0", extends: "titan",
            files: (rules: "rules.ron"))"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("rules.ron"),
        "// One field of one section.\n(\n    battle: (max_range: 5),\n)\n",
    )
    .unwrap();
    let house = titan_core::load(dir.path(), &common::options()).unwrap();
    let base = titan();
    assert_eq!(house.rules.battle.max_range, 5);
    let mut expected = base.rules.battle.clone();
    expected.max_range = 5;
    assert_eq!(house.rules.battle, expected);
    assert_eq!(house.rules.legions, base.rules.legions);
    // A misspelt field is still an error at its line.
    std::fs::write(
        dir.path().join("rules.ron"),
        "(\n    battle: (\n        max_rnage: 5,\n    ),\n)\n",
    )
    .unwrap();
    let errors = titan_core::load(dir.path(), &common::options()).unwrap_err();
    assert!(
        errors
            .iter()
            .any(|e| e.line == 3 && e.message.contains("max_rnage")),
        "{errors:?}"
    );
}

/// docs/variant-format.md, `mustering.ron`: a row with `ladder: false` is
/// mustered only as its `like` and `needs` say ("only 2 Rangers may muster a
/// Wolf"). Here the Plains' Lion row refuses the ladder: two Centaurs or a
/// Lion muster a Lion, a Ranger (the row above) no longer does.
#[test]
fn a_mustering_row_can_refuse_the_ladder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("variant.ron"),
        r#"(id: "picky", title: "Picky", version: "0.1.0", extends: "titan",
            files: (mustering: "mustering.ron"))"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("mustering.ron"),
        r#"[(terrain: "Plains", rows: [
            (character: "Centaur"),
            (character: "Lion", needs: [Previous(2)], ladder: false),
            (character: "Ranger", needs: [Previous(2)]),
        ])]"#,
    )
    .unwrap();
    let v = titan_core::load(dir.path(), &common::options()).unwrap();
    let plains = v.terrain_by_name("Plains").unwrap();
    let ids = |names: &[&str]| -> Vec<titan_core::model::CharacterId> {
        names
            .iter()
            .map(|n| v.character_by_name(n).unwrap())
            .collect()
    };
    let recruits = |legion: &[&str]| -> Vec<String> {
        let mut judge = |_, _, _: &[titan_core::model::CharacterId]| false;
        let mut r: Vec<String> =
            titan_core::game::muster::options(&v, plains, &ids(legion), &mut judge)
                .into_iter()
                .map(|o| v.character(o.recruit).name.clone())
                .collect();
        r.dedup();
        r
    };
    // A Ranger no longer brings a Lion; it still brings a Centaur (ladder).
    assert_eq!(recruits(&["Ranger"]), ["Centaur", "Ranger"]);
    assert_eq!(recruits(&["Centaur", "Centaur"]), ["Centaur", "Lion"]);
    assert_eq!(recruits(&["Lion"]), ["Centaur", "Lion"]);
    // The bundled Plains: the ladder lets a Ranger muster a Lion.
    let t = titan();
    let mut judge = |_, _, _: &[titan_core::model::CharacterId]| false;
    let ranger = vec![t.character_by_name("Ranger").unwrap()];
    let lion = t.character_by_name("Lion").unwrap();
    assert!(
        titan_core::game::muster::options(
            &t,
            t.terrain_by_name("Plains").unwrap(),
            &ranger,
            &mut judge
        )
        .iter()
        .any(|o| o.recruit == lion)
    );
}

/// Law of the Battlelands 25.B through `titan engine`: after entering land 100
/// from 41, the battle answer's `attacker_edge` and its view agree (the
/// Tower's lower left side).
#[test]
fn the_engine_answers_the_towers_entry_once() {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_titan"))
        .arg("engine")
        .current_dir(common::root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    for line in [
        r#"{"cmd": "load_position", "variant": "titan", "position": {"players": [{"name": "Ann", "tower": 500}, {"name": "Bob", "tower": 200}], "legions": [{"marker": "P1-01", "land": 100, "characters": ["Titan", "Ogre"], "moved": true, "entered_from": 41}, {"marker": "P2-01", "land": 100, "characters": ["Titan", "Ogre"]}, {"marker": "P2-02", "land": 200, "characters": ["Angel"]}], "active": 0, "phase": "Engage"}}"#,
        r#"{"cmd": "apply", "player": 0, "action": {"action": "Engage", "land": 100}}"#,
        r#"{"cmd": "apply", "player": 1, "action": {"action": "Fight"}}"#,
        r#"{"cmd": "battle", "player": 0}"#,
    ] {
        writeln!(input, "{line}").unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    let last = String::from_utf8(out.stdout).unwrap();
    let answer: serde_json::Value = serde_json::from_str(last.lines().last().unwrap()).unwrap();
    assert_eq!(answer["battle"]["attacker_edge"], "SouthWest", "{answer}");
    assert_eq!(
        answer["battle"]["view"]["attacker_edge"], "SouthWest",
        "{answer}"
    );
}
