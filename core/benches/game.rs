//! Masterplay speed: the legal moves of one legion (the hot path of every
//! move query), and whole random games.

use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use titan_core::game::random::random_action;
use titan_core::game::{Exits, Game, Occupancy};
use titan_core::rng::GameRng;

fn titan() -> Arc<titan_core::Variant> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    Arc::new(titan_core::load(&dir, &Default::default()).expect("titan loads"))
}

fn legal_moves(c: &mut Criterion) {
    let v = titan();
    let exits = Exits::new(&v);
    let occ = vec![Occupancy::Empty; v.board.land_count()];
    let tower = v.board.by_number(100).unwrap();
    let plains = v.board.by_number(1).unwrap();
    c.bench_function("moves of one legion, roll 6, from a tower", |b| {
        b.iter(|| exits.moves(tower, 6, &occ))
    });
    c.bench_function("moves of one legion, every roll, from land 1", |b| {
        b.iter(|| {
            (1..=6)
                .map(|r| exits.moves(plains, r, &occ).len())
                .sum::<usize>()
        })
    });
}

fn random_games(c: &mut Criterion) {
    let v = titan();
    let names: Vec<String> = (1..=4).map(|i| format!("p{i}")).collect();
    let mut group = c.benchmark_group("random games");
    group.sample_size(20);
    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function("4 players, to the end or 100 turns", |b| {
        b.iter(|| {
            seed += 1;
            let (mut g, _) = Game::new(v.clone(), Default::default(), &names, seed).unwrap();
            let mut rng = GameRng::new(seed);
            while g.state.turn <= 100 {
                let Some((p, a)) = random_action(&g, &mut rng) else {
                    break;
                };
                g.apply(p, &a).expect("legal");
            }
            g.state.turn
        })
    });
    group.finish();
}

criterion_group!(benches, legal_moves, random_games);
criterion_main!(benches);
