//! Battle scenarios: each file under `tests/battle/` (and a bundled
//! variant's `tests/battle/`) is a position, fixed
//! dice, and steps (actions and what must follow), with the rule it checks.
//! The format is described in `docs/battle.md` ("Scenario files").
//!
//! Each file is a test of its own (a libtest-like harness, `harness = false`
//! in Cargo.toml), named by its path: `battle/summon-full-legion.ron` under
//! `tests/`, `variants/gods-of-titan/tests/battle/bramble.ron` under the
//! repository. So `cargo test --test battle_scenarios -- --list` lists them,
//! `cargo test --test battle_scenarios summon` runs those whose name has
//! `summon`, and a failure names its file. The tests named `runner/...`
//! check the runner itself.

mod common;

use std::path::PathBuf;

use libtest_mimic::{Arguments, Failed, Trial};

use serde::Deserialize;
use titan_core::battle::{
    Action, Battle, BattleError, BattleSide, Phase, Position, Status, UnitId, Winner,
};
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
    /// Placement phases: the summoned character waits uncommitted.
    SummonUncommitted(u8),
    Reinforce(u8, String),
    /// Placement phases: the reinforcement waits uncommitted.
    ReinforceUncommitted(u8),
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
    /// Striker, target, possible, and the path when given. Only an open
    /// line (`true`): a blocked one is a `Blocked`, which says why.
    Sight(String, String, bool, Option<Vec<String>>),
    /// A line of sight that is not open, and what closes it: the engine's
    /// reason word for word (`titan rules los` prints it), as the rules
    /// and the battleland give it (a character, a hazard, a hexside,
    /// higher ground, or no rangestrike at all), and the path when given.
    Blocked {
        striker: String,
        target: String,
        blocked_by: String,
        #[serde(default)]
        path: Option<Vec<String>>,
    },
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
        Step::SummonUncommitted(c) => Action::SummonUncommitted { choice: *c },
        Step::ReinforceUncommitted(c) => Action::ReinforceUncommitted { choice: *c },
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
                Err(e @ BattleError::DiceRanOut { .. }) => {
                    panic!("{ctx}: {inner:?}: {e} (give the scenario more dice)")
                }
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
            // A blocked line that is only `false` would pass whatever
            // blocked it, the wrong thing included.
            assert!(
                *possible,
                "{ctx}: Sight({s:?}, {t:?}, false, ..) does not say what blocks the line: \
                 write Blocked(striker: {s:?}, target: {t:?}, blocked_by: \"...\")"
            );
            let r = b.line_of_sight(unit(b, s), unit(b, t)).unwrap();
            assert!(r.possible, "{ctx}: sight {s} -> {t}: {r:?}");
            if let Some(p) = path {
                assert_eq!(&r.path, p, "{ctx}: path {s} -> {t}");
            }
        }
        Step::Blocked {
            striker: s,
            target: t,
            blocked_by,
            path,
        } => {
            assert!(
                !blocked_by.trim().is_empty(),
                "{ctx}: Blocked({s} -> {t}) must name what blocks the line"
            );
            let r = b.line_of_sight(unit(b, s), unit(b, t)).unwrap();
            assert!(
                !r.possible,
                "{ctx}: the line {s} -> {t} is open, expected blocked by {blocked_by:?}: {r:?}"
            );
            assert_eq!(
                r.reason.as_deref(),
                Some(blocked_by.as_str()),
                "{ctx}: what blocks {s} -> {t}"
            );
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
            match b.apply(a) {
                Ok(_) => {}
                Err(e @ BattleError::DiceRanOut { .. }) => {
                    panic!("{ctx}: {other:?}: {e} (give the scenario more dice)")
                }
                Err(e) => panic!("{ctx}: {other:?} refused: {e}"),
            }
            b.check_invariants()
                .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        }
    }
}

/// Runs the scenario `text`, named `name` in its messages; panics on the
/// first step that goes otherwise.
fn run(name: &str, text: &str) {
    let sc: Scenario = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        sc.rule.contains("Law of")
            || sc.rule.contains("reference sheet")
            || sc.rule.contains("hazard chart")
            || sc.rule.contains("variant README")
            || sc.rule.contains("hook point"),
        "{name}: the rule must cite its source"
    );
    // A bare name is a bundled variant; a path is relative to the repository.
    let dir = if sc.variant.contains('/') {
        common::root().join(&sc.variant)
    } else {
        common::root().join("variants").join(&sc.variant)
    };
    let v = titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{:?}", e));
    let mut b = Battle::from_position(&v, &sc.position, GameRng::new(1))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    b.fix_dice(sc.dice.iter().copied());
    // Every die is written in the scenario: one too few is an error at the
    // step that rolls it, never a die of the generator's.
    b.dice_fixed_only();
    for (i, step) in sc.steps.iter().enumerate() {
        let ctx = format!("{name} step {} ({})", i + 1, sc.rule);
        run_step(&mut b, step, &ctx);
    }
    // Dice fixed but never rolled mean the scenario did not go as written.
    assert_eq!(
        b.fixed_dice_left(),
        0,
        "{name}: {} of the fixed dice were not used",
        b.fixed_dice_left()
    );
}

/// The scenario files, with their test names: those of `tests/battle/`
/// named by their path under `tests/`, then each bundled variant's (its
/// `tests/battle/` folder, beside the data it checks) by its path under the
/// repository.
fn scenario_files() -> Vec<(String, PathBuf)> {
    let root = common::root();
    let mut dirs = vec![(root.join("tests"), root.join("tests/battle"))];
    dirs.extend(
        common::bundled_dirs()
            .into_iter()
            .map(|d| d.join("tests/battle"))
            .filter(|d| d.is_dir())
            .map(|d| (root.clone(), d)),
    );
    let mut files = Vec::new();
    for (base, dir) in &dirs {
        let mut these: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
        these.sort();
        files.extend(these.into_iter().map(|p| {
            let name = p
                .strip_prefix(base)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (name, p)
        }));
    }
    files
}

thread_local! {
    /// This thread runs a scenario that is meant to fail: its panic is
    /// caught and checked, not printed.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The message of a run that must fail, or `None` if it passed.
fn failure(name: &str, text: &str) -> Option<String> {
    QUIET.set(true);
    let caught = std::panic::catch_unwind(|| run(name, text));
    QUIET.set(false);
    let caught = caught.err()?;
    Some(
        caught
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| caught.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default(),
    )
}

/// A small battle for the runner's own tests, on the Plains in the
/// attacker's strike phase: a Giant (7-4, rangestrikes with 3 dice) on A1, a
/// Troll of the defender's on C1, and an Ogre of the Giant's on `ogre` (B1
/// stands on the line between them). Nobody is in contact. `dice` and
/// `steps` as given.
fn runner_scenario(ogre: &str, dice: &str, steps: &str) -> String {
    format!(
        r#"(
    rule: "Law of the Battlelands 27.C (the runner's own test)",
    position: (
        battleland: "Plains",
        attacker_edge: SouthWest,
        moving: Attacker,
        phase: Strike,
        attacker: [(character: "Giant", hex: "A1"), (character: "Ogre", hex: "{ogre}")],
        defender: [(character: "Troll", hex: "C1")],
    ),
    dice: [{dice}],
    steps: [{steps}],
)"#
    )
}

const BLOCKED: &str = r#"Blocked(striker: "Giant@A1", target: "Troll@C1", blocked_by: "Ogre in B1 blocks the line of sight")"#;
const RANGESTRIKE: &str = r#"Rangestrike("Giant@A1", "Troll@C1")"#;

/// The runner's own tests: each check it makes can fail, with a message
/// naming the file and the step.
fn runner_trials() -> Vec<Trial> {
    let expect_failure = |name: &'static str, text: String, wanted: &'static [&'static str]| {
        Trial::test(format!("runner/{name}"), move || {
            let file = format!("runner/{name}.ron");
            match failure(&file, &text) {
                None => Err(format!("{file} passed; it must fail saying {wanted:?}").into()),
                Some(m) if wanted.iter().all(|w| m.contains(w)) => Ok(()),
                Some(m) => Err(format!("{file} failed, but not saying {wanted:?}: {m}").into()),
            }
        })
    };
    let passes = |name: &'static str, text: String| {
        Trial::test(format!("runner/{name}"), move || {
            match failure(&format!("runner/{name}.ron"), &text) {
                None => Ok(()),
                Some(m) => Err(m.into()),
            }
        })
    };
    vec![
        // The battles as written work: the failures below are the checks'.
        passes("blocked-sight-passes", runner_scenario("B1", "", BLOCKED)),
        passes(
            "three-dice-pass",
            runner_scenario(
                "F4",
                "6, 6, 1",
                &format!("{RANGESTRIKE}, Damage(\"Troll@C1\", 2)"),
            ),
        ),
        expect_failure(
            "too-few-dice",
            runner_scenario("F4", "6, 6", RANGESTRIKE),
            &[
                "runner/too-few-dice.ron step 1",
                "the fixed dice ran out: a roll of 3 dice found 2 left",
            ],
        ),
        expect_failure(
            "dice-left-over",
            runner_scenario("F4", "6, 6, 6, 6", RANGESTRIKE),
            &["runner/dice-left-over.ron: 1 of the fixed dice were not used"],
        ),
        expect_failure(
            "blocked-sight-without-reason",
            runner_scenario("B1", "", r#"Sight("Giant@A1", "Troll@C1", false, None)"#),
            &[
                "runner/blocked-sight-without-reason.ron step 1",
                "does not say what blocks the line",
            ],
        ),
        expect_failure(
            "blocked-sight-for-another-reason",
            runner_scenario(
                "B1",
                "",
                r#"Blocked(striker: "Giant@A1", target: "Troll@C1", blocked_by: "the Ogre is too tall")"#,
            ),
            &[
                "runner/blocked-sight-for-another-reason.ron step 1",
                "what blocks Giant@A1 -> Troll@C1",
            ],
        ),
        expect_failure(
            "blocked-sight-that-is-open",
            runner_scenario("F4", "", BLOCKED),
            &["runner/blocked-sight-that-is-open.ron step 1", "is open"],
        ),
    ]
}

fn main() {
    let args = Arguments::from_args();
    let print = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !QUIET.get() {
            print(info);
        }
    }));
    let files = scenario_files();
    let mut trials = vec![Trial::test("runner/scenarios-found", {
        let n = files.len();
        move || {
            // The corpus found at all (a moved folder must not leave
            // nothing to run).
            if n >= 100 {
                Ok(())
            } else {
                Err(Failed::from(format!("only {n} scenario files found")))
            }
        }
    })];
    trials.extend(runner_trials());
    trials.extend(files.into_iter().map(|(name, path)| {
        Trial::test(name.clone(), move || {
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{name}: {e}"))?;
            run(&name, &text);
            Ok(())
        })
    }));
    libtest_mimic::run(&args, trials).exit();
}
