//! The battlelands page's board shape: a board of its own for a
//! battleland, hexes added and removed, and the zones a battle procedure
//! refers to (docs/editor.md, "Board shapes").

use super::{EditorApp, HexTool};

impl EditorApp {
    /// The board-shape tools and the selected hex's zones.
    pub(super) fn board_shape_panel(&mut self, ui: &mut egui::Ui) {
        let (Some(project), Some(terrain)) = (&mut self.project, self.battleland.clone()) else {
            return;
        };
        let Some(def) = project.battleland(&terrain) else {
            return;
        };
        ui.separator();
        ui.label("Board shape:");
        if def.board.is_none() {
            if ui
                .button("Give this battleland a board of its own")
                .on_hover_text("copies the 27-hex board, whose hexes can then be added and removed")
                .clicked()
            {
                project.own_board(&terrain);
                self.hex_view.fitted = false;
            }
            return;
        }
        ui.label(format!("{} hexes", def.hexes.len()));
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.hex_tool, HexTool::AddHex, "add hex")
                .on_hover_text("click where the board has no hex");
            ui.selectable_value(&mut self.hex_tool, HexTool::RemoveHex, "remove hex");
        });
        let Some(label) = self.selected_hex.clone() else {
            ui.label("Select a hex to put it in zones.");
            return;
        };
        if !def.hexes.contains_key(&label) {
            return;
        }
        // The zones of the board and those the battle procedure names.
        let procedure = &project.data().rules.battle;
        let mut zones: Vec<String> = def
            .board
            .as_ref()
            .map(|b| b.zones.keys().cloned().collect())
            .unwrap_or_default();
        if let Some(p) = procedure.as_ref().map(|b| &b.procedure) {
            zones.push(p.attacker_zone.clone());
            zones.push(p.defender_zone.clone());
        }
        zones.sort();
        zones.dedup();
        let member = |z: &str| {
            def.board
                .as_ref()
                .and_then(|b| b.zones.get(z))
                .is_some_and(|l| l.contains(&label))
        };
        let now: Vec<(String, bool)> = zones.iter().map(|z| (z.clone(), member(z))).collect();
        ui.label(format!("Zones of {label}:"));
        for (zone, was) in now {
            let mut on = was;
            if ui.checkbox(&mut on, format!("zone {zone}")).changed() {
                project.set_zone(&terrain, &zone, &label, on);
            }
        }
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.new_zone)
                    .hint_text("new zone")
                    .desired_width(100.0),
            );
            if ui.button("Add to zone").clicked() && !self.new_zone.trim().is_empty() {
                project.set_zone(&terrain, &self.new_zone, &label, true);
                self.new_zone.clear();
            }
        });
    }
}
