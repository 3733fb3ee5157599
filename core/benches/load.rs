//! How long loading a variant takes: reading and parsing its RON, running its
//! scripts in the sandbox, validating and compiling. Goal: `titan` in under
//! 20 ms in release.

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use titan_core::LoadOptions;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn options() -> LoadOptions {
    LoadOptions {
        search_paths: vec![repo().join("variants")],
        shared_scripts: Some(repo().join("scripts")),
    }
}

fn load(c: &mut Criterion) {
    let opts = options();
    for name in ["titan", "titan-shorter"] {
        let dir = repo().join("variants").join(name);
        c.bench_function(&format!("load {name}"), |b| {
            b.iter(|| titan_core::load(&dir, &opts).expect("loads"))
        });
    }
    // A broken variant must be refused quickly too: the endless loop is cut
    // by the instruction budget.
    let endless = repo().join("tests/broken/lua-loop");
    c.bench_function("refuse lua-loop", |b| {
        b.iter(|| titan_core::load(&endless, &opts).expect_err("refused"))
    });
    let bomb = repo().join("tests/broken/lua-memory");
    c.bench_function("refuse lua-memory", |b| {
        b.iter(|| titan_core::load(&bomb, &opts).expect_err("refused"))
    });
}

criterion_group!(benches, load);
criterion_main!(benches);
