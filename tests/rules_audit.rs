//! Rules of the `titan` variant checked against the rulebooks where no other
//! test did (an audit): each test names the section it checks. Positions are
//! scenario files under `tests/scenarios/`.

mod common;

use std::sync::Arc;

use titan_core::Variant;
use titan_core::battle::{Action as B, BattleSide};
use titan_core::game::save::Position;
use titan_core::game::{Action, Event, Game, Marker, PlayerId};
use titan_core::model::LandId;

fn titan() -> Arc<Variant> {
    let dir = common::root().join("variants/titan");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap())
}

fn at(file: &str) -> Game {
    let path = common::root().join("tests/scenarios").join(file);
    Position::read(&path).unwrap().to_game(titan()).unwrap()
}

fn land(g: &Game, n: u32) -> LandId {
    g.variant.board.by_number(n).unwrap()
}

fn m(s: &str) -> Marker {
    s.parse().unwrap()
}

const P1: PlayerId = PlayerId(0);
const P2: PlayerId = PlayerId(1);

fn ok(g: &mut Game, p: PlayerId, a: Action) -> Vec<Event> {
    g.apply(p, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"))
}

fn reinforcement_offered(g: &Game, p: PlayerId) -> bool {
    g.legal_actions(p)
        .iter()
        .any(|a| matches!(a, Action::Reinforce { .. }))
}

/// The battle on land 5 of `engagement.ron` begun, the defender's first
/// maneuver (all its characters brought on) and strike phase played, up to
/// the attacker's first maneuver.
fn battle_to_the_attackers_first_maneuver() -> Game {
    let mut g = at("engagement.ron");
    let five = land(&g, 5);
    ok(&mut g, P1, Action::Engage { land: five });
    ok(&mut g, P2, Action::Stand);
    ok(&mut g, P2, Action::Fight);
    let is_move = |a: &Action| {
        matches!(
            a,
            Action::Battle {
                battle: B::Move { .. }
            }
        )
    };
    loop {
        let p = g.to_act()[0];
        let offers = g.legal_actions(p);
        if p == P1 && offers.iter().any(is_move) {
            break;
        }
        let a = offers
            .iter()
            .find(|a| is_move(a))
            .or_else(|| {
                offers.iter().find(
                    |a| matches!(a, Action::Battle { battle } if !matches!(battle, B::Concede(_))),
                )
            })
            .unwrap()
            .clone();
        ok(&mut g, p, a);
    }
    assert!(g.battle().is_some(), "the battle goes on");
    g
}

/// `a` by `p` is refused, and the game is left exactly as it was.
fn refused_unchanged(g: &mut Game, p: PlayerId, a: &Action) {
    let before = g.state_hash();
    assert!(g.apply(p, a).is_err(), "{a:?} was taken");
    assert_eq!(g.state_hash(), before, "a refused {a:?} changed the game");
}

/// Reference sheet, Reinforcement: "If the attacker concedes before placing
/// characters, the defender may not muster."
#[test]
fn an_attacker_conceding_before_placing_characters_gives_no_muster() {
    let mut g = battle_to_the_attackers_first_maneuver();
    ok(
        &mut g,
        P1,
        Action::Battle {
            battle: B::Concede(BattleSide::Attacker),
        },
    );
    assert!(g.legion(m("P1-01")).is_none());
    assert!(!reinforcement_offered(&g, P2), "{:?}", g.legal_actions(P2));
}

/// Reference sheet, Reinforcement: "If the defender wins the Engagement ...
/// by the attacker conceding after committing characters to the Battle, the
/// defender may still muster after the Battle."
#[test]
fn an_attacker_conceding_after_placing_characters_lets_the_defender_muster() {
    let mut g = battle_to_the_attackers_first_maneuver();
    // The attacker brings one character on, then concedes.
    let on = g
        .legal_actions(P1)
        .into_iter()
        .find(|a| {
            matches!(
                a,
                Action::Battle {
                    battle: B::Move { .. }
                }
            )
        })
        .unwrap_or_else(|| panic!("{:?}", g.legal_actions(P1)));
    ok(&mut g, P1, on);
    ok(
        &mut g,
        P1,
        Action::Battle {
            battle: B::Concede(BattleSide::Attacker),
        },
    );
    assert!(g.legion(m("P1-01")).is_none());
    assert!(reinforcement_offered(&g, P2), "{:?}", g.legal_actions(P2));
}

/// A game from a position written in the test (the scenario file format).
fn position(text: &str) -> Game {
    let p: Position = titan_core::load::ron_options()
        .from_str(text)
        .unwrap_or_else(|e| panic!("{e}"));
    p.to_game(titan()).unwrap()
}

fn ch(g: &Game, name: &str) -> titan_core::model::CharacterId {
    g.variant.character_by_name(name).unwrap()
}

fn acquisitions(g: &Game, p: PlayerId) -> Vec<Action> {
    g.legal_actions(p)
        .into_iter()
        .filter(|a| matches!(a, Action::Acquire { .. }))
        .collect()
}

/// Player 1's legion of `attacker` has entered player 2's legion of
/// `defender` (no lord) on land 5; player 1 has `score` points.
fn engaged(score: u32, attacker: &str, defender: &str) -> Game {
    position(&format!(
        r#"(
            seed: 4,
            players: [(name: "Red", tower: 100, score: {score}), (name: "Blue", tower: 400)],
            legions: [
                (marker: "P1-01", land: 5, characters: [{attacker}], moved: true, entered_from: 4),
                (marker: "P1-02", land: 100, characters: ["Titan", "Ogre", "Ogre"]),
                (marker: "P2-01", land: 5, characters: [{defender}]),
                (marker: "P2-02", land: 400, characters: ["Titan", "Angel", "Lion"]),
            ],
            active: 0,
            phase: Engage,
            turn: 6,
        )"#
    ))
}

/// Reference sheet, Acquiring Angels: "An Angel can be added for each
/// multiple of 100 attained during the just-resolved Engagement" and only
/// "if it has less than 7 characters": from 99 to 205 points a legion of
/// five takes two Angels, one of six only one.
#[test]
fn an_angel_per_hundred_while_the_legion_has_room() {
    let def = r#""Hydra", "Serpent", "Colossus""#;
    for (attacker, angels) in [
        (r#""Ogre", "Ogre", "Troll", "Troll", "Lion""#, 2),
        (r#""Ogre", "Ogre", "Troll", "Troll", "Lion", "Lion""#, 1),
    ] {
        let mut g = engaged(99, attacker, def);
        let five = land(&g, 5);
        ok(&mut g, P1, Action::Engage { land: five });
        ok(&mut g, P2, Action::Stand);
        ok(&mut g, P2, Action::Concede);
        assert_eq!(g.state.players[0].score, 99 + 30 + 36 + 40);
        let angel = ch(&g, "Angel");
        let mut taken = 0;
        while acquisitions(&g, P1).contains(&Action::Acquire { character: angel }) {
            ok(&mut g, P1, Action::Acquire { character: angel });
            taken += 1;
            assert!(taken <= 2);
        }
        assert_eq!(taken, angels, "{attacker}");
        assert!(g.legion(m("P1-01")).unwrap().height() <= 7);
    }
}

/// Reference sheet, Engagement: "If the defender suggests an agreement or
/// accepts Battle, he may not then flee."
#[test]
fn a_defender_that_stood_may_not_flee() {
    let mut g = engaged(0, r#""Ogre", "Ogre""#, r#""Centaur", "Centaur""#);
    let five = land(&g, 5);
    ok(&mut g, P1, Action::Engage { land: five });
    assert!(g.legal_actions(P2).contains(&Action::Flee));
    ok(&mut g, P2, Action::Stand);
    assert!(!g.legal_actions(P2).contains(&Action::Flee));
    refused_unchanged(&mut g, P2, &Action::Flee);
}

/// Reference sheet, Engagement: "The attacker can't flee."
#[test]
fn the_attacker_may_not_flee() {
    let mut g = engaged(0, r#""Ogre", "Ogre""#, r#""Centaur", "Centaur""#);
    let five = land(&g, 5);
    ok(&mut g, P1, Action::Engage { land: five });
    assert!(!g.legal_actions(P1).contains(&Action::Flee));
    refused_unchanged(&mut g, P1, &Action::Flee);
}

/// Reference sheet, Summon Angel: "The Angel may not currently be in an
/// unresolved Engagement". Player 1 has engaged on lands 5 and 7; the
/// Angels on 7 and in the tower are his.
#[test]
fn an_angel_in_an_unresolved_engagement_may_not_be_summoned() {
    let mut g = position(
        r#"(
            seed: 4,
            players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
            legions: [
                (marker: "P1-01", land: 5, characters: ["Ogre", "Ogre", "Troll"], moved: true, entered_from: 4),
                (marker: "P1-02", land: 100, characters: ["Titan", "Angel", "Ogre"]),
                (marker: "P1-03", land: 7, characters: ["Angel", "Lion", "Lion"], moved: true, entered_from: 6),
                (marker: "P2-01", land: 5, characters: ["Centaur", "Centaur"]),
                (marker: "P2-02", land: 400, characters: ["Titan", "Angel", "Lion"]),
                (marker: "P2-03", land: 7, characters: ["Gargoyle", "Gargoyle"]),
            ],
            active: 0,
            phase: Engage,
            turn: 6,
        )"#,
    );
    let (five, seven) = (land(&g, 5), land(&g, 7));
    let angel = ch(&g, "Angel");
    let summons = |g: &Game| -> Vec<Marker> {
        g.legal_actions(P1)
            .into_iter()
            .filter_map(|a| match a {
                Action::Summon { from, .. } => Some(from),
                _ => None,
            })
            .collect()
    };
    // In battle, the summonable Angels are those not engaged.
    ok(&mut g, P1, Action::Engage { land: five });
    ok(&mut g, P2, Action::Stand);
    ok(&mut g, P2, Action::Fight);
    let req = g.battle_request().unwrap();
    assert!(req.summonable.contains(&(m("P1-02"), angel)), "{req:?}");
    assert!(
        !req.summonable.iter().any(|(l, _)| *l == m("P1-03")),
        "{req:?}"
    );
    // The defender concedes in the battle: after it, the same.
    ok(
        &mut g,
        P2,
        Action::Battle {
            battle: B::Concede(BattleSide::Defender),
        },
    );
    assert_eq!(summons(&g), vec![m("P1-02")]);
    let before = g.state_hash();
    assert!(
        g.apply(
            P1,
            &Action::Summon {
                from: m("P1-03"),
                character: angel
            }
        )
        .is_err()
    );
    assert_eq!(g.state_hash(), before);
    // Passed up here, a summon is still open after the engagement on 7.
    ok(&mut g, P1, Action::DoneAfter);
    ok(&mut g, P1, Action::Engage { land: seven });
    ok(&mut g, P2, Action::Stand);
    ok(&mut g, P2, Action::Concede);
    assert_eq!(summons(&g), vec![m("P1-02")]);
}

/// Reference sheet, Titans: "Legions removed from unresolved engagements
/// score half points to those opponents (these winning Legions may not
/// summon or acquire Angels)"; the slayer of the Titan takes its markers.
/// Player 1 has engaged player 2 with his Titan's legion on land 5 and
/// player 3 on land 7; he concedes on 5 (Law of Titan 1980, concession: his
/// Titan "is considered as slain in Battle and scored accordingly").
#[test]
fn a_fallen_titans_legions_in_unresolved_engagements_score_half_to_those_opponents() {
    let mut g = position(
        r#"(
            seed: 4,
            players: [
                (name: "Red", tower: 100),
                (name: "Blue", tower: 400),
                (name: "Green", tower: 600, score: 90),
            ],
            legions: [
                (marker: "P1-01", land: 5, characters: ["Titan", "Ogre"], moved: true, entered_from: 4),
                (marker: "P1-02", land: 100, characters: ["Angel", "Troll", "Troll"]),
                (marker: "P1-03", land: 7, characters: ["Lion", "Lion", "Ranger"], moved: true, entered_from: 6),
                (marker: "P2-01", land: 5, characters: ["Titan", "Centaur", "Centaur"]),
                (marker: "P3-01", land: 7, characters: ["Titan", "Gargoyle", "Gargoyle"]),
            ],
            active: 0,
            phase: Engage,
            turn: 6,
        )"#,
    );
    let five = land(&g, 5);
    ok(&mut g, P1, Action::Engage { land: five });
    // A legion with a lord may not flee: negotiations at once.
    let events = ok(&mut g, P1, Action::Concede);
    assert!(events.contains(&Event::PlayerEliminated {
        player: P1,
        by: Some(P2)
    }));
    assert!(g.state.legions.iter().all(|l| l.owner != P1));
    // Player 2: the Titan's legion in full (Titan 24 + Ogre 12) and half of
    // the legion in no engagement (Angel 24 + two Trolls 32 = 56: 28).
    assert_eq!(g.state.players[1].score, 36 + 28);
    // Player 3: half of the legion engaged on 7 (Lions 15 + 15, Ranger 16:
    // 46 / 2 = 23), past 100 but without an Angel.
    assert_eq!(g.state.players[2].score, 90 + 23);
    let angel = ch(&g, "Angel");
    assert_eq!(g.legion(m("P3-01")).unwrap().count(angel), 0);
    assert!(acquisitions(&g, PlayerId(2)).is_empty());
    let taken = g.state.players[1]
        .markers
        .iter()
        .filter(|mk| mk.player == P1)
        .count();
    assert_eq!(taken, 12, "the slayer takes the markers");
}

/// Reference sheet, A Game Turn and Commencement; Law of Titan 1982 6.1:
/// only the Mover splits, and only in his Commencement Phase (not once he
/// has rolled); Law of Titan 4.2: only with a marker not in play.
#[test]
fn only_the_mover_splits_and_only_before_his_roll() {
    let mut g = at("move-from-land-1.ron");
    let ogre = ch(&g, "Ogre");
    let lion = ch(&g, "Lion");
    let split = |legion: &str, parts: Vec<Vec<titan_core::model::CharacterId>>| Action::Split {
        legion: m(legion),
        parts,
    };
    // After the roll: no split.
    let before = g.state_hash();
    assert!(
        g.apply(P1, &split("P1-01", vec![vec![ogre, ogre]]))
            .is_err()
    );
    assert_eq!(g.state_hash(), before);
    // In the Commencement Phase: the Mover may, the other player may not.
    g.state.phase = titan_core::game::Phase::Split;
    g.state.roll = None;
    let before = g.state_hash();
    assert!(
        g.apply(P2, &split("P2-01", vec![vec![lion, lion]]))
            .is_err()
    );
    assert_eq!(g.state_hash(), before);
    assert!(
        !g.legal_actions(P2)
            .iter()
            .any(|a| matches!(a, Action::Split { .. }))
    );
    // Without a free marker, no split (all twelve of player 1's in play).
    let free = std::mem::take(&mut g.state.players[0].markers);
    let before = g.state_hash();
    let err = g
        .apply(P1, &split("P1-01", vec![vec![ogre, ogre]]))
        .unwrap_err();
    assert!(err.to_string().contains("marker"), "{err}");
    assert_eq!(g.state_hash(), before);
    g.state.players[0].markers = free;
    ok(&mut g, P1, split("P1-01", vec![vec![ogre, ogre]]));
}

/// Reference sheet, Battle Overview: "When using Titan Teleportation,
/// attacker chooses the 4-hex side to enter", in a game: after the Titan's
/// legion teleports onto an enemy legion, the battle opens with the
/// attacker's choice among the wide sides.
#[test]
fn after_a_titan_teleport_in_a_game_the_attacker_chooses_his_side() {
    use titan_core::format::Edge;
    use titan_core::game::TeleportKind;
    let mut g = at("move-from-land-1.ron");
    g.state.roll = Some(6);
    g.state.players[0].score = 400;
    let (three, titan) = (land(&g, 3), ch(&g, "Titan"));
    ok(
        &mut g,
        P1,
        Action::Teleport {
            legion: m("P1-01"),
            to: three,
            kind: TeleportKind::Titan,
            lord: titan,
        },
    );
    ok(&mut g, P1, Action::DoneMoving);
    ok(&mut g, P1, Action::Engage { land: three });
    // Player 2's legion holds his Titan: no flight; the battle is demanded.
    ok(&mut g, P2, Action::Fight);
    assert_eq!(g.to_act(), vec![P1], "the attacker picks his side first");
    let edges: Vec<Edge> = g
        .legal_actions(P1)
        .into_iter()
        .filter_map(|a| match a {
            Action::Battle {
                battle: B::ChooseEdge(e),
            } => Some(e),
            _ => None,
        })
        .collect();
    assert_eq!(edges, g.variant.rules.battle.attacker_edges);
    ok(
        &mut g,
        P1,
        Action::Battle {
            battle: B::ChooseEdge(Edge::East),
        },
    );
    assert_eq!(g.battle().unwrap().attacker_edge(), Edge::East);
    assert_eq!(g.to_act(), vec![P2], "then the defender maneuvers first");
}

/// Law of Titan 1980 16.A (kept by the reference sheet, Acquiring Angels):
/// "A Legion may not add an Angel if ... there are no Angels available in
/// the caretaker's stacks."
#[test]
fn no_angel_is_acquired_from_an_empty_stack() {
    let mut g = engaged(90, r#""Ogre", "Ogre""#, r#""Troll", "Troll""#);
    let angel = ch(&g, "Angel");
    g.state.caretaker[angel.index()] = 0;
    let five = land(&g, 5);
    ok(&mut g, P1, Action::Engage { land: five });
    ok(&mut g, P2, Action::Stand);
    ok(&mut g, P2, Action::Concede);
    assert_eq!(g.state.players[0].score, 90 + 32);
    assert!(acquisitions(&g, P1).is_empty(), "{:?}", g.legal_actions(P1));
    refused_unchanged(&mut g, P1, &Action::Acquire { character: angel });
}

/// Reference sheet, Movement: once a legion has entered an enemy's land "no
/// further movement into or across that Land is allowed this turn", and
/// Titan teleportation does not lift it: the Titan's legion may not
/// teleport onto an engagement already made.
#[test]
fn a_titan_teleport_may_not_join_an_engagement() {
    use titan_core::game::TeleportKind;
    let mut g = position(
        r#"(
            seed: 4,
            players: [(name: "Red", tower: 100, score: 400), (name: "Blue", tower: 400)],
            legions: [
                (marker: "P1-01", land: 1, characters: ["Titan", "Ogre", "Ogre"]),
                (marker: "P1-02", land: 3, characters: ["Angel", "Troll"], moved: true, entered_from: 100),
                (marker: "P2-01", land: 3, characters: ["Lion", "Lion"]),
                (marker: "P2-02", land: 2000, characters: ["Titan", "Troll", "Troll"]),
            ],
            active: 0,
            phase: Move,
            roll: 6,
            turn: 6,
        )"#,
    );
    let titan = ch(&g, "Titan");
    let targets: Vec<LandId> = g
        .legal_actions(P1)
        .into_iter()
        .filter_map(|a| match a {
            Action::Teleport {
                to,
                kind: TeleportKind::Titan,
                ..
            } => Some(to),
            _ => None,
        })
        .collect();
    assert_eq!(targets, vec![land(&g, 2000)]);
    let before = g.state_hash();
    let three = land(&g, 3);
    assert!(
        g.apply(
            P1,
            &Action::Teleport {
                legion: m("P1-01"),
                to: three,
                kind: TeleportKind::Titan,
                lord: titan,
            }
        )
        .is_err()
    );
    assert_eq!(g.state_hash(), before);
}

/// Reference sheet, Characters: slain Angels and Archangels "are returned
/// to stock and can be acquired again", slain Demi-Lords "are returned to
/// stock and can be mustered again", but Creatures "once slain, are removed
/// from the game".
#[test]
fn slain_lords_and_demilords_return_to_the_stock_creatures_do_not() {
    let mut g = engaged(0, r#""Ogre", "Ogre""#, r#""Angel", "Warlock", "Troll""#);
    let [angel, warlock, troll] = ["Angel", "Warlock", "Troll"].map(|n| ch(&g, n));
    let stock = |g: &Game| [angel, warlock, troll].map(|c| g.state.caretaker[c.index()]);
    let before = stock(&g);
    let five = land(&g, 5);
    ok(&mut g, P1, Action::Engage { land: five });
    // A legion with a lord may not flee: negotiations at once.
    ok(&mut g, P2, Action::Concede);
    assert!(g.legion(m("P2-01")).is_none());
    assert_eq!(stock(&g), [before[0] + 1, before[1] + 1, before[2]]);
}

/// Law of Titan 1982 4.1, reference sheet "Legions": "A Legion may have a
/// maximum of 7 characters"; a position with a legion of eight is no
/// position a game could reach, and is refused saying so.
#[test]
fn a_legion_of_eight_is_refused() {
    let text = r#"(
        seed: 4,
        players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
        legions: [
            (marker: "P1-01", land: 1, characters: ["Titan", "Ogre", "Ogre", "Ogre", "Troll", "Troll", "Troll", "Lion"]),
            (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Move,
        roll: 2,
        turn: 6,
    )"#;
    let p: Position = titan_core::load::ron_options().from_str(text).unwrap();
    let Err(err) = p.to_game(titan()) else {
        panic!("a legion of eight must be refused")
    };
    assert!(err.to_string().contains("8 characters"), "{err}");
}

/// Reference sheet, "For a Shorter Game": "Set a specific point total (such
/// as 300). Once the total is met or exceeded, the game ends at the end of
/// that turn" (the option `point_limit`); the highest score wins.
#[test]
fn a_point_limit_ends_the_game_at_the_end_of_the_turn() {
    use titan_core::game::{Outcome, Phase};
    let at_score = |score: u32| {
        position(&format!(
            r#"(
                options: {{"point_limit": Int(300)}},
                seed: 4,
                players: [(name: "Red", tower: 100, score: {score}), (name: "Blue", tower: 400, score: 250)],
                legions: [
                    (marker: "P1-01", land: 1, characters: ["Titan", "Ogre", "Ogre"]),
                    (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
                ],
                active: 0,
                phase: Muster,
                turn: 6,
            )"#
        ))
    };
    let mut g = at_score(299);
    ok(&mut g, P1, Action::EndTurn);
    assert_eq!(g.state.outcome, None);
    assert_eq!(g.state.active, P2);
    let mut g = at_score(300);
    ok(&mut g, P1, Action::EndTurn);
    assert_eq!(g.state.outcome, Some(Outcome::Winner(P1)));
    assert_eq!(g.state.phase, Phase::Over);
}

/// Law of Titan 1982 6.0: each player's turn is a Game-Turn; LT80 17.A:
/// "no Legion may ever muster more than one Creature per Game turn". A
/// legion that mustered in its owner's Enlistment may still reinforce when
/// it is attacked in the next player's Game-Turn (reference sheet,
/// Reinforcement).
#[test]
fn a_legion_that_mustered_in_its_turn_may_reinforce_in_the_next() {
    use titan_core::game::Phase;
    let mut g = position(
        r#"(
            seed: 4,
            players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
            legions: [
                (marker: "P1-01", land: 7, characters: ["Titan", "Centaur", "Centaur"]),
                (marker: "P1-02", land: 100, characters: ["Angel", "Ogre", "Ogre"]),
                (marker: "P2-01", land: 8, characters: ["Ogre", "Ogre", "Troll"], moved: true, entered_from: 7),
                (marker: "P2-02", land: 400, characters: ["Titan", "Angel", "Lion"]),
            ],
            active: 1,
            phase: Muster,
            turn: 6,
        )"#,
    );
    let (ogre, troll, ranger) = (ch(&g, "Ogre"), ch(&g, "Troll"), ch(&g, "Ranger"));
    // Blue's Enlistment: a Troll for two Ogres (Marsh).
    ok(
        &mut g,
        P2,
        Action::Muster {
            legion: m("P2-01"),
            recruit: troll,
            reveal: vec![ogre, ogre],
        },
    );
    ok(&mut g, P2, Action::EndTurn);
    assert_eq!(g.state.active, P1);
    // Red's Game-Turn: the test fixes the roll, a 1, from land 7 to 8.
    if g.state.phase == Phase::Split {
        ok(&mut g, P1, Action::DoneSplitting);
    }
    g.state.roll = Some(1);
    let (seven, eight) = (land(&g, 7), land(&g, 8));
    ok(
        &mut g,
        P1,
        Action::Move {
            legion: m("P1-01"),
            to: eight,
            entered_from: seven,
        },
    );
    ok(&mut g, P1, Action::DoneMoving);
    ok(&mut g, P1, Action::Engage { land: eight });
    ok(&mut g, P2, Action::Stand);
    ok(&mut g, P2, Action::Fight);
    // In the battle: reinforcements are on offer for the fourth maneuver.
    let req = g.battle_request().unwrap();
    assert!(req.reinforcements.contains(&ranger), "{req:?}");
}

/// Reference sheet, Commencement: "By the end of the Movement Phase, if
/// possible, the split Legions must be in separate Lands"; Law of Titan
/// 1982 4.3 allows a three-way split. Three legions split on land 1 may not
/// end the phase with two of them still together there.
#[test]
fn a_three_way_split_must_part_all_three_if_it_can() {
    use titan_core::game::Phase;
    let mut g = position(
        r#"(
            seed: 4,
            players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
            legions: [
                (marker: "P1-01", land: 1, characters: ["Titan", "Ogre", "Ogre", "Troll", "Troll", "Lion"]),
                (marker: "P2-01", land: 400, characters: ["Titan", "Angel", "Lion"]),
            ],
            active: 0,
            phase: Split,
            turn: 6,
        )"#,
    );
    let [ogre, troll] = ["Ogre", "Troll"].map(|n| ch(&g, n));
    ok(
        &mut g,
        P1,
        Action::Split {
            legion: m("P1-01"),
            parts: vec![vec![ogre, ogre], vec![troll, troll]],
        },
    );
    let mine: Vec<Marker> = g
        .state
        .legions
        .iter()
        .filter(|l| l.owner == P1)
        .map(|l| l.marker)
        .collect();
    assert_eq!(mine.len(), 3);
    ok(&mut g, P1, Action::DoneSplitting);
    assert_eq!(g.state.phase, Phase::Move);
    // The test fixes the roll: a 1 (land 1 leads to 2 and to 1000).
    g.state.roll = Some(1);
    let (one, two) = (land(&g, 1), land(&g, 2));
    ok(
        &mut g,
        P1,
        Action::Move {
            legion: mine[1],
            to: two,
            entered_from: one,
        },
    );
    // Two legions are still together on land 1 and one of them can move.
    refused_unchanged(&mut g, P1, &Action::DoneMoving);
    let thousand = land(&g, 1000);
    ok(
        &mut g,
        P1,
        Action::Move {
            legion: mine[2],
            to: thousand,
            entered_from: one,
        },
    );
    ok(&mut g, P1, Action::DoneMoving);
}

/// Reference sheet, Summon Angel: "A 7-character Legion may not summon an
/// Angel", after the battle as during it; a legion of six may.
#[test]
fn a_legion_of_seven_may_not_summon_after_winning() {
    for (attacker, offered) in [
        (
            r#""Ogre", "Ogre", "Troll", "Troll", "Lion", "Lion", "Lion""#,
            false,
        ),
        (r#""Ogre", "Ogre", "Troll", "Troll", "Lion", "Lion""#, true),
    ] {
        let mut g = position(&format!(
            r#"(
                seed: 4,
                players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
                legions: [
                    (marker: "P1-01", land: 5, characters: [{attacker}], moved: true, entered_from: 4),
                    (marker: "P1-02", land: 100, characters: ["Titan", "Angel", "Ogre"]),
                    (marker: "P2-01", land: 5, characters: ["Centaur", "Centaur"]),
                    (marker: "P2-02", land: 400, characters: ["Titan", "Angel", "Lion"]),
                ],
                active: 0,
                phase: Engage,
                turn: 6,
            )"#
        ));
        let five = land(&g, 5);
        ok(&mut g, P1, Action::Engage { land: five });
        ok(&mut g, P2, Action::Stand);
        ok(&mut g, P2, Action::Concede);
        let summons = g
            .legal_actions(P1)
            .iter()
            .any(|a| matches!(a, Action::Summon { .. }));
        assert_eq!(summons, offered, "{attacker}");
    }
}
