//! Opens the game window on a position: how the README's screenshots of
//! play are taken (under Xvfb, see docs/play.md).
//!
//! ```sh
//! cargo run --release -p titan-editor --example show_play -- board    # a roll of 6: moves and teleports
//! cargo run --release -p titan-editor --example show_play -- battle   # a striker selected
//! cargo run --release -p titan-editor --example show_play -- start    # the start screen
//! cargo run --release -p titan-editor --example show_play -- gods     # Gods of Titan's board
//! ```

#[path = "scenes/mod.rs"]
mod scenes;

use titan_editor::PlayApp;
use titan_editor::session::LocalSession;

fn main() -> Result<(), String> {
    let root = scenes::root();
    let dir = root.join("variants/titan");
    let mut app = PlayApp::new(&root.join("variants"), &std::env::temp_dir());
    match std::env::args().nth(1).as_deref() {
        Some("start") => {}
        Some("gods") => {
            let (g, log, seats, selected) = scenes::gods()?;
            let dir = root.join("variants/gods-of-titan");
            app.open_game(Box::new(LocalSession::new(g, log)), seats, &dir);
            let s = app.game_mut().ok_or("no game")?;
            s.paused = true;
            s.autosave = None;
            s.selected = selected;
        }
        Some("battle") => {
            let (g, log, seats, striker) = scenes::battle()?;
            app.open_game(Box::new(LocalSession::new(g, log)), seats, &dir);
            let s = app.game_mut().ok_or("no game")?;
            s.paused = true;
            s.autosave = None;
            s.selected_unit = striker;
        }
        _ => {
            let (g, log, seats, selected) = scenes::board(true)?;
            app.open_game(Box::new(LocalSession::new(g, log)), seats, &dir);
            let s = app.game_mut().ok_or("no game")?;
            s.paused = true;
            s.autosave = None;
            s.selected = selected;
        }
    }
    titan_editor::run_play_app(app)
}
