//! The log of the game in its words, as the viewer may see it (each
//! battle's lines with its characters' names, and the phases that ended by
//! themselves), and an online game's chat.

use titan_core::game::{Event, Marker};

use super::GameScreen;

impl GameScreen {
    /// The event log, in the game's words, as the viewer may see it.
    pub(super) fn log(&mut self, ui: &mut egui::Ui, battle: Option<&crate::session::BattleInfo>) {
        let total = self.session.event_count();
        let indexed = self.session.events(self.viewer, total.saturating_sub(300));
        // The battle on now: its units named for its lines (kept).
        if let Some(b) = battle
            && let Some((i, _)) = indexed
                .iter()
                .rev()
                .find(|(_, e)| matches!(e, Event::BattleBegins { .. }))
        {
            self.battle_units.insert(*i, b.view.units.clone());
        }
        let view = self.view();
        let land_of = |m: Marker| view.legions.iter().find(|l| l.marker == m).map(|l| l.land);
        // Each battle's lines with its own units (from its beginning on).
        let mut lines = Vec::new();
        let mut start = 0;
        // The phases the app ended, each before the events that followed.
        let shown_from = indexed.first().map_or(total, |(i, _)| *i);
        let mut notes = self
            .phase_notes
            .iter()
            .filter(|(i, _)| *i >= shown_from)
            .peekable();
        while start < indexed.len() {
            let first = indexed[start].0;
            while let Some((_, note)) = notes.next_if(|(i, _)| *i <= first) {
                lines.push(note.clone());
            }
            let next_note = notes.peek().map(|(i, _)| *i);
            let end = indexed[start + 1..]
                .iter()
                .position(|(i, e)| {
                    matches!(e, Event::BattleBegins { .. }) || next_note.is_some_and(|n| *i >= n)
                })
                .map_or(indexed.len(), |k| start + 1 + k);
            let units = self
                .battle_units
                .range(..=first)
                .next_back()
                .map(|(_, u)| u.clone())
                .unwrap_or_default();
            let events: Vec<Event> = indexed[start..end].iter().map(|(_, e)| e.clone()).collect();
            lines.extend(self.words(&units).log_lines(&events, &land_of));
            start = end;
        }
        lines.extend(notes.map(|(_, note)| note.clone()));
        // Online, the chat is beside the log, in the same panel: the log
        // keeps its height and the board above is not covered.
        if let Some(chat) = self.session.chat() {
            let chat = chat.to_vec();
            egui::Panel::right("chat")
                .resizable(true)
                .default_size(420.0)
                .show(ui, |ui| self.chat_panel(ui, &chat));
        }
        ui.heading("Log");
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for line in &lines {
                    ui.label(line);
                }
            });
    }
    /// The chat of an online game: a line to send, and its lines (the
    /// spectators' marked so), the last at the bottom.
    fn chat_panel(&mut self, ui: &mut egui::Ui, chat: &[(String, String)]) {
        ui.heading("Chat");
        ui.horizontal(|ui| {
            let l = ui.label("Say");
            let edit = ui
                .add(egui::TextEdit::singleline(&mut self.chat_line).desired_width(300.0))
                .labelled_by(l.id);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if (ui.button("Send").clicked() || enter) && !self.chat_line.trim().is_empty() {
                let line = std::mem::take(&mut self.chat_line);
                self.session.say(line.trim());
            }
        });
        let players: Vec<String> = self.view().players.iter().map(|p| p.name.clone()).collect();
        egui::ScrollArea::vertical()
            .id_salt("chat-lines")
            .stick_to_bottom(true)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for (user, line) in chat {
                    ui.label(if players.contains(user) {
                        format!("{user}: {line}")
                    } else {
                        format!("(spectator) {user}: {line}")
                    });
                }
            });
    }
}
