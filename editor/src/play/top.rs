//! The game screen's top bar: leaving, saving, the computer's pace and the
//! seats handed to it, or the replay's steps; whose phase it is (the same
//! words as the side panel) and the status line.

use egui::Color32;
use titan_core::game::PlayerId;

use super::{GameExit, GameScreen, phase_name};
use crate::session::SPECTATOR;

impl GameScreen {
    pub(super) fn top_bar(&mut self, ui: &mut egui::Ui) -> Option<GameExit> {
        let mut exit = None;
        ui.horizontal_wrapped(|ui| {
            if ui.button("Start screen").clicked() {
                exit = Some(GameExit::ToStart);
            }
            if self.replay.is_none() && self.session.can_save() {
                ui.separator();
                let l = ui.label("Save as");
                ui.add(egui::TextEdit::singleline(&mut self.save_name).desired_width(120.0))
                    .labelled_by(l.id);
                if ui.button("Save").clicked() {
                    exit = Some(GameExit::Save(self.save_name.trim().to_string()));
                }
                ui.separator();
                let computers =
                    self.session.drives_computers() && self.seats.iter().any(|s| s.computer);
                if computers {
                    // egui's number box inside a slider cannot be named for
                    // screen readers: the value is a label instead.
                    ui.add(
                        egui::Slider::new(&mut self.pace, 0.0..=1.0)
                            .step_by(0.05)
                            .show_value(false)
                            .text("computer pace"),
                    );
                    ui.label(if self.pace <= 0.0 {
                        "instant".to_string()
                    } else {
                        format!("{:.2} s per action", self.pace)
                    });
                    let label = if self.paused { "Resume" } else { "Pause" };
                    if ui.button(label).clicked() {
                        self.paused = !self.paused;
                    }
                }
                if self.session.drives_computers() {
                    ui.separator();
                    self.stand_in_bar(ui);
                }
            } else {
                self.replay_bar(ui);
            }
            ui.separator();
            let view = self.view();
            let words = self.words(&[]);
            ui.label(format!(
                "Turn {}, {}'s {}{}",
                view.turn,
                words.player(view.active),
                phase_name(view.phase),
                if self.viewer == SPECTATOR && self.replay.is_some() {
                    String::new()
                } else if self.viewer == SPECTATOR {
                    "; you are watching".to_string()
                } else {
                    format!("; you are {}", words.player(self.viewer))
                }
            ));
            if !self.status.is_empty() {
                ui.separator();
                ui.colored_label(Color32::from_rgb(230, 120, 60), self.status.clone());
            }
        });
        exit
    }

    fn replay_bar(&mut self, ui: &mut egui::Ui) {
        let Some(r) = &self.replay else {
            return;
        };
        let (step, total) = (r.step, r.save.actions.len());
        ui.label(format!("Replay: action {step} of {total}"));
        if ui.button("|<").clicked() {
            self.replay_to(0);
        }
        if ui.button("< Back").clicked() {
            self.replay_to(step.saturating_sub(1));
        }
        if ui.button("Forward >").clicked() {
            self.replay_to(step + 1);
        }
        if ui.button(">|").clicked() {
            self.replay_to(total);
        }
        let mut seat = self.viewer;
        egui::ComboBox::from_id_salt("view-as")
            .selected_text(if seat == SPECTATOR {
                "as everyone sees it".to_string()
            } else {
                format!("as {} sees it", self.seats[seat.0 as usize].name)
            })
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut seat, SPECTATOR, "as everyone sees it");
                for (i, s) in self.seats.iter().enumerate() {
                    ui.selectable_value(
                        &mut seat,
                        PlayerId(i as u8),
                        format!("as {} sees it", s.name),
                    );
                }
            });
        self.viewer = seat;
    }
}
