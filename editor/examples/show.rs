//! Opens the editor window on a chosen page and selection: how the README's
//! screenshots are taken (under Xvfb, see docs/editor.md).
//!
//! ```sh
//! cargo run --release -p titan-editor --example show -- masterboard 1 3   # land 1, a roll of 3
//! cargo run --release -p titan-editor --example show -- battleland Desert D4 D5 D2   # line of sight D5-D2
//! cargo run --release -p titan-editor --example show -- hazard Drift Tundra   # the hazard and terrain forms
//! cargo run --release -p titan-editor --example show -- scripts house-spells spells.lua   # the script page
//! ```

use std::path::{Path, PathBuf};

use titan_editor::{EditorApp, Tab};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Run from the repository's root, the status line shows the path a
    // user there would type (`variants/titan`), not this machine's.
    let root = if Path::new("variants").is_dir() {
        PathBuf::from("variants")
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../variants")
            .canonicalize()
            .map_err(|e| e.to_string())?
    };
    let variant = match args.first().map(String::as_str) {
        Some("scripts") => args.get(1).map_or("titan", String::as_str),
        _ => "titan",
    };
    let mut app = EditorApp::new(&root.join(variant), &root);
    match args.first().map(String::as_str) {
        Some("scripts") => {
            app.tab = Tab::Scripts;
            app.script_forms.script = args.get(2).cloned();
        }
        Some("battleland") => {
            app.tab = Tab::Battlelands;
            app.battleland = args.get(1).cloned();
            app.selected_hex = args.get(2).cloned();
            if let (Some(a), Some(b)) = (args.get(3), args.get(4)) {
                app.hex_tool = titan_editor::HexTool::Sight;
                app.sight = Some((a.clone(), Some(b.clone())));
            }
        }
        Some("hazard") => {
            app.tab = Tab::Terrains;
            app.terrain_forms.hazard = args.get(1).cloned();
            app.terrain_forms.terrain = args.get(2).cloned();
        }
        _ => {
            app.tab = Tab::Masterboard;
            app.selected_land = args.get(1).and_then(|n| n.parse().ok());
            app.move_roll = args.get(2).and_then(|n| n.parse().ok());
        }
    }
    titan_editor::run_app(app)
}
