//! Headless tests of the "Try it" page: random games of the
//! variant as edited are played in the background with progress, their
//! outcomes shown, and a script error links to its line.

mod common;

use std::time::{Duration, Instant};

use common::{click, harness, workspace};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use titan_editor::{EditorApp, Tab, Tally};

/// Steps the app until the run is over (the games play on another thread).
fn finish(h: &mut Harness<'_, EditorApp>) -> Tally {
    let start = Instant::now();
    loop {
        h.run_steps(1);
        let tally = h.state().try_it.tally().expect("a run was started");
        if tally.finished {
            h.run_steps(2);
            return tally;
        }
        // A guard against a hang, not a speed check.
        assert!(start.elapsed() < Duration::from_secs(600), "{tally:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn try_it_plays_random_games_and_shows_their_outcomes() {
    let tmp = workspace();
    let mut h = harness(&tmp.path().join("variants/titan"));
    click(&mut h, "Try it");
    assert_eq!(h.state().tab, Tab::TryIt);
    h.state_mut().try_it.games = 3;
    h.state_mut().try_it.max_turns = 30;
    // The toolbar's tab and the page's button share the label: the button
    // is the second.
    h.get_all_by_label("Try it").nth(1).unwrap().click();
    let tally = finish(&mut h);
    assert_eq!(tally.done, 3);
    assert!(tally.errors.is_empty(), "{:?}", tally.errors);
    assert_eq!(
        tally.wins.iter().sum::<u32>() + tally.draws + tally.unfinished,
        3,
        "{tally:?}"
    );
    assert_eq!(tally.wins.len(), usize::from(h.state().try_it.players));
    let summary = format!("P1 won {}, ", tally.wins[0]);
    assert!(h.query_by_label_contains(&summary).is_some());
    assert!(h.query_by_label_contains("script errors 0").is_some());
}

#[test]
fn a_script_error_in_a_game_links_to_its_line() {
    let tmp = workspace();
    let root = tmp.path().join("variants");
    let dir = titan_editor::project::create_extending(&root, "broken-power", "titan").unwrap();
    let mut h = harness(&dir);
    {
        let p = h.state_mut().project.as_mut().unwrap();
        let name = p.add_script("power").unwrap();
        // Loads and checks (the hook is only registered), then fails in play
        // on its second line as soon as a player has scored.
        p.set_script(
            &name,
            "titan.hook(\"titan_power\", function(score, base)\n  if score > 0 then error(\"too strong\") end\n  titan.log(\"power asked at \" .. score)\n  return base\nend)\n"
                .into(),
        );
        assert!(p.problems().is_empty(), "{:?}", p.problems());
    }
    h.run_steps(2);
    click(&mut h, "Try it");
    h.state_mut().try_it.games = 2;
    h.get_all_by_label("Try it").nth(1).unwrap().click();
    let tally = finish(&mut h);
    assert!(!tally.errors.is_empty(), "{tally:?}");
    let e = &tally.errors[0];
    assert!(e.script_failure, "{e:?}");
    assert!(e.message.contains("too strong"), "{e:?}");
    assert_eq!(e.at, Some(("scripts/power.lua".to_string(), 2)));
    // What the script logged before it failed is in the console.
    assert!(
        tally.log.iter().any(|l| l.contains("power asked at 0")),
        "{:?}",
        tally.log
    );
    assert!(
        h.query_all_by_label_contains("power asked at 0")
            .next()
            .is_some()
    );
    click(&mut h, "line 2 of scripts/power.lua");
    let app = h.state();
    assert_eq!(app.tab, Tab::Scripts);
    assert_eq!(
        app.script_forms.script.as_deref(),
        Some("scripts/power.lua")
    );
    assert_eq!(app.script_forms.mark, Some(2));
    assert!(h.query_by_label_contains("line 2: where a game").is_some());
}
