//! A terrain with several battlelands (`alternative: n`): each game draws
//! one per terrain at its start from its seed, records the draw in its
//! state and views, fights its battles there, and replays from a save.

mod common;

use std::sync::Arc;

use titan_core::game::random::random_action;
use titan_core::game::save::SaveFile;
use titan_core::game::{Game, PlayerId};
use titan_core::model::{TerrainId, Variant};
use titan_core::rng::GameRng;

fn variant() -> Arc<Variant> {
    let dir = common::root().join("tests/fixtures/drawn-battlelands");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap())
}

fn terrain(v: &Variant, name: &str) -> TerrainId {
    v.terrain_by_name(name).unwrap()
}

fn names() -> Vec<String> {
    vec!["Ann".into(), "Bob".into(), "Cy".into()]
}

#[test]
fn alternatives_compile_in_their_order() {
    let v = variant();
    let (plains, woods) = (terrain(&v, "Plains"), terrain(&v, "Woods"));
    assert_eq!(v.alternative_count(plains), 3);
    assert_eq!(v.alternative_count(woods), 2);
    assert_eq!(v.alternative_count(terrain(&v, "Tower")), 1);
    assert!(v.has_alternatives() && v.drawn.is_empty());
    // The first of each is the variant's own battleland.
    assert_eq!(
        v.battleland(plains),
        &v.alternatives.lands[plains.index()][0]
    );
    let bramble = v.hazard_by_name("Bramble").unwrap();
    let c3 = titan_core::battleland::HexId::from_label("C3").unwrap();
    assert_eq!(
        v.alternatives.lands[plains.index()][1].hex(c3).hazard,
        bramble
    );
    let d4 = titan_core::battleland::HexId::from_label("D4").unwrap();
    assert_eq!(v.alternatives.lands[plains.index()][2].hex(d4).elevation, 1);
}

#[test]
fn each_game_draws_from_its_seed() {
    let v = variant();
    let (plains, woods) = (terrain(&v, "Plains"), terrain(&v, "Woods"));
    let mut seen = [[false; 3]; 2];
    for seed in 0..40 {
        let (a, _) = Game::new(v.clone(), Default::default(), &names(), seed).unwrap();
        let (b, _) = Game::new(v.clone(), Default::default(), &names(), seed).unwrap();
        assert_eq!(
            a.state, b.state,
            "seed {seed}: the same seed, the same draw"
        );
        let drawn = &a.state.battlelands;
        assert_eq!(drawn.len(), v.terrains.len());
        let (p, w) = (drawn[plains.index()], drawn[woods.index()]);
        assert!(p < 3 && w < 2);
        assert!(
            drawn
                .iter()
                .enumerate()
                .all(|(t, &k)| k == 0 || t == plains.index() || t == woods.index())
        );
        seen[0][usize::from(p)] = true;
        seen[1][usize::from(w)] = true;
        // The game's variant is the drawn one, its files too.
        let gv = &a.variant;
        assert_eq!(gv.drawn, *drawn);
        assert_eq!(
            gv.battleland(plains),
            &v.alternatives.lands[plains.index()][usize::from(p)]
        );
        assert_eq!(
            gv.battleland(woods),
            &v.alternatives.lands[woods.index()][usize::from(w)]
        );
        let def = gv.data.battlelands.iter().filter(|b| b.terrain == "Plains");
        let alts: Vec<u32> = def.map(|b| b.alternative).collect();
        assert_eq!(alts, vec![u32::from(p) + 1]);
        // Everyone sees the draw.
        let view = titan_core::game::view::view(&a, PlayerId(1));
        assert_eq!(view.battlelands, *drawn);
    }
    assert_eq!(seen, [[true; 3], [true, true, false]]);
}

#[test]
fn a_variant_with_one_battleland_per_terrain_draws_nothing() {
    let dir = common::root().join("variants/titan");
    let v = Arc::new(titan_core::load(&dir, &common::options()).unwrap());
    assert!(!v.has_alternatives());
    let (g, _) = Game::new(v.clone(), Default::default(), &names(), 5).unwrap();
    assert!(g.state.battlelands.is_empty());
    assert!(Arc::ptr_eq(&g.variant, &v), "the variant is not copied");
    let text = ron::to_string(&g.state).unwrap();
    assert!(!text.contains("battlelands"), "{text}");
    assert!(v.with_drawn(&[0; 11]).is_err());
}

/// Plays random actions from `seed` until a battle is being fought on
/// `terrains`, or `limit` actions.
fn play_to_battle(v: &Arc<Variant>, seed: u64, terrains: &[TerrainId]) -> Option<Game> {
    let (mut game, _) = Game::new(v.clone(), Default::default(), &names(), seed).unwrap();
    let mut rng = GameRng::new(seed);
    for _ in 0..3_000 {
        if let Some(e) = &game.state.engagement
            && terrains.contains(&game.variant.board.land(e.land).terrain)
            && game.battle().is_some()
        {
            return Some(game);
        }
        let (p, a) = random_action(&game, &mut rng)?;
        game.apply(p, &a).unwrap();
    }
    None
}

#[test]
fn battles_are_fought_on_the_drawn_battleland_and_saves_replay() {
    let v = variant();
    let ours = [terrain(&v, "Plains"), terrain(&v, "Woods")];
    let mut fought = 0;
    for seed in 0..30 {
        let Some(game) = play_to_battle(&v, seed, &ours) else {
            continue;
        };
        fought += 1;
        let t = game.battle_request().unwrap().terrain;
        let k = usize::from(game.state.battlelands[t.index()]);
        let battle = game.battle().unwrap();
        assert_eq!(battle.battleland(), &v.alternatives.lands[t.index()][k]);
        // A save replays on the variant as loaded, drawing the same.
        let save: SaveFile = ron::from_str(&ron::to_string(&game.to_save()).unwrap()).unwrap();
        let replayed = Game::from_save(v.clone(), &save).unwrap();
        assert_eq!(replayed.state, game.state);
        assert_eq!(replayed.variant.drawn, game.variant.drawn);
        // A game from its state alone (a position) fights there too.
        let again = Game::from_state(v.clone(), Default::default(), game.state.clone()).unwrap();
        assert_eq!(
            again.variant.battleland(t),
            &v.alternatives.lands[t.index()][k]
        );
        if fought == 3 {
            break;
        }
    }
    assert!(fought > 0, "some game fights in the Plains or the Woods");
}

#[test]
fn a_draw_the_variant_does_not_have_is_refused() {
    let v = variant();
    let (game, _) = Game::new(v.clone(), Default::default(), &names(), 1).unwrap();
    let mut state = game.state.clone();
    state.battlelands[terrain(&v, "Plains").index()] = 3;
    let e = Game::from_state(v.clone(), Default::default(), state.clone()).unwrap_err();
    assert!(e.0.contains("3 battlelands of Plains"), "{e}");
    state.battlelands.pop();
    assert!(Game::from_state(v.clone(), Default::default(), state).is_err());
}

/// A copy of the fixture with one file changed, loaded: its errors.
fn errors_with(file: &str, text: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join("drawn-battlelands");
    let from = common::root().join("tests/fixtures/drawn-battlelands");
    std::fs::create_dir_all(to.join("battlelands")).unwrap();
    for f in [
        "variant.ron",
        "battlelands/plains.ron",
        "battlelands/plains-2.ron",
        "battlelands/plains-3.ron",
        "battlelands/woods.ron",
        "battlelands/woods-2.ron",
    ] {
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
    std::fs::write(to.join(file), text).unwrap();
    match titan_core::load(&to, &common::options()) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.iter().map(|d| d.to_string()).collect(),
    }
}

#[test]
fn alternatives_are_numbered_once_and_without_gaps() {
    let from = common::root().join("tests/fixtures/drawn-battlelands/battlelands");
    let third = std::fs::read_to_string(from.join("plains-3.ron")).unwrap();
    let twice = errors_with(
        "battlelands/plains-3.ron",
        &third.replace("alternative: 3", "alternative: 2"),
    );
    assert!(
        twice.iter().any(|e| e.contains("plains-3.ron:3:")
            && e.contains("(alternative 2), which")
            && e.contains("one file per terrain and alternative")),
        "{twice:?}"
    );
    let gap = errors_with(
        "battlelands/plains-3.ron",
        &third.replace("alternative: 3", "alternative: 4"),
    );
    assert!(
        gap.iter()
            .any(|e| e.contains("plains-3.ron:4:") && e.contains("alternative 4 of Plains")),
        "{gap:?}"
    );
    // Each alternative is checked as any battleland, at its own file.
    let second = std::fs::read_to_string(from.join("plains-2.ron")).unwrap();
    let bad = errors_with(
        "battlelands/plains-2.ron",
        &second.replace("\"Bramble\"", "\"Quicksand\""),
    );
    assert!(
        bad.iter()
            .any(|e| e.contains("plains-2.ron:") && e.contains("Quicksand")),
        "{bad:?}"
    );
}

#[test]
fn a_flat_copy_keeps_every_alternative() {
    let v = variant();
    let dir = tempfile::tempdir().unwrap();
    titan_core::write::write_flat(&v.data, dir.path()).unwrap();
    assert!(dir.path().join("battlelands/plains-3.ron").is_file());
    let copy = titan_core::load(dir.path(), &common::options()).unwrap();
    assert_eq!(copy.alternatives.lands, v.alternatives.lands);
    assert_eq!(copy.battlelands, v.battlelands);
}
