//! The masterplay rules of the `titan-1980` variant that differ from the
//! `titan` variant's, each test naming the rule of the 1980 Law of Titan it
//! checks (the battles are scenario files under
//! `variants/titan-1980/tests/battle/`).

mod common;

use std::sync::Arc;

use titan_core::game::save::Position;
use titan_core::game::{Action, PlayerId};

fn variant() -> Arc<titan_core::Variant> {
    let dir = common::root().join("variants/titan-1980");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap())
}

/// The game at a position of this variant written in RON.
fn at(text: &str) -> titan_core::game::Game {
    let pos: Position = ron::from_str(text).unwrap();
    pos.to_game(variant()).unwrap()
}

/// Law of Titan 1980, 4.E ("Any Legion that contains seven Characters
/// cannot be moved") and 8.D (nor teleported): with a roll of 6 in its
/// tower, the full legion has no move and no teleport, and a move of it is
/// refused; the legion of six beside it moves.
#[test]
fn a_legion_of_seven_does_not_move_law_of_titan_1980_4e() {
    let text = r#"(
        seed: 3,
        players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
        legions: [
            (marker: "P1-01", land: 100, characters: ["Titan", "Ogre", "Ogre", "Troll", "Troll", "Centaur", "Centaur"]),
            (marker: "P1-02", land: 1, characters: ["Angel", "Centaur", "Centaur", "Gargoyle", "Ogre", "Ogre"]),
            (marker: "P2-01", land: 400, characters: ["Titan", "Lion", "Lion"]),
        ],
        active: 0,
        phase: Move,
        roll: Some(6),
        turn: 3,
    )"#;
    let mut g = at(text);
    let full: titan_core::game::Marker = "P1-01".parse().unwrap();
    let six: titan_core::game::Marker = "P1-02".parse().unwrap();
    let actions = g.legal_actions(PlayerId(0));
    let moves_of = |m| {
        actions
            .iter()
            .filter(|a| {
                matches!(a, Action::Move { legion, .. } | Action::Teleport { legion, .. } if *legion == m)
            })
            .count()
    };
    assert_eq!(moves_of(full), 0, "{actions:?}");
    assert!(moves_of(six) > 0);
    let to = g.variant.board.by_number(6).unwrap();
    let before = g.fingerprint();
    let err = g
        .apply(
            PlayerId(0),
            &Action::Move {
                legion: full,
                to,
                entered_from: g.variant.board.by_number(100).unwrap(),
            },
        )
        .unwrap_err();
    assert!(err.to_string().contains("is full"), "{err}");
    assert_eq!(g.fingerprint(), before);
}

/// Three players; on Red's turn Blue's Titan legion (Titan at 120 points:
/// power 7, value 28; a Lion 15 and a Gargoyle 12) has been entered by
/// Red's on land 20, and Blue's other legion (an Angel 24 and two Trolls 16
/// each: 56) by another of Red's on land 41.
fn blue_engaged() -> titan_core::game::Game {
    let text = r#"(
        seed: 9,
        players: [
            (name: "Red", tower: 100, score: 380),
            (name: "Blue", tower: 400, score: 120),
            (name: "Green", tower: 600, score: 50),
        ],
        legions: [
            (marker: "P1-01", land: 20, characters: ["Titan", "Ogre", "Ogre"], moved: true, entered_from: Some(19)),
            (marker: "P1-02", land: 41, characters: ["Angel", "Centaur", "Centaur"], moved: true, entered_from: Some(40)),
            (marker: "P2-01", land: 20, characters: ["Titan", "Lion", "Gargoyle"]),
            (marker: "P2-02", land: 41, characters: ["Angel", "Troll", "Troll"]),
            (marker: "P3-01", land: 600, characters: ["Titan", "Ogre", "Ogre"]),
        ],
        active: 0,
        phase: Engage,
        turn: 9,
    )"#;
    at(text)
}

fn score(g: &titan_core::game::Game, p: usize) -> u32 {
    g.state.players[p].score
}

/// Law of Titan 1980, 18.B: when a Titan is slain, "the Value of the Battle
/// in which the Titan was slain is added onto the score of the player who
/// slew the Titan", and "all of the eliminated player's other Legions are
/// totaled and are also added onto the score" in full (the 1982 game gives
/// half), those in engagements too; they earn no Angels; the slayer takes
/// the markers. Blue concedes the engagement of his Titan's legion.
#[test]
fn a_slain_titans_other_legions_score_in_full_law_of_titan_1980_18b() {
    let mut g = blue_engaged();
    let twenty = g.variant.board.by_number(20).unwrap();
    g.apply(PlayerId(0), &Action::Engage { land: twenty })
        .unwrap();
    let events = g.apply(PlayerId(1), &Action::Concede).unwrap();
    // The battle (concession: its full value, 28 + 15 + 12 = 55), then the
    // legion on land 41 in full (56): 380 + 55 + 56.
    assert_eq!(score(&g, 0), 380 + 55 + 56, "{events:?}");
    assert_eq!(score(&g, 2), 50);
    assert!(!g.state.players[1].alive);
    assert!(g.legion("P2-02".parse().unwrap()).is_none());
    // Blue's markers are Red's now; Green plays on.
    assert!(
        g.state.players[0]
            .markers
            .iter()
            .any(|m| m.player == PlayerId(1))
    );
    assert!(g.state.outcome.is_none());
}

/// Law of Titan 1980, 20: "If he concedes on his own Gameturn, all of his
/// Legions are eliminated ... and no player receives any score for such a
/// concession" (the 1982 game gives an engaged legion's half to its
/// opponent). Blue concedes on his turn while his legion on land 41 (not
/// his Titan's) is engaged with Red's.
#[test]
fn a_concession_on_ones_own_turn_scores_nothing_law_of_titan_1980_20() {
    // Blue's turn: his legion on land 41 has entered Red's; his Titan's
    // legion stands alone on land 20.
    let text = r#"(
        seed: 9,
        players: [
            (name: "Red", tower: 100, score: 380),
            (name: "Blue", tower: 400, score: 120),
            (name: "Green", tower: 600, score: 50),
        ],
        legions: [
            (marker: "P1-01", land: 19, characters: ["Titan", "Ogre", "Ogre"]),
            (marker: "P1-02", land: 41, characters: ["Angel", "Centaur", "Centaur"]),
            (marker: "P2-01", land: 20, characters: ["Titan", "Lion", "Gargoyle"]),
            (marker: "P2-02", land: 41, characters: ["Angel", "Troll", "Troll"], moved: true, entered_from: Some(40)),
            (marker: "P3-01", land: 600, characters: ["Titan", "Ogre", "Ogre"]),
        ],
        active: 1,
        phase: Engage,
        turn: 9,
    )"#;
    let mut g = at(text);
    let events = g.apply(PlayerId(1), &Action::ConcedeGame).unwrap();
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, titan_core::game::Event::Scored { .. })),
        "{events:?}"
    );
    assert_eq!((score(&g, 0), score(&g, 2)), (380, 50));
    assert!(
        g.state.players[0]
            .markers
            .iter()
            .all(|m| m.player == PlayerId(0))
    );
    assert!(g.state.legions.iter().all(|l| l.owner != PlayerId(1)));
}

/// Law of Titan 1980, 20: "If he concedes while his Titan's Legion is
/// engaged (even on his own Gameturn) his Titan is considered as slain in
/// Battle and scored accordingly (SEE SECTION 18B)": Red, whose legion
/// engaged Blue's Titan, scores all of Blue's legions in full and takes his
/// markers.
#[test]
fn a_concession_while_the_titan_is_engaged_is_a_slain_titan_law_of_titan_1980_20() {
    let mut g = blue_engaged();
    let events = g.apply(PlayerId(1), &Action::ConcedeGame).unwrap();
    assert!(
        events.iter().any(|e| matches!(
            e,
            titan_core::game::Event::PlayerEliminated {
                player: PlayerId(1),
                by: Some(PlayerId(0))
            }
        )),
        "{events:?}"
    );
    assert_eq!(score(&g, 0), 380 + 55 + 56, "{events:?}");
    assert_eq!(score(&g, 2), 50);
    assert!(
        g.state.players[0]
            .markers
            .iter()
            .any(|m| m.player == PlayerId(1))
    );
}

/// Red's legion `characters` has moved to land `land`, in Red's Muster
/// phase; the characters the legion may muster there, with what it shows.
fn musters(land: u32, characters: &str, exhausted: &[&str]) -> Vec<(String, Vec<String>)> {
    let text = format!(
        r#"(
        seed: 4,
        players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
        legions: [
            (marker: "P1-01", land: 100, characters: ["Titan", "Ogre", "Ogre"]),
            (marker: "P1-02", land: {land}, characters: [{characters}], moved: true, entered_from: None),
            (marker: "P2-01", land: 400, characters: ["Titan", "Lion", "Lion"]),
        ],
        active: 0,
        phase: Muster,
        turn: 5,
    )"#
    );
    let mut g = at(&text);
    for name in exhausted {
        let c = g.variant.character_by_name(name).unwrap();
        g.state.caretaker[c.index()] = 0;
    }
    let name = |c: titan_core::model::CharacterId| g.variant.character(c).name.clone();
    let mut out: Vec<(String, Vec<String>)> = g
        .legal_actions(PlayerId(0))
        .iter()
        .filter_map(|a| match a {
            Action::Muster {
                recruit, reveal, ..
            } => Some((name(*recruit), reveal.iter().map(|&c| name(c)).collect())),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

fn option(recruit: &str, shown: &[&str]) -> (String, Vec<String>) {
    (
        recruit.to_string(),
        shown.iter().map(|s| s.to_string()).collect(),
    )
}

/// Law of Titan 1980, 17.C: "a Legion is qualified to muster a Creature
/// identical to one that it already contains" or, showing as many as the
/// number to the left, the next larger one: no ladder down (the 1982 game
/// lets a Troll muster an Ogre in the Marsh). "a Legion in the Marsh would
/// need to show two Ogres to muster a Troll".
#[test]
fn mustering_is_like_or_the_next_larger_law_of_titan_1980_17c() {
    // Land 41 is a Marsh.
    assert_eq!(
        musters(41, r#""Troll", "Troll""#, &[]),
        vec![option("Troll", &["Troll"])]
    );
    assert_eq!(
        musters(41, r#""Ogre", "Ogre""#, &[]),
        vec![
            option("Ogre", &["Ogre"]),
            option("Troll", &["Ogre", "Ogre"])
        ]
    );
    // Land 1000 is in the Mountains: "a Legion in the Mountains would need
    // to show two Lions to muster a Minotaur ... Lions are not sufficient to
    // muster a Dragon. The Legion must contain at least three Minotaurs".
    assert_eq!(
        musters(1000, r#""Lion", "Lion", "Minotaur", "Minotaur""#, &[]),
        vec![
            option("Lion", &["Lion"]),
            option("Minotaur", &["Lion", "Lion"]),
            option("Minotaur", &["Minotaur"]),
        ]
    );
    assert!(
        musters(1000, r#""Minotaur", "Minotaur", "Minotaur""#, &[])
            .contains(&option("Dragon", &["Minotaur", "Minotaur", "Minotaur"]))
    );
}

/// Law of Titan 1980, 17.E: "When one of the caretaker's Creature stacks
/// has been exhausted, a Legion which would otherwise have been able to
/// muster such a Creature may instead muster a smaller Creature which it
/// does not already contain, but only from a Terrain in which the larger
/// Creature is found; the larger (exhausted) Creature must be shown. If none
/// of the smaller Creatures of a Terrain are available either, no Creature
/// may be mustered from that Terrain."
#[test]
fn an_exhausted_stack_lets_a_smaller_creature_be_mustered_law_of_titan_1980_17e() {
    let minotaurs = r#""Minotaur", "Minotaur", "Minotaur""#;
    // Dragons at hand: a Dragon or another Minotaur, no Lion.
    assert_eq!(
        musters(1000, minotaurs, &[]),
        vec![
            option("Dragon", &["Minotaur", "Minotaur", "Minotaur"]),
            option("Minotaur", &["Minotaur"]),
        ]
    );
    // No Dragons left: a Lion instead, shown by what qualified for the
    // Dragon.
    assert_eq!(
        musters(1000, minotaurs, &["Dragon"]),
        vec![
            option("Lion", &["Minotaur", "Minotaur", "Minotaur"]),
            option("Minotaur", &["Minotaur"]),
        ]
    );
    // Neither Dragons nor Lions: nothing instead.
    assert_eq!(
        musters(1000, minotaurs, &["Dragon", "Lion"]),
        vec![option("Minotaur", &["Minotaur"])]
    );
    // A smaller Creature the legion contains is not offered instead: two
    // Ogres qualify for a Troll in the Marsh; with the Trolls gone they may
    // muster only another Ogre, as before.
    assert_eq!(
        musters(41, r#""Ogre", "Ogre""#, &["Troll"]),
        vec![option("Ogre", &["Ogre"])]
    );
}

/// Law of Titan 1980, 6.C: "At the start of his Movement Phase, the Mover
/// rolls a single die": no second roll, which the 1982 game allows on the
/// first turn.
#[test]
fn the_first_movement_roll_stands_law_of_titan_1980_6c() {
    let (mut g, _) = titan_core::game::Game::new(
        variant(),
        Default::default(),
        &["Red".to_string(), "Blue".to_string()],
        5,
    )
    .unwrap();
    let p = g.state.active;
    // Past the initial division into two legions of one lord and three
    // creatures (5.C), to the first player's Movement Roll.
    while !g
        .legal_actions(g.state.active)
        .iter()
        .any(|a| matches!(a, Action::Roll { .. }))
    {
        let a = g.legal_actions(g.state.active)[0].clone();
        g.apply(g.state.active, &a).unwrap();
    }
    assert_eq!(g.state.active, p);
    let roll = g
        .legal_actions(p)
        .into_iter()
        .find(|a| matches!(a, Action::Roll { .. }))
        .unwrap();
    g.apply(p, &roll).unwrap();
    assert!(!g.legal_actions(p).contains(&Action::Mulligan));
}

/// On Red's turn Red's legion (two Ogres) has entered Blue's (an Ogre and a
/// Troll) on land 41, a Marsh; Red's Angel waits elsewhere; Blue stands.
fn red_entered_blue_in_the_marsh() -> titan_core::game::Game {
    let text = r#"(
        seed: 6,
        players: [
            (name: "Red", tower: 100, score: 20),
            (name: "Blue", tower: 400, score: 20),
        ],
        legions: [
            (marker: "P1-01", land: 41, characters: ["Ogre", "Ogre"], moved: true, entered_from: Some(40)),
            (marker: "P1-02", land: 100, characters: ["Titan", "Angel", "Centaur"]),
            (marker: "P2-01", land: 41, characters: ["Ogre", "Troll"]),
            (marker: "P2-02", land: 400, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Engage,
        turn: 4,
    )"#;
    let mut g = at(text);
    let land = g.variant.board.by_number(41).unwrap();
    g.apply(PlayerId(0), &Action::Engage { land }).unwrap();
    g.apply(PlayerId(1), &Action::Stand).unwrap();
    g
}

fn all_of(g: &titan_core::game::Game, marker: &str) -> Vec<titan_core::model::CharacterId> {
    g.legion(marker.parse().unwrap())
        .unwrap()
        .characters
        .clone()
}

/// Law of Titan 1980, 13.C: "If the Defender wins the Engagement by
/// agreement ... he is entitled to a Reinforcement ... If the Attacker
/// concedes before any tactical play takes place, the Defender may not
/// muster any Reinforcements."
#[test]
fn a_defender_winning_by_agreement_reinforces_law_of_titan_1980_13c() {
    let mut g = red_entered_blue_in_the_marsh();
    let red = all_of(&g, "P1-01");
    g.apply(
        PlayerId(0),
        &Action::Propose {
            attacker_losses: red,
            defender_losses: vec![],
        },
    )
    .unwrap();
    g.apply(PlayerId(1), &Action::Accept).unwrap();
    let after = g.legal_actions(PlayerId(1));
    assert!(
        after.iter().any(|a| matches!(a, Action::Reinforce { .. })),
        "{after:?}"
    );
    // Conceded before any tactical play: no reinforcement.
    let mut g = red_entered_blue_in_the_marsh();
    g.apply(PlayerId(0), &Action::Concede).unwrap();
    let after = g.legal_actions(PlayerId(1));
    assert!(
        !after.iter().any(|a| matches!(a, Action::Reinforce { .. })),
        "{after:?}"
    );
}

/// Law of Titan 1980, 14.C: "If the Attacker wins an Engagement by
/// agreement or by the Defender conceding during the play of the Battle, he
/// is entitled to summon an Angel at this time, so long as he has one
/// available".
#[test]
fn an_attacker_winning_by_agreement_summons_law_of_titan_1980_14c() {
    let mut g = red_entered_blue_in_the_marsh();
    let blue = all_of(&g, "P2-01");
    g.apply(
        PlayerId(0),
        &Action::Propose {
            attacker_losses: vec![],
            defender_losses: blue,
        },
    )
    .unwrap();
    g.apply(PlayerId(1), &Action::Accept).unwrap();
    let after = g.legal_actions(PlayerId(0));
    assert!(
        after.iter().any(|a| matches!(a, Action::Summon { .. })),
        "{after:?}"
    );
}

/// Law of Titan 1980, 4.E: a legion of seven cannot be moved, so the strong
/// computer player splits one in its Commencement Phase rather than leave
/// it standing (the search that weighs splits moves legions as the 1982
/// game does): over whole games against the simple player, it never ends a
/// Commencement Phase with a full legion it could have split.
#[test]
fn the_strong_player_splits_a_full_legion_that_cannot_move_law_of_titan_1980_4e() {
    use titan_core::ai::{Budget, Observation, player_with};
    let v = variant();
    let max = usize::from(v.rules.legions.max_size);
    for seed in 0..4u64 {
        let (mut g, _) = titan_core::game::Game::new(
            v.clone(),
            Default::default(),
            &["Red".to_string(), "Blue".to_string()],
            seed,
        )
        .unwrap();
        let budget = || Budget {
            nodes: 2000,
            ..Budget::DEFAULT
        };
        let mut strong = player_with("strong", seed, budget()).unwrap();
        let mut simple = player_with("simple", seed, budget()).unwrap();
        for _ in 0..3000 {
            if g.state.outcome.is_some() {
                break;
            }
            let Some(&p) = g.to_act().first() else { break };
            let ai = if p == PlayerId(0) {
                &mut strong
            } else {
                &mut simple
            };
            let a = ai.choose(&Observation::of(&g, p)).unwrap();
            if p == PlayerId(0) && a == Action::DoneSplitting {
                let legal = g.legal_actions(p);
                for l in g.state.legions.iter().filter(|l| l.owner == p) {
                    let full = g.variant.legion_size(l.characters.iter().copied()) >= max;
                    let could = legal
                        .iter()
                        .any(|x| matches!(x, Action::Split { legion, .. } if *legion == l.marker));
                    assert!(!(full && could), "seed {seed}: {} stays full", l.marker);
                }
            }
            g.apply(p, &a).unwrap();
        }
    }
}
