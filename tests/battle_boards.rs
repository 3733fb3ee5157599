//! Battle boards of any size and shape (docs/variant-format.md, "Boards"):
//! the `boards` test variant's Plains stands on five hexes and its Desert on
//! eleven; both load with their edges and zones and play random battles to
//! the end, and `titan simulate battles` plays them.

mod common;

use std::path::PathBuf;

use titan_core::battle::position::Position;
use titan_core::battle::{Action, Battle};
use titan_core::battleland::{Board, hexset};
use titan_core::format::{Edge, Side};
use titan_core::model::Variant;
use titan_core::rng::GameRng;

fn boards() -> Variant {
    let dir: PathBuf = common::root().join("tests/fixtures/boards");
    titan_core::load(&dir, &common::options()).unwrap()
}

#[test]
fn boards_of_any_size_load_with_their_edges_and_zones() {
    let v = boards();
    let land = |t: &str| v.battleland(v.terrain_by_name(t).unwrap());
    let plains = &land("Plains").board;
    assert_eq!(plains.len(), 5);
    assert_eq!(land("Plains").hexes.len(), 5);
    let h = |b: &Board, l: &str| b.hex(l).unwrap();
    // The wide side of three and the narrow side of two (Law of Titan
    // 10.A: the attacker's and the defender's sides of a battleboard).
    assert_eq!(plains.edge_hexes(Edge::SouthWest).count(), 3);
    assert_eq!(plains.edge_hexes(Edge::NorthEast).count(), 2);
    assert_eq!(plains.edge(Edge::West), 0);
    assert_eq!(
        plains.zone("defender"),
        Some(hexset::bit(h(plains, "N1")) | hexset::bit(h(plains, "N2")))
    );
    // Neighbours come from the coordinates: W2 touches all four others.
    let ring = Side::ALL
        .iter()
        .filter_map(|&s| plains.neighbour(h(plains, "W2"), s))
        .count();
    assert_eq!(ring, 4);
    assert_eq!(plains.distance(h(plains, "W1"), h(plains, "W3")), 2);
    // The slope written on N1's south-east side lies between N1 and W2.
    let slope = land("Plains").hexside(h(plains, "W2"), Side::NW).unwrap();
    assert_eq!(v.hazard(slope.hazard).name, "Slope");
    assert!(!slope.top);

    let desert = &land("Desert").board;
    assert_eq!(desert.len(), 11);
    assert_eq!(desert.zones().len(), 4);
    for edge in Edge::ALL {
        assert!(desert.edge(edge) != 0, "{edge:?}");
    }
    // Every other battleland keeps the 27-hex board, shared.
    let mountains = &land("Mountains").board;
    assert_eq!(**mountains, *Board::standard());
    assert!(std::sync::Arc::ptr_eq(mountains, &land("Brush").board));
}

/// Random legal actions until the battle ends, the invariants checked after
/// each; returns the actions played.
fn play_out(v: &Variant, terrain: &str, seed: u64) -> usize {
    let text = format!(
        r#"(battleland: "{terrain}",
            attacker: [(character: "Giant"), (character: "Gorgon"), (character: "Ranger"), (character: "Ogre")],
            defender: [(character: "Troll"), (character: "Lion"), (character: "Centaur")])"#
    );
    let pos = Position::from_ron(&text).unwrap();
    let mut b = Battle::from_position(v, &pos, GameRng::new(seed)).unwrap();
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut played = 0;
    while b.result().is_none() {
        let actions: Vec<Action> = b.legal_actions();
        assert!(!actions.is_empty(), "{terrain} seed {seed}: nothing to do");
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let a = actions[(x % actions.len() as u64) as usize].clone();
        b.apply(a.clone())
            .unwrap_or_else(|e| panic!("{terrain} seed {seed}: {a:?} refused: {e:?}"));
        b.check_invariants()
            .unwrap_or_else(|e| panic!("{terrain} seed {seed}: {e}"));
        played += 1;
        assert!(played < 5_000, "{terrain} seed {seed}: no end in sight");
    }
    played
}

#[test]
fn random_battles_on_small_boards_play_to_the_end() {
    let v = boards();
    for terrain in ["Plains", "Desert"] {
        let played: usize = (0..60).map(|seed| play_out(&v, terrain, seed)).sum();
        assert!(played > 60, "{terrain}: {played} actions");
    }
}

/// A hex off a small board is refused, whatever its number: the board's
/// own tables never see it.
#[test]
fn a_move_off_a_small_board_is_refused() {
    let v = boards();
    let pos = Position::from_ron(
        r#"(battleland: "Plains", attacker: [(character: "Giant")], defender: [(character: "Troll", hex: "A2")])"#,
    )
    .unwrap();
    let mut b = Battle::from_position(&v, &pos, GameRng::new(1)).unwrap();
    for to in [5u8, 12, 26] {
        let e = b
            .apply(Action::Move {
                unit: 1,
                to: titan_core::battleland::HexId(to),
            })
            .unwrap_err();
        assert!(format!("{e:?}").contains("no hex number"), "{e:?}");
    }
}

#[test]
fn titan_simulate_battles_plays_them() {
    for terrain in ["Plains", "Desert"] {
        let out = common::titan(&[
            "simulate",
            "battles",
            "--variant",
            "tests/fixtures/boards",
            "--battleland",
            terrain,
            "-n",
            "300",
            "--seed",
            "1",
            "--json",
        ]);
        assert!(
            out.status.success(),
            "{terrain}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let n = |k: &str| r[k].as_u64().unwrap();
        assert_eq!(n("battles"), 300, "{terrain}");
        assert_eq!(
            n("attacker_wins") + n("defender_wins") + n("mutual"),
            300,
            "{terrain}"
        );
        assert_eq!(r["errors"], serde_json::json!([]), "{terrain}");
    }
}
