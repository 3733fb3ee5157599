//! The buttons that end a phase, the game or a battle, at fixed places: a
//! bar at the bottom of the side panel, the phase's end at its left and the
//! concessions at its right, so that the panel above growing or shrinking
//! never moves them, and a concession is never where the phase's end was.

use egui::{Align, Layout};
use titan_core::battle;
use titan_core::game::Action;

use super::GameScreen;
use crate::session::BattleInfo;

/// Whether `action` ends the phase (or the step after a battle): its
/// button is the bar's.
pub(super) fn is_phase_end(action: &Action) -> bool {
    matches!(
        action,
        Action::DoneSplitting | Action::DoneMoving | Action::EndTurn | Action::DoneAfter
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
    /// fought) at the left, "Concede ..." at the right.
    pub(super) fn end_bar(&mut self, ui: &mut egui::Ui, battle: Option<&BattleInfo>) {
        let actions = self.my_actions();
        let in_battle = battle.is_some();
        let words = self.words(battle.map_or(&[][..], |b| &b.view.units));
        let mut ends: Vec<(String, Action)> = Vec::new();
        let mut concessions: Vec<(String, Action)> = Vec::new();
        for a in &actions {
            match a {
                Action::ConcedeGame => concessions.push((words.action(a), a.clone())),
                Action::Battle { battle } if in_battle && is_battle_end(battle) => {
                    let label = words.battle_action(battle);
                    if matches!(battle, battle::Action::Concede(_)) {
                        concessions.push((label, a.clone()));
                    } else {
                        ends.push((label, a.clone()));
                    }
                }
                _ if !in_battle && is_phase_end(a) => ends.push((words.action(a), a.clone())),
                _ => {}
            }
        }
        drop(words);
        let mut choice = None;
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            // Always a row's height, so the panel above keeps its size.
            ui.set_min_height(ui.spacing().interact_size.y);
            for (label, a) in &ends {
                if ui.button(egui::RichText::new(label).strong()).clicked() {
                    choice = Some(a.clone());
                }
            }
            ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
                for (label, a) in &concessions {
                    if ui.small_button(label).clicked() {
                        choice = Some(a.clone());
                    }
                }
            });
        });
        ui.add_space(4.0);
        if let Some(a) = choice {
            self.selected_unit = None;
            self.placing = None;
            self.act(&a);
        }
    }
}
