//! Headless tests of the game window's computer players: the levels a
//! computer seat offers, and the battle odds of the engagement dialog.

mod common;

use common::play::{click, game, harness, take_screen};

use common::repo;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use titan_core::game::save::Position;
use titan_editor::PlayApp;
use titan_editor::play::Seat;
use titan_editor::session::LocalSession;

/// Picks who plays seat `n` on the start screen from its list ("person",
/// "computer (simple)").
fn seat_kind(h: &mut Harness<'_, PlayApp>, n: usize, kind: &str) {
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, &format!("Player {n}:"))
        .click();
    h.run_steps(2);
    click(h, &format!("Player {n}: {kind}"));
}

#[test]
fn computer_seats_offer_the_levels_and_play_at_them() {
    let data = tempfile::tempdir().unwrap();
    let mut h = harness(data.path());
    // Seat 2 is a computer at the default level; pick simple from its list.
    seat_kind(&mut h, 2, "computer (simple)");
    assert_eq!(h.state().form.seats[1].level, "simple");
    {
        let app = h.state_mut();
        app.form.seats[0].computer = true;
        app.form.seed = "3".into();
        // A short game (reference sheet, For a Shorter Game).
        app.form.options.insert(
            "point_limit".into(),
            titan_core::format::OptionValue::Int(100),
        );
    }
    click(&mut h, "Start game");
    let levels: Vec<String> = game(&h).seats.iter().map(|s| s.level.clone()).collect();
    assert_eq!(levels, ["strong", "simple"]);
    h.state_mut().game_mut().unwrap().pace = 0.0;
    let mut frames = 0;
    while h.state().game().is_some_and(|g| g.view().outcome.is_none()) {
        h.step();
        frames += 1;
        assert!(frames < 20_000, "no end after {frames} frames");
    }
    h.run_steps(2);
    assert!(h.query_by_label("Game over").is_some());
    // Nothing the players chose was refused.
    assert!(
        !game(&h).status.starts_with("Refused"),
        "{}",
        game(&h).status
    );
}

#[test]
fn the_engagement_dialog_plots_the_battle_odds() {
    let data = tempfile::tempdir().unwrap();
    let dir = repo().join("variants/titan");
    let variant = titan_editor::play::load_variant(&dir).unwrap();
    let pos = Position::read(&repo().join("tests/scenarios/engagement.ron")).unwrap();
    let mut h = harness(data.path());
    let seats = vec![
        Seat::person("Red"),
        Seat::person("Blue"),
        Seat::computer("Green"),
    ];
    h.state_mut().open_game(
        Box::new(LocalSession::new(pos.to_game(variant).unwrap(), Vec::new())),
        seats,
        &dir,
    );
    h.run_steps(3);
    click(&mut h, "Resolve the engagement in land 5");
    take_screen(&mut h);
    // The engaged player knows both legions now: the odds may be asked.
    click(&mut h, "Estimate the battle odds");
    // The battles are fought on another thread: the window goes on drawing.
    let start = std::time::Instant::now();
    while game(&h).odds.is_none() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(600),
            "no odds"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.run_steps(1);
    }
    h.run_steps(2);
    let odds = game(&h).odds.clone().expect("odds computed").1;
    assert_eq!(
        odds.attacker_wins + odds.defender_wins + odds.mutual,
        odds.battles
    );
    assert!(
        h.query_by_label_contains("attacker wins").is_some(),
        "the odds are shown"
    );
    // Each bar of the chart says what it counts.
    let mut painted = Vec::new();
    for c in &h.output().shapes {
        if let egui::Shape::Text(t) = &c.shape {
            painted.push(t.galley.text().to_string());
        }
    }
    for bar in ["attacker wins ", "defender wins ", "mutual "] {
        assert!(
            painted
                .iter()
                .any(|p| p.starts_with(bar) && p.ends_with('%')),
            "no bar labelled {bar:?}: {painted:?}"
        );
    }
}
