//! Gods of Titan's spells and abilities whose arguments or dice the battle
//! scenario files cannot say: hexes (Teleport, Create hazard, Decoy, Summon),
//! numbers (Painchain, Create hazard, Landscaping) and the dice a script rolls with
//! `math.random` (Shockwave, Quake, Inferno, Painchain). Those dice come
//! from the battle's seeded generator, so each test rolls the same generator
//! beside the battle to know what the rule must do. The other spells and abilities are scenario files under
//! `variants/gods-of-titan/tests/battle/` (run by `tests/battle_scenarios.rs`).

mod common;

use titan_core::Variant;
use titan_core::battle::{Action, Battle, BattleSide, Phase, Position, UnitId};
use titan_core::battleland::HexId;
use titan_core::rng::GameRng;
use titan_core::script::ScriptArg;

fn variant() -> Variant {
    titan_core::load(
        &common::root().join("variants/gods-of-titan"),
        &common::options(),
    )
    .unwrap_or_else(|e| panic!("{e:?}"))
}

fn position(text: &str) -> Position {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .unwrap()
}

fn hex(label: &str) -> HexId {
    HexId::from_label(label).unwrap()
}

/// The unit standing on `label`.
fn at(b: &Battle, label: &str) -> UnitId {
    b.unit_at(hex(label))
        .unwrap_or_else(|| panic!("nobody on {label}"))
}

fn damage(b: &Battle, label: &str) -> u8 {
    b.units()[at(b, label) as usize].damage
}

fn cast(name: &str, unit: UnitId, args: Vec<ScriptArg>) -> Action {
    Action::Script {
        name: name.into(),
        unit,
        args,
    }
}

/// Hits of `dice` dice at strike number `sn` from `rng`, as the spells roll
/// them (one `math.random(6)` a die).
fn hits(rng: &mut GameRng, dice: u32, sn: i64) -> u8 {
    (0..dice).filter(|_| rng.int_in(1, 6) >= sn).count() as u8
}

/// A Warlord (skill 5) against a Colossus (skill 4), a Troll (2) and a Hydra
/// (3), in the attacker's strike phase on the Plains.
const THREE_ENEMIES: &str = r#"(
    battleland: "Plains",
    attacker_edge: SouthWest,
    moving: Attacker,
    phase: Strike,
    attacker: [(character: "Warlord", hex: "A1")],
    defender: [
        (character: "Colossus", hex: "D3"),
        (character: "Troll", hex: "E3"),
        (character: "Hydra", hex: "C4"),
    ],
)"#;

#[test]
fn shockwave_quake_and_inferno_roll_three_dice_at_each_enemy() {
    // 15.6: "All enemy characters receive 3 dice of damage, rolled with a
    // Skill-factor of" 2 (Shockwave), 3 (Quake), 4 (Inferno); the strike
    // number is the chart's (13.4: 4 + target's skill - spell's skill).
    let v = variant();
    let pos = position(THREE_ENEMIES);
    for (spell, skill) in [("shockwave", 2), ("quake", 3), ("inferno", 4)] {
        for seed in 0..8 {
            let mut b = Battle::from_position(&v, &pos, GameRng::new(seed)).unwrap();
            let mut rng = GameRng::new(seed);
            let mut expected = Vec::new();
            for (label, target_skill) in [("D3", 4), ("E3", 2), ("C4", 3)] {
                let sn = (4 + target_skill - skill).clamp(1, 6);
                expected.push((label, hits(&mut rng, 3, sn)));
            }
            let caster = at(&b, "A1");
            b.apply(cast(spell, caster, vec![])).unwrap();
            for (label, n) in expected {
                assert_eq!(damage(&b, label), n, "{spell}, seed {seed}, {label}");
            }
            // 15.4: one spell per legion per battle.
            assert!(b.apply(cast("shockwave", caster, vec![])).is_err());
        }
    }
}

#[test]
fn painchain_passes_its_hits_on_to_an_adjacent_enemy() {
    // 15.6 Painchain: dice at skill 5 at one enemy; it survives, so the dice
    // that hit are rolled at an adjacent enemy (the Troll beside the
    // Colossus), each character once; the Hydra, adjacent to neither, is
    // spared. 6 dice at the Colossus hit on 3 (4 + 4 - 5); the Troll's dice
    // hit on 1 (every die).
    let v = variant();
    let pos = position(THREE_ENEMIES);
    let mut tested = 0;
    for seed in 0..16 {
        let mut rng = GameRng::new(seed);
        let first = hits(&mut rng, 6, 3);
        let mut b = Battle::from_position(&v, &pos, GameRng::new(seed)).unwrap();
        let (caster, colossus) = (at(&b, "A1"), at(&b, "D3"));
        // "As many dice as desired": 1 to 12 offered, no more.
        let thirteen = cast(
            "painchain",
            caster,
            vec![ScriptArg::Unit(colossus), ScriptArg::Number(13)],
        );
        assert!(!b.legal_actions().contains(&thirteen));
        assert!(b.apply(thirteen).is_err());
        b.apply(cast(
            "painchain",
            caster,
            vec![ScriptArg::Unit(colossus), ScriptArg::Number(6)],
        ))
        .unwrap();
        assert_eq!(damage(&b, "D3"), first, "seed {seed}");
        if first > 0 {
            // The caster chooses the next link: the Troll, the only enemy
            // adjacent to the Colossus.
            let next = cast(
                "painchain_next",
                caster,
                vec![ScriptArg::Unit(at(&b, "E3"))],
            );
            assert_eq!(b.legal_actions(), vec![next.clone()], "seed {seed}");
            b.apply(next).unwrap();
        }
        assert_eq!(damage(&b, "E3"), first, "seed {seed}: the chain's dice");
        assert_eq!(damage(&b, "C4"), 0, "seed {seed}");
        tested += usize::from(first > 0);
    }
    assert!(tested > 8, "seeds with hits: {tested}");
}

#[test]
fn painchain_the_caster_chooses_the_next_link() {
    // 15.6 Painchain (EN 959: "The Caster chooses an enemy character ...
    // then the same amount of dice that hit are rolled again to an adjacent,
    // enemy character"; DE 2366-2370): the caster chooses the next link
    // (ctx:choose), nothing else meanwhile (no concession either): of the Troll and the Ogre beside
    // the Colossus, the Ogre, the weaker; the Troll is spared. 6 dice at the
    // Colossus hit on 3 (4 + 4 - 5); the Ogre's dice on 1 (4 + 2 - 5).
    let v = variant();
    let pos = position(
        r#"(
        battleland: "Plains",
        attacker_edge: SouthWest,
        moving: Attacker,
        phase: Strike,
        attacker: [(character: "Warlord", hex: "A1")],
        defender: [
            (character: "Colossus", hex: "D3"),
            (character: "Troll", hex: "E3"),
            (character: "Ogre", hex: "D2"),
        ],
    )"#,
    );
    let mut tested = 0;
    for seed in 0..16 {
        let mut rng = GameRng::new(seed);
        let first = hits(&mut rng, 6, 3);
        if first == 0 {
            continue;
        }
        let mut b = Battle::from_position(&v, &pos, GameRng::new(seed)).unwrap();
        let (caster, colossus, ogre) = (at(&b, "A1"), at(&b, "D3"), at(&b, "D2"));
        b.apply(cast(
            "painchain",
            caster,
            vec![ScriptArg::Unit(colossus), ScriptArg::Number(6)],
        ))
        .unwrap();
        let next = |u| cast("painchain_next", caster, vec![ScriptArg::Unit(u)]);
        let mut offered = b.legal_actions();
        offered.sort_by_key(|a| format!("{a:?}"));
        let mut expected = vec![next(ogre), next(at(&b, "E3"))];
        expected.sort_by_key(|a| format!("{a:?}"));
        assert_eq!(offered, expected, "seed {seed}");
        assert!(b.apply(Action::EndStrikes).is_err(), "the choice first");
        b.apply(next(ogre)).unwrap();
        assert_eq!(damage(&b, "D3"), first, "seed {seed}");
        assert_eq!(
            b.units()[ogre as usize].damage,
            first.min(6),
            "seed {seed}: the chain's dice at the Ogre"
        );
        assert_eq!(damage(&b, "E3"), 0, "seed {seed}: the Troll spared");
        tested += 1;
    }
    assert!(tested > 8, "seeds with hits: {tested}");
}

#[test]
fn painchain_ends_when_a_character_is_slain() {
    // 15.6: "The spell ends if the character is slain": a Troll with 1 hit
    // left, 12 dice hitting on 1 (4 + 2 - 5): it dies, the Colossus beside
    // it is not touched.
    let v = variant();
    let pos = position(
        r#"(
        battleland: "Plains",
        attacker_edge: SouthWest,
        moving: Attacker,
        phase: Strike,
        attacker: [(character: "Warlord", hex: "A1")],
        defender: [
            (character: "Troll", hex: "E3", damage: 7),
            (character: "Colossus", hex: "D3"),
        ],
    )"#,
    );
    let mut b = Battle::from_position(&v, &pos, GameRng::new(3)).unwrap();
    let (caster, troll) = (at(&b, "A1"), at(&b, "E3"));
    b.apply(cast(
        "painchain",
        caster,
        vec![ScriptArg::Unit(troll), ScriptArg::Number(12)],
    ))
    .unwrap();
    assert!(b.units()[troll as usize].is_slain());
    assert_eq!(damage(&b, "D3"), 0);
}

#[test]
fn teleport_to_a_free_hex_the_character_may_stand_in() {
    // 15.6 Teleport: "any character (including itself) to an unoccupied hex
    // it's capable of staying in". On the Darkland, B2 is Darkness: only its
    // natives (the Demon) may stand there (12.7); A3 is Bramble (slows, does
    // not forbid); A2 is taken.
    let v = variant();
    let pos = position(
        r#"(
        battleland: "Darkland",
        moving: Attacker,
        phase: Strike,
        attacker: [
            (character: "Warlock", hex: "A1"),
            (character: "Ogre", hex: "A2"),
        ],
        defender: [(character: "Demon", hex: "F4")],
    )"#,
    );
    let mut b = Battle::from_position(&v, &pos, GameRng::new(1)).unwrap();
    let (warlock, ogre, demon) = (at(&b, "A1"), at(&b, "A2"), at(&b, "F4"));
    let tp = |who, to: &str| {
        cast(
            "teleport",
            warlock,
            vec![ScriptArg::Unit(who), ScriptArg::Hex(hex(to))],
        )
    };
    let legal = b.legal_actions();
    assert!(legal.contains(&tp(demon, "B2")), "a native into darkness");
    assert!(legal.contains(&tp(warlock, "A3")), "the caster itself");
    assert!(
        !legal.contains(&tp(ogre, "B2")),
        "a non-native into darkness"
    );
    assert!(!legal.contains(&tp(demon, "A2")), "an occupied hex");
    let before = b.fingerprint();
    assert!(b.apply(tp(ogre, "B2")).is_err());
    assert_eq!(before, b.fingerprint(), "a refused spell changes nothing");
    b.apply(tp(demon, "B2")).unwrap();
    assert_eq!(b.unit_at(hex("B2")), Some(demon));
    assert_eq!(b.unit_at(hex("F4")), None);
    // 15.4: the legion's one spell is cast.
    assert!(!b.legal_actions().iter().any(
        |a| matches!(a, Action::Script { name, .. } if name == "teleport" || name == "quake")
    ));
}

#[test]
fn a_spell_its_requires_refuse_is_neither_listed_nor_taken() {
    // actions.ron `requires` (docs/scripting.md, "Actions"): a Novice
    // (skill 2) casts grade-2 spells, not Teleport (grade 3, 15.3); no
    // spell while a Master stands on the battleland (15.5). The engine
    // answers these without asking the spells' scripts.
    let v = variant();
    let spells = |b: &Battle| -> Vec<String> {
        let mut n: Vec<String> = b
            .legal_actions()
            .into_iter()
            .filter_map(|a| match a {
                Action::Script { name, .. } => Some(name),
                _ => None,
            })
            .collect();
        n.dedup();
        n
    };
    let novice = position(
        r#"(
        battleland: "Plains",
        moving: Attacker,
        phase: Strike,
        attacker: [(character: "Novice", hex: "A1")],
        defender: [(character: "Ogre", hex: "F4")],
    )"#,
    );
    let mut b = Battle::from_position(&v, &novice, GameRng::new(1)).unwrap();
    let listed = spells(&b);
    assert!(listed.contains(&"shockwave".to_string()), "{listed:?}");
    assert!(!listed.contains(&"teleport".to_string()), "{listed:?}");
    let caster = at(&b, "A1");
    let e = b
        .apply(cast(
            "teleport",
            caster,
            vec![ScriptArg::Unit(caster), ScriptArg::Hex(hex("B1"))],
        ))
        .unwrap_err();
    assert!(e.to_string().contains("requires"), "{e}");
    let master = position(
        r#"(
        battleland: "Plains",
        moving: Attacker,
        phase: Strike,
        attacker: [(character: "Warlock", hex: "A1")],
        defender: [(character: "Phantom", hex: "F4")],
    )"#,
    );
    let b = Battle::from_position(&v, &master, GameRng::new(1)).unwrap();
    assert_eq!(spells(&b), Vec::<String>::new());
}

/// Ends phases until `side`'s maneuver phase.
fn to_maneuver_of(b: &mut Battle, side: BattleSide) {
    for _ in 0..8 {
        if b.phase() == Phase::Maneuver && b.moving() == side {
            return;
        }
        let a = if b.phase() == Phase::Maneuver {
            Action::EndManeuver
        } else {
            Action::EndStrikes
        };
        b.apply(a).unwrap();
    }
    panic!("no maneuver phase of {side:?}");
}

fn reach(b: &Battle, label: &str) -> Vec<String> {
    let mut r: Vec<String> = b
        .reach(at(b, label))
        .unwrap()
        .into_iter()
        .map(|h| h.label())
        .collect();
    r.sort();
    r
}

#[test]
fn create_hazard_puts_a_hazard_in_an_unoccupied_hex() {
    // 15.6 Create hazard (EN 931, DE 2306): "A hazard will emerge in an
    // unoccupied hex on the Battleland, replace an already existing hazard or
    // remove one." A Tree (hazard 1) in E3 keeps the defender's Centaur out
    // of it (12.7: only Pixies enter trees); an occupied hex is no choice.
    let v = variant();
    let pos = position(
        r#"(
        battleland: "Plains",
        moving: Attacker,
        phase: Strike,
        attacker: [(character: "Warlock", hex: "A1")],
        defender: [(character: "Centaur", hex: "F3")],
    )"#,
    );
    let mut b = Battle::from_position(&v, &pos, GameRng::new(1)).unwrap();
    let (warlock, centaur) = (at(&b, "A1"), at(&b, "F3"));
    let ch = |h: &str, n: i64| {
        cast(
            "create_hazard",
            warlock,
            vec![ScriptArg::Hex(hex(h)), ScriptArg::Number(n)],
        )
    };
    assert!(!b.legal_actions().contains(&ch("F3", 1)), "an occupied hex");
    assert!(!b.legal_actions().contains(&ch("A2", 0)), "Plain already");
    let before = b.fingerprint();
    assert!(b.apply(ch("F3", 1)).is_err());
    assert!(b.apply(ch("E3", 13)).is_err(), "no hazard 13");
    assert_eq!(before, b.fingerprint(), "a refused spell changes nothing");
    b.apply(ch("E3", 1)).unwrap();
    to_maneuver_of(&mut b, BattleSide::Defender);
    assert_eq!(b.units()[centaur as usize].hex(), Some(hex("F3")));
    let r = reach(&b, "F3");
    assert!(!r.contains(&"E3".to_string()), "{r:?}");
    assert!(r.contains(&"E4".to_string()), "{r:?}");
}

#[test]
fn create_hazard_removes_a_hazard() {
    // 15.6 Create hazard: "... or remove one" (hazard 0, Plain). The Swamp's
    // Bog in B2 (12.7: only its natives enter) becomes plain ground the
    // defender's Centaur may enter.
    let v = variant();
    let pos = position(
        r#"(
        battleland: "Swamp",
        moving: Attacker,
        phase: Strike,
        attacker: [(character: "Warlock", hex: "F4")],
        defender: [(character: "Centaur", hex: "B3")],
    )"#,
    );
    let mut b = Battle::from_position(&v, &pos, GameRng::new(1)).unwrap();
    let warlock = at(&b, "F4");
    assert!(!reach(&b, "B3").contains(&"B2".to_string()), "Bog");
    b.apply(cast(
        "create_hazard",
        warlock,
        vec![ScriptArg::Hex(hex("B2")), ScriptArg::Number(0)],
    ))
    .unwrap();
    to_maneuver_of(&mut b, BattleSide::Defender);
    assert!(reach(&b, "B3").contains(&"B2".to_string()));
}

#[test]
fn decoy_plants_a_tree_until_the_unicorns_next_maneuver() {
    // 16.5 Unicorn, Decoy (EN 983): "Creates a Tree hazard in an adjacent,
    // unoccupied hex for one Battle-Round. The tree lasts until the Unicorn's
    // next Maneuver Phase starts." Once per battle (16.2).
    let v = variant();
    let pos = position(
        r#"(
        battleland: "Plains",
        moving: Attacker,
        phase: Strike,
        attacker: [(character: "Unicorn", hex: "A1")],
        defender: [(character: "Centaur", hex: "D1")],
    )"#,
    );
    let mut b = Battle::from_position(&v, &pos, GameRng::new(1)).unwrap();
    let unicorn = at(&b, "A1");
    let decoy = |h: &str| cast("decoy", unicorn, vec![ScriptArg::Hex(hex(h))]);
    assert!(!b.legal_actions().contains(&decoy("C1")), "not adjacent");
    assert!(b.legal_actions().contains(&decoy("B1")));
    b.apply(decoy("B1")).unwrap();
    assert!(b.apply(decoy("A2")).is_err(), "once per battle");
    to_maneuver_of(&mut b, BattleSide::Defender);
    let r = reach(&b, "D1");
    assert!(!r.contains(&"B1".to_string()), "the tree: {r:?}");
    assert!(r.contains(&"B2".to_string()), "{r:?}");
    b.apply(Action::EndManeuver).unwrap();
    to_maneuver_of(&mut b, BattleSide::Attacker);
    // The Unicorn's maneuver phase: the tree is gone, B1 is plain again.
    assert!(reach(&b, "A1").contains(&"B1".to_string()));
}

#[test]
fn the_defender_uses_no_single_use_ability_before_the_attacker_enters() {
    // 16.2 (EN 398; DE 1166-1168: "Da nur der Angreifer in der ersten
    // Kampfrunde attackieren kann, besitzt er somit das Privileg, sie auch
    // als erster einzusetzen"), 11.1 (DE 768-770): in the defender's strike
    // phase of the first round, the attacker's army still to enter, the
    // defender's Unicorn plants no Decoy (the spells: spell-first-round.ron);
    // in the second round, the attacker on the battleland, it may.
    let v = variant();
    let pos = position(
        r#"(
        battleland: "Plains",
        attacker_edge: SouthWest,
        moving: Defender,
        phase: Strike,
        attacker: [(character: "Ogre")],
        defender: [(character: "Unicorn", hex: "E3")],
    )"#,
    );
    let mut b = Battle::from_position(&v, &pos, GameRng::new(1)).unwrap();
    let unicorn = at(&b, "E3");
    let decoy = |h: &str| cast("decoy", unicorn, vec![ScriptArg::Hex(hex(h))]);
    assert!(
        !b.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Script { name, .. } if name == "decoy")),
        "round 1: {:?}",
        b.legal_actions()
    );
    assert!(b.apply(decoy("E2")).is_err());
    to_maneuver_of(&mut b, BattleSide::Attacker);
    let ogre = b
        .units()
        .iter()
        .position(|u| u.status == titan_core::battle::Status::Waiting)
        .unwrap() as UnitId;
    b.apply(Action::Move {
        unit: ogre,
        to: hex("A1"),
    })
    .unwrap();
    b.apply(Action::EndManeuver).unwrap();
    to_maneuver_of(&mut b, BattleSide::Defender);
    b.apply(Action::EndManeuver).unwrap();
    assert!(b.legal_actions().contains(&decoy("E2")), "round 2");
    b.apply(decoy("E2")).unwrap();
}

#[test]
fn summon_brings_a_demon_that_loses_a_point_each_strike_phase() {
    // 15.6 Summon (EN 953, DE 2347-2351): "A red Demon is summoned to an
    // unoccupied hex it is capable of staying in ... During each Strike Phase
    // it receives one point of damage." On the Darkland B2 is Darkness (the
    // Demon is native, 12.7), A2 is taken.
    let v = variant();
    let pos = position(
        r#"(
        battleland: "Darkland",
        moving: Attacker,
        phase: Strike,
        attacker: [
            (character: "Warlock", hex: "A1"),
            (character: "Ogre", hex: "A2"),
        ],
        defender: [(character: "Centaur", hex: "F4")],
    )"#,
    );
    let mut b = Battle::from_position(&v, &pos, GameRng::new(1)).unwrap();
    let warlock = at(&b, "A1");
    let summon = |h: &str| cast("summon", warlock, vec![ScriptArg::Hex(hex(h))]);
    assert!(!b.legal_actions().contains(&summon("A2")), "occupied");
    b.apply(summon("B2")).unwrap();
    let demon = at(&b, "B2");
    assert_eq!(
        v.character(b.units()[demon as usize].character).name,
        "Demon"
    );
    assert_eq!(b.units()[demon as usize].side, BattleSide::Attacker);
    assert_eq!(damage(&b, "B2"), 0);
    // The attacker's strike phase ends: 1 hit; the defender's: another.
    to_maneuver_of(&mut b, BattleSide::Defender);
    assert_eq!(damage(&b, "B2"), 1);
    to_maneuver_of(&mut b, BattleSide::Attacker);
    assert_eq!(damage(&b, "B2"), 2);
}

#[test]
fn landscaping_replaces_the_battleland_and_strands_characters() {
    // 15.6 Landscaping (EN 957, DE 2358-2365): "The entire Battleland is
    // replaced by another ... all characters stay in their previous
    // positions. All characters thus placed on a hazard on which they
    // normally can't stand lose a Skill-factor and receives one point of
    // damage each Strike Phase, as long as they stay in that hazard." The
    // Plains become the Darkland (terrain 20, as drawn): the Ogre in D2 now
    // stands in Darkness (12.7: only its natives enter), the Demon in C4 too
    // but is native.
    let v = variant();
    let pos = position(
        r#"(
        battleland: "Plains",
        moving: Attacker,
        phase: Strike,
        attacker: [(character: "Warlord", hex: "A1")],
        defender: [
            (character: "Ogre", hex: "D2"),
            (character: "Demon", hex: "C4"),
            (character: "Troll", hex: "F3"),
        ],
    )"#,
    );
    let mut b = Battle::from_position(&v, &pos, GameRng::new(1)).unwrap();
    let warlord = at(&b, "A1");
    let cast_on = |terrain: i64, turns: i64| {
        cast(
            "landscaping",
            warlord,
            vec![ScriptArg::Number(terrain), ScriptArg::Number(turns)],
        )
    };
    let legal = b.legal_actions();
    assert!(legal.contains(&cast_on(20, 2)));
    assert!(!legal.contains(&cast_on(2, 1)), "not the Plains again");
    let skill =
        |b: &Battle, label: &str| b.view(BattleSide::Attacker).units[at(b, label) as usize].skill;
    assert_eq!((skill(&b, "D2"), skill(&b, "C4")), (2, 3));
    b.apply(cast_on(20, 0)).unwrap();
    let view = b.view(BattleSide::Defender);
    assert_eq!((view.battleland.as_str(), view.turns), ("Darkland", 0));
    assert_eq!((skill(&b, "D2"), skill(&b, "C4")), (1, 3));
    // The strike phase (strikes and strikebacks) ends: one hit.
    to_maneuver_of(&mut b, BattleSide::Defender);
    assert_eq!((damage(&b, "D2"), damage(&b, "C4")), (1, 0));
    // The Ogre walks out of the darkness: its skill factor is back, and no
    // more hits.
    let ogre = at(&b, "D2");
    b.apply(Action::Move {
        unit: ogre,
        to: hex("D1"),
    })
    .unwrap();
    to_maneuver_of(&mut b, BattleSide::Attacker);
    assert_eq!(skill(&b, "D1"), 2);
    to_maneuver_of(&mut b, BattleSide::Defender);
    assert_eq!(damage(&b, "D1"), 1);
    // Another spell of the legion is refused (15.4): one per battle.
    assert!(
        !b.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Script { name, .. } if name == "landscaping"))
    );
}

/// What must hold of a battle after every action, whatever spells were
/// cast (with `Battle::check_invariants`: one character a hex, a rider on
/// a mount of its side, damage at most power): the characters of the
/// setup stay in the battle's list as themselves (a spell may move, hurt,
/// slay or turn one, not make it another), the only ones added are the
/// temporary Demons of Summon (15.6), the living on the battleland are
/// below their power outside a strike phase (Law of the Battlelands: the
/// slain are removed at the phase's end), the phase and the side to act
/// agree, the rounds run forward within the rules' limit, and a battle is
/// over exactly when it has a result.
struct Sane {
    characters: Vec<titan_core::model::CharacterId>,
    units: usize,
    round: u8,
}

impl Sane {
    fn of(b: &Battle) -> Sane {
        Sane {
            characters: b.units().iter().map(|u| u.character).collect(),
            units: b.units().len(),
            round: b.defender_maneuver(),
        }
    }

    fn still(&mut self, v: &Variant, b: &Battle) -> Result<(), String> {
        use titan_core::battle::Status;
        b.check_invariants()?;
        let units = b.units();
        if units.len() < self.units {
            return Err(format!("{} units, {} before", units.len(), self.units));
        }
        for (i, u) in units.iter().enumerate() {
            match self.characters.get(i) {
                Some(&c) if c != u.character => {
                    return Err(format!(
                        "unit {i} is now a {}",
                        v.character(u.character).name
                    ));
                }
                None if v.character(u.character).name != "Demon" => {
                    return Err(format!("a {} added", v.character(u.character).name));
                }
                _ => {}
            }
            let living = matches!(u.status, Status::OnBoard(_) | Status::Riding(_));
            if living && !matches!(b.phase(), Phase::Strike { .. }) && u.damage >= u.power {
                return Err(format!("unit {i} alive with {} hits", u.damage));
            }
        }
        let to_act = match b.phase() {
            Phase::Strike { striking } => striking,
            _ => b.moving(),
        };
        if b.to_act() != to_act {
            return Err(format!("{:?} acts in {:?}", b.to_act(), b.phase()));
        }
        if (b.phase() == Phase::Over) != b.result().is_some() {
            return Err(format!("{:?} with result {:?}", b.phase(), b.result()));
        }
        let round = b.defender_maneuver();
        if round < self.round || round > v.rules.battle.defender_maneuvers + 1 {
            return Err(format!("round {round} after {}", self.round));
        }
        self.units = units.len();
        self.round = round;
        Ok(())
    }
}

/// Every character of the setup is accounted for once in the result (left,
/// slain or removed; one that changed sides is removed from its own legion
/// and may join the other), and none was taken from the caretaker beyond
/// its counters (Summon's Demons are temporary and take none).
fn conserved(
    v: &Variant,
    setup: &titan_core::battle::BattleSetup,
    caretaker: &[u32],
    r: &titan_core::battle::BattleResult,
) -> Result<(), String> {
    let sorted = |mut l: Vec<titan_core::model::CharacterId>| {
        l.sort();
        l
    };
    for (side, legion, left, slain, removed) in [
        (
            "attacker",
            &setup.attacker,
            &r.attacker_left,
            &r.attacker_slain,
            &r.attacker_removed,
        ),
        (
            "defender",
            &setup.defender,
            &r.defender_left,
            &r.defender_slain,
            &r.defender_removed,
        ),
    ] {
        let had = sorted(legion.iter().map(|f| f.character).collect());
        let gone = sorted(left.iter().chain(slain).chain(removed).copied().collect());
        if had != gone {
            return Err(format!(
                "the {side}'s characters {had:?} came out as {gone:?}"
            ));
        }
    }
    for (c, n) in r.attacker_added.iter().chain(&r.defender_added).fold(
        std::collections::BTreeMap::new(),
        |mut m, c| {
            *m.entry(*c).or_insert(0u32) += 1;
            m
        },
    ) {
        if n > caretaker[c.index()] {
            return Err(format!("{n} {} from the caretaker", v.character(c).name));
        }
    }
    // Those joining the other side are removed from their own.
    for (joined, removed) in [
        (&r.attacker_joined, &r.defender_removed),
        (&r.defender_joined, &r.attacker_removed),
    ] {
        if let Some(c) = joined.iter().find(|c| !removed.contains(c)) {
            return Err(format!("{} joined, not removed", v.character(*c).name));
        }
    }
    Ok(())
}

/// Random battles between legions of Casters and characters with abilities:
/// every legal action is taken without a refusal (so no script fails in
/// `apply`), and each spell and ability is offered somewhere (so no `legal`
/// fails silently, which would leave it out of the list) and most are taken;
/// the battle stays sane after every action and accounts for every
/// character at its end (`Sane`, `conserved`).
#[test]
fn random_battles_take_every_spell_and_ability() {
    use std::collections::BTreeSet;
    use titan_core::battle::{BattleSetup, Fighter};
    use titan_core::format::Edge;
    use titan_core::game::random::random_battle_action;

    let v = variant();
    let legion = |names: &[&str]| Fighter::named(&v, names).unwrap();
    let attacker = legion(&[
        "Warlord",
        "Priest",
        "Deathbringer",
        "Demon",
        "Nightmare",
        "Phoenix",
        "Plaque",
    ]);
    // Every other battle: the Basilisk and Unicorn for the Deathbringer and
    // Phoenix.
    let attacker2 = legion(&[
        "Warlord",
        "Priest",
        "Basilisk",
        "Demon",
        "Nightmare",
        "Unicorn",
        "Plaque",
    ]);
    let defender = legion(&[
        "Necromancer",
        "Warlock",
        "Priestess",
        "Guardian",
        "Jabberwok",
        "Golem",
        "Amazon",
    ]);
    let mut taken = BTreeSet::new();
    let mut offered = BTreeSet::new();
    let mut checked = 0;
    for seed in 0..40u64 {
        let terrain = ["Plains", "Darkland", "Highlands", "Mountains"][seed as usize % 4];
        let setup = BattleSetup {
            terrain: v.terrain_by_name(terrain).unwrap(),
            attacker: if seed % 2 == 0 {
                attacker.clone()
            } else {
                attacker2.clone()
            },
            defender: defender.clone(),
            attacker_edge: Edge::SouthWest,
            summonable: vec![],
            reinforcements: vec![],
            teleported: false,
        };
        let mut b = Battle::new(&v, setup.clone(), GameRng::new(seed)).unwrap();
        // The caretaker holds the chart's counters, less the legions'.
        let mut caretaker: Vec<u32> = v.characters.iter().map(|c| c.count).collect();
        for f in setup.attacker.iter().chain(&setup.defender) {
            caretaker[f.character.index()] -= 1;
        }
        b.set_caretaker(&caretaker);
        let mut rng = GameRng::new(seed + 1000);
        let mut last = Sane::of(&b);
        for _ in 0..3000 {
            for a in b.legal_actions() {
                if let Action::Script { name, .. } = a {
                    offered.insert(name);
                }
            }
            let Some(a) = random_battle_action(&b, &mut rng) else {
                break;
            };
            if let Action::Script { name, .. } = &a {
                taken.insert(name.clone());
            }
            if let Err(e) = b.apply(a.clone()) {
                panic!("seed {seed} on {terrain}: {a:?} refused: {e}");
            }
            if let Err(e) = last.still(&v, &b) {
                panic!("seed {seed} on {terrain}, after {a:?}: {e}");
            }
            checked += 1;
        }
        let Some(r) = b.result() else {
            panic!("seed {seed}: the battle did not end")
        };
        if let Err(e) = conserved(&v, &setup, &caretaker, &r) {
            panic!("seed {seed} on {terrain}: {e}: {r:?}");
        }
    }
    assert!(checked > 40 * 30, "{checked} positions checked");
    for name in [
        "shield",
        "shockwave",
        "wimps_vacation",
        "quake",
        "teleport",
        "chaos",
        "inferno",
        "painchain",
        "reapers_call",
        "final_blow",
        "fear",
        "flameburst",
        "cuff",
        "drain",
        "create_hazard",
        "footsore",
        "timewarp_forward",
        // (timewarp_back is offered from round 2 only, when the random
        // casters have mostly cast their one spell: spell-timewarp.ron.)
        "homeland",
        "summon",
        "deadlock",
        "landscaping",
        "slavery",
        "decoy",
        "stone_cold",
    ] {
        assert!(offered.contains(name), "{name} never offered: {offered:?}");
    }
    assert!(taken.len() >= 12, "taken: {taken:?}");
}

/// 16.5 (EN 1055, 1060): a Phantom's power is one percent of its player's
/// score, at least 6, as the Titan's; the God's life is 100 less the powers
/// of the Titans of the players still in the game (the platform's
/// `character_power` hook, in the battle masterplay hands over).
#[test]
fn phantom_and_god_powers_come_from_the_scores() {
    use titan_core::game::save::Position as GamePosition;
    use titan_core::game::{Action as GameAction, PlayerId};
    let v = std::sync::Arc::new(variant());
    let pos = r#"(
        players: [
            (name: "A", tower: 307, score: 950),
            (name: "B", tower: 319, score: 1234),
            (name: "C", tower: 331, score: 40),
        ],
        legions: [
            (marker: "P1-01", land: 206, characters: ["Titan", "Phantom", "Ogre"], moved: true, entered_from: 207),
            (marker: "P2-01", land: 206, characters: ["Titan", "God", "Ogre"]),
            (marker: "P3-01", land: 331, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Engage,
        // After the treaty (8.3: no engagement through game turn 10).
        turn: 11,
    )"#;
    let position: GamePosition = titan_core::load::ron_options().from_str(pos).unwrap();
    let mut g = position.to_game(v.clone()).unwrap();
    let land = g.legion("P1-01".parse().unwrap()).unwrap().land;
    g.apply(PlayerId(0), &GameAction::Engage { land }).unwrap();
    if g.battle_request().is_none() {
        g.apply(PlayerId(1), &GameAction::Fight).unwrap();
    }
    assert!(g.take_script_failure().is_none());
    let req = g.battle_request().expect("a battle");
    let power = |list: &[(titan_core::model::CharacterId, u8)], name: &str| {
        let c = v.character_by_name(name).unwrap();
        list.iter().find(|(x, _)| *x == c).map(|(_, p)| *p)
    };
    assert_eq!(power(&req.attacker_characters, "Phantom"), Some(9));
    assert_eq!(power(&req.attacker_characters, "Titan"), Some(9));
    // 100 - (9 + 12 + 6).
    assert_eq!(power(&req.defender_characters, "God"), Some(73));
    assert_eq!(power(&req.defender_characters, "Ogre"), Some(6));
}

/// 16.5 Pixie (EN 995; DE 2438: "die stärkste Kreatur der eigenen Armee
/// nachrekrutieren, auch wenn diese Kreatur auf dem Schlachtfeld nicht
/// heimisch sein sollte"): a defending legion with a Pixie may reinforce
/// with another of its strongest Creature, whatever its land's table says
/// (the platform's `reinforcements` hook); without a Pixie it may not.
#[test]
fn a_pixie_lets_its_legion_reinforce_with_its_strongest_creature() {
    let v = std::sync::Arc::new(variant());
    let reinforcements = |defender: &str| {
        let g = engaged_game(&v, r#""Ogre", "Ogre""#, defender, |_| {});
        g.battle_request().expect("a battle").reinforcements
    };
    let serpent = v.character_by_name("Serpent").unwrap();
    let hydra = v.character_by_name("Hydra").unwrap();
    let with = reinforcements(r#""Pixie", "Serpent", "Hydra", "Lion""#);
    assert!(with.contains(&serpent), "{with:?}");
    assert!(!with.contains(&hydra), "the strongest only: {with:?}");
    let without = reinforcements(r#""Serpent", "Hydra", "Lion""#);
    assert!(!without.contains(&serpent), "{without:?}");
}

/// A masterplay game of Gods of Titan at an engagement on land 206 (Plains) between
/// `attacker` (player A's, having moved there) and `defender` (player B's),
/// with the battle begun; the Titans stand elsewhere.
fn engaged_game(
    v: &std::sync::Arc<Variant>,
    attacker: &str,
    defender: &str,
    setup: impl FnOnce(&mut titan_core::game::Game),
) -> titan_core::game::Game {
    use titan_core::game::save::Position as GamePosition;
    use titan_core::game::{Action as GameAction, PlayerId};
    let pos = format!(
        r#"(
        players: [(name: "A", tower: 307), (name: "B", tower: 319), (name: "C", tower: 331)],
        legions: [
            (marker: "P1-01", land: 206, characters: [{attacker}], moved: true, entered_from: 207),
            (marker: "P1-02", land: 307, characters: ["Titan", "Ogre"]),
            (marker: "P2-01", land: 206, characters: [{defender}]),
            (marker: "P2-02", land: 319, characters: ["Titan", "Ogre"]),
            (marker: "P3-01", land: 331, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Engage,
        // After the treaty (8.3: no engagement through game turn 10).
        turn: 11,
    )"#
    );
    let position: GamePosition = titan_core::load::ron_options().from_str(&pos).unwrap();
    let mut g = position.to_game(v.clone()).unwrap();
    setup(&mut g);
    let land = g.legion("P1-01".parse().unwrap()).unwrap().land;
    g.apply(PlayerId(0), &GameAction::Engage { land }).unwrap();
    for a in [GameAction::Stand, GameAction::Fight] {
        if g.battle_request().is_none() {
            let _ = g.apply(PlayerId(1), &a);
        }
    }
    assert!(g.take_script_failure().is_none());
    assert!(g.battle_request().is_some(), "a battle");
    g
}

fn battle_power(
    v: &Variant,
    list: &[(titan_core::model::CharacterId, u8)],
    name: &str,
) -> Option<u8> {
    let c = v.character_by_name(name).unwrap();
    list.iter().find(|(x, _)| *x == c).map(|(_, p)| *p)
}

fn set_player_var(
    g: &mut titan_core::game::Game,
    name: &str,
    seat: u8,
    value: titan_core::format::VarValue,
) {
    let def = g.variant.variable(name).unwrap().clone();
    let at = titan_core::vars::VarTarget::Player(titan_core::game::PlayerId(seat));
    g.state.vars.set(&def, at, value);
}

fn player_var(g: &titan_core::game::Game, name: &str, seat: u8) -> titan_core::format::VarValue {
    let def = g.variant.variable(name).unwrap();
    g.state
        .vars
        .get(
            def,
            titan_core::vars::VarTarget::Player(titan_core::game::PlayerId(seat)),
        )
        .clone()
}

/// 16.5 Executer (EN 1013): "For every enemy Lord or Master the Executer's
/// Legion has slain, it's Power-factor increases by 1 ... after scoring a
/// Battle and only when he has survived. If the Executer is slain ... He then
/// starts with his initial Power-factor of 8." A defender that concedes in
/// the battle is scored, so its Angel counts; the Executer then fights with
/// 9; once slain (his own legion concedes) his trophies are gone.
#[test]
fn the_executer_grows_with_the_lords_and_masters_his_legion_slays() {
    use titan_core::format::VarValue;
    use titan_core::game::{Action as GameAction, PlayerId};
    let v = std::sync::Arc::new(variant());
    let concede = |side| GameAction::Battle {
        battle: Action::Concede(side),
    };

    let mut g = engaged_game(&v, r#""Executer", "Ogre""#, r#""Angel", "Ogre""#, |_| {});
    let req = g.battle_request().unwrap();
    assert_eq!(
        battle_power(&v, &req.attacker_characters, "Executer"),
        Some(8)
    );
    g.apply(PlayerId(1), &concede(BattleSide::Defender))
        .unwrap();
    assert!(g.take_script_failure().is_none());
    assert_eq!(player_var(&g, "executer_trophies", 0), VarValue::Int(1));
    assert_eq!(player_var(&g, "executer_trophies", 1), VarValue::Int(0));

    // The trophies carry into his next battle.
    let g = engaged_game(&v, r#""Executer", "Ogre""#, r#""Ogre", "Ogre""#, |g| {
        set_player_var(g, "executer_trophies", 0, VarValue::Int(1))
    });
    let req = g.battle_request().unwrap();
    assert_eq!(
        battle_power(&v, &req.attacker_characters, "Executer"),
        Some(9)
    );

    // No Lord or Master slain, no trophy: Ogres only.
    let mut g = engaged_game(&v, r#""Executer", "Ogre""#, r#""Ogre", "Ogre""#, |_| {});
    g.apply(PlayerId(1), &concede(BattleSide::Defender))
        .unwrap();
    assert_eq!(player_var(&g, "executer_trophies", 0), VarValue::Int(0));

    // Slain: back to 8. Player B's Executer defends with 3 trophies and
    // concedes.
    let mut g = engaged_game(&v, r#""Angel", "Ogre""#, r#""Executer", "Ogre""#, |g| {
        set_player_var(g, "executer_trophies", 1, VarValue::Int(3))
    });
    let req = g.battle_request().unwrap();
    assert_eq!(
        battle_power(&v, &req.defender_characters, "Executer"),
        Some(11)
    );
    g.apply(PlayerId(1), &concede(BattleSide::Defender))
        .unwrap();
    assert!(g.take_script_failure().is_none());
    assert_eq!(player_var(&g, "executer_trophies", 1), VarValue::Int(0));
}

/// 16.5 Knight (EN 991): "In any Battle against black and Neutral (grey)
/// Legions the Knight increases his Power-factor by 2." A legion's colour is
/// its player's `legion_colour` variable: the provisional game's players are
/// all "titan" (the Darklord and the neutral legions are part two's), so a
/// test sets it.
#[test]
fn the_knight_fights_black_and_neutral_legions_with_two_more_power() {
    use titan_core::format::VarValue;
    let v = std::sync::Arc::new(variant());
    let knight = |colour: &str| {
        let colour = colour.to_string();
        let g = engaged_game(&v, r#""Knight", "Ogre""#, r#""Ogre", "Ogre""#, move |g| {
            set_player_var(g, "legion_colour", 1, VarValue::Text(colour))
        });
        let req = g.battle_request().unwrap();
        battle_power(&v, &req.attacker_characters, "Knight")
    };
    assert_eq!(knight("titan"), Some(6));
    assert_eq!(knight("black"), Some(8));
    assert_eq!(knight("neutral"), Some(8));
    // The Knight's own colour does not matter, only the enemy's.
    let g = engaged_game(&v, r#""Knight", "Ogre""#, r#""Ogre", "Ogre""#, |g| {
        set_player_var(g, "legion_colour", 0, VarValue::Text("black".into()))
    });
    let req = g.battle_request().unwrap();
    assert_eq!(
        battle_power(&v, &req.attacker_characters, "Knight"),
        Some(6)
    );
}

#[test]
fn timewarp_over_the_fourth_round_moves_the_reinforcement_to_the_fifth() {
    // 15.6 Timewarp (EN 945): "If it is skipped, the defender may take his
    // reinforcement in the fifth Battle-Round" (ctx:set_reinforcement_round):
    // both sides' views show the round moved, with its event.
    let v = variant();
    let pos = position(
        r#"(
        battleland: "Plains",
        defender_maneuver: 3,
        moving: Attacker,
        phase: Strike,
        attacker: [(character: "Amazon", hex: "A1")],
        defender: [(character: "Centaur", hex: "E4"), (character: "Centaur", hex: "E3")],
        reinforcements: ["Lion"],
    )"#,
    );
    let mut b = Battle::from_position(&v, &pos, GameRng::new(1)).unwrap();
    assert_eq!(b.reinforcement_round(), 4);
    assert_eq!(b.view(BattleSide::Defender).reinforcement_round, None);
    let ev = b
        .apply(cast("timewarp_forward", at(&b, "A1"), vec![]))
        .unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        titan_core::battle::BattleEvent::ReinforcementRoundSet { round: 5 }
    )));
    assert_eq!(b.reinforcement_round(), 5);
    for side in [BattleSide::Attacker, BattleSide::Defender] {
        assert_eq!(b.view(side).reinforcement_round, Some(5));
    }
    // Back over a round that is played again moves nothing.
    let mut b = Battle::from_position(&v, &pos, GameRng::new(1)).unwrap();
    b.apply(cast("timewarp_back", at(&b, "A1"), vec![]))
        .unwrap();
    assert_eq!(b.reinforcement_round(), 4);
}

/// The random player's counted pick (`Battle::pick_action`) builds the very
/// action `legal_actions` lists at each index, with a rider on its Pegasus
/// (16.5, EN 1025: the rider strikes from its mount's hex and has no move of
/// its own) and the variant's spells and abilities in the list; played to
/// the battle's end by random picks.
#[test]
fn counted_picks_are_the_listed_actions_with_riders_and_spells() {
    let v = variant();
    let pos = position(
        r#"(
        battleland: "Plains",
        attacker_edge: SouthWest,
        moving: Attacker,
        phase: Maneuver,
        attacker: [(character: "Pegasus", hex: "B2"), (character: "Amazon", hex: "A1"), (character: "Warlock", hex: "B1"), (character: "Ogre", hex: "C1")],
        defender: [(character: "Lion", hex: "E4"), (character: "Troll", hex: "F1"), (character: "Priest", hex: "D5")],
    )"#,
    );
    for seed in 1..=3u64 {
        let mut b = Battle::from_position(&v, &pos, GameRng::new(seed)).unwrap();
        let ride = cast(
            "pegasus_ride",
            at(&b, "B2"),
            vec![ScriptArg::Unit(at(&b, "A1"))],
        );
        b.apply(ride).unwrap();
        let mut rng = GameRng::new(100 + seed);
        let mut decisions = 0;
        while b.result().is_none() && decisions < 400 {
            let list = b.legal_actions();
            if list.is_empty() {
                break;
            }
            for (i, a) in list.iter().enumerate() {
                assert_eq!(
                    b.pick_action(|_| i).as_ref(),
                    Some(a),
                    "seed {seed}, index {i}"
                );
            }
            // Concessions only now and then, so that battles go on.
            let i = rng.int_in(0, list.len() as i64 - 1) as usize;
            let a = if matches!(list[i], Action::Concede(_)) && decisions < 200 {
                list[(i + 1) % list.len()].clone()
            } else {
                list[i].clone()
            };
            if b.apply(a.clone()).is_err() {
                // A script may refuse what it offered (dice, a changed
                // position); the battle is unchanged and goes on.
                let fallback = list
                    .iter()
                    .find(|x| !matches!(x, Action::Script { .. } | Action::Concede(_)));
                b.apply(fallback.expect("a plain action").clone()).unwrap();
            }
            decisions += 1;
        }
        assert!(decisions > 10, "seed {seed}: {decisions} decisions");
    }
}

/// Plays the battle being fought in `g` by its obvious steps until `stop`
/// holds: a maneuver phase brings on the characters still to enter (the
/// first move listed for each) and ends; a strike phase strikes where it
/// must (the first strike listed) and ends.
fn advance_battle(
    g: &mut titan_core::game::Game,
    stop: impl Fn(&titan_core::game::Game, &Battle) -> bool,
) {
    use titan_core::battle::Status;
    use titan_core::game::Action as GameAction;
    for _ in 0..200 {
        let a = {
            let b = g.battle().expect("a battle");
            if stop(g, &b) {
                return;
            }
            let legal = b.legal_actions();
            let waiting = |u: UnitId| b.units()[u as usize].status == Status::Waiting;
            let enter = legal
                .iter()
                .find(|a| matches!(a, Action::Move { unit, .. } if waiting(*unit)));
            let strike = legal
                .iter()
                .find(|a| matches!(a, Action::Strike { .. } | Action::CarryOver { .. }));
            match (b.phase(), enter, strike) {
                (Phase::Maneuver, Some(a), _) => a.clone(),
                (Phase::Maneuver, None, _) => Action::EndManeuver,
                (_, _, Some(a)) if !legal.contains(&Action::EndStrikes) => a.clone(),
                _ => Action::EndStrikes,
            }
        };
        let who = g.to_act()[0];
        g.apply(who, &GameAction::Battle { battle: a.clone() })
            .unwrap_or_else(|e| panic!("{a:?}: {e}"));
        assert!(g.take_script_failure().is_none());
    }
    panic!("the battle never got there");
}

/// The actions the Novices are offered in the battle being fought.
fn spells_offered(g: &titan_core::game::Game, b: &Battle) -> Vec<String> {
    let v = &g.variant;
    let mut out: Vec<String> = b
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Script { name, unit, .. }
                if v.character(b.units()[unit as usize].character).name == "Novice" =>
            {
                Some(name)
            }
            _ => None,
        })
        .collect();
    out.dedup();
    out
}

/// 5.1 (EN 136: "All players receive a complete set of spells. Thus each
/// player has 16 different spells available"; DE 313-314), 15.2 (EN 385:
/// "Spells that are cast are taken from the player's Personal Pool and
/// removed from the game"; DE 1120-1121): player A casts Shockwave in his
/// first battle; in his second battle of the game his Novice is offered the
/// other spells of its grade but not Shockwave, and player C's Novice, who
/// has cast none, is offered Shockwave. The spells a player has cast are
/// his player variable `spells_cast`.
#[test]
fn a_player_casts_each_spell_once_a_game() {
    use titan_core::format::VarValue;
    use titan_core::game::save::Position as GamePosition;
    use titan_core::game::{Action as GameAction, PlayerId};
    let v = std::sync::Arc::new(variant());
    let pos = r#"(
        players: [(name: "A", tower: 307), (name: "B", tower: 319), (name: "C", tower: 331)],
        legions: [
            (marker: "P1-01", land: 206, characters: ["Novice", "Ogre"], moved: true, entered_from: 207),
            (marker: "P1-03", land: 201, characters: ["Novice", "Ogre"], moved: true, entered_from: 202),
            (marker: "P1-02", land: 307, characters: ["Titan", "Ogre"]),
            (marker: "P2-01", land: 206, characters: ["Ogre", "Ogre"]),
            (marker: "P2-02", land: 319, characters: ["Titan", "Ogre"]),
            (marker: "P3-02", land: 201, characters: ["Novice", "Ogre"]),
            (marker: "P3-01", land: 331, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Engage,
        // After the treaty (8.3: no engagement through game turn 10).
        turn: 11,
    )"#;
    let position: GamePosition = titan_core::load::ron_options().from_str(pos).unwrap();
    let mut g = position.to_game(v.clone()).unwrap();
    let engage = |g: &mut titan_core::game::Game, marker: &str| {
        let land = g.legion(marker.parse().unwrap()).unwrap().land;
        g.apply(PlayerId(0), &GameAction::Engage { land }).unwrap();
        for a in [GameAction::Stand, GameAction::Fight] {
            if g.battle_request().is_none() {
                let who = g.to_act()[0];
                let _ = g.apply(who, &a);
            }
        }
        assert!(g.battle_request().is_some(), "a battle on {land:?}");
    };
    let own_strikes = |side: BattleSide| {
        move |_: &titan_core::game::Game, b: &Battle| {
            b.moving() == side
                && matches!(b.phase(), Phase::Strike { striking } if striking == side)
        }
    };

    // The first battle: A's Novice casts Shockwave; B concedes.
    engage(&mut g, "P1-01");
    advance_battle(&mut g, own_strikes(BattleSide::Attacker));
    let b = g.battle().unwrap();
    let offered = spells_offered(&g, &b);
    assert!(offered.contains(&"shockwave".to_string()), "{offered:?}");
    let novice = b
        .units()
        .iter()
        .position(|u| u.side == BattleSide::Attacker && v.character(u.character).name == "Novice")
        .unwrap() as UnitId;
    drop(b);
    g.apply(
        PlayerId(0),
        &GameAction::Battle {
            battle: cast("shockwave", novice, vec![]),
        },
    )
    .unwrap();
    assert!(g.take_script_failure().is_none());
    advance_battle(&mut g, |g, _| g.to_act().contains(&PlayerId(1)));
    g.apply(
        PlayerId(1),
        &GameAction::Battle {
            battle: Action::Concede(BattleSide::Defender),
        },
    )
    .unwrap();
    assert!(g.battle().is_none(), "the first battle is over");

    // The second battle of the game: A against C (what follows the first
    // engagement done first: A is done after it).
    for _ in 0..5 {
        let legal = g.legal_actions(PlayerId(0));
        if legal.iter().any(|a| matches!(a, GameAction::Engage { .. })) {
            break;
        }
        let who = g.to_act()[0];
        let a = g.legal_actions(who)[0].clone();
        g.apply(who, &a).unwrap();
    }
    engage(&mut g, "P1-03");
    advance_battle(&mut g, own_strikes(BattleSide::Attacker));
    let b = g.battle().unwrap();
    let offered = spells_offered(&g, &b);
    assert!(!offered.contains(&"shockwave".to_string()), "{offered:?}");
    for other in ["shield", "wimps_vacation", "create_hazard"] {
        assert!(offered.contains(&other.to_string()), "{other}: {offered:?}");
    }
    drop(b);
    // C's Novice, in the defender's strike phase of the second round.
    advance_battle(&mut g, |_, b| {
        b.moving() == BattleSide::Defender
            && b.defender_maneuver() == 2
            && matches!(
                b.phase(),
                Phase::Strike {
                    striking: BattleSide::Defender
                }
            )
    });
    let b = g.battle().unwrap();
    let offered = spells_offered(&g, &b);
    assert!(offered.contains(&"shockwave".to_string()), "{offered:?}");
    drop(b);
    // The game keeps who cast what.
    assert_eq!(
        player_var(&g, "spells_cast", 0),
        VarValue::Names(vec!["shockwave".into()])
    );
    assert_eq!(player_var(&g, "spells_cast", 2), VarValue::Names(vec![]));
}
