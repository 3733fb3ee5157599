//! Gods of Titan's spells and abilities whose arguments or dice the battle
//! scenario files cannot say: hexes (Teleport), numbers (Painchain) and the
//! dice a script rolls with `math.random` (Shockwave, Quake, Inferno,
//! Painchain). Those dice come from the battle's seeded generator, so each
//! test rolls the same generator beside the battle to know what the rule
//! must do. The other spells and abilities are scenario files under
//! `variants/gods-of-titan/tests/battle/` (run by `tests/battle_scenarios.rs`).

mod common;

use titan_core::Variant;
use titan_core::battle::{Action, Battle, Position, UnitId};
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
        assert_eq!(damage(&b, "E3"), first, "seed {seed}: the chain's dice");
        assert_eq!(damage(&b, "C4"), 0, "seed {seed}");
        tested += usize::from(first > 0);
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

/// Random battles between legions of Casters and characters with abilities:
/// every legal action is taken without a refusal (so no script fails in
/// `apply`), and each spell and ability is offered somewhere (so no `legal`
/// fails silently, which would leave it out of the list) and most are taken.
#[test]
fn random_battles_take_every_spell_and_ability() {
    use std::collections::BTreeSet;
    use titan_core::battle::{BattleSetup, Fighter};
    use titan_core::format::Edge;
    use titan_core::game::random::random_battle_action;

    let v = variant();
    let legion = |names: &[&str]| -> Vec<Fighter> {
        names
            .iter()
            .map(|n| {
                let c = v.character_by_name(n).unwrap();
                Fighter {
                    character: c,
                    power: v.character(c).power,
                }
            })
            .collect()
    };
    let attacker = legion(&[
        "Warlord",
        "Priest",
        "Deathbringer",
        "Demon",
        "Nightmare",
        "Phoenix",
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
    for seed in 0..40u64 {
        let terrain = ["Plains", "Darkland", "Highlands", "Mountains"][seed as usize % 4];
        let setup = BattleSetup {
            terrain: v.terrain_by_name(terrain).unwrap(),
            attacker: attacker.clone(),
            defender: defender.clone(),
            attacker_edge: Edge::SouthWest,
            summonable: vec![],
            reinforcements: vec![],
            teleported: false,
        };
        let mut b = Battle::new(&v, setup, GameRng::new(seed)).unwrap();
        let mut rng = GameRng::new(seed + 1000);
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
        }
        assert!(b.result().is_some(), "seed {seed}: the battle did not end");
    }
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
    ] {
        assert!(offered.contains(name), "{name} never offered: {offered:?}");
    }
    assert!(taken.len() >= 10, "taken: {taken:?}");
}
