//! The rules of masterplay on the `titan` variant, each test naming the rule
//! it checks. Positions are scenario files under `tests/scenarios/`.

mod common;

use std::sync::Arc;

use titan_core::Variant;
use titan_core::game::save::Position;
use titan_core::game::view::view;
use titan_core::game::{Action, Event, Game, Marker, Outcome, Phase, PlayerId, TeleportKind};
use titan_core::model::{CharacterId, LandId};

fn variant(name: &str) -> Arc<Variant> {
    let dir = common::root().join("variants").join(name);
    Arc::new(titan_core::load(&dir, &common::options()).unwrap())
}

fn at(file: &str) -> Game {
    let path = common::root().join("tests/scenarios").join(file);
    Position::read(&path)
        .unwrap()
        .to_game(variant("titan"))
        .unwrap()
}

fn ch(g: &Game, name: &str) -> CharacterId {
    g.variant.character_by_name(name).unwrap()
}

fn chs(g: &Game, names: &[&str]) -> Vec<CharacterId> {
    names.iter().map(|n| ch(g, n)).collect()
}

fn land(g: &Game, n: u32) -> LandId {
    g.variant.board.by_number(n).unwrap()
}

fn number(g: &Game, l: LandId) -> u32 {
    g.variant.board.land(l).number
}

fn m(s: &str) -> Marker {
    s.parse().unwrap()
}

const P1: PlayerId = PlayerId(0);
const P2: PlayerId = PlayerId(1);

/// Applies an action that must be refused citing `rule`, and checks that the
/// game did not change.
fn refused(g: &mut Game, p: PlayerId, a: Action, rule: &str) {
    let before = g.fingerprint();
    let err = g.apply(p, &a).expect_err("the action must be refused");
    assert!(err.rule.contains(rule), "{a:?}: {err}");
    assert_eq!(g.fingerprint(), before, "a refused action changed the game");
}

fn ok(g: &mut Game, p: PlayerId, a: Action) -> Vec<Event> {
    g.apply(p, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"))
}

fn moves_of(g: &Game, p: PlayerId, legion: &str) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = g
        .legal_actions(p)
        .into_iter()
        .filter_map(|a| match a {
            Action::Move {
                legion: l,
                to,
                entered_from,
            } if l == m(legion) => Some((number(g, to), number(g, entered_from))),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

// --- Setup -----------------------------------------------------------------

/// Reference sheet, Setup 3-5: towers by roll with ties re-rolled, the player
/// in the highest tower first, two legions of one lord and three creatures,
/// no split on the first turn.
#[test]
fn setup_towers_first_player_and_starting_legions() {
    let v = variant("titan");
    let names: Vec<String> = ["A", "B", "C", "D", "E", "F"].map(String::from).to_vec();
    let (mut g, events) = Game::new(v, Default::default(), &names, 42).unwrap();
    let mut towers: Vec<u32> = g
        .state
        .players
        .iter()
        .map(|p| number(&g, p.tower.unwrap()))
        .collect();
    let first = g.state.active;
    assert_eq!(
        number(&g, g.state.players[first.0 as usize].tower.unwrap()),
        *towers.iter().max().unwrap()
    );
    towers.sort();
    towers.dedup();
    assert_eq!(towers.len(), 6, "every player has a tower of his own");
    assert!(matches!(events[0], Event::TowerRolls { .. }));
    // A split that puts both lords together is refused.
    let p = g.state.active;
    let bad = Action::InitialSplit {
        legions: vec![
            chs(&g, &["Titan", "Angel", "Centaur", "Centaur"]),
            chs(&g, &["Gargoyle", "Gargoyle", "Ogre", "Ogre"]),
        ],
    };
    refused(&mut g, p, bad, "Setup");
    let splits = g
        .legal_actions(p)
        .into_iter()
        .filter(|a| matches!(a, Action::InitialSplit { .. }))
        .count();
    assert_eq!(
        splits, 7,
        "three of the six creatures go with the Titan: 7 ways"
    );
    // Everyone divides; then the first player moves, without a split.
    while g.state.phase == Phase::InitialSplit {
        let p = g.state.active;
        let a = g.legal_actions(p).into_iter().next().unwrap();
        ok(&mut g, p, a);
    }
    assert_eq!(g.state.phase, Phase::Move);
    assert_eq!(g.state.active, first);
    assert_eq!(g.state.legions.len(), 12);
    assert!(g.state.legions.iter().all(|l| l.height() == 4));
}

// --- Movement --------------------------------------------------------------

/// Reference sheet, Movement Signs: from land 1 (an arch to 1000, a triple
/// arrow to 2) a roll of 2 goes on along the triple arrow from 2, or along
/// either arrow of 1000; the enemy on land 3 stops a move there.
#[test]
fn signs_are_followed_and_enemies_stop_the_move() {
    let g = at("move-from-land-1.ron");
    assert_eq!(
        moves_of(&g, P1, "P1-01"),
        [(3, 2), (2000, 1000), (6000, 1000)]
    );
    // From the tower every arrow may start a move: 100 -> 41, 101, 3; then on.
    let from_tower = moves_of(&g, P1, "P1-02");
    assert!(
        from_tower.iter().any(|&(to, from)| to == 3 && from == 100),
        "{from_tower:?}"
    );
    assert!(from_tower.iter().all(|&(to, _)| to != 100));
}

/// Reference sheet, Movement: a legion may pass its own legions but not end
/// on one; it must move at least one legion; a refused move changes nothing.
#[test]
fn moving_legions_the_full_count() {
    let mut g = at("move-from-land-1.ron");
    refused(&mut g, P1, Action::DoneMoving, "Movement");
    let to = land(&g, 7);
    let from = land(&g, 2);
    refused(
        &mut g,
        P1,
        Action::Move {
            legion: m("P1-01"),
            to,
            entered_from: from,
        },
        "Movement Signs",
    );
    refused(&mut g, P2, Action::DoneMoving, "Game Turn");
    let (to, from) = (land(&g, 3), land(&g, 2));
    let events = ok(
        &mut g,
        P1,
        Action::Move {
            legion: m("P1-01"),
            to,
            entered_from: from,
        },
    );
    assert!(matches!(events[0], Event::Moved { .. }));
    refused(
        &mut g,
        P1,
        Action::Move {
            legion: m("P1-01"),
            to,
            entered_from: from,
        },
        "Movement",
    );
    ok(&mut g, P1, Action::DoneMoving);
    assert_eq!(g.state.phase, Phase::Engage);
    assert!(g.legal_actions(P1).contains(&Action::Engage { land: to }));
}

/// Reference sheet, Movement: no further movement into or across a land
/// already engaged this turn.
#[test]
fn an_engaged_land_cannot_be_entered() {
    let mut g = at("move-from-land-1.ron");
    let (to, from) = (land(&g, 2000), land(&g, 1000));
    // P2-02 stands on 2000: moving there engages it.
    ok(
        &mut g,
        P1,
        Action::Move {
            legion: m("P1-01"),
            to,
            entered_from: from,
        },
    );
    assert!(!moves_of(&g, P1, "P1-02").iter().any(|&(to, _)| to == 2000));
}

/// Law of the Battlelands 23.A: the mulligan, on the very first turn only.
#[test]
fn mulligan_on_the_first_turn_only() {
    let mut g = at("move-from-land-1.ron");
    refused(&mut g, P1, Action::Mulligan, "23.A");
    g.state.players[0].turns = 1;
    let events = ok(&mut g, P1, Action::Mulligan);
    assert!(matches!(events[0], Event::Rolled { .. }));
    refused(&mut g, P1, Action::Mulligan, "23.A");
}

/// Reference sheet, Teleportation: a lord in a tower on a 6 may go to any
/// vacant tower or vacant land within six; the lord is revealed; one
/// teleport per turn.
#[test]
fn tower_teleport() {
    let mut g = at("move-from-land-1.ron");
    g.state.roll = Some(6);
    let teleports: Vec<Action> = g
        .legal_actions(P1)
        .into_iter()
        .filter(|a| {
            matches!(
                a,
                Action::Teleport {
                    kind: TeleportKind::Tower,
                    ..
                }
            )
        })
        .collect();
    let targets: Vec<u32> = teleports
        .iter()
        .filter_map(|a| match a {
            Action::Teleport { to, .. } => Some(number(&g, *to)),
            _ => None,
        })
        .collect();
    // Every other tower is vacant (player 2's tower 400 too: his legions
    // are on 3 and 2000).
    for tower in [200, 300, 400, 500, 600] {
        assert!(targets.contains(&tower), "{tower}");
    }
    assert!(!targets.contains(&2000), "land 2000 is occupied");
    assert!(!targets.contains(&3), "land 3 is occupied");
    assert!(!targets.contains(&1), "land 1 is occupied");
    // P1-01 is not in a tower: no tower teleport for it.
    assert!(
        teleports
            .iter()
            .all(|a| matches!(a, Action::Teleport { legion, .. } if *legion == m("P1-02")))
    );
    let angel = ch(&g, "Angel");
    let to = land(&g, 200);
    let events = ok(
        &mut g,
        P1,
        Action::Teleport {
            legion: m("P1-02"),
            to,
            kind: TeleportKind::Tower,
            lord: angel,
        },
    );
    assert!(events.iter().any(
        |e| matches!(e, Event::Revealed { characters, to: None, .. } if *characters == vec![angel])
    ));
    assert!(
        view(&g, P2)
            .legions
            .iter()
            .any(|l| l.marker == m("P1-02") && l.revealed == vec![angel])
    );
    // One teleport per movement phase: the Titan teleport is not offered now.
    g.state.players[0].score = 400;
    assert!(
        !g.legal_actions(P1)
            .iter()
            .any(|a| matches!(a, Action::Teleport { .. }))
    );
}

/// Reference sheet, Teleportation: with 400 points, the Titan's legion may
/// teleport onto an enemy legion on a 6.
#[test]
fn titan_teleport() {
    let mut g = at("move-from-land-1.ron");
    g.state.roll = Some(6);
    let titan_teleports = |g: &Game| {
        g.legal_actions(P1)
            .into_iter()
            .filter(|a| {
                matches!(
                    a,
                    Action::Teleport {
                        kind: TeleportKind::Titan,
                        ..
                    }
                )
            })
            .count()
    };
    assert_eq!(titan_teleports(&g), 0);
    g.state.players[0].score = 400;
    assert_eq!(titan_teleports(&g), 2, "onto each of the two enemy legions");
    g.state.roll = Some(5);
    assert_eq!(titan_teleports(&g), 0);
}

/// Law of the Battlelands 23.B: a legion of seven may move.
#[test]
fn seven_character_legions_move() {
    let mut g = at("move-from-land-1.ron");
    let i = g
        .state
        .legions
        .iter()
        .position(|l| l.marker == m("P1-01"))
        .unwrap();
    g.state.legions[i].characters = chs(
        &g,
        &["Titan", "Ogre", "Ogre", "Ogre", "Troll", "Troll", "Troll"],
    );
    let (troll, ogre) = (ch(&g, "Troll"), ch(&g, "Ogre"));
    g.state.caretaker[troll.index()] -= 2;
    g.state.caretaker[ogre.index()] -= 1;
    assert!(!moves_of(&g, P1, "P1-01").is_empty());
}

// --- Splitting -------------------------------------------------------------

/// Reference sheet, Commencement: splits of at least two characters each,
/// into two or three legions; split legions must end in different lands if
/// possible, else recombine.
#[test]
fn splitting_and_separating() {
    let mut g = at("move-from-land-1.ron");
    g.state.phase = Phase::Split;
    g.state.roll = None;
    let titan = ch(&g, "Titan");
    let ogre = ch(&g, "Ogre");
    refused(
        &mut g,
        P1,
        Action::Split {
            legion: m("P1-01"),
            parts: vec![vec![titan]],
        },
        "Commencement",
    );
    refused(
        &mut g,
        P1,
        Action::Split {
            legion: m("P2-01"),
            parts: vec![vec![titan, ogre]],
        },
        "Legions",
    );
    let events = ok(
        &mut g,
        P1,
        Action::Split {
            legion: m("P1-01"),
            parts: vec![vec![ogre, ogre]],
        },
    );
    let Event::Split { into, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(into.len(), 1);
    let child = into[0];
    assert_eq!(g.legion(child).unwrap().height(), 2);
    assert_eq!(g.legion(m("P1-01")).unwrap().height(), 2);
    refused(
        &mut g,
        P1,
        Action::Split {
            legion: m("P1-01"),
            parts: vec![vec![titan]],
        },
        "Commencement",
    );
    ok(&mut g, P1, Action::DoneSplitting);
    ok(&mut g, P1, Action::Roll { distance: None });
    // Both legions on land 1 can move: they may not both stay.
    let (to, from) = {
        let a = g.legal_actions(P1).into_iter().find_map(|a| match a {
            Action::Move {
                legion,
                to,
                entered_from,
            } if legion == m("P1-02") => Some((to, entered_from)),
            _ => None,
        });
        a.unwrap()
    };
    ok(
        &mut g,
        P1,
        Action::Move {
            legion: m("P1-02"),
            to,
            entered_from: from,
        },
    );
    refused(&mut g, P1, Action::DoneMoving, "Commencement");
}

/// Reference sheet, Commencement: legions that could not part recombine at
/// the end of the movement phase.
#[test]
fn split_legions_that_cannot_part_recombine() {
    let mut g = at("recombine.ron");
    let ogre = ch(&g, "Ogre");
    ok(
        &mut g,
        P1,
        Action::Split {
            legion: m("P1-01"),
            parts: vec![vec![ogre, ogre]],
        },
    );
    assert_eq!(g.state.legions.iter().filter(|l| l.owner == P1).count(), 3);
    ok(&mut g, P1, Action::DoneSplitting);
    // The test fixes the die: a 1. P1-05 engages land 1; then the only way
    // out of land 1000, the block toward land 1, is closed.
    g.state.roll = Some(1);
    let (one, from) = (land(&g, 1), land(&g, 42));
    ok(
        &mut g,
        P1,
        Action::Move {
            legion: m("P1-05"),
            to: one,
            entered_from: from,
        },
    );
    assert!(
        !g.legal_actions(P1)
            .iter()
            .any(|a| matches!(a, Action::Move { .. }))
    );
    let events = ok(&mut g, P1, Action::DoneMoving);
    assert!(
        events.iter().any(|e| matches!(e, Event::Recombined { .. })),
        "{events:?}"
    );
    let l = g.legion(m("P1-01")).unwrap();
    assert_eq!(l.height(), 4);
    assert!(
        g.state.players[0].markers.contains(&m("P1-02")),
        "the marker comes back"
    );
    g.check_invariants().unwrap();
}

// --- Engagements and scoring -------------------------------------------------

/// Reference sheet, Engagement: a defender without a lord may flee; the
/// attacker scores half its value, rounded down, and may not summon.
#[test]
fn flight_scores_half() {
    let mut g = at("engagement.ron");
    let five = land(&g, 5);
    refused(&mut g, P2, Action::Engage { land: five }, "Game Turn");
    ok(&mut g, P1, Action::Engage { land: five });
    // Each side sees the other's legion now, and nobody else does.
    let seen = |g: &Game, p: PlayerId, legion: &str| {
        view(g, p)
            .legions
            .iter()
            .find(|l| l.marker == m(legion))
            .unwrap()
            .characters
            .is_some()
    };
    assert!(seen(&g, P1, "P2-01") && seen(&g, P2, "P1-01"));
    assert!(!seen(&g, PlayerId(2), "P2-01") && !seen(&g, PlayerId(2), "P1-01"));
    refused(&mut g, P1, Action::Flee, "Game Turn");
    let events = ok(&mut g, P2, Action::Flee);
    // Gargoyle 12 + Gargoyle 12 + Troll 16 = 40, half is 20: 90 -> 110.
    assert!(
        events.iter().any(
            |e| matches!(e, Event::Scored { player, points: 20, score: 110 } if *player == P1)
        )
    );
    assert!(g.legion(m("P2-01")).is_none());
    // 110 passes 100: an Angel for the winner, no summoning after a flight.
    let after = g.legal_actions(P1);
    assert!(
        after.contains(&Action::DoneAfter),
        "{:?} {:?}",
        after,
        g.state.engagement
    );
    assert!(after.contains(&Action::Acquire {
        character: ch(&g, "Angel")
    }));
    assert!(!after.iter().any(|a| matches!(a, Action::Summon { .. })));
    let angel = ch(&g, "Angel");
    ok(&mut g, P1, Action::Acquire { character: angel });
    assert_eq!(g.legion(m("P1-01")).unwrap().count(angel), 1);
    assert_eq!(g.state.phase, Phase::Muster);
}

/// Reference sheet, Engagement: a legion with a lord may not flee; a
/// concession gives the winner the full value and lets the attacker summon.
#[test]
fn lords_may_not_flee_and_concession_scores_in_full() {
    let mut g = at("titan-duel.ron");
    let twenty = land(&g, 20);
    ok(&mut g, P1, Action::Engage { land: twenty });
    refused(&mut g, P2, Action::Flee, "Engagement");
    let before = g.state.players[0].score;
    let events = ok(&mut g, P2, Action::Concede);
    // The Titan at 120 points has power 7: 7x4 = 28; Lion 15, Gargoyle 12.
    let titan_value = 7 * 4;
    let points = titan_value + 15 + 12;
    // Then half the value of the dead player's other legion: Angel 24 and
    // two Trolls 16 each, 56, half 28.
    let half_rest = 28;
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Scored { points: p, .. } if *p == points)),
        "{events:?}"
    );
    assert_eq!(g.state.players[0].score, before + points + half_rest);
    // A slain Titan ends its player, and with the last rival gone the game.
    assert!(events.iter().any(|e| matches!(e, Event::PlayerEliminated { player, by: Some(by) } if *player == P2 && *by == P1)));
    assert_eq!(g.state.outcome, Some(Outcome::Winner(P1)));
    assert_eq!(g.state.phase, Phase::Over);
    refused(&mut g, P1, Action::EndTurn, "Game Turn");
}

/// Reference sheet, Engagement: an agreement must eliminate at least one
/// legion; mutual elimination scores nothing; two Titans dying together end
/// the game in a draw.
#[test]
fn agreements_and_mutual_elimination() {
    let mut g = at("titan-duel.ron");
    let twenty = land(&g, 20);
    ok(&mut g, P1, Action::Engage { land: twenty });
    let ogre = ch(&g, "Ogre");
    let lion = ch(&g, "Lion");
    refused(
        &mut g,
        P1,
        Action::Propose {
            attacker_losses: vec![ogre],
            defender_losses: vec![lion],
        },
        "Engagement",
    );
    let all_att = g.legion(m("P1-01")).unwrap().characters.clone();
    let all_def = g.legion(m("P2-01")).unwrap().characters.clone();
    ok(
        &mut g,
        P1,
        Action::Propose {
            attacker_losses: all_att,
            defender_losses: all_def,
        },
    );
    refused(&mut g, P1, Action::Accept, "Engagement");
    let events = ok(&mut g, P2, Action::Accept);
    assert!(
        !events.iter().any(|e| matches!(e, Event::Scored { .. })),
        "{events:?}"
    );
    let mut draw = vec![P1, P2];
    draw.sort();
    assert_eq!(g.state.outcome, Some(Outcome::Draw(draw)), "{events:?}");
}

/// Reference sheet, Titans: a slain Titan's player is out; the slayer scores
/// half the value of his other legions and takes his markers. Titan power is
/// 6 + 1 per 100 points.
#[test]
fn a_slain_titan_eliminates_its_player() {
    let mut g = at("engagement.ron");
    assert_eq!(g.titan_power(P1), 6);
    g.state.players[0].score = 250;
    assert_eq!(g.titan_power(P1), 8);
    // Player 3 concedes the game: his legions leave, nobody scores.
    let before: Vec<u32> = g.state.players.iter().map(|p| p.score).collect();
    let events = ok(&mut g, PlayerId(2), Action::ConcedeGame);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::PlayerEliminated {
            player: PlayerId(2),
            by: None
        }
    )));
    assert!(g.state.legions.iter().all(|l| l.owner != PlayerId(2)));
    assert_eq!(
        before,
        g.state.players.iter().map(|p| p.score).collect::<Vec<_>>()
    );
    // A legion without the Titan dies by agreement: player 2 lives on.
    let five = land(&g, 5);
    ok(&mut g, P1, Action::Engage { land: five });
    ok(&mut g, P2, Action::Stand);
    let def = g.legion(m("P2-01")).unwrap().characters.clone();
    ok(
        &mut g,
        P2,
        Action::Propose {
            attacker_losses: vec![],
            defender_losses: def,
        },
    );
    ok(&mut g, P1, Action::Accept);
    assert!(g.state.players[1].alive);

    // Now the Titan: player 2 concedes his Titan's legion (Law of Titan:
    // "his Titan is considered as slain in Battle and scored accordingly").
    let mut g = at("titan-slain.ron");
    ok(&mut g, P1, Action::Engage { land: five });
    // A legion with a lord may not flee: negotiations at once.
    let events = ok(&mut g, P2, Action::Concede);
    assert!(events.contains(&Event::PlayerEliminated {
        player: P2,
        by: Some(P1)
    }));
    assert!(!g.state.players[1].alive);
    assert!(g.state.legions.iter().all(|l| l.owner != P2));
    // 90 + the Titan legion in full (Titan 6 x 4 at 40 points, Gargoyle 12,
    // Troll 16: 52) + half of his other legion (Angel 24, two Lions 30:
    // 54 / 2 = 27) = 169.
    assert_eq!(g.state.players[0].score, 169);
    assert_eq!(g.state.players[2].score, 0);
    // The slayer takes player 2's twelve markers.
    let taken = g.state.players[0]
        .markers
        .iter()
        .filter(|mk| mk.player == P2)
        .count();
    assert_eq!(taken, 12);
    assert!(g.state.players[1].markers.is_empty());
    assert_ne!(g.state.phase, Phase::Over, "player 3 plays on");
}

// --- Mustering -------------------------------------------------------------

/// Reference sheet, Enlistment: "Reveal the character(s) that qualify you to
/// muster"; the recruit itself is shown too. An Ogre mustered by showing an
/// Ogre makes two known Ogres, not one.
#[test]
fn the_recruit_is_known_beside_the_characters_shown() {
    let mut g = at("muster.ron");
    let ogre = ch(&g, "Ogre");
    ok(
        &mut g,
        P1,
        Action::Muster {
            legion: m("P1-01"),
            recruit: ogre,
            reveal: vec![ogre],
        },
    );
    let other = titan_core::game::view::view(&g, titan_core::game::PlayerId(1));
    let shown = &other
        .legions
        .iter()
        .find(|l| l.marker == m("P1-01"))
        .unwrap()
        .revealed;
    assert_eq!(
        shown,
        &vec![ogre, ogre],
        "the Ogre shown and the Ogre mustered"
    );
    g.check_invariants().unwrap();
}

/// Reference sheet, Enlistment and Tower Lands.
#[test]
fn mustering() {
    let mut g = at("muster.ron");
    let musters: Vec<(Marker, String)> = g
        .legal_actions(P1)
        .into_iter()
        .filter_map(|a| match a {
            Action::Muster {
                legion, recruit, ..
            } => Some((legion, g.variant.character(recruit).name.clone())),
            _ => None,
        })
        .collect();
    let of = |l: &str| {
        musters
            .iter()
            .filter(|(x, _)| *x == m(l))
            .map(|(_, n)| n.as_str())
            .collect::<Vec<_>>()
    };
    // Marsh with two Ogres and a Troll: Ogre, Troll (for two Ogres, or like).
    assert!(of("P1-01").contains(&"Troll") && of("P1-01").contains(&"Ogre"));
    assert!(!of("P1-01").contains(&"Ranger"));
    // The tower with the Titan and three Lions: Tower creatures, a Guardian
    // for three identical creatures, a Warlock for the Titan.
    for n in ["Centaur", "Gargoyle", "Ogre", "Guardian", "Warlock"] {
        assert!(of("P1-02").contains(&n), "{n}");
    }
    // Did not move; full legion: nothing.
    assert!(of("P1-03").is_empty() && of("P1-04").is_empty());
    // Muster must show what qualifies it.
    let (troll, ogre) = (ch(&g, "Troll"), ch(&g, "Ogre"));
    refused(
        &mut g,
        P1,
        Action::Muster {
            legion: m("P1-01"),
            recruit: troll,
            reveal: vec![ogre],
        },
        "Enlistment",
    );
    let events = ok(
        &mut g,
        P1,
        Action::Muster {
            legion: m("P1-01"),
            recruit: troll,
            reveal: vec![ogre, ogre],
        },
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Revealed { to: None, .. }))
    );
    assert_eq!(g.legion(m("P1-01")).unwrap().count(troll), 2);
    // One muster per legion per turn.
    refused(
        &mut g,
        P1,
        Action::Muster {
            legion: m("P1-01"),
            recruit: ogre,
            reveal: vec![ogre],
        },
        "Enlistment",
    );
    // The caretaker's stacks are finite.
    let guardian = ch(&g, "Guardian");
    let lion = ch(&g, "Lion");
    g.state.caretaker[guardian.index()] = 0;
    refused(
        &mut g,
        P1,
        Action::Muster {
            legion: m("P1-02"),
            recruit: guardian,
            reveal: vec![lion, lion, lion],
        },
        "caretaker",
    );
}

// --- Saves -----------------------------------------------------------------

/// A save replays to the identical state; another variant version is refused.
#[test]
fn save_load_replay() {
    let v = variant("titan");
    let names: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
    let (mut g, _) = Game::new(v.clone(), Default::default(), &names, 77).unwrap();
    let mut rng = titan_core::rng::GameRng::new(1);
    for _ in 0..150 {
        let Some((p, a)) = titan_core::game::random::random_action(&g, &mut rng) else {
            break;
        };
        ok(&mut g, p, a);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.ron");
    g.save(&path).unwrap();
    let back = Game::load(v.clone(), &path).unwrap();
    assert_eq!(back.state, g.state);
    assert_eq!(back.state_hash(), g.state_hash());
    // Tampering with the version is caught.
    let mut save = g.to_save();
    save.version = "0.9.0".into();
    let err = Game::from_save(v.clone(), &save).unwrap_err();
    assert!(err.0.contains("version 0.9.0"), "{err}");
    // A save whose actions do not reach the saved state is caught.
    let mut save = g.to_save();
    save.state_hash ^= 1;
    assert!(Game::from_save(v, &save).is_err());
}

// --- Battles, summoning, acquiring, reinforcing -------------------------------

/// Reference sheet, Battle Overview: either player may demand the battle;
/// masterplay hands it to the battle engine, the engaged players fight it
/// through the game, and the result comes back to be scored.
#[test]
fn a_battle_is_fought_inside_the_game_and_scored() {
    use titan_core::battle::BattleSide;
    use titan_core::format::Edge;
    let mut g = at("engagement.ron");
    let five = land(&g, 5);
    ok(&mut g, P1, Action::Engage { land: five });
    ok(&mut g, P2, Action::Stand);
    assert!(g.battle_request().is_none() && g.battle().is_none());
    let events = ok(&mut g, P2, Action::Fight);
    assert!(events.contains(&Event::BattleBegins { land: five }));
    let req = g.battle_request().unwrap();
    assert_eq!(g.variant.terrains[req.terrain.index()].name, "Jungle");
    assert_eq!(req.attacker_characters.len(), 4);
    let titan = ch(&g, "Titan");
    assert!(
        req.attacker_characters.contains(&(titan, 6)),
        "90 points: power 6"
    );
    assert!(
        g.variant
            .rules
            .battle
            .attacker_edges
            .contains(&req.attacker_edge)
    );
    assert_ne!(req.attacker_edge, Edge::West);
    // P1-02 (Angel) stands in a tower, not engaged: it may be summoned.
    assert!(req.summonable.contains(&(m("P1-02"), ch(&g, "Angel"))));
    // Law of the Battlelands 25.D: the defender maneuvers first.
    assert_eq!(g.battle().unwrap().to_act(), BattleSide::Defender);
    assert_eq!(g.to_act(), vec![P2]);
    assert!(
        g.legal_actions(P2)
            .iter()
            .all(|a| matches!(a, Action::Battle { .. } | Action::ConcedeGame))
    );
    refused(&mut g, P1, Action::Fight, "Game Turn");
    // Both sides play random legal battle actions until it ends.
    let before: Vec<u32> = g.state.players.iter().map(|p| p.score).collect();
    let mut rng = titan_core::rng::GameRng::new(0);
    let mut steps = 0;
    let att_chars = g.legion(m("P1-01")).unwrap().characters.clone();
    let mut all_events = Vec::new();
    while g.battle().is_some() {
        let p = g.to_act()[0];
        let mut actions: Vec<Action> = g
            .legal_actions(p)
            .into_iter()
            .filter(|a| matches!(a, Action::Battle { .. }))
            .collect();
        // No concessions: let it be fought out.
        actions.retain(|a| {
            !matches!(
                a,
                Action::Battle {
                    battle: titan_core::battle::Action::Concede(_)
                }
            )
        });
        let pick = rng.int_in(0, actions.len() as i64 - 1) as usize;
        all_events.extend(ok(&mut g, p, actions.swap_remove(pick)));
        steps += 1;
        assert!(steps < 5000, "the battle must end");
        g.check_invariants().unwrap();
    }
    // One side is gone from land 5; the winner scored exactly what the
    // rules give it.
    let after: Vec<u32> = g.state.players.iter().map(|p| p.score).collect();
    let ended = all_events.iter().rev().find_map(|e| match e {
        Event::Battle { events } => events.iter().find_map(|b| match b {
            titan_core::battle::BattleEvent::Ended(w) => Some(*w),
            _ => None,
        }),
        _ => None,
    });
    let last_round = all_events
        .iter()
        .flat_map(|e| match e {
            Event::Battle { events } => events.clone(),
            _ => Vec::new(),
        })
        .filter_map(|b| match b {
            titan_core::battle::BattleEvent::PhaseBegan {
                defender_maneuver, ..
            } => Some(defender_maneuver),
            _ => None,
        })
        .max();
    // With these seeds the battle goes the distance: the defender wins by
    // time (Law of the Battlelands 25.E: the attacker's remaining
    // characters are eliminated, "the Defender receives no points for
    // victory by time-loss").
    assert_eq!(ended, Some(titan_core::battle::Winner::Defender));
    assert_eq!(
        last_round,
        Some(7),
        "the defender's seventh maneuver was the last"
    );
    assert!(g.legion(m("P1-01")).is_none());
    assert!(g.legion(m("P2-01")).is_some());
    assert_eq!(after, before, "nobody scores a time loss");
    // Every character of the attacking legion (and the Angel summoned into
    // it) is slain or removed.
    let gone: Vec<CharacterId> = all_events
        .iter()
        .filter_map(|e| match e {
            Event::Slain {
                legion, characters, ..
            } if *legion == m("P1-01") => Some(characters.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    let mut expected = att_chars.clone();
    expected.push(ch(&g, "Angel"));
    let sorted = |mut v: Vec<CharacterId>| {
        v.sort();
        v
    };
    assert_eq!(sorted(gone), sorted(expected));
    // Its Titan fell with it: player 1 is out, and with nobody to credit
    // (a time loss scores nothing) his other legion leaves unscored.
    assert!(!g.state.players[0].alive);
    assert!(g.legion(m("P1-02")).is_none());
    assert!(all_events.contains(&Event::PlayerEliminated {
        player: P1,
        by: None
    }));

    // The replay of the battle reaches the same game.
    let back = Game::from_save(g.variant.clone(), &g.to_save()).unwrap();
    assert_eq!(back.state, g.state);
}

/// Reference sheet, Engagement ("either player has the option to concede
/// the Engagement at any time. The conceding player's Legion is completely
/// eliminated") and Law of Titan 9.E: in a battle a player concedes his own
/// side only, and the concession is offered among his legal actions.
#[test]
fn in_a_battle_a_player_concedes_only_his_own_side() {
    use titan_core::battle::{Action as B, BattleSide};
    let mut g = at("engagement.ron");
    let five = land(&g, 5);
    ok(&mut g, P1, Action::Engage { land: five });
    ok(&mut g, P2, Action::Stand);
    ok(&mut g, P2, Action::Fight);
    // The defender maneuvers first (Law of the Battlelands 25.D).
    assert_eq!(g.to_act(), vec![P2]);
    let offers = g.legal_actions(P2);
    let own = Action::Battle {
        battle: B::Concede(BattleSide::Defender),
    };
    let other = Action::Battle {
        battle: B::Concede(BattleSide::Attacker),
    };
    assert!(offers.contains(&own), "{offers:?}");
    assert!(!offers.contains(&other), "{offers:?}");
    // Conceding for the attacker is refused, and so is the masterplay
    // concession that would bypass the battle's accounting.
    refused(&mut g, P2, other.clone(), "Engagement");
    refused(&mut g, P2, Action::Concede, "Engagement");
    // Nor may the attacker, not to act, concede for either side.
    refused(&mut g, P1, other, "Game Turn");
    // Play on until the attacker is to act: he may concede his side only.
    while g.to_act() != vec![P1] {
        let a = g
            .legal_actions(P2)
            .into_iter()
            .find(|a| matches!(a, Action::Battle { battle } if !matches!(battle, B::Concede(_))))
            .unwrap();
        ok(&mut g, P2, a);
    }
    let offers = g.legal_actions(P1);
    assert!(offers.contains(&Action::Battle {
        battle: B::Concede(BattleSide::Attacker)
    }));
    refused(&mut g, P1, own.clone(), "Engagement");
    // The attacker concedes: his legion (with his Titan) is gone, the
    // defender's legion stands whole.
    let def_before = g.legion(m("P2-01")).unwrap().characters.clone();
    ok(
        &mut g,
        P1,
        Action::Battle {
            battle: B::Concede(BattleSide::Attacker),
        },
    );
    assert!(g.legion(m("P1-01")).is_none());
    assert_eq!(g.legion(m("P2-01")).unwrap().characters, def_before);
}

/// Law of the Battlelands 24.A, reference sheet "Acquiring Angels": an
/// Archangel for a multiple of 500, in the stead of the Angel; one
/// acquisition per multiple of 100 passed.
#[test]
fn archangels_at_five_hundred() {
    let mut g = at("titan-duel.ron");
    g.state.players[0].score = 470;
    let twenty = land(&g, 20);
    ok(&mut g, P1, Action::Engage { land: twenty });
    // Player 2 concedes the Titan legion: 28 + 15 + 12 = 55 -> 525, plus
    // half the other legion, 28. The game ends at once with player 2 gone.
    ok(&mut g, P2, Action::Concede);
    assert_eq!(g.state.players[0].score, 470 + 55 + 28);
    assert!(!g.state.players[1].alive);
    assert_eq!(g.state.phase, Phase::Over);
    assert_eq!(g.state.outcome, Some(Outcome::Winner(P1)));

    let mut g = at("engagement.ron");
    g.state.players[0].score = 480;
    let five = land(&g, 5);
    ok(&mut g, P1, Action::Engage { land: five });
    ok(&mut g, P2, Action::Stand);
    ok(&mut g, P2, Action::Concede);
    // 480 + 40 = 520: the 500 mark.
    let offers = g.legal_actions(P1);
    let (angel, archangel) = (ch(&g, "Angel"), ch(&g, "Archangel"));
    assert!(offers.contains(&Action::Acquire {
        character: archangel
    }));
    assert!(offers.contains(&Action::Acquire { character: angel }));
    ok(
        &mut g,
        P1,
        Action::Acquire {
            character: archangel,
        },
    );
    assert_eq!(g.legion(m("P1-01")).unwrap().count(archangel), 1);
    // One threshold passed (500), one acquisition: no second one.
    assert!(
        !g.legal_actions(P1)
            .iter()
            .any(|a| matches!(a, Action::Acquire { .. }))
    );
}

/// Reference sheet, Reinforcement: a defender that wins by agreement may
/// still muster after the battle.
#[test]
fn a_winning_defender_reinforces() {
    let mut g = at("engagement.ron");
    let five = land(&g, 5);
    ok(&mut g, P1, Action::Engage { land: five });
    ok(&mut g, P2, Action::Stand);
    // The attacker gives up its legion (a Titan: player 1 is out too).
    let (gargoyle, cyclops) = (ch(&g, "Gargoyle"), ch(&g, "Cyclops"));
    let att = g.legion(m("P1-01")).unwrap().characters.clone();
    ok(
        &mut g,
        P2,
        Action::Propose {
            attacker_losses: att,
            defender_losses: vec![],
        },
    );
    ok(&mut g, P1, Action::Accept);
    // Jungle: two Gargoyles show for a Cyclops.
    let offers = g.legal_actions(P2);
    assert!(
        offers.contains(&Action::Reinforce {
            recruit: cyclops,
            reveal: vec![gargoyle, gargoyle]
        }),
        "{offers:?}"
    );
    ok(
        &mut g,
        P2,
        Action::Reinforce {
            recruit: cyclops,
            reveal: vec![gargoyle, gargoyle],
        },
    );
    assert_eq!(g.legion(m("P2-01")).unwrap().count(cyclops), 1);
}

/// Reference sheet, Summon Angel: one summon per engagement phase.
#[test]
fn one_summon_per_engagement_phase() {
    let mut g = at("engagement.ron");
    let five = land(&g, 5);
    ok(&mut g, P1, Action::Engage { land: five });
    ok(&mut g, P2, Action::Stand);
    let mut second = g.clone();
    ok(&mut g, P2, Action::Concede);
    let angel = ch(&g, "Angel");
    assert!(g.legal_actions(P1).contains(&Action::Summon {
        from: m("P1-02"),
        character: angel
    }));
    // As if an Angel had been summoned in an earlier engagement this phase.
    second.state.summoned = true;
    ok(&mut second, P2, Action::Concede);
    assert!(
        !second
            .legal_actions(P1)
            .iter()
            .any(|a| matches!(a, Action::Summon { .. }))
    );
}

/// A unit a script adds to a battle from the caretaker (`ctx:add_unit(...,
/// false)`) joins the legion of its side after the battle in a real game:
/// docs/scripting.md, "Changing sides and adding units" (our reading: a
/// survivor from the caretaker joins its side's legion while it has room;
/// `BattleResult::defender_added`), and the caretaker gives it up.
/// The attacker concedes (Law of the Battlelands 27.C: the defender wins).
#[test]
fn a_unit_added_in_battle_joins_its_legion_after_the_battle() {
    use titan_core::battle::{Action as B, BattleSide};
    let dir = common::root().join("tests/battle/variants/platform");
    let platform = Arc::new(titan_core::load(&dir, &common::options()).unwrap());
    let path = common::root().join("tests/scenarios/engagement.ron");
    let mut g = Position::read(&path).unwrap().to_game(platform).unwrap();
    let ogre = ch(&g, "Ogre");
    let ogres_before = g.state.caretaker[ogre.index()];
    let five = land(&g, 5);
    ok(&mut g, P1, Action::Engage { land: five });
    ok(&mut g, P2, Action::Stand);
    ok(&mut g, P2, Action::Fight);
    assert_eq!(g.battle().unwrap().to_act(), BattleSide::Defender);
    // Every defender enters (anywhere but C3, where the Ogre goes: one not
    // brought on in the first maneuver would be eliminated), then one hires.
    let c3 = titan_core::battleland::HexId::from_label("C3").unwrap();
    let mut entered = Vec::new();
    while let Some(a) = g.legal_actions(P2).into_iter().find(|a| {
        matches!(a, Action::Battle { battle: B::Move { unit, to } }
            if *to != c3 && !entered.contains(unit))
    }) {
        if let Action::Battle {
            battle: B::Move { unit, .. },
        } = a
        {
            entered.push(unit);
        }
        ok(&mut g, P2, a);
    }
    assert_eq!(entered.len(), 3, "the three defenders entered");
    let unit = entered[0];
    let hire = Action::Battle {
        battle: B::Script {
            name: "hire".into(),
            unit,
            args: vec![],
        },
    };
    assert!(g.legal_actions(P2).contains(&hire), "hire is offered");
    ok(&mut g, P2, hire);
    ok(
        &mut g,
        P2,
        Action::Battle {
            battle: B::EndManeuver,
        },
    );
    // The defender's strike phase has nobody in contact; then the attacker.
    while g.to_act() == vec![P2] {
        ok(
            &mut g,
            P2,
            Action::Battle {
                battle: B::EndStrikes,
            },
        );
    }
    ok(
        &mut g,
        P1,
        Action::Battle {
            battle: B::Concede(BattleSide::Attacker),
        },
    );
    assert!(g.battle().is_none(), "the battle is over");
    let mut chars = g.legion(m("P2-01")).unwrap().characters.clone();
    chars.sort();
    let mut expected = chs(&g, &["Gargoyle", "Gargoyle", "Troll", "Ogre"]);
    expected.sort();
    assert_eq!(chars, expected, "the hired Ogre joined P2-01");
    assert_eq!(g.state.caretaker[ogre.index()], ogres_before - 1);
    assert!(g.legion(m("P1-01")).is_none(), "the attacker conceded");
    g.check_invariants().unwrap();
}

/// A negotiation is the engaged players' own: a third player is not told
/// that an agreement was proposed or rejected, as his view does not show
/// the proposal (docs/protocol.md, Events). Played from seeds until some
/// player may propose.
#[test]
fn a_third_player_is_not_told_of_a_proposal() {
    use titan_core::game::random::random_action;
    use titan_core::game::view::event_seen_by;
    use titan_core::rng::GameRng;
    let v = variant("titan");
    let names: Vec<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
    for seed in 0..20 {
        let (mut g, _) = Game::new(v.clone(), Default::default(), &names, seed).unwrap();
        let mut pick = GameRng::new(seed);
        for _ in 0..5000 {
            let proposer = g.to_act().into_iter().find(|&p| {
                g.legal_actions(p)
                    .iter()
                    .any(|a| matches!(a, Action::Propose { .. }))
            });
            if let Some(p) = proposer {
                let propose = g
                    .legal_actions(p)
                    .into_iter()
                    .find(|a| matches!(a, Action::Propose { .. }))
                    .unwrap();
                let events = g.apply(p, &propose).unwrap();
                let e = g.state.engagement.clone().unwrap();
                let owner = |m| g.legion(m).unwrap().owner;
                let engaged = [owner(e.attacker), owner(e.defender)];
                let third = (0..3).map(PlayerId).find(|q| !engaged.contains(q)).unwrap();
                let told = |q: PlayerId| {
                    events
                        .iter()
                        .any(|ev| matches!(ev, Event::Proposed { .. }) && event_seen_by(ev, q))
                };
                assert!(
                    told(engaged[0]) && told(engaged[1]),
                    "both engaged are told"
                );
                assert!(!told(third), "the third player is not");
                return;
            }
            let Some((p, a)) = random_action(&g, &mut pick) else {
                break;
            };
            g.apply(p, &a).unwrap();
        }
    }
    panic!("no seed reached a proposal");
}
