//! Watching the variant's folders for changes made by other programs.
//!
//! Built on `notify-debouncer-mini`: the operating system's file events
//! (inotify on Linux), gathered for [`DEBOUNCE`] so that a program writing a
//! file in several steps causes one reload. No polling.

use std::path::PathBuf;
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
        let mut debouncer = new_debouncer(DEBOUNCE, move |res: DebounceEventResult| {
            if let Ok(events) = res {
                let paths: Vec<PathBuf> = events
                    .into_iter()
                    .map(|e| e.path)
                    .filter(|p| is_variant_file(p))
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

/// RON and Lua files, not the temporary files of atomic writes.
fn is_variant_file(path: &std::path::Path) -> bool {
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
        while seen.is_empty() && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
            seen = w.changed();
        }
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert!(seen[0].ends_with("x.ron"));
    }
}
