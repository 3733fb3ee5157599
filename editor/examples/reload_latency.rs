//! Measures hot-reload latency: from a file written by another program to
//! the new data visible in the editor's model, through the same watcher and
//! reload the app uses.
//!
//! ```sh
//! cargo run --release -p titan-editor --example reload_latency
//! ```
//!
//! It copies the bundled variants to a temporary folder, then 20 times
//! rewrites `masterboard.ron` (changing land 1's terrain) and polls, as the
//! app does each frame, until the merged board shows the change.

use std::path::Path;
use std::time::{Duration, Instant};

use titan_editor::project::Project;
use titan_editor::watch::Watcher;

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn main() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&repo.join("variants"), &tmp.path().join("variants"));
    copy_tree(&repo.join("scripts"), &tmp.path().join("scripts"));
    let dir = tmp.path().join("variants/titan");
    let board = dir.join("masterboard.ron");
    let original = std::fs::read_to_string(&board).unwrap();

    let mut project = Project::open(&dir).unwrap();
    let watcher = Watcher::new(&project.watched_dirs(), || {}).unwrap();

    let start = Instant::now();
    project.reload_from_disk();
    let reload_only = start.elapsed();

    let mut samples = Vec::new();
    for i in 0..20 {
        let terrain = ["Swamp", "Desert"][i % 2];
        let text = original.replacen(
            "(number: 1, terrain: \"Plains\"",
            &format!("(number: 1, terrain: \"{terrain}\""),
            1,
        );
        std::thread::sleep(Duration::from_millis(150));
        // Nothing left over from the previous write.
        let _ = watcher.changed();
        let written = Instant::now();
        std::fs::write(&board, text).unwrap();
        loop {
            // The app polls once a frame; it is woken by the watcher.
            std::thread::sleep(Duration::from_millis(1));
            if !watcher.changed().is_empty() {
                project.reload_from_disk();
            }
            if project.land(1).unwrap().terrain == terrain {
                break;
            }
            assert!(written.elapsed() < Duration::from_secs(5), "no reload");
        }
        samples.push(written.elapsed());
    }
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "reload latency (file written -> new data visible), {} runs: min {:.1} ms, median {:.1} ms, max {:.1} ms",
        samples.len(),
        ms(samples[0]),
        ms(samples[samples.len() / 2]),
        ms(samples[samples.len() - 1]),
    );
    println!(
        "of which reloading and validating the variant: {:.1} ms; the watcher gathers events for {} ms",
        ms(reload_only),
        titan_editor::watch::DEBOUNCE.as_millis()
    );
}
