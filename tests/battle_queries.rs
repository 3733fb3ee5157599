//! A battle script's queries of the engine (docs/scripting.md, "Asking the
//! battle engine"): `ctx:reach(unit)` answers the hexes the unit's `Move`
//! actions list, and `ctx:sight(from, to)` the range and rangestrike check
//! of `titan rules los` (`Battle::line_of_sight`), over random battles on
//! every battleland (the bramble, sand and bog hexes of Brush, Desert,
//! Jungle and Marsh, the Tower's walls and deployment area). The test
//! variant `tests/battle/variants/queries` keeps each answer in a variable
//! (Law of the Battlelands 26, movement; 27, rangestrikes).

mod common;

use titan_core::battle::{Action, Battle, BattleSetup, Fighter, Phase, Status};
use titan_core::format::VarValue;
use titan_core::model::{CharacterId, TerrainId};
use titan_core::rng::GameRng;

fn legion(v: &titan_core::Variant, rng: &mut GameRng) -> Vec<Fighter> {
    let n = 2 + rng.roll(5) as usize;
    (0..n)
        .map(|_| {
            let c = CharacterId((rng.roll(v.characters.len() as u32) - 1) as u16);
            Fighter {
                character: c,
                power: v.character(c).power.max(1),
            }
        })
        .collect()
}

fn probe_action(b: &Battle) -> &'static str {
    match b.phase() {
        Phase::Maneuver => "probe",
        _ => "probe_strike",
    }
}

#[test]
fn reach_and_sight_are_the_engines_answers() {
    let dir = common::root().join("tests/battle/variants/queries");
    let v = titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}"));
    let (mut reaches, mut sights, mut moving, mut strikes, mut walls) = (0, 0, 0, 0, 0);
    for seed in 0..v.battlelands.len() as u64 * 2 {
        let mut rng = GameRng::new(seed);
        let edges = &v.rules.battle.attacker_edges;
        let setup = BattleSetup {
            terrain: TerrainId((seed % v.battlelands.len() as u64) as u8),
            attacker: legion(&v, &mut rng),
            defender: legion(&v, &mut rng),
            attacker_edge: edges[(rng.roll(edges.len() as u32) - 1) as usize],
            summonable: vec![],
            reinforcements: vec![],
            teleported: false,
        };
        let mut b = Battle::new(&v, setup, GameRng::new(seed ^ 0x5eed)).unwrap();
        for _ in 0..200 {
            if b.result().is_some() {
                break;
            }
            let legal = b.legal_actions();
            // The engine's own answers, before the probe.
            let name = probe_action(&b);
            let prober = legal.iter().find_map(|a| match a {
                Action::Script { name: n, unit, .. } if n == name => Some(*unit),
                _ => None,
            });
            if let Some(prober) = prober {
                for t in 0..b.units().len() as u8 {
                    if !matches!(b.units()[t as usize].status, Status::OnBoard(_)) {
                        continue;
                    }
                    let mut listed: Vec<String> = legal
                        .iter()
                        .filter_map(|a| match a {
                            Action::Move { unit, to } if *unit == t => Some(to.label()),
                            _ => None,
                        })
                        .collect();
                    let los = (t != prober).then(|| b.line_of_sight(prober, t).unwrap());
                    b.apply(Action::Script {
                        name: name.into(),
                        unit: prober,
                        args: vec![titan_core::script::ScriptArg::Unit(t)],
                    })
                    .unwrap_or_else(|e| panic!("seed {seed}: probe of {t}: {e}"));
                    let Some(VarValue::Names(mut reach)) = b.unit_var("reach", t).cloned() else {
                        panic!("seed {seed}: no reach kept");
                    };
                    reach.sort();
                    listed.sort();
                    assert_eq!(
                        reach, listed,
                        "seed {seed}: ctx:reach({t}) against the Move actions"
                    );
                    reaches += 1;
                    moving += usize::from(!listed.is_empty());
                    if let Some(los) = los {
                        let Some(VarValue::Text(said)) = b.unit_var("sight", t).cloned() else {
                            panic!("seed {seed}: no sight kept");
                        };
                        let strike = match (los.possible, los.strike_number, los.dice, &los.reason)
                        {
                            (true, Some(n), Some(d), _) => format!("yes {n} {d}"),
                            (false, _, _, Some(why)) => format!("no: {why}"),
                            other => panic!("{other:?}"),
                        };
                        let mut parts = said.split(" | ");
                        assert_eq!(parts.next(), Some(los.range.to_string().as_str()), "{said}");
                        let line = parts.next().unwrap();
                        assert_eq!(parts.next(), Some(strike.as_str()), "seed {seed}: {said}");
                        // A rangestrike the engine allows has a line to run
                        // along (magic sees through everything).
                        assert!(
                            !los.possible || line == "open" || magic(&v, &b, prober),
                            "{said}"
                        );
                        strikes += usize::from(los.possible);
                        sights += 1;
                    }
                }
            }
            // Now and then a Tree where the unit would go (the probe
            // asserts that its reach leaves it out).
            let wall = legal
                .iter()
                .find(|a| matches!(a, Action::Script { name, .. } if name == "wall_probe"));
            if let Some(wall) = wall.filter(|_| rng.roll(8) == 1) {
                b.apply(wall.clone())
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                walls += 1;
                continue;
            }
            // On with the battle, by an action that is not a probe.
            let others: Vec<&Action> = legal
                .iter()
                .filter(|a| !matches!(a, Action::Script { .. }))
                .collect();
            let a = others[(rng.roll(others.len() as u32) - 1) as usize].clone();
            b.apply(a).unwrap();
        }
    }
    // The battles put both answers to work.
    assert!(
        reaches > 1000 && moving > 100,
        "{reaches} reaches, {moving} with moves"
    );
    assert!(
        sights > 1000 && strikes > 10,
        "{sights} lines, {strikes} rangestrikes"
    );
    assert!(walls > 10, "{walls} trees");
}

fn magic(v: &titan_core::Variant, b: &Battle, unit: u8) -> bool {
    v.character(b.units()[unit as usize].character)
        .rangestrike
        .as_ref()
        .is_some_and(|r| r.magic)
}
