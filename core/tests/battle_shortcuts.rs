//! The battle engine's speed shortcuts play the very battles its checked
//! path plays, on every bundled variant (those with scripts included, where
//! the shortcuts fall back to the checked path).
//!
//! The checked path: a battle whose owner may take an action back
//! (`Battle::keep_undo`) and that records its events, an action chosen from
//! `Battle::legal_actions` and carried out by `Battle::apply`. The
//! shortcuts, each beside it on the same setup, generator and choices:
//! - `Battle::pick_action` then `Battle::apply_into` on a battle nobody
//!   takes back (a listed action changes the state in place);
//! - `Battle::play_picked` (no look-up of the listing, no checks);
//! - one battle begun anew for every setup (`Battle::restart`), recording
//!   no events (`Battle::without_events`), playing by both of the above.
//!
//! After every action the events, the errors, the whole battle
//! (`Battle::fingerprint`: setup, state and generator) and each side's
//! `Battle::view` must be the same. CI runs this test in the release
//! profile too (`.ci/run`), where debug assertions do not guard the
//! shortcuts.

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

use titan_core::battle::{Action, Battle, BattleEvent, BattleSetup, BattleSide, Fighter};
use titan_core::model::{CharacterId, TerrainId, Variant};
use titan_core::rng::GameRng;

/// Battles played both ways on each variant.
const BATTLES: u64 = 200;
/// More actions than any battle takes (a guard against an endless one).
const MAX_ACTIONS: usize = 20_000;

/// Every variant folder under `variants/`, by name.
fn bundled() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        if dir.join("variant.ron").is_file() {
            out.push(dir.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    out.sort();
    out
}

/// `n` characters (fewer if they would not fit a legion) drawn from `pool`.
fn legion(v: &Variant, pool: &[CharacterId], n: usize, rng: &mut GameRng) -> Vec<Fighter> {
    let max = v.rules.legions.max_size as usize;
    let mut f = Fighter::drawn(v, pool, n, rng);
    while v.legion_size(f.iter().map(|f| f.character)) > max {
        f.pop();
    }
    f
}

/// A random battle of `v` for `seed`: any battleland, one to seven
/// characters a side, now and then a Titan, a summonable character, a
/// reinforcement or a Titan teleport.
fn setup(v: &Variant, pool: &[CharacterId], seed: u64) -> BattleSetup {
    let mut draw = GameRng::new(seed ^ 0x5eed);
    let mut attacker = legion(v, pool, 1 + seed as usize % 7, &mut draw);
    let defender = legion(v, pool, 1 + (seed as usize / 7) % 7, &mut draw);
    let titan = v.rules.titan.character;
    if seed.is_multiple_of(3) && attacker.len() < v.rules.legions.max_size as usize {
        attacker.push(Fighter {
            character: titan,
            power: v.character(titan).power.max(6),
        });
    }
    let summonable = v
        .characters
        .iter()
        .enumerate()
        .filter(|(_, c)| c.summonable)
        .map(|(i, _)| (1, CharacterId(i as u16)))
        .take(if seed.is_multiple_of(2) { 2 } else { 0 })
        .collect();
    let edges = &v.rules.battle.attacker_edges;
    BattleSetup {
        terrain: TerrainId((seed % v.battlelands.len() as u64) as u8),
        attacker,
        defender,
        attacker_edge: edges[seed as usize % edges.len()],
        summonable,
        reinforcements: if seed % 3 == 1 {
            vec![pool[seed as usize % pool.len()]]
        } else {
            vec![]
        },
        teleported: seed.is_multiple_of(5),
    }
}

/// What a battle is after an action, for comparing: the whole battle and
/// what each side is shown.
fn seen(b: &Battle) -> String {
    b.fingerprint()
}

/// What each side is shown of the battle.
fn views(b: &Battle) -> String {
    format!(
        "{:?}\n{:?}",
        b.view(BattleSide::Attacker),
        b.view(BattleSide::Defender)
    )
}

#[derive(Default, Debug)]
struct Counts {
    battles: usize,
    finished: usize,
    actions: usize,
    refused: usize,
    /// Battles left where every action was refused.
    stalled: usize,
    scripted: usize,
}

/// Plays `BATTLES` battles of `v` both ways; see the module's doc.
/// `may_stall`: a battle may end unfinished when its actions run out.
fn play_both_ways(name: &str, v: &Variant, may_stall: bool) -> Counts {
    let titan = v.rules.titan.character;
    let pool: Vec<CharacterId> = (0..v.characters.len())
        .map(|i| CharacterId(i as u16))
        .filter(|&c| c != titan && v.character(c).count > 0 && v.character(c).power > 0)
        .collect();
    assert!(!pool.is_empty(), "{name}");
    let scripted = !v.scripts.is_empty();
    // The battle begun anew for every setup, with one generator and one
    // Lua VM for all, as a simulation keeps them.
    let rng = Rc::new(RefCell::new(GameRng::new(0)));
    let lua = Battle::start_scripts(v, &rng).unwrap();
    assert_eq!(lua.is_some(), scripted, "{name}");
    let mut again = Battle::with_scripts(v, setup(v, &pool, BATTLES), rng.clone(), lua)
        .unwrap()
        .without_events();
    // The two other shortcuts' battles are begun for every setup, each
    // with a generator and a Lua VM of its own for all (as a game's).
    let vm = || {
        let rng = Rc::new(RefCell::new(GameRng::new(0)));
        let lua = Battle::start_scripts(v, &rng).unwrap();
        (rng, lua)
    };
    let (listed_rng, listed_lua) = vm();
    let (picked_rng, picked_lua) = vm();
    let mut counts = Counts::default();
    let (mut e_checked, mut e_listed, mut e_picked, mut e_again) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for seed in 0..BATTLES {
        let s = setup(v, &pool, seed);
        let at = |what: &str| format!("{name}, seed {seed}: {what}");
        let mut checked = Battle::new(v, s.clone(), GameRng::new(seed)).unwrap();
        checked.keep_undo();
        *listed_rng.borrow_mut() = GameRng::new(seed);
        let mut listed =
            Battle::with_scripts(v, s.clone(), listed_rng.clone(), listed_lua.clone()).unwrap();
        *picked_rng.borrow_mut() = GameRng::new(seed);
        let mut picked =
            Battle::with_scripts(v, s.clone(), picked_rng.clone(), picked_lua.clone()).unwrap();
        *rng.borrow_mut() = GameRng::new(seed);
        again.restart(s).unwrap();
        let start = seen(&checked);
        for (b, way) in [
            (&listed, "listed"),
            (&picked, "picked"),
            (&again, "restarted"),
        ] {
            assert_eq!(seen(b), start, "{}", at(way));
        }
        let mut choose = GameRng::new(seed ^ 0xc0ffee);
        // One battle in eight is left unfinished, for the next restart.
        let last = if seed % 8 == 7 { 25 } else { MAX_ACTIONS };
        let mut n_actions = 0;
        let mut refused_here: Vec<usize> = Vec::new();
        while checked.result().is_none() && n_actions < last {
            n_actions += 1;
            let legal = checked.legal_actions();
            let n = legal.len();
            assert!(n > 0, "{}", at("an unfinished battle with no action"));
            if refused_here.len() >= n {
                // Every action of this position is refused (a cursed unit
                // that must strike): the battle can go no further.
                assert!(may_stall, "{}", at("every action refused"));
                counts.stalled += 1;
                break;
            }
            // Concessions only now and then, so that battles are fought.
            let mut i = choose.int_in(0, n as i64 - 1) as usize;
            // An action refused in this position is not picked again while
            // another is left (a refusal changes nothing).
            if refused_here.contains(&i)
                && let Some(j) = (0..n).find(|j| !refused_here.contains(j))
            {
                i = j;
            }
            if matches!(legal[i], Action::Concede(_))
                && choose.roll(200) > 1
                && let Some(j) = legal.iter().position(|a| !matches!(a, Action::Concede(_)))
            {
                i = j;
            }
            let pick = |m: usize| {
                assert_eq!(m, n, "{}", at("the count of actions"));
                i
            };
            e_checked.clear();
            e_listed.clear();
            e_picked.clear();
            e_again.clear();
            // The checked path.
            let done = checked
                .apply_into(&legal[i], &mut e_checked)
                .map_err(|e| format!("{e:?}"));
            // Picked from the listing, then carried out in place.
            let a = listed.pick_action(pick);
            assert_eq!(a.as_ref(), Some(&legal[i]), "{}", at("the picked action"));
            let d = listed
                .apply_into(a.unwrap(), &mut e_listed)
                .map_err(|e| format!("{e:?}"));
            assert_eq!(d, done, "{}", at("pick_action + apply_into"));
            // Picked and carried out in one.
            let d = picked.play_picked(pick, &mut e_picked);
            let d = match d {
                Ok(true) => Ok(()),
                Ok(false) => panic!("{}", at("play_picked found no action")),
                Err(e) => {
                    assert_eq!(e.0, legal[i], "{}", at("play_picked's action"));
                    Err(format!("{:?}", e.1))
                }
            };
            assert_eq!(d, done, "{}", at("play_picked"));
            // Restarted, recording no events: by both shortcuts in turn.
            let d = if n_actions % 2 == 0 {
                match again.play_picked(pick, &mut e_again) {
                    Ok(true) => Ok(()),
                    Ok(false) => panic!("{}", at("play_picked found no action")),
                    Err(e) => Err(format!("{:?}", e.1)),
                }
            } else {
                let a = again.pick_action(pick);
                assert_eq!(a.as_ref(), Some(&legal[i]), "{}", at("restarted's pick"));
                again
                    .apply_into(a.unwrap(), &mut e_again)
                    .map_err(|e| format!("{e:?}"))
            };
            assert_eq!(d, done, "{}", at("restarted"));
            if done.is_err() {
                // Only a script refuses what was listed; nothing changed.
                assert!(scripted, "{}", at(&format!("{:?} refused", legal[i])));
                counts.refused += 1;
                refused_here.push(i);
            } else {
                refused_here.clear();
            }
            assert_eq!(
                e_listed,
                e_checked,
                "{}",
                at("pick_action + apply_into's events")
            );
            assert_eq!(e_picked, e_checked, "{}", at("play_picked's events"));
            // A battle with scripts records its events all the same.
            let quiet: &[BattleEvent] = if scripted { &e_checked } else { &[] };
            assert_eq!(e_again, quiet, "{}", at("restarted's events"));
            let now = seen(&checked);
            // The views are derived from what the fingerprint holds: looked
            // at every fourth action (they take as long to write out).
            let shown = (n_actions % 4 == 0).then(|| views(&checked));
            for (b, way) in [
                (&listed, "listed"),
                (&picked, "picked"),
                (&again, "restarted"),
            ] {
                let after = || at(&format!("{way} after {:?}", legal[i]));
                assert!(seen(b) == now, "{}", after());
                if let Some(shown) = &shown {
                    assert!(views(b) == *shown, "{}: views", after());
                }
            }
            if let Err(e) = checked.check_invariants() {
                panic!("{}", at(&e));
            }
            counts.actions += 1;
        }
        for (b, way) in [
            (&listed, "listed"),
            (&picked, "picked"),
            (&again, "restarted"),
        ] {
            assert_eq!(b.result(), checked.result(), "{}", at(way));
            assert!(views(b) == views(&checked), "{}", at(way));
        }
        counts.battles += 1;
        if checked.result().is_some() {
            counts.finished += 1;
        } else {
            // A battle whose scripts refuse some strikes may be picked into
            // refusals until the actions run out (`may_stall`).
            assert!(
                n_actions == last && last < MAX_ACTIONS || may_stall,
                "{}",
                at("endless")
            );
        }
        if scripted {
            counts.scripted += 1;
        }
    }
    counts
}

/// Plays the variant in folder `name` both ways and checks the counts.
fn variant_plays_both_ways(name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../variants")
        .join(name);
    let v = titan_core::load(&dir, &Default::default())
        .unwrap_or_else(|e| panic!("{name} loads: {e:?}"));
    let c = play_both_ways(name, &v, false);
    eprintln!("{name}: {c:?}");
    assert_eq!(c.battles, BATTLES as usize, "{name}");
    // All but the one in eight left unfinished.
    assert!(c.finished >= c.battles * 7 / 8, "{name}: {c:?}");
    assert!(c.actions > c.battles * 20, "{name}: {c:?}");
    // The variants with scripts: the shortcuts fall back for them.
    assert_eq!(c.scripted > 0, !v.scripts.is_empty(), "{name}");
}

/// One test a variant, so that the harness runs them side by side; the
/// list is checked against the folder (`every_bundled_variant_is_played`).
macro_rules! variants {
    ($($test:ident: $name:literal,)*) => {
        const PLAYED: &[&str] = &[$($name),*];
        $(
            #[test]
            fn $test() {
                variant_plays_both_ways($name);
            }
        )*
    };
}

variants! {
    titan_plays_both_ways: "titan",
    titan_shorter_plays_both_ways: "titan-shorter",
    battlelands_1981_plays_both_ways: "battlelands-1981",
    gods_of_titan_plays_both_ways: "gods-of-titan",
    house_spells_plays_both_ways: "house-spells",
    house_regeneration_plays_both_ways: "house-regeneration",
    house_veterans_plays_both_ways: "house-veterans",
    house_forced_march_plays_both_ways: "house-forced-march",
    titan_1980_plays_both_ways: "titan-1980",
}

/// Every variant under `variants/` is played above, and some of them have
/// scripts.
#[test]
fn every_bundled_variant_is_played() {
    let folders = bundled();
    let mut played: Vec<String> = PLAYED.iter().map(|n| n.to_string()).collect();
    played.sort();
    assert_eq!(folders, played);
}

/// A fixture whose scripts refuse some actions (`cursed`: an ability hook
/// that fails): a refused action must leave every shortcut's battle as the
/// checked path leaves it, unchanged (the shortcuts fall back to a copy
/// when a VM may refuse).
#[test]
fn a_variant_whose_scripts_refuse_plays_both_ways() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let opts = titan_core::LoadOptions {
        search_paths: vec![repo.join("variants")],
        shared_scripts: Some(repo.join("scripts")),
    };
    let v = titan_core::load(&repo.join("tests/battle/variants/lua-battle"), &opts)
        .unwrap_or_else(|e| panic!("lua-battle loads: {e:?}"));
    let c = play_both_ways("lua-battle", &v, true);
    eprintln!("lua-battle: {c:?}");
    assert_eq!(c.battles, BATTLES as usize);
    assert!(c.refused > 0, "no action was refused: {c:?}");
}
