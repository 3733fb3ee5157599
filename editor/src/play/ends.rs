//! The buttons that end a phase, the game or a battle, at fixed places: a
//! bar at the bottom of the side panel, the phase's end at its left and the
//! concessions on the row below at its right, so that the panel above
//! growing or shrinking never moves them, and a concession is never where
//! the phase's end was.

use egui::{Align, Layout};
use titan_core::battle;
use titan_core::game::Action;

use super::GameScreen;
use crate::session::BattleInfo;

/// Seconds a new phase's end waits before it takes a click: about a double
/// click's second click, well under a second look.
const END_PAUSE: f64 = 0.24;

/// Whether `action` ends the phase (or the step after a battle): its
/// button is the bar's.
pub(super) fn is_phase_end(action: &Action) -> bool {
    matches!(
        action,
        Action::DoneSplitting
            | Action::DoneMoving
            | Action::DoneEngaging
            | Action::EndTurn
            | Action::DoneAfter
    )
}

/// Whether the battle's `action` ends its phase or concedes it: the bar's.
pub(super) fn is_battle_end(action: &battle::Action) -> bool {
    matches!(
        action,
        battle::Action::EndManeuver | battle::Action::EndStrikes | battle::Action::Concede(_)
    )
}

impl GameScreen {
    /// The bar: the phase's end (of the turn, or of the battle being
    /// fought) at the left, "Concede ..." below it at the right.
    pub(super) fn end_bar(&mut self, ui: &mut egui::Ui, battle: Option<&BattleInfo>) {
        let actions = self.my_actions();
        let in_battle = battle.is_some();
        let words = self.words(battle.map_or(&[][..], |b| &b.view.units));
        let mut ends: Vec<(String, Action)> = Vec::new();
        let mut concessions: Vec<(String, Action)> = Vec::new();
        for a in &actions {
            match a {
                Action::ConcedeGame => concessions.push((words.action(a), a.clone())),
                // Only the viewer's own side is offered: "the battle" says it.
                Action::Battle {
                    battle: battle::Action::Concede(_),
                } if in_battle => concessions.push(("Concede the battle".into(), a.clone())),
                Action::Battle { battle } if in_battle && is_battle_end(battle) => {
                    ends.push((words.battle_action(battle), a.clone()));
                }
                _ if !in_battle && is_phase_end(a) => ends.push((words.action(a), a.clone())),
                _ => {}
            }
        }
        drop(words);
        // A phase's end that just took the place of another waits a moment
        // before it takes a click.
        let now = ui.input(|i| i.time);
        let key: String = ends.iter().map(|(l, _)| l.as_str()).collect();
        if key != self.bar_end.0 {
            self.bar_end = (key, now);
        }
        let ready = now - self.bar_end.1 >= END_PAUSE;
        if !ready {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs_f64(END_PAUSE));
        }
        let mut choice = None;
        // Two rows, each always a row high, never wrapping (the panel above
        // keeps its size, the buttons their places): the phase's end on the
        // first, the concessions on the second, from the right (in a battle
        // both the battle and the game may be conceded: on the phase's row
        // they would reach its button).
        let row = ui.spacing().interact_size.y;
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            ui.set_min_height(row);
            for (label, a) in &ends {
                let button = egui::Button::new(egui::RichText::new(label).strong());
                if ui.add_enabled(ready, button).clicked() {
                    choice = Some(a.clone());
                }
            }
        });
        ui.add_space(6.0);
        ui.allocate_ui_with_layout(
            egui::vec2(ui.available_width(), row),
            Layout::right_to_left(Align::Center),
            |ui| {
                ui.set_min_height(row);
                for (label, a) in &concessions {
                    if ui.small_button(label).clicked() {
                        choice = Some(a.clone());
                    }
                }
            },
        );
        ui.add_space(4.0);
        if let Some(a) = choice {
            self.selected_unit = None;
            self.placing = None;
            self.act(&a);
        }
    }
}
