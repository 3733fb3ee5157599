//! Turns that need no one in front of the screen: a phase in which a
//! person can do nothing but end it ends by itself, and a person's seat
//! handed to the computer plays on its own until he takes it back.

use titan_core::battle;
use titan_core::game::{Action, PlayerId};

use super::{GameScreen, is_concession, phase_name};

/// Whether `action` only ends a phase (of the turn or of a battle) or
/// passes on what is left after a battle.
fn ends_phase(action: &Action) -> bool {
    matches!(
        action,
        Action::DoneSplitting
            | Action::DoneMoving
            | Action::DoneEngaging
            | Action::EndTurn
            | Action::DoneAfter
            | Action::Battle {
                battle: battle::Action::EndManeuver | battle::Action::EndStrikes
            }
    )
}

/// At most this many phases end by themselves after one action (a guard:
/// each ends a phase, and a game has few in a row).
const MOST_EMPTY_PHASES: usize = 64;

impl GameScreen {
    /// Ends, for a person's seat of a game played here, each phase in which
    /// he can do nothing but end it (or concede): no click, and no pass
    /// screen for it. The log says the phase ended.
    pub(super) fn end_empty_phases(&mut self) {
        if !self.session.drives_computers() || self.replay.is_some() {
            return;
        }
        for _ in 0..MOST_EMPTY_PHASES {
            let Some((p, action)) = self.empty_phase() else {
                return;
            };
            let note = self.empty_phase_note(p, &action);
            let at = self.session.event_count();
            match self.session.apply(p, &action) {
                Ok(events) => {
                    self.phase_notes.push((at, note));
                    // What was picked was for the phase that ended.
                    self.selected_unit = None;
                    self.placing = None;
                    self.note_events(&events);
                }
                Err(_) => return,
            }
        }
    }

    /// A person to act who may only end his phase, and that action.
    fn empty_phase(&self) -> Option<(PlayerId, Action)> {
        self.session
            .to_act()
            .into_iter()
            .filter(|p| self.is_human(*p))
            .find_map(|p| {
                let mut rest = self
                    .session
                    .legal_actions(p)
                    .into_iter()
                    .filter(|a| !is_concession(a));
                let only = rest.next()?;
                (rest.next().is_none() && ends_phase(&only)).then_some((p, only))
            })
    }

    /// The log's line for a phase ended by itself.
    fn empty_phase_note(&self, p: PlayerId, action: &Action) -> String {
        let words = self.words(&[]);
        let what = match action {
            Action::Battle {
                battle: battle::Action::EndManeuver,
            } if words.placing() => "placement".to_string(),
            Action::Battle {
                battle: battle::Action::EndManeuver,
            } => "maneuver".to_string(),
            Action::Battle { .. } => "strikes".to_string(),
            Action::DoneAfter => "the battle's aftermath".to_string(),
            _ => phase_name(self.session.view(p).phase).to_string(),
        };
        format!(
            "{} has nothing to do in the {what}: it ends by itself",
            words.player(p)
        )
    }
}

/// Seats handed to the computer and back.
impl GameScreen {
    /// The computer plays seat `p` for its person, at `stand_in_level`,
    /// until he takes it back.
    pub fn hand_to_computer(&mut self, p: PlayerId) {
        let i = usize::from(p.0);
        let level = self.stand_in_level.clone();
        let Some(seat) = self.seats.get_mut(i) else {
            return;
        };
        if seat.computer {
            return;
        }
        seat.computer = true;
        seat.stand_in = true;
        seat.level = level;
        // A player of the level chosen, made when first needed.
        if let Some(slot) = self.ai.get_mut(i) {
            *slot = None;
        }
        self.confirm = None;
        self.clear_selection();
        self.actions_cache.borrow_mut().take();
        self.update_viewer();
    }

    /// Gives seat `p` back to its person.
    pub fn take_seat_back(&mut self, p: PlayerId) {
        let Some(seat) = self.seats.get_mut(usize::from(p.0)) else {
            return;
        };
        if !seat.stand_in {
            return;
        }
        seat.computer = false;
        seat.stand_in = false;
        self.actions_cache.borrow_mut().take();
        self.update_viewer();
    }

    /// The buttons that hand seats to the computer and back: the viewer's
    /// own seat (at a level picked beside it), every person's seat (the
    /// computer finishes the game), and each seat handed over.
    pub(super) fn stand_in_bar(&mut self, ui: &mut egui::Ui) {
        let me = self.viewer;
        if self.is_human(me) {
            egui::ComboBox::from_label("computer level")
                .selected_text(self.stand_in_level.clone())
                .show_ui(ui, |ui| {
                    for level in titan_core::ai::LEVELS {
                        ui.selectable_value(
                            &mut self.stand_in_level,
                            level.to_string(),
                            format!("play at {level}"),
                        );
                    }
                });
            if ui.button("Let the computer play for me").clicked() {
                self.hand_to_computer(me);
            }
        }
        let handed: Vec<PlayerId> = (0..self.seats.len())
            .filter(|&i| self.seats[i].stand_in)
            .map(|i| PlayerId(i as u8))
            .collect();
        for &p in &handed {
            let label = if handed.len() == 1 {
                "Take my seat back".to_string()
            } else {
                format!("Take {}'s seat back", self.seats[usize::from(p.0)].name)
            };
            if ui.button(label).clicked() {
                self.take_seat_back(p);
            }
        }
        if !self.humans().is_empty() && ui.button("Let the computer finish the game").clicked() {
            for p in self.humans() {
                self.hand_to_computer(p);
            }
        }
    }
}
