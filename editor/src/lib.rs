//! The Titan game window and variant editor, one egui app.
//!
//! The game window ([`PlayApp`], `play/`) plays any variant, hot-seat and
//! against the computer, through one interface to the game
//! ([`session::GameSession`]). The editor ([`EditorApp`]) edits a variant's
//! masterboard, battlelands, characters and mustering tables, validated as
//! you go, with files watched and reloaded when another program changes them.
//!
//! The crate is a library so that the whole app runs headlessly in tests
//! (egui_kittest drives [`PlayApp::ui`] and [`EditorApp::ui`]); [`run_play`]
//! and [`run`] are the thin eframe shells that `titan` and `titan edit` open.
//! [`project::Project`] is the editor's model without any GUI.
//!
//! ```
//! use titan_editor::EditorApp;
//! let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants");
//! let app = EditorApp::new(&root.join("titan-shorter"), &root);
//! let project = app.project.as_ref().unwrap();
//! assert_eq!(project.data().masterboard.lands.len(), 96);
//! assert!(project.problems().is_empty());
//! ```
#![forbid(unsafe_code)]

pub mod app;
pub mod counters;
pub mod draw;
pub mod patch;
pub mod play;
pub mod project;
pub mod remote;
pub mod session;
pub mod watch;
pub mod words;

use std::path::Path;

pub use app::{
    EditorApp, HexTool, Pending, ScriptForms, Tab, Tally, TerrainForms, TryError, TryIt,
};
pub use play::PlayApp;

/// Opens the editor window on the variant in `dir`, offering the variants
/// under `variants_root` to switch to. Returns when the window is closed.
pub fn run(dir: &Path, variants_root: &Path) -> Result<(), String> {
    run_app(EditorApp::new(dir, variants_root))
}

/// Opens the editor window on an app already set up (a page chosen, a land
/// selected: what the screenshots show).
pub fn run_app(app: EditorApp) -> Result<(), String> {
    no_display()?;
    let title = match &app.project {
        Some(p) => format!("Titan editor: {}", p.dir().display()),
        None => "Titan editor".to_string(),
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(title.clone())
            .with_inner_size([1280.0, 860.0]),
        ..Default::default()
    };
    eframe::run_native(&title, options, Box::new(|_cc| Ok(Box::new(Shell(app)))))
        .map_err(|e| e.to_string())
}

/// An error when there is no display to open a window on (X11 or Wayland),
/// said plainly rather than as the windowing library's failure.
fn no_display() -> Result<(), String> {
    let set = |v: &str| std::env::var_os(v).is_some_and(|d| !d.is_empty());
    if set("DISPLAY") || set("WAYLAND_DISPLAY") || set("WAYLAND_SOCKET") {
        Ok(())
    } else {
        Err("no display (neither DISPLAY nor WAYLAND_DISPLAY is set)".into())
    }
}

/// The eframe shell around the app.
struct Shell(EditorApp);

impl eframe::App for Shell {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.0.ui(ui);
    }
}

/// Opens the game window on the start screen. Without a display it says so
/// (an error, no window) rather than failing inside the windowing library.
pub fn run_play(variants_root: &Path) -> Result<(), String> {
    no_display()?;
    run_play_app(PlayApp::new(variants_root, &play::data_dir()))
}

/// Opens the game window on an app already set up (a position on screen:
/// what the screenshots show).
pub fn run_play_app(app: PlayApp) -> Result<(), String> {
    no_display()?;
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Titan")
            .with_inner_size([1400.0, 900.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Titan",
        options,
        Box::new(|_cc| Ok(Box::new(PlayShell(app)))),
    )
    .map_err(|e| e.to_string())
}

/// The eframe shell around the game window.
struct PlayShell(PlayApp);

impl eframe::App for PlayShell {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.0.ui(ui);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.0.on_exit();
    }
}
