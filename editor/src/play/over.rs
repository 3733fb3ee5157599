//! The end of the game: the outcome, the final scores (centred), the
//! replay and the way back.

use titan_core::game::{Event, PlayerId};

use super::{GameExit, GameScreen, Replay, seat_colour};
use crate::session::SPECTATOR;

/// The end of the game: the outcome and the final scores.
pub(super) fn game_over_screen(g: &mut GameScreen, ui: &mut egui::Ui) -> Option<GameExit> {
    let view = g.session.view(SPECTATOR);
    let words = g.words(&[]);
    let mut exit = None;
    egui::CentralPanel::default().show(ui, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(40.0);
            ui.heading("Game over");
            if let Some(o) = &view.outcome {
                let text = words.event(&Event::GameOver { outcome: o.clone() });
                ui.label(egui::RichText::new(text).size(20.0));
            }
            ui.add_space(12.0);
            ui.label(format!("After {} turns. Final scores:", view.turn));
            let mut order: Vec<usize> = (0..view.players.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(view.players[i].score));
            // A grid starts at the left: it is moved in by half the room
            // it left over when last drawn.
            let width_id = egui::Id::unique("final-scores-width");
            let width: f32 = ui.data(|d| d.get_temp(width_id)).unwrap_or(0.0);
            ui.horizontal(|ui| {
                ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                let grid = egui::Grid::new("final-scores")
                    .striped(true)
                    .show(ui, |ui| {
                        for i in order {
                            let p = &view.players[i];
                            ui.colored_label(seat_colour(PlayerId(i as u8)), &p.name);
                            ui.label(format!("{} points", p.score));
                            ui.label(if p.alive { "alive" } else { "eliminated" });
                            ui.end_row();
                        }
                    });
                let w = grid.response.rect.width();
                if (w - width).abs() > 0.5 {
                    ui.data_mut(|d| d.insert_temp(width_id, w));
                    ui.ctx().request_repaint();
                }
            });
            ui.add_space(16.0);
            if g.session.can_save() && ui.button("Watch the replay").clicked() {
                let save = g.session.save_file();
                g.autosave = None;
                g.replay = Some(Replay { save, step: 0 });
                g.viewer = SPECTATOR;
                g.replay_to(0);
            }
            if ui.button("Back to the start screen").clicked() {
                exit = Some(GameExit::ToStart);
            }
        });
    });
    exit
}
