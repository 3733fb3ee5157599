//! The game window shows a named marker's name beside its number (the
//! variant's `rules.legions.marker_names`): in the Legions list, the
//! engagement box and the log; a marker the variant does not name is shown
//! by its number alone.

mod common;

use common::play::{click, game, harness, take_screen};
use common::repo;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use titan_core::game::PlayerId;
use titan_core::game::save::Position;
use titan_editor::PlayApp;
use titan_editor::play::Seat;
use titan_editor::session::LocalSession;

/// The engagement scenario on `tests/fixtures/marker-names` (titan whose
/// first seat names all its markers, the second three, the third none).
fn named_game(data: &std::path::Path) -> Harness<'static, PlayApp> {
    let dir = repo().join("tests/fixtures/marker-names");
    let opts = titan_core::LoadOptions {
        search_paths: vec![repo().join("variants")],
        shared_scripts: Some(repo().join("scripts")),
    };
    let variant = std::sync::Arc::new(titan_core::load(&dir, &opts).unwrap());
    let pos = Position::read(&repo().join("tests/scenarios/engagement.ron")).unwrap();
    let game = pos.to_game(variant).unwrap();
    let mut h = harness(data);
    let seats = vec![
        Seat::person("Red"),
        Seat::person("Blue"),
        Seat {
            computer: true,
            ..Seat::person("Green")
        },
    ];
    h.state_mut()
        .open_game(Box::new(LocalSession::new(game, Vec::new())), seats, &dir);
    h.run_steps(3);
    h
}

#[test]
fn named_markers_are_shown_beside_their_numbers() {
    let data = tempfile::tempdir().unwrap();
    let mut h = named_game(data.path());
    assert_eq!(game(&h).viewer, PlayerId(0));
    // The Legions list: Red's own, Blue's hidden one, Green's unnamed.
    for shown in [
        "P1-02 (Boot) in land 100: Centaur, Centaur, Angel",
        "P2-02 (Bridge) in land 400: 3 characters",
        "P3-01 in land 600: 3 characters",
    ] {
        assert!(h.query_by_label(shown).is_some(), "{shown} not shown");
    }
    assert!(h.query_by_label_contains("P3-01 (").is_none());
    click(&mut h, "Resolve the engagement in land 5");
    take_screen(&mut h);
    // The engagement box names both legions with their markers' names.
    assert!(
        h.query_by_label_contains("Red's legion P1-01 (Anvil): ")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("Blue's legion P2-01 (Acorn): ")
            .is_some()
    );
    // The log says it in the same words.
    click(&mut h, "Flee");
    take_screen(&mut h);
    assert!(
        h.query_by_label_contains("Blue's legion P2-01 (Acorn) flees")
            .is_some(),
        "the log names the marker"
    );
}
