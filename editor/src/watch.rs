//! Watching the variant's folders for changes made by other programs.
//!
//! Built on `notify-debouncer-mini`: the operating system's file events
//! (inotify on Linux), gathered for [`DEBOUNCE`] so that a program writing a
//! file in several steps causes one reload. No polling.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use notify_debouncer_mini::notify::RecursiveMode;
use notify_debouncer_mini::{DebounceEventResult, Debouncer, new_debouncer};

/// How long events are gathered before a reload: short enough for a reload
/// well within 200 ms of the write.
pub const DEBOUNCE: Duration = Duration::from_millis(40);

/// A watch on some folders; [`Watcher::changed`] says whether a RON or Lua
/// file under them changed since it was last asked.
pub struct Watcher {
    _debouncer: Debouncer<notify_debouncer_mini::notify::RecommendedWatcher>,
    events: Receiver<Vec<PathBuf>>,
}

impl Watcher {
    /// Watches `dirs` recursively; `wake` is called from the watching
    /// thread on each change (the app asks egui to repaint).
    pub fn new(
        dirs: &[PathBuf],
        wake: impl Fn() + Send + 'static,
    ) -> notify_debouncer_mini::notify::Result<Watcher> {
        let (tx, rx) = channel();
        // inotify reports a file opened for reading too, and a reload reads
        // every file: without this, each reload caused the next, forever.
        // A file counts as changed when its size or modification time does
        // (a stat opens nothing, so it causes no event of its own).
        let mut seen: HashMap<PathBuf, Option<Stamp>> = HashMap::new();
        for dir in dirs {
            // The events name files under the absolute folder, as notify
            // makes a relative one absolute (against the current folder).
            let dir = std::env::current_dir().map_or(dir.clone(), |cwd| cwd.join(dir));
            record_files(&dir, &mut seen);
        }
        let mut debouncer = new_debouncer(DEBOUNCE, move |res: DebounceEventResult| {
            if let Ok(events) = res {
                let paths: Vec<PathBuf> = events
                    .into_iter()
                    .map(|e| e.path)
                    .filter(|p| is_variant_file(p))
                    .filter(|p| {
                        let now = stamp(p);
                        seen.insert(p.clone(), now) != Some(now)
                    })
                    .collect();
                if !paths.is_empty() && tx.send(paths).is_ok() {
                    wake();
                }
            }
        })?;
        for dir in dirs {
            debouncer.watcher().watch(dir, RecursiveMode::Recursive)?;
        }
        Ok(Watcher {
            _debouncer: debouncer,
            events: rx,
        })
    }

    /// The files changed since the last call (empty when none).
    pub fn changed(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        while let Ok(paths) = self.events.try_recv() {
            out.extend(paths);
        }
        out.sort();
        out.dedup();
        out
    }
}

/// What tells a file's versions apart without opening it.
type Stamp = (std::time::SystemTime, u64);

fn stamp(path: &Path) -> Option<Stamp> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.modified().ok()?, m.len()))
}

/// The stamps of the variant files under `dir`, as the watch begins.
fn record_files(dir: &Path, seen: &mut HashMap<PathBuf, Option<Stamp>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            record_files(&path, seen);
        } else if is_variant_file(&path) {
            seen.insert(path.clone(), stamp(&path));
        }
    }
}

/// RON and Lua files, not the temporary files of atomic writes.
fn is_variant_file(path: &Path) -> bool {
    let hidden = path
        .file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'));
    let ext = path.extension().and_then(|e| e.to_str());
    !hidden && matches!(ext, Some("ron" | "lua"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ron_and_lua_files_count() {
        assert!(is_variant_file("a/b/masterboard.ron".as_ref()));
        assert!(is_variant_file("scripts/lib.lua".as_ref()));
        assert!(!is_variant_file("a/.masterboard.ron.tmp12".as_ref()));
        assert!(!is_variant_file("a/README.md".as_ref()));
    }

    #[test]
    fn a_written_file_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let w = Watcher::new(&[dir.path().to_path_buf()], || {}).unwrap();
        std::fs::write(dir.path().join("x.ron"), "[]").unwrap();
        let start = std::time::Instant::now();
        let mut seen = Vec::new();
        while seen.is_empty() && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(10));
            seen = w.changed();
        }
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert!(seen[0].ends_with("x.ron"));
    }

    /// Reading a file is no change (inotify reports the opening): a
    /// reload, which reads every file, must not cause the next one.
    #[test]
    fn a_file_read_is_not_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("x.ron");
        std::fs::write(&file, "[]").unwrap();
        // The folder named relative to the current one, as `titan edit
        // variants/titan` names it.
        let cwd = std::env::current_dir().unwrap();
        let mut relative = PathBuf::new();
        for _ in cwd.components().skip(1) {
            relative.push("..");
        }
        relative.push(dir.path().strip_prefix("/").unwrap());
        let w = Watcher::new(&[relative], || {}).unwrap();
        for _ in 0..3 {
            std::fs::read_to_string(&file).unwrap();
        }
        // A write after the reads is reported, and only it: the watcher's
        // events come in order, so once the write is seen the reads before
        // it have been judged.
        std::fs::write(dir.path().join("y.ron"), "[1]").unwrap();
        let start = std::time::Instant::now();
        let mut seen = Vec::new();
        while !seen.iter().any(|p: &PathBuf| p.ends_with("y.ron"))
            && start.elapsed() < Duration::from_secs(30)
        {
            std::thread::sleep(Duration::from_millis(10));
            seen.extend(w.changed());
        }
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert!(seen[0].ends_with("y.ron"), "{seen:?}");
    }
}
