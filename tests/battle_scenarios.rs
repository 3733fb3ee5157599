//! Battle scenarios: each file under `tests/battle/` (and a bundled
//! variant's `tests/battle/`) is a position, fixed
//! dice, and steps (actions and what must follow), with the rule it checks.
//! The format is described in `docs/battle.md` ("Scenario files").

mod common;

use std::path::Path;

use serde::Deserialize;
use titan_core::battle::{Action, Battle, BattleSide, Phase, Position, Status, UnitId, Winner};
use titan_core::battleland::HexId;
use titan_core::format::Edge;
use titan_core::rng::GameRng;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    /// The rule checked, with its section.
    rule: String,
    #[serde(default = "titan")]
    variant: String,
    position: Position,
    #[serde(default)]
    dice: Vec<u8>,
    steps: Vec<Step>,
}

fn titan() -> String {
    "titan".into()
}

/// Characters are named `NAME@HEX` (on the battleland) or `NAME` (the first
/// of that name still waiting to enter).
#[derive(Deserialize, Debug, Clone)]
enum Step {
    ChooseEdge(Edge),
    Move(String, String),
    Summon(u8, String),
    Reinforce(u8, String),
    EndManeuver,
    Strike(String, String),
    /// Striker, target, declared strike number, forgo hazard bonuses.
    StrikeWith(String, String, Option<u8>, bool),
    Rangestrike(String, String),
    CarryOver(Option<String>),
    EndStrikes,
    Concede(BattleSide),
    /// A variant's action (`actions.ron`): name, the unit taking it, and
    /// its unit arguments.
    Act(String, String, Vec<String>),
    /// The step is refused with a message containing the text, and nothing changes.
    Refused(Box<Step>, String),
    // Checks.
    Damage(String, u8),
    At(String, String),
    Gone(String),
    /// The rider (`NAME@HEX`, its mount's hex) rides the mount there.
    Rides(String, String),
    /// The unit stands on its hex (rides nothing).
    NotRiding(String),
    Reach(String, Vec<String>),
    StrikeNumber(String, String, u8),
    /// A rangestrike's strike number (the line must be open).
    RangeStrikeNumber(String, String, u8),
    Dice(String, String, u8),
    Contact(String, String, bool),
    /// Striker, target, possible, and the path when given.
    Sight(String, String, bool, Option<Vec<String>>),
    CarryTargets(Vec<String>),
    Phase(Phase),
    Moving(BattleSide),
    DefenderManeuver(u8),
    Legal(Box<Step>),
    NotLegal(Box<Step>),
    Winner(Winner),
    TimeLoss(bool),
    Slain(BattleSide, Vec<String>),
    Left(BattleSide, Vec<String>),
    Removed(BattleSide, Vec<String>),
    /// Survivors of the other legion joining this side's (`ctx:change_side`).
    Joined(BattleSide, Vec<String>),
    /// Survivors from the caretaker joining this side's legion (`ctx:add_unit`).
    Added(BattleSide, Vec<String>),
    Summoned(Option<String>),
    Reinforced(Option<String>),
    MaySummonAfter(bool),
    MayReinforceAfter(bool),
    Points(u32),
}

fn hex(label: &str) -> HexId {
    HexId::from_label(label).unwrap_or_else(|| panic!("no hex {label}"))
}

fn unit(b: &Battle, who: &str) -> UnitId {
    let v = b.variant();
    match who.split_once('@') {
        Some((name, h)) => {
            let mut id = b
                .unit_at(hex(h))
                .unwrap_or_else(|| panic!("nobody on {h} (looking for {who})"));
            // A rider is named by its mount's hex (`ctx:mount`).
            if let Some(r) = b.rider_of(id)
                && v.character(b.units()[r as usize].character).name == name
            {
                id = r;
            }
            assert_eq!(
                v.character(b.units()[id as usize].character).name,
                name,
                "{who}"
            );
            id
        }
        None => b
            .units()
            .iter()
            .position(|u| u.status == Status::Waiting && v.character(u.character).name == who)
            .unwrap_or_else(|| panic!("no {who} waiting to enter")) as UnitId,
    }
}

fn action(b: &Battle, step: &Step) -> Action {
    match step {
        Step::ChooseEdge(e) => Action::ChooseEdge(*e),
        Step::Move(w, to) => Action::Move {
            unit: unit(b, w),
            to: hex(to),
        },
        Step::Summon(c, to) => Action::Summon {
            choice: *c,
            to: hex(to),
        },
        Step::Reinforce(c, to) => Action::Reinforce {
            choice: *c,
            to: hex(to),
        },
        Step::EndManeuver => Action::EndManeuver,
        Step::Strike(s, t) => Action::Strike {
            unit: unit(b, s),
            target: unit(b, t),
            strike_number: None,
            forgo_bonus: false,
        },
        Step::StrikeWith(s, t, n, f) => Action::Strike {
            unit: unit(b, s),
            target: unit(b, t),
            strike_number: *n,
            forgo_bonus: *f,
        },
        Step::Rangestrike(s, t) => Action::Rangestrike {
            unit: unit(b, s),
            target: unit(b, t),
        },
        Step::CarryOver(t) => Action::CarryOver {
            target: t.as_ref().map(|t| unit(b, t)),
        },
        Step::EndStrikes => Action::EndStrikes,
        Step::Concede(s) => Action::Concede(*s),
        Step::Act(name, who, args) => Action::Script {
            name: name.clone(),
            unit: unit(b, who),
            args: args
                .iter()
                .map(|a| titan_core::script::ScriptArg::Unit(unit(b, a)))
                .collect(),
        },
        other => panic!("{other:?} is a check, not an action"),
    }
}

fn names(b: &Battle, list: &[titan_core::model::CharacterId]) -> Vec<String> {
    let mut n: Vec<String> = list
        .iter()
        .map(|c| b.variant().character(*c).name.clone())
        .collect();
    n.sort();
    n
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn run_step(b: &mut Battle, step: &Step, ctx: &str) {
    let result = || {
        b.result()
            .unwrap_or_else(|| panic!("{ctx}: the battle is not over"))
    };
    match step {
        Step::Refused(inner, text) => {
            // Everything a later action can observe, the generator included.
            let before = b.fingerprint();
            let a = action(b, inner);
            match b.apply(a) {
                Ok(_) => panic!("{ctx}: {inner:?} was accepted"),
                Err(e) => assert!(
                    e.to_string().contains(text.as_str()),
                    "{ctx}: refused with {e:?}, expected {text:?}"
                ),
            }
            assert_eq!(
                before,
                b.fingerprint(),
                "{ctx}: a refused action changed the battle"
            );
        }
        Step::Damage(w, d) => {
            let u = unit(b, w);
            assert_eq!(b.units()[u as usize].damage, *d, "{ctx}: damage of {w}");
        }
        Step::At(name, h) => {
            let u = b
                .unit_at(hex(h))
                .unwrap_or_else(|| panic!("{ctx}: nobody on {h}"));
            assert_eq!(
                &b.variant().character(b.units()[u as usize].character).name,
                name,
                "{ctx}"
            );
        }
        Step::Gone(h) => assert_eq!(b.unit_at(hex(h)), None, "{ctx}: {h} should be empty"),
        Step::Rides(r, m) => {
            let (r, m) = (unit(b, r), unit(b, m));
            assert_eq!(b.units()[r as usize].status, Status::Riding(m), "{ctx}");
            assert_eq!(b.place(r), b.place(m), "{ctx}");
        }
        Step::NotRiding(w) => {
            let u = unit(b, w);
            assert!(
                matches!(b.units()[u as usize].status, Status::OnBoard(_)),
                "{ctx}: {w} should stand on its hex"
            );
        }
        Step::Reach(w, hexes) => {
            let got: Vec<String> = b
                .reach(unit(b, w))
                .unwrap()
                .into_iter()
                .map(|h| h.label())
                .collect();
            assert_eq!(sorted(got), sorted(hexes.clone()), "{ctx}: reach of {w}");
        }
        Step::StrikeNumber(s, t, n) => {
            let r = b.strike_report(unit(b, s), unit(b, t)).unwrap();
            assert_eq!(r.strike_number, *n, "{ctx}: strike number {s} -> {t}");
        }
        Step::RangeStrikeNumber(s, t, n) => {
            let r = b.line_of_sight(unit(b, s), unit(b, t)).unwrap();
            assert_eq!(
                r.strike_number,
                Some(*n),
                "{ctx}: rangestrike number {s} -> {t}: {r:?}"
            );
        }
        Step::Dice(s, t, n) => {
            let r = b.strike_report(unit(b, s), unit(b, t)).unwrap();
            assert_eq!(r.dice, *n, "{ctx}: dice {s} -> {t}");
        }
        Step::Contact(s, t, c) => {
            let r = b.strike_report(unit(b, s), unit(b, t)).unwrap();
            assert_eq!(r.contact, *c, "{ctx}: contact {s} -> {t}");
        }
        Step::Sight(s, t, possible, path) => {
            let r = b.line_of_sight(unit(b, s), unit(b, t)).unwrap();
            assert_eq!(r.possible, *possible, "{ctx}: sight {s} -> {t}: {r:?}");
            if let Some(p) = path {
                assert_eq!(&r.path, p, "{ctx}: path {s} -> {t}");
            }
        }
        Step::CarryTargets(list) => {
            let mut got = Vec::new();
            for a in b.legal_actions() {
                if let Action::CarryOver { target: Some(t) } = a {
                    let u = &b.units()[t as usize];
                    got.push(format!(
                        "{}@{}",
                        b.variant().character(u.character).name,
                        u.hex().unwrap().label()
                    ));
                }
            }
            assert_eq!(
                sorted(got),
                sorted(list.clone()),
                "{ctx}: carry-over targets"
            );
        }
        Step::Phase(p) => assert_eq!(b.phase(), *p, "{ctx}: phase"),
        Step::Moving(s) => assert_eq!(b.moving(), *s, "{ctx}: moving player"),
        Step::DefenderManeuver(n) => {
            assert_eq!(b.defender_maneuver(), *n, "{ctx}: defender maneuver")
        }
        Step::Legal(inner) => {
            let a = action(b, inner);
            assert!(
                b.legal_actions().contains(&a),
                "{ctx}: {inner:?} should be legal"
            );
        }
        Step::NotLegal(inner) => {
            let a = action(b, inner);
            assert!(
                !b.legal_actions().contains(&a),
                "{ctx}: {inner:?} should not be legal"
            );
        }
        Step::Winner(w) => assert_eq!(result().winner, *w, "{ctx}: winner"),
        Step::TimeLoss(t) => assert_eq!(result().time_loss, *t, "{ctx}: time loss"),
        Step::Slain(side, list) => {
            let r = result();
            let got = match side {
                BattleSide::Attacker => &r.attacker_slain,
                BattleSide::Defender => &r.defender_slain,
            };
            assert_eq!(names(b, got), sorted(list.clone()), "{ctx}: {side:?} slain");
        }
        Step::Left(side, list) => {
            let r = result();
            let got = match side {
                BattleSide::Attacker => &r.attacker_left,
                BattleSide::Defender => &r.defender_left,
            };
            assert_eq!(names(b, got), sorted(list.clone()), "{ctx}: {side:?} left");
        }
        Step::Joined(side, list) | Step::Added(side, list) => {
            let r = result();
            let got = match (step, side) {
                (Step::Joined(..), BattleSide::Attacker) => &r.attacker_joined,
                (Step::Joined(..), BattleSide::Defender) => &r.defender_joined,
                (_, BattleSide::Attacker) => &r.attacker_added,
                (_, BattleSide::Defender) => &r.defender_added,
            };
            assert_eq!(names(b, got), sorted(list.clone()), "{ctx}: {step:?}");
        }
        Step::Removed(side, list) => {
            let r = result();
            let got = match side {
                BattleSide::Attacker => &r.attacker_removed,
                BattleSide::Defender => &r.defender_removed,
            };
            assert_eq!(
                names(b, got),
                sorted(list.clone()),
                "{ctx}: {side:?} removed"
            );
        }
        Step::Summoned(c) => {
            let got = result()
                .summoned
                .map(|(_, c)| b.variant().character(c).name.clone());
            assert_eq!(&got, c, "{ctx}: summoned");
        }
        Step::Reinforced(c) => {
            let got = result()
                .reinforced
                .map(|c| b.variant().character(c).name.clone());
            assert_eq!(&got, c, "{ctx}: reinforced");
        }
        Step::MaySummonAfter(m) => assert_eq!(result().may_summon_after, *m, "{ctx}"),
        Step::Points(n) => assert_eq!(result().points, *n, "{ctx}: points"),
        Step::MayReinforceAfter(m) => assert_eq!(result().may_reinforce_after, *m, "{ctx}"),
        other => {
            let a = action(b, other);
            if let Err(e) = b.apply(a) {
                panic!("{ctx}: {other:?} refused: {e}");
            }
            b.check_invariants()
                .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        }
    }
}

fn run(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let sc: Scenario = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        sc.rule.contains("Law of")
            || sc.rule.contains("reference sheet")
            || sc.rule.contains("hazard chart")
            || sc.rule.contains("variant README")
            || sc.rule.contains("hook point"),
        "{}: the rule must cite its source",
        path.display()
    );
    // A bare name is a bundled variant; a path is relative to the repository.
    let dir = if sc.variant.contains('/') {
        common::root().join(&sc.variant)
    } else {
        common::root().join("variants").join(&sc.variant)
    };
    let v = titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{:?}", e));
    let mut b = Battle::from_position(&v, &sc.position, GameRng::new(1))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    b.fix_dice(sc.dice.iter().copied());
    for (i, step) in sc.steps.iter().enumerate() {
        let ctx = format!("{} step {} ({})", path.display(), i + 1, sc.rule);
        run_step(&mut b, step, &ctx);
    }
    // Dice fixed but never rolled mean the scenario did not go as written.
    assert_eq!(
        b.fixed_dice_left(),
        0,
        "{}: {} of the fixed dice were not used",
        path.display(),
        b.fixed_dice_left()
    );
}

#[test]
fn every_scenario() {
    // The engine's own scenarios, then each bundled variant's (its
    // `tests/battle/` folder, beside the data it checks).
    let mut dirs = vec![common::root().join("tests/battle")];
    dirs.extend(
        common::bundled_dirs()
            .into_iter()
            .map(|d| d.join("tests/battle"))
            .filter(|d| d.is_dir()),
    );
    let mut files: Vec<_> = Vec::new();
    for dir in &dirs {
        let mut these: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
        these.sort();
        files.extend(these);
    }
    let only = std::env::var("SCENARIO").ok();
    assert!(
        only.is_some() || files.len() >= 20,
        "scenarios: {}",
        files.len()
    );
    let mut ran = 0;
    for f in &files {
        if only
            .as_ref()
            .is_some_and(|o| !f.to_string_lossy().contains(o.as_str()))
        {
            continue;
        }
        run(f);
        ran += 1;
    }
    // A filter that matches nothing must not pass having run nothing.
    assert!(ran > 0, "SCENARIO={only:?} matches no scenario");
}
