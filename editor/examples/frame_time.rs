//! Measures the game window's frame time on the CPU: egui's layout of the
//! whole window and the tessellation of what it draws into triangles (what
//! a frame costs before the GPU), for the masterboard with 24 legions (one
//! selected, its moves highlighted) and a battle with 14 characters on the
//! battleland (a striker selected, its targets with strike numbers).
//!
//! ```sh
//! cargo run --release -p titan-editor --example frame_time
//! ```

#[path = "scenes/mod.rs"]
mod scenes;

use std::time::Instant;

use titan_editor::PlayApp;
use titan_editor::session::LocalSession;

const FRAMES: usize = 300;

fn main() -> Result<(), String> {
    let root = scenes::root();
    let dir = root.join("variants/titan");

    let (g, log, seats, selected) = scenes::board(false)?;
    let legions = g.state.legions.len();
    let mut app = PlayApp::new(&root.join("variants"), &std::env::temp_dir());
    app.open_game(Box::new(LocalSession::new(g, log)), seats, &dir);
    let screen = app.game_mut().ok_or("no game")?;
    screen.paused = true;
    screen.selected = selected;
    let board = measure(&mut app);
    println!(
        "masterboard, {legions} legions, one selected: {}",
        board.summary()
    );

    let (g, log, seats, striker) = scenes::battle()?;
    let on_board = g.battle().map_or(0, |b| {
        b.units().iter().filter(|u| u.hex().is_some()).count()
    });
    let mut app = PlayApp::new(&root.join("variants"), &std::env::temp_dir());
    app.open_game(Box::new(LocalSession::new(g, log)), seats, &dir);
    let screen = app.game_mut().ok_or("no game")?;
    screen.paused = true;
    screen.selected_unit = striker;
    let fight = measure(&mut app);
    println!(
        "battle, {on_board} characters on the battleland{}: {}",
        if striker.is_some() {
            ", a striker selected"
        } else {
            ""
        },
        fight.summary()
    );
    Ok(())
}

struct Times(Vec<f64>);

impl Times {
    fn summary(&self) -> String {
        let mut v = self.0.clone();
        v.sort_by(f64::total_cmp);
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        format!(
            "mean {:.2} ms, median {:.2} ms, 95th percentile {:.2} ms, max {:.2} ms over {} frames",
            mean,
            v[v.len() / 2],
            v[v.len() * 95 / 100],
            v[v.len() - 1],
            v.len()
        )
    }
}

/// Layout and tessellation of `FRAMES` frames of a 1400 x 900 window.
fn measure(app: &mut PlayApp) -> Times {
    let ctx = egui::Context::default();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1400.0, 900.0),
        )),
        ..Default::default()
    };
    let mut times = Vec::new();
    for i in 0..FRAMES + 20 {
        let start = Instant::now();
        let out = ctx.run_ui(input(), |ui| app.ui(ui));
        let prims = ctx.tessellate(out.shapes, out.pixels_per_point);
        std::hint::black_box(prims);
        if i >= 20 {
            times.push(start.elapsed().as_secs_f64() * 1000.0);
        }
    }
    Times(times)
}
