//! The Reckoning of the `titan-1980` variant (Law of Titan 1980, 19): the
//! platform's showdown (`rules.battle.showdown`) with the variant's
//! `reckoning.lua`, each test naming the rule it checks.

mod common;

use std::sync::Arc;

use titan_core::battle::Action as BattleAction;
use titan_core::game::save::Position;
use titan_core::game::{Action, Game, Marker, PlayerId};

fn variant() -> Arc<titan_core::Variant> {
    let dir = common::root().join("variants/titan-1980");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap())
}

fn at(text: &str) -> Game {
    let pos: Position = ron::from_str(text).unwrap();
    pos.to_game(variant()).unwrap()
}

fn m(s: &str) -> Marker {
    s.parse().unwrap()
}

/// Red (390 points) has entered Blue's small legion on land 20; Blue has
/// two more legions, Green two. Blue flees: Red wins an engagement and
/// passes 400 points this Gameturn.
fn red_wins_an_engagement() -> Game {
    let text =
        std::fs::read_to_string(common::root().join("variants/titan-1980/tests/reckoning.ron"))
            .unwrap();
    let mut g = at(&text);
    let twenty = g.variant.board.by_number(20).unwrap();
    g.apply(PlayerId(0), &Action::Engage { land: twenty })
        .unwrap();
    g.apply(PlayerId(1), &Action::Flee).unwrap();
    assert!(g.state.players[0].score >= 400);
    g
}

fn beckon() -> Action {
    Action::Script {
        name: "beckon".into(),
        args: vec![],
    }
}

/// How far south a hex of the Reckoningboard lies (README: A1-A6 a column,
/// B1-B5 in its gaps).
fn south(label: &str) -> f64 {
    let col = if label.starts_with('A') { 0.0 } else { 1.0 };
    let row: f64 = label[1..].parse::<f64>().unwrap() - 1.0;
    row + 0.5 * col
}

/// The one player to act.
fn actor(g: &Game) -> PlayerId {
    let to_act = g.to_act();
    assert_eq!(to_act.len(), 1, "{to_act:?}");
    to_act[0]
}

/// Law of Titan 1980, 19.B: a player who has 400 points may beckon the
/// Reckoning at the end of a Gameturn in which he won an engagement; one who
/// won none may not.
#[test]
fn beckoning_needs_400_points_and_a_won_engagement_law_of_titan_1980_19b() {
    let mut g = red_wins_an_engagement();
    // No engagement left: the Muster phase, the end of Red's Gameturn.
    while g.state.phase != titan_core::game::Phase::Muster {
        let a = g.legal_actions(PlayerId(0))[0].clone();
        g.apply(PlayerId(0), &a).unwrap();
    }
    assert!(g.legal_actions(PlayerId(0)).contains(&beckon()));
    // Players who agreed to play without the Reckoning (the option
    // `reckoning`, after 29) may not beckon.
    let mut without = Game::from_save(variant(), &{
        let mut s = g.to_save();
        s.options.insert(
            "reckoning".into(),
            titan_core::format::OptionValue::Bool(false),
        );
        s
    })
    .unwrap();
    assert!(!without.legal_actions(PlayerId(0)).contains(&beckon()));
    assert!(without.apply(PlayerId(0), &beckon()).is_err());
    // The same points without a won engagement: no beckoning.
    let text = r#"(
        seed: 5,
        players: [(name: "Red", tower: 100, score: 450), (name: "Blue", tower: 400, score: 120)],
        legions: [
            (marker: "P1-01", land: 100, characters: ["Titan", "Dragon"]),
            (marker: "P2-01", land: 400, characters: ["Titan", "Ogre"]),
        ],
        active: 0,
        phase: Muster,
        turn: 9,
    )"#;
    let mut quiet = at(text);
    assert!(!quiet.legal_actions(PlayerId(0)).contains(&beckon()));
    let err = quiet.apply(PlayerId(0), &beckon()).unwrap_err();
    assert!(!err.to_string().is_empty());
}

/// Law of Titan 1980, 19.D-G: the Beckoner brings all his legions; each
/// Defender commits one legion, by score the highest first to the rightmost
/// hex (B1), the next to B2; the Beckoner holds A1-A3 with two Defenders
/// (hexes numbered up to 2); the other hexes are forbidden. Defenders do not
/// strike each other; nobody scores; a Defender's gone legion is replaced by
/// another of his; the Reckoning ends when a Titan decides it.
#[test]
fn the_reckoning_is_fought_by_every_player_law_of_titan_1980_19() {
    let mut g = red_wins_an_engagement();
    while g.state.phase != titan_core::game::Phase::Muster {
        let a = g.legal_actions(PlayerId(0))[0].clone();
        g.apply(PlayerId(0), &a).unwrap();
    }
    let scores: Vec<u32> = g.state.players.iter().map(|p| p.score).collect();
    g.apply(PlayerId(0), &beckon()).unwrap();
    let sd = g.state.showdown.clone().expect("the Reckoning begins");
    // 19.E: Green (150) outranks Blue (120).
    assert_eq!(sd.opponents, vec![PlayerId(2), PlayerId(1)]);
    // 19.D: Green commits first; only his own legions.
    assert_eq!(actor(&g), PlayerId(2));
    let commits = g.legal_actions(PlayerId(2));
    assert_eq!(
        commits,
        vec![
            Action::Commit { legion: m("P3-01") },
            Action::Commit { legion: m("P3-02") }
        ]
    );
    assert!(
        g.apply(PlayerId(1), &Action::Commit { legion: m("P2-02") })
            .is_err()
    );
    g.apply(PlayerId(2), &Action::Commit { legion: m("P3-02") })
        .unwrap();
    assert_eq!(actor(&g), PlayerId(1));
    g.apply(PlayerId(1), &Action::Commit { legion: m("P2-03") })
        .unwrap();
    assert!(g.battle().is_some(), "the battle begins");
    // The Defenders place first, the highest score (Green) first, into B1.
    let hexes_of = |g: &Game, p: PlayerId| -> Vec<String> {
        let mut out: Vec<String> = g
            .legal_actions(p)
            .iter()
            .filter_map(|a| match a {
                Action::Battle {
                    battle: BattleAction::Move { to, .. },
                } => Some(g.battle().unwrap().board().label(*to).to_string()),
                _ => None,
            })
            .collect();
        out.sort();
        out.dedup();
        out
    };
    assert_eq!(actor(&g), PlayerId(2));
    assert_eq!(hexes_of(&g, PlayerId(2)), vec!["B1"]);
    // Play the Reckoning out, each decision the first listed.
    let mut seen = std::collections::BTreeSet::new();
    let mut last_strike: Option<((PlayerId, titan_core::battle::Phase), f64)> = None;
    for _ in 0..2000 {
        if g.state.showdown.is_none() || g.state.outcome.is_some() {
            break;
        }
        let p = actor(&g);
        seen.insert(p);
        if g.battle().is_some() && p == PlayerId(1) {
            let h = hexes_of(&g, p);
            assert!(h.iter().all(|x| x == "B1" || x == "B2"), "Blue to {h:?}");
        }
        if p == PlayerId(0) {
            let h = hexes_of(&g, p);
            assert!(
                h.iter()
                    .all(|x| ["A1", "A2", "A3", "B1", "B2"].contains(&x.as_str())),
                "Red to {h:?}"
            );
        }
        let actions = g.legal_actions(p);
        assert!(!actions.is_empty());
        // 19.F: one striker at a time, from right to left along the line.
        let strikers: std::collections::BTreeSet<u8> = actions
            .iter()
            .filter_map(|a| match a {
                Action::Battle {
                    battle: BattleAction::Strike { unit, .. },
                } => Some(*unit),
                _ => None,
            })
            .collect();
        assert!(strikers.len() <= 1, "{strikers:?}");
        if let Some(&u) = strikers.iter().next() {
            let b = g.battle().unwrap();
            let label = b.units()[usize::from(u)]
                .hex()
                .map(|h| b.board().label(h).to_string())
                .unwrap();
            let y = south(&label);
            let team = (p, b.phase());
            if last_strike.as_ref().is_some_and(|(t, _)| *t == team) {
                let (_, before) = last_strike.unwrap();
                // The Beckoner faces east (his right the south), the
                // Defenders west (theirs the north).
                if p == PlayerId(0) {
                    assert!(y <= before, "{label} after {before}");
                } else {
                    assert!(y >= before, "{label} after {before}");
                }
            }
            last_strike = Some((team, y));
        }
        // Defenders never target each other.
        for a in &actions {
            if let Action::Battle {
                battle: BattleAction::Strike { unit, target, .. },
            } = a
            {
                let b = g.battle().unwrap();
                assert_ne!(
                    b.units()[*unit as usize].side,
                    b.units()[*target as usize].side
                );
            }
        }
        g.apply(p, &actions[0]).unwrap();
        if g.state.showdown.is_some() {
            let now: Vec<u32> = g.state.players.iter().map(|p| p.score).collect();
            assert_eq!(now, scores, "19.G: no points are scored for a Reckoning");
        }
    }
    assert!(g.state.showdown.is_none(), "the Reckoning ended");
    assert!(seen.len() == 3, "every player acted: {seen:?}");
    let alive: Vec<bool> = g.state.players.iter().map(|p| p.alive).collect();
    match &g.state.outcome {
        Some(titan_core::game::Outcome::Winner(PlayerId(0))) => {
            assert_eq!(alive, vec![true, false, false]);
        }
        Some(_) => {}
        None => {
            // 19.G: the Beckoner's Titan fell; play resumes on the turn of
            // the Defender who slew it, who holds Red's markers.
            assert!(
                !alive[0],
                "{alive:?} {:?} {:?}",
                g.state
                    .legions
                    .iter()
                    .map(|l| (l.marker, l.characters.len()))
                    .collect::<Vec<_>>(),
                g.state.phase
            );
            let next = g.state.active;
            assert!(
                g.state.players[next.0 as usize]
                    .markers
                    .iter()
                    .any(|m| m.player == PlayerId(0))
            );
            assert_eq!(g.state.phase, titan_core::game::Phase::Split);
        }
    }
}

/// Random games of three reach the Reckoning (19.C's exhausted stacks or
/// 19.B's beckoning), play it to its end with every action taken, and
/// replay from their saves to the same position.
#[test]
fn random_games_fight_reckonings_to_the_end_and_replay() {
    let v = variant();
    let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    let (mut began, mut ended, mut next_legions) = (0, 0, 0);
    for seed in 0..1500 {
        let (mut g, _) = Game::new(v.clone(), Default::default(), &names, seed).unwrap();
        let mut rng = titan_core::rng::GameRng::new(seed);
        let mut had = false;
        for _ in 0..20000 {
            let Some((p, a)) = titan_core::game::random::random_action(&g, &mut rng) else {
                break;
            };
            let fighting = g.battle().is_some() && g.state.showdown.is_some();
            let ev = g
                .apply(p, &a)
                .unwrap_or_else(|e| panic!("seed {seed}: {a:?}: {e}"));
            for e in &ev {
                match e {
                    titan_core::game::Event::ShowdownBegins { .. } => {
                        began += 1;
                        had = true;
                    }
                    titan_core::game::Event::ShowdownEnds => ended += 1,
                    // 19.G: a Defender commits his next legion.
                    titan_core::game::Event::Committed { .. } if fighting => next_legions += 1,
                    _ => {}
                }
            }
            if g.state.outcome.is_some() {
                break;
            }
        }
        assert!(
            g.state.outcome.is_some() || g.state.showdown.is_none(),
            "seed {seed}: a showdown with nobody to act"
        );
        if had {
            let again = Game::from_save(v.clone(), &g.to_save()).unwrap();
            assert_eq!(again.fingerprint(), g.fingerprint(), "seed {seed}");
        }
    }
    assert!(began >= 5, "{began} Reckonings in 1500 games");
    assert!(ended + 1 >= began, "{ended} of {began} ended");
    assert!(next_legions > 0, "no Defender committed a next legion");
}

/// The computer players fight a Reckoning to its end: each commits a
/// legion and plays its team's part, with the strong player as the Beckoner
/// and as a Defender.
#[test]
fn computer_players_fight_the_reckoning_law_of_titan_1980_19() {
    for (levels, seed) in [
        (["strong", "simple", "simple"], 1),
        (["simple", "strong", "strong"], 2),
    ] {
        let mut g = red_wins_an_engagement();
        while g.state.phase != titan_core::game::Phase::Muster {
            let a = g.legal_actions(PlayerId(0))[0].clone();
            g.apply(PlayerId(0), &a).unwrap();
        }
        g.apply(PlayerId(0), &beckon()).unwrap();
        let mut players: Vec<Box<dyn titan_core::ai::Player>> = levels
            .iter()
            .map(|l| titan_core::ai::player(l, seed).unwrap())
            .collect();
        for _ in 0..3000 {
            if g.state.showdown.is_none() {
                break;
            }
            let p = actor(&g);
            let obs = titan_core::ai::Observation::of(&g, p);
            let a = players[usize::from(p.0)].choose(&obs).unwrap();
            g.apply(p, &a)
                .unwrap_or_else(|e| panic!("{levels:?}: {a:?}: {e}"));
        }
        assert!(
            g.state.showdown.is_none(),
            "{levels:?}: the Reckoning ended"
        );
    }
}

/// 19.D: the Beckoner brings all his legions, however many: twelve legions
/// of seven are more characters than a battle of two legions holds.
#[test]
fn a_beckoner_with_many_legions_brings_them_all_law_of_titan_1980_19d() {
    let extra: String = [1, 3, 4, 6, 7, 8, 9, 10, 11, 12]
        .iter()
        .enumerate()
        .map(|(i, land)| {
            format!(
                r#"(marker: "P1-{:02}", land: {land}, characters: ["Ogre", "Ogre", "Centaur", "Centaur", "Gargoyle", "Gargoyle", "Lion"]),"#,
                i + 3
            )
        })
        .collect();
    let text = format!(
        r#"(
        seed: 5,
        players: [
            (name: "Red", tower: 100, score: 390),
            (name: "Blue", tower: 400, score: 120),
        ],
        legions: [
            (marker: "P1-01", land: 20, characters: ["Titan", "Dragon", "Giant", "Troll"], moved: true, entered_from: Some(19)),
            (marker: "P1-02", land: 41, characters: ["Angel", "Troll", "Troll"]),
            {extra}
            (marker: "P2-01", land: 20, characters: ["Ogre", "Centaur"]),
            (marker: "P2-02", land: 400, characters: ["Titan", "Lion", "Lion"]),
        ],
        active: 0,
        phase: Engage,
        turn: 9,
    )"#
    );
    let mut g = at(&text);
    let twenty = g.variant.board.by_number(20).unwrap();
    g.apply(PlayerId(0), &Action::Engage { land: twenty })
        .unwrap();
    g.apply(PlayerId(1), &Action::Flee).unwrap();
    while g.state.phase != titan_core::game::Phase::Muster {
        let a = g.legal_actions(PlayerId(0))[0].clone();
        g.apply(PlayerId(0), &a).unwrap();
    }
    g.apply(PlayerId(0), &beckon()).unwrap();
    g.apply(PlayerId(1), &Action::Commit { legion: m("P2-02") })
        .unwrap();
    let b = g.battle().expect("the battle begins");
    // Red's 77 (and an Angel acquired at 400, 16.A) against Blue's 3.
    assert!(b.units().len() >= 4 + 3 + 70 + 3, "{}", b.units().len());
    drop(b);
    for _ in 0..3000 {
        if g.state.showdown.is_none() {
            break;
        }
        let p = actor(&g);
        let a = g.legal_actions(p)[0].clone();
        g.apply(p, &a).unwrap();
    }
    assert!(g.state.showdown.is_none());
}
