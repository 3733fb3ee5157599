//! Shared lands, gates, a treaty and a start land (docs/variant-format.md,
//! "Shared lands, gates and a treaty"), as Gods of Titan has them: the City
//! holds legions of several players unengaged and the mover may challenge
//! one there (8.6, EN 217; 10.2, EN 262); it is left "with an automatic
//! movement (not counting to the movement) to any Citytower" (8.6, EN 231);
//! "Until the 10th Game-Turn no Engagement is allowed" (8.3, EN 203);
//! "Players may never have more than one Legion in City and Dungeon together
//! at the end of their Movement Phase" (8.6); the Titan-players begin in the
//! City in two legions, "the Titan ... in one Legion and the Elemental ... in
//! the other" (5.7, EN 161). The fixture `tests/fixtures/shared-lands` is
//! Titan with a City (land 7000) entered from the towers 100 and 400, a
//! treaty through game turn 2 and the Titan and the Angel apart at the
//! start.

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use titan_core::game::save::Position;
use titan_core::game::{Action, Game, Phase, PlayerId};

const RED: PlayerId = PlayerId(0);
const BLUE: PlayerId = PlayerId(1);

fn variant() -> Arc<titan_core::model::Variant> {
    let dir = common::root().join("tests/fixtures/shared-lands");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap())
}

/// A game at `turn`, Red moving with `roll`, these legions
/// (`(marker, land, characters)`).
fn game(turn: u32, phase: &str, roll: Option<u8>, legions: &[(&str, u32, &str)]) -> Game {
    game_of(variant(), turn, phase, roll, legions)
}

fn game_of(
    v: Arc<titan_core::model::Variant>,
    turn: u32,
    phase: &str,
    roll: Option<u8>,
    legions: &[(&str, u32, &str)],
) -> Game {
    let legions: Vec<String> = legions
        .iter()
        .map(|(m, land, chars)| format!("(marker: \"{m}\", land: {land}, characters: [{chars}])"))
        .collect();
    let roll = roll.map_or("None".to_string(), |r| format!("Some({r})"));
    let text = format!(
        r#"(
        seed: 5,
        players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
        legions: [{}],
        active: 0,
        phase: {phase},
        roll: {roll},
        turn: {turn},
    )"#,
        legions.join(", ")
    );
    let pos: Position = ron::from_str(&text).unwrap();
    pos.to_game(v).unwrap()
}

fn land(g: &Game, number: u32) -> titan_core::model::LandId {
    g.variant.board.by_number(number).unwrap()
}

/// The lands `marker` may move to, by number.
fn moves(g: &Game, marker: &str) -> BTreeSet<u32> {
    g.legal_actions(RED)
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { legion, to, .. } if legion.to_string() == marker => {
                Some(g.variant.board.land(to).number)
            }
            _ => None,
        })
        .collect()
}

fn move_to(g: &mut Game, marker: &str, to: u32) {
    let a = g
        .legal_actions(RED)
        .into_iter()
        .find(|a| {
            matches!(a, Action::Move { legion, to: t, .. }
                if legion.to_string() == marker && g.variant.board.land(*t).number == to)
        })
        .unwrap_or_else(|| panic!("{marker} may not move to {to}"));
    g.apply(RED, &a).unwrap();
}

const TITAN: &str = r#""Titan", "Ogre""#;
const OGRES: &str = r#""Ogre", "Ogre", "Centaur""#;

#[test]
fn a_gate_leads_out_of_the_city_without_counting() {
    // 8.6: out of the City "to any Citytower and from there the actual
    // movement begins": one land from the City is one land from either tower.
    let g = game(
        3,
        "Move",
        Some(1),
        &[("P1-01", 7000, TITAN), ("P2-01", 500, OGRES)],
    );
    let from_city = moves(&g, "P1-01");
    let mut want = BTreeSet::new();
    for tower in [100, 400] {
        let t = game(
            3,
            "Move",
            Some(1),
            &[("P1-01", tower, TITAN), ("P2-01", 500, OGRES)],
        );
        want.extend(moves(&t, "P1-01"));
    }
    // Not back into the City, nor onto the towers the gates lead to.
    want.remove(&7000);
    assert_eq!(from_city, want);
    assert!(!from_city.contains(&100) && !from_city.contains(&400));
    // Two lands: the gate is still not counted; the moves are those of two
    // lands from either tower on Titan's board, which has no City.
    let g2 = game(
        3,
        "Move",
        Some(2),
        &[("P1-01", 7000, TITAN), ("P2-01", 500, OGRES)],
    );
    let titan = Arc::new(
        titan_core::load(&common::root().join("variants/titan"), &common::options()).unwrap(),
    );
    let mut want = BTreeSet::new();
    for tower in [100, 400] {
        let legions = [("P1-01", tower, TITAN), ("P2-01", 500, OGRES)];
        let t = game_of(Arc::clone(&titan), 3, "Move", Some(2), &legions);
        want.extend(moves(&t, "P1-01"));
    }
    assert_eq!(moves(&g2, "P1-01"), want);
}

#[test]
fn a_shared_land_holds_several_players_and_the_mover_chooses_to_challenge() {
    // 10.2: "Opposing Legions which meet in the City ... are not
    // automatically engaged. However, the Mover may choose whether to engage".
    let mut g = game(
        3,
        "Move",
        Some(1),
        &[("P1-01", 100, TITAN), ("P2-01", 7000, OGRES)],
    );
    move_to(&mut g, "P1-01", 7000);
    g.apply(RED, &Action::DoneMoving).unwrap();
    assert_eq!(g.state.phase, Phase::Engage);
    let legal = g.legal_actions(RED);
    assert!(!legal.iter().any(|a| matches!(a, Action::Engage { .. })));
    let (a, d) = (g.state.legions[0].marker, g.state.legions[1].marker);
    let challenge = Action::Challenge {
        attacker: a,
        defender: d,
    };
    assert!(legal.contains(&challenge), "{legal:?}");
    assert!(legal.contains(&Action::DoneEngaging));
    // Blue may not challenge in Red's turn; the game is unchanged.
    let before = g.fingerprint();
    let back = Action::Challenge {
        attacker: d,
        defender: a,
    };
    assert!(g.apply(BLUE, &back).is_err());
    assert_eq!(g.fingerprint(), before);
    // The challenge makes an engagement of those two legions.
    let mut fight = g.clone();
    fight.apply(RED, &challenge).unwrap();
    let e = fight.state.engagement.clone().unwrap();
    assert_eq!((e.attacker, e.defender, e.land), (a, d, land(&fight, 7000)));
    // A save holds the challenge made, and replays to the same state.
    let save = fight.to_save();
    let replay = Game::from_save(Arc::clone(&fight.variant), &save).unwrap();
    assert_eq!(replay.state, fight.state);
    // 11.5: the challenger enters "from the four hex wide side of his
    // choice": the battle begins with his choice of edge.
    for a in [Action::Stand, Action::Fight] {
        if fight.battle_request().is_none() {
            let who = fight.to_act()[0];
            let _ = fight.apply(who, &a);
        }
    }
    assert!(fight.battle_request().is_some());
    let choices: Vec<Action> = fight
        .legal_actions(RED)
        .into_iter()
        .filter(|a| {
            matches!(
                a,
                Action::Battle {
                    battle: titan_core::battle::Action::ChooseEdge(_)
                }
            )
        })
        .collect();
    assert_eq!(choices.len(), 3, "{choices:?}");
    // Declining: on to the muster phase, both legions still in the City.
    g.apply(RED, &Action::DoneEngaging).unwrap();
    assert_eq!(g.state.phase, Phase::Muster);
    assert_eq!(g.state.legions.len(), 2);
}

#[test]
fn no_engagement_under_the_treaty() {
    // 8.3: "While this nonaggression Treaty is in effect it is permitted to
    // pass through enemy Legions or stand and muster with them on the same
    // land. However, two of the players own Legions may not stand on the
    // same land." Land 41 is one land from tower 100.
    let at = |turn: u32, roll: u8| {
        game(
            turn,
            "Move",
            Some(roll),
            &[("P1-01", 100, TITAN), ("P2-01", 41, OGRES)],
        )
    };
    // After the treaty (turn 3) Blue's legion stops a move: an engagement.
    assert!(moves(&at(3, 2), "P1-01").contains(&41));
    // Under it (turn 2) a move of two passes it, and one of one stands beside it.
    assert!(!moves(&at(2, 2), "P1-01").contains(&41));
    assert_ne!(moves(&at(2, 2), "P1-01"), moves(&at(3, 2), "P1-01"));
    let mut g = at(2, 1);
    move_to(&mut g, "P1-01", 41);
    g.apply(RED, &Action::DoneMoving).unwrap();
    assert_eq!(g.state.phase, Phase::Muster, "no engagement");
    g.check_invariants().unwrap();
    // A legion of one's own still may not be joined.
    let g = game(
        2,
        "Move",
        Some(1),
        &[
            ("P1-01", 100, TITAN),
            ("P1-02", 41, OGRES),
            ("P2-01", 500, OGRES),
        ],
    );
    assert!(!moves(&g, "P1-01").contains(&41));
}

#[test]
fn at_most_the_limit_of_a_players_legions_stay_on_shared_lands() {
    // 8.6: "Players may never have more than one Legion in City and Dungeon
    // together at the end of their Movement Phase."
    let mut g = game(
        3,
        "Move",
        Some(1),
        &[
            ("P1-01", 7000, TITAN),
            ("P1-02", 7000, OGRES),
            ("P2-01", 500, OGRES),
        ],
    );
    let before = g.fingerprint();
    let e = g.apply(RED, &Action::DoneMoving).unwrap_err();
    assert!(
        e.to_string()
            .contains("at most 1 of your legions may stand in City"),
        "{e}"
    );
    assert_eq!(g.fingerprint(), before);
    assert!(!g.legal_actions(RED).contains(&Action::DoneMoving));
    // One leaves; the other may stay.
    let out = *moves(&g, "P1-02").iter().next().unwrap();
    move_to(&mut g, "P1-02", out);
    g.apply(RED, &Action::DoneMoving).unwrap();
    assert_eq!(g.state.phase, Phase::Muster);
}

#[test]
fn players_start_on_the_start_land_with_the_named_characters_apart() {
    // 5.7: "The Titan-Players begin the game in the City ... From these
    // characters the player must build two Legions. The player's Titan is
    // placed in one Legion and the Elemental is placed in the other." The
    // fixture keeps Titan's eight characters, the Titan and Angel apart.
    let v = variant();
    let players = ["Red".to_string(), "Blue".to_string()];
    let (mut g, _) = Game::new(v, Default::default(), &players, 1).unwrap();
    let splits: Vec<Vec<Vec<String>>> = g
        .legal_actions(g.state.active)
        .into_iter()
        .filter_map(|a| match a {
            Action::InitialSplit { legions } => Some(
                legions
                    .iter()
                    .map(|l| {
                        l.iter()
                            .map(|&c| g.variant.character(c).name.clone())
                            .collect()
                    })
                    .collect(),
            ),
            _ => None,
        })
        .collect();
    assert!(!splits.is_empty());
    for s in &splits {
        assert_eq!(s.len(), 2);
        assert!(s.iter().all(|l| l.len() >= 2), "{s:?}");
        let with = |name: &str| s.iter().position(|l| l.iter().any(|c| c == name));
        assert_ne!(with("Titan"), with("Angel"), "{s:?}");
    }
    // Not only one lord and three creatures each: a legion of two is offered.
    assert!(splits.iter().any(|s| s.iter().any(|l| l.len() == 2)));
    // The Titan and Angel together are refused.
    let p = g.state.active;
    let names = |l: &[&str]| -> Vec<_> {
        l.iter()
            .map(|n| g.variant.character_by_name(n).unwrap())
            .collect()
    };
    let together = Action::InitialSplit {
        legions: vec![
            names(&["Titan", "Angel", "Ogre", "Ogre"]),
            names(&["Centaur", "Centaur", "Gargoyle", "Gargoyle"]),
        ],
    };
    let e = g.apply(p, &together).unwrap_err();
    assert!(
        e.to_string()
            .contains("no two of Titan, Angel in one legion"),
        "{e}"
    );
    let first = g
        .legal_actions(p)
        .into_iter()
        .find(|a| matches!(a, Action::InitialSplit { .. }))
        .unwrap();
    g.apply(p, &first).unwrap();
    let city = land(&g, 7000);
    let divided: Vec<_> = g
        .state
        .legions
        .iter()
        .filter(|l| l.owner == p && !l.stationed)
        .collect();
    assert!(divided.len() == 2 && divided.iter().all(|l| l.land == city));
}

/// A game of `tests/fixtures/keep-out` (Marshes kept to Marsh folk, a lord
/// only beside the Titan), Red's legion on tower 300 with `roll`.
fn kept(chars: &str, roll: u8) -> Game {
    let dir = common::root().join("tests/fixtures/keep-out");
    let v = Arc::new(titan_core::load(&dir, &common::options()).unwrap());
    game_of(
        v,
        3,
        "Move",
        Some(roll),
        &[("P1-01", 300, chars), ("P2-01", 500, OGRES)],
    )
}

#[test]
fn a_land_kept_out_is_neither_entered_nor_crossed() {
    // Gods of Titan 3.10: "Characters which carry none of the wave symbols
    // may neither enter nor cross the Sea land"; "Creatures with a wave and
    // a line can move over Sea and also every other land ... when their
    // Legion contains an Aquarian and/or a Siren". Land 13 (Marsh) is one
    // land from tower 300; 14 is one further, through it only.
    assert!(moves(&kept(r#""Ogre", "Ogre""#, 1), "P1-01").contains(&13));
    assert!(moves(&kept(r#""Ogre", "Ogre""#, 2), "P1-01").contains(&14));
    // A Centaur lacks every word of the first rule: no entering, no crossing.
    let mut g = kept(r#""Ogre", "Centaur""#, 1);
    assert!(!moves(&g, "P1-01").contains(&13));
    assert!(!moves(&kept(r#""Ogre", "Centaur""#, 2), "P1-01").contains(&14));
    let marsh = land(&g, 13);
    let from = land(&g, 300);
    let marker = g.state.legions[0].marker;
    let before = g.fingerprint();
    let e = g
        .apply(
            RED,
            &Action::Move {
                legion: marker,
                to: marsh,
                entered_from: from,
            },
        )
        .unwrap_err();
    assert!(e.to_string().contains("may not enter Marsh"), "{e}");
    assert_eq!(g.fingerprint(), before);
    // A lord (a class's name) is kept out unless the Titan is with it.
    assert!(!moves(&kept(r#""Ogre", "Angel""#, 1), "P1-01").contains(&13));
    assert!(moves(&kept(r#""Ogre", "Angel", "Titan""#, 1), "P1-01").contains(&13));
}

#[test]
fn a_tower_legion_stands_on_its_tower_and_never_moves_or_splits() {
    // Gods of Titan 5.6 (EN 158): each Titan-player's Tower holds "Angel,
    // Gargoyle, Centaur, Ogre ... and Guardian"; 25.7 (EN 565): "It's not
    // legal to split on Tower lands ... the stationed characters are bound
    // there until slain". The fixture stations a Warlock and an Ogre.
    let v = variant();
    let players = ["Red".to_string(), "Blue".to_string()];
    let (mut g, _) = Game::new(v, Default::default(), &players, 1).unwrap();
    while g.state.phase == Phase::InitialSplit {
        let p = g.state.active;
        let first = g
            .legal_actions(p)
            .into_iter()
            .find(|a| matches!(a, Action::InitialSplit { .. }))
            .unwrap();
        g.apply(p, &first).unwrap();
    }
    for p in [RED, BLUE] {
        let tower = g.state.players[p.0 as usize].tower.unwrap();
        let stationed: Vec<_> = g
            .state
            .legions
            .iter()
            .filter(|l| l.owner == p && l.stationed)
            .collect();
        assert_eq!(stationed.len(), 1);
        assert_eq!(stationed[0].land, tower);
        let names: Vec<&str> = stationed[0]
            .characters
            .iter()
            .map(|&c| g.variant.character(c).name.as_str())
            .collect();
        assert_eq!(names, ["Ogre", "Warlock"]);
    }
    // In a position: no move, no split is offered, and both are refused.
    let text = r#"(
        seed: 5,
        players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
        legions: [
            (marker: "P1-01", land: 100, characters: ["Warlock", "Ogre", "Ogre", "Ogre"], stationed: true),
            (marker: "P1-02", land: 41, characters: ["Titan", "Ogre"]),
            (marker: "P2-01", land: 500, characters: ["Titan", "Ogre"]),
        ],
        active: 0,
        phase: Split,
        turn: 3,
    )"#;
    let pos: Position = ron::from_str(text).unwrap();
    let mut g = pos.to_game(variant()).unwrap();
    let tower = g.state.legions[0].marker;
    assert!(
        !g.legal_actions(RED)
            .iter()
            .any(|a| matches!(a, Action::Split { legion, .. } if *legion == tower))
    );
    let ogre = g.variant.character_by_name("Ogre").unwrap();
    let before = g.fingerprint();
    let split = Action::Split {
        legion: tower,
        parts: vec![vec![ogre, ogre]],
    };
    let e = g.apply(RED, &split).unwrap_err();
    assert!(e.to_string().contains("does not split"), "{e}");
    assert_eq!(g.fingerprint(), before);
    g.apply(RED, &Action::DoneSplitting).unwrap();
    g.apply(RED, &Action::Roll { distance: None }).unwrap();
    assert!(moves(&g, "P1-01").is_empty());
    let to = g.variant.board.by_number(101).unwrap();
    let from = g.variant.board.by_number(100).unwrap();
    let e = g
        .apply(
            RED,
            &Action::Move {
                legion: tower,
                to,
                entered_from: from,
            },
        )
        .unwrap_err();
    assert!(e.to_string().contains("does not move"), "{e}");
    // Saves keep it.
    let save = g.to_save();
    let replay = Game::from_save(Arc::clone(&g.variant), &save).unwrap();
    assert!(replay.state.legions[0].stationed);
}

#[test]
fn legions_under_the_truce_never_engage_each_other() {
    // Gods of Titan 8.3 (EN 203): "The non-aggression Treaty rule applies to
    // Sea-Legions during the entire game ... Thus enemy Sea-Legions can't
    // face each other in an Engagement, but can engage Land-Legions." The
    // fixture's truce is the Gargoyles'. Land 115 is one land from tower 300.
    let dir = common::root().join("tests/fixtures/keep-out");
    let v = Arc::new(titan_core::load(&dir, &common::options()).unwrap());
    let at = |red: &str, blue: &str, roll: u8| {
        let legions = [("P1-01", 300, red), ("P2-01", 115, blue)];
        game_of(Arc::clone(&v), 3, "Move", Some(roll), &legions)
    };
    let garg = r#""Gargoyle", "Ogre""#;
    // Both under it: passed at two lands, stood beside at one, no engagement.
    assert!(!moves(&at(garg, garg, 2), "P1-01").contains(&115));
    let mut g = at(garg, garg, 1);
    move_to(&mut g, "P1-01", 115);
    g.apply(RED, &Action::DoneMoving).unwrap();
    assert_eq!(g.state.phase, Phase::Muster, "no engagement");
    g.check_invariants().unwrap();
    // One of them not: the move stops there and engages.
    assert!(moves(&at(garg, OGRES, 2), "P1-01").contains(&115));
    let mut g = at(OGRES, garg, 1);
    move_to(&mut g, "P1-01", 115);
    g.apply(RED, &Action::DoneMoving).unwrap();
    assert_eq!(g.state.phase, Phase::Engage);
    let here = land(&g, 115);
    assert!(
        g.legal_actions(RED)
            .contains(&Action::Engage { land: here })
    );
}
