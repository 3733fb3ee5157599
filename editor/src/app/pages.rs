//! The characters and mustering pages: grids for the chart, forms for a
//! selected character and for every kind of mustering need.

use egui::Color32;
use titan_core::format::{
    CharacterDef, MusterRow, MusterTable, Needs, RangeStrength, RangestrikeDef, WhenExhausted,
};

use super::EditorApp;

/// The kinds of mustering need, as the form's menu offers them.
const NEED_KINDS: [&str; 5] = [
    "of the previous row",
    "free",
    "identical",
    "of a character",
    "script hook",
];

fn need_kind(n: &Needs) -> &'static str {
    match n {
        Needs::Previous(_) => NEED_KINDS[0],
        Needs::Free => NEED_KINDS[1],
        Needs::Identical { .. } => NEED_KINDS[2],
        Needs::Character { .. } => NEED_KINDS[3],
        Needs::Hook(_) => NEED_KINDS[4],
    }
}

/// A need of another kind, keeping its count where both have one.
fn need_of_kind(kind: &str, old: &Needs, first_character: &str) -> Needs {
    let count = match old {
        Needs::Previous(k)
        | Needs::Identical { count: k, .. }
        | Needs::Character { count: k, .. } => *k,
        _ => 2,
    };
    match kind {
        k if k == NEED_KINDS[0] => Needs::Previous(count),
        k if k == NEED_KINDS[1] => Needs::Free,
        k if k == NEED_KINDS[2] => Needs::Identical { count, class: None },
        k if k == NEED_KINDS[3] => Needs::Character {
            name: first_character.to_string(),
            count,
        },
        _ => Needs::Hook(String::new()),
    }
}

/// A rangestrike's strength in words, for the grid.
fn strength_words(r: &Option<RangestrikeDef>) -> String {
    match r {
        None => "-".into(),
        Some(r) => {
            let s = match &r.strength {
                RangeStrength::HalfPower => "half power".to_string(),
                RangeStrength::Power => "power".to_string(),
                RangeStrength::Fixed(n) => n.to_string(),
                RangeStrength::Hook(h) => format!("hook {h}"),
            };
            let strikes = if r.strikes > 1 {
                format!(" x{}", r.strikes)
            } else {
                String::new()
            };
            format!("{s}{}{strikes}", if r.magic { ", magic" } else { "" })
        }
    }
}

impl EditorApp {
    /// The character chart as a grid; a click on a name selects it for the
    /// side panel.
    pub(super) fn characters(&mut self, ui: &mut egui::Ui) {
        let Some(project) = &mut self.project else {
            return;
        };
        let data = project.data().clone();
        let classes: Vec<String> = data
            .rules
            .classes
            .iter()
            .flatten()
            .map(|c| c.name.clone())
            .collect();
        if ui.button("Add character").clicked() {
            let name = project.add_character();
            self.selected_character = Some(name);
            self.rename = None;
        }
        let mut edits = Vec::new();
        egui::ScrollArea::both().show(ui, |ui| {
            egui::Grid::new("characters").striped(true).show(ui, |ui| {
                for h in [
                    "name",
                    "plural",
                    "power",
                    "skill",
                    "class",
                    "flies",
                    "rangestrike",
                    "natives",
                    "count",
                    "summonable",
                    "value",
                    "abilities",
                    "counter",
                ] {
                    ui.strong(h);
                }
                ui.end_row();
                for c in &data.characters {
                    let mut e = c.clone();
                    let selected = self.selected_character.as_deref() == Some(&c.name);
                    if ui.selectable_label(selected, &c.name).clicked() {
                        self.selected_character = Some(c.name.clone());
                        self.rename = None;
                    }
                    // Grows with the text: the whole plural shows.
                    ui.add(
                        egui::TextEdit::singleline(&mut e.plural)
                            .clip_text(false)
                            .desired_width(60.0),
                    );
                    ui.add(egui::DragValue::new(&mut e.power).range(1..=99));
                    ui.add(egui::DragValue::new(&mut e.skill).range(1..=9));
                    ui.menu_button(e.class.clone(), |ui| {
                        for k in &classes {
                            ui.selectable_value(&mut e.class, k.clone(), k);
                        }
                    });
                    ui.checkbox(&mut e.flies, "");
                    ui.label(strength_words(&e.rangestrike));
                    ui.label(if e.natives.is_empty() {
                        "none".to_string()
                    } else {
                        e.natives.join(", ")
                    });
                    ui.add(egui::DragValue::new(&mut e.count).range(1..=999));
                    ui.checkbox(&mut e.summonable, "");
                    ui.label(match e.value {
                        Some(v) => v.to_string(),
                        None => format!("{} (p x s)", u32::from(e.power) * u32::from(e.skill)),
                    });
                    ui.label(e.abilities.join(", "));
                    // As the play window's counters show it.
                    let lord = data
                        .rules
                        .classes
                        .iter()
                        .flatten()
                        .any(|k| k.name == e.class && k.tower_teleport);
                    let mut badges = String::new();
                    if e.rangestrike.is_some() {
                        badges.push_str(crate::counters::RANGESTRIKE);
                    }
                    if lord {
                        badges.push_str(crate::counters::LORD);
                    }
                    let between = if e.flies { '*' } else { '-' };
                    ui.label(format!("{}{between}{} {badges}", e.power, e.skill).trim_end());
                    ui.end_row();
                    if e != *c {
                        edits.push((c.name.clone(), e));
                    }
                }
            });
        });
        for (name, c) in edits {
            project.set_character(&name, c);
        }
    }

    /// The selected character's form: every field, renaming and deleting.
    pub(super) fn character_panel(&mut self, ui: &mut egui::Ui) {
        let Some(project) = &mut self.project else {
            return;
        };
        let Some(name) = self.selected_character.clone() else {
            ui.label("Click a character's name to edit it here.");
            return;
        };
        let Some(c) = project.character(&name).cloned() else {
            ui.label(format!("{name}: no such character now."));
            return;
        };
        let data = project.data().clone();
        let hooks = project.hooks();
        ui.heading(&c.name);
        if project.character_is_inherited(&c.name) {
            ui.label("From the base variant: edits are saved as an override here.");
        }
        let (buffer, error) = self.rename.get_or_insert((c.name.clone(), None));
        ui.horizontal(|ui| {
            let label = ui.label("Name:");
            ui.add(egui::TextEdit::singleline(buffer).desired_width(120.0))
                .labelled_by(label.id);
        });
        if ui.button("Rename").clicked() {
            match project.rename_character(&c.name, buffer) {
                Ok(()) => {
                    self.selected_character = Some(buffer.trim().to_string());
                    *error = None;
                }
                Err(e) => *error = Some(e),
            }
        }
        if let Some(e) = error {
            ui.colored_label(Color32::RED, e.as_str());
        }
        let mut e = c.clone();
        character_fields(ui, &mut e, &data, &hooks);
        if e != c {
            project.set_character(&c.name, e);
        }
        ui.separator();
        if ui.button("Delete character...").clicked() {
            self.confirm_delete = Some(c.name.clone());
        }
    }

    /// Asks before deleting a character, showing what refers to it.
    pub(super) fn delete_character_form(&mut self, ctx: &egui::Context) {
        let (Some(name), Some(project)) = (self.confirm_delete.clone(), &mut self.project) else {
            self.confirm_delete = None;
            return;
        };
        let refs = project.character_references(&name);
        let mut choice = None;
        egui::Modal::new(egui::Id::unique("delete character")).show(ctx, |ui| {
            ui.heading(format!("Delete {name}?"));
            if refs.is_empty() {
                ui.label("Nothing else refers to it.");
            }
            if !refs.mustering.is_empty() {
                ui.label(format!(
                    "Its rows go from the mustering tables of: {}",
                    refs.mustering.join(", ")
                ));
            }
            if !refs.rules.is_empty() {
                ui.label(format!(
                    "rules.ron names it in: {} (left as is; shown as problems)",
                    refs.rules.join(", ")
                ));
            }
            if !refs.scripts.is_empty() {
                ui.label(format!(
                    "Scripts mention it: {} (left as they are)",
                    refs.scripts.join(", ")
                ));
            }
            ui.horizontal(|ui| {
                if ui.button("Delete").clicked() {
                    choice = Some(true);
                }
                if ui.button("Cancel").clicked() {
                    choice = Some(false);
                }
            });
        });
        match choice {
            Some(true) => {
                project.delete_character(&name);
                self.confirm_delete = None;
                self.selected_character = None;
                self.rename = None;
            }
            Some(false) => self.confirm_delete = None,
            None => {}
        }
    }

    /// A terrain's mustering table: each row's character and needs as
    /// forms; rows and tables added and removed.
    pub(super) fn mustering(&mut self, ui: &mut egui::Ui) {
        let Some(project) = &mut self.project else {
            return;
        };
        let data = project.data().clone();
        let hooks = project.hooks();
        ui.horizontal_wrapped(|ui| {
            ui.label("Terrain:");
            for t in &data.terrains {
                if ui
                    .selectable_label(self.muster_terrain.as_deref() == Some(&t.name), &t.name)
                    .clicked()
                {
                    self.muster_terrain = Some(t.name.clone());
                }
            }
        });
        let Some(terrain) = self.muster_terrain.clone() else {
            return;
        };
        let Some(table) = data
            .mustering
            .iter()
            .find(|m| m.terrain == terrain)
            .cloned()
        else {
            ui.label("No mustering table for this terrain.");
            if ui.button("Add table").clicked() {
                project.set_muster_table_step(MusterTable {
                    terrain,
                    ladder: true,
                    when_exhausted: Default::default(),
                    rows: Vec::new(),
                });
            }
            return;
        };
        let mut t = table.clone();
        ui.horizontal(|ui| {
            ui.checkbox(
                &mut t.ladder,
                "ladder (a higher character musters any lower one)",
            );
            let mut smaller = t.when_exhausted == WhenExhausted::Smaller;
            if ui
                .checkbox(&mut smaller, "when exhausted, a smaller one")
                .on_hover_text(
                    "A legion that qualifies for a character the caretaker has run out of \
                     may muster a lower row's character it does not contain",
                )
                .changed()
            {
                t.when_exhausted = if smaller {
                    WhenExhausted::Smaller
                } else {
                    WhenExhausted::Nothing
                };
            }
            let own = project.muster_table_is_own(&terrain);
            if ui
                .add_enabled(own, egui::Button::new("Remove table"))
                .on_disabled_hover_text("The table comes from the base variant")
                .clicked()
            {
                project.delete_muster_table(&terrain);
            }
        });
        let first = data
            .characters
            .first()
            .map(|c| c.name.clone())
            .unwrap_or_default();
        let classes: Vec<String> = data
            .rules
            .classes
            .iter()
            .flatten()
            .map(|c| c.name.clone())
            .collect();
        let mut remove = None;
        egui::ScrollArea::vertical().show(ui, |ui| {
            egui::Grid::new("mustering").striped(true).show(ui, |ui| {
                for h in ["row", "character", "needs", "like", "ladder", ""] {
                    ui.strong(h);
                }
                ui.end_row();
                for (i, row) in t.rows.iter_mut().enumerate() {
                    ui.label((i + 1).to_string());
                    egui::ComboBox::from_id_salt(("row character", i))
                        .selected_text(row.character.clone())
                        .show_ui(ui, |ui| {
                            for c in &data.characters {
                                ui.selectable_value(&mut row.character, c.name.clone(), &c.name);
                            }
                        });
                    ui.vertical(|ui| {
                        needs_form(ui, i, &mut row.needs, &data, &classes, &hooks, &first);
                    });
                    ui.checkbox(&mut row.like, "")
                        .on_hover_text("Mustered by one of its own kind");
                    ui.checkbox(&mut row.ladder, "")
                        .on_hover_text("In a ladder table, a higher row's character musters it");
                    if ui.small_button("remove").clicked() {
                        remove = Some(i);
                    }
                    ui.end_row();
                }
            });
            if let Some(i) = remove {
                t.rows.remove(i);
            }
            if ui.button("Add row").clicked() {
                t.rows.push(MusterRow {
                    character: first.clone(),
                    needs: Vec::new(),
                    like: true,
                    ladder: true,
                });
            }
        });
        if t != table {
            // A drag of a count is one step; a click or a choice is its own.
            if ui.input(|i| i.pointer.any_down()) {
                project.set_muster_table(t);
            } else {
                project.set_muster_table_step(t);
            }
        }
    }
}

/// Every field of a character but its name, as a form.
fn character_fields(
    ui: &mut egui::Ui,
    e: &mut CharacterDef,
    data: &titan_core::format::VariantData,
    hooks: &[String],
) {
    egui::Grid::new("character fields").show(ui, |ui| {
        // Each field named by its label, for screen readers and tests.
        let l = ui.label("plural");
        ui.text_edit_singleline(&mut e.plural).labelled_by(l.id);
        ui.end_row();
        let l = ui.label("power");
        ui.add(egui::DragValue::new(&mut e.power).range(1..=99))
            .labelled_by(l.id);
        ui.end_row();
        let l = ui.label("skill");
        ui.add(egui::DragValue::new(&mut e.skill).range(1..=9))
            .labelled_by(l.id);
        ui.end_row();
        ui.label("class");
        egui::ComboBox::from_id_salt("class")
            .selected_text(e.class.clone())
            .show_ui(ui, |ui| {
                for k in data.rules.classes.iter().flatten() {
                    ui.selectable_value(&mut e.class, k.name.clone(), &k.name);
                }
            });
        ui.end_row();
        let l = ui.label("count");
        ui.add(egui::DragValue::new(&mut e.count).range(1..=999))
            .labelled_by(l.id);
        ui.end_row();
        ui.label("flags");
        ui.horizontal(|ui| {
            ui.checkbox(&mut e.flies, "flies");
            ui.checkbox(&mut e.summonable, "summonable");
            ui.checkbox(&mut e.uncounted, "uncounted");
        });
        ui.end_row();
        let l = ui.label("per_legion");
        ui.horizontal(|ui| {
            let mut limited = e.per_legion.is_some();
            if ui
                .checkbox(&mut limited, "at most, in one legion")
                .changed()
            {
                e.per_legion = limited.then_some(1);
            }
            if let Some(n) = &mut e.per_legion {
                ui.add(egui::DragValue::new(n).range(1..=99))
                    .labelled_by(l.id);
            }
        });
        ui.end_row();
        let l = ui.label("value");
        ui.horizontal(|ui| {
            let mut auto = e.value.is_none();
            if ui.checkbox(&mut auto, "power x skill").changed() {
                e.value = (!auto).then(|| u32::from(e.power) * u32::from(e.skill));
            }
            if let Some(v) = &mut e.value {
                ui.add(egui::DragValue::new(v).range(0..=999))
                    .labelled_by(l.id);
            }
        });
        ui.end_row();
        ui.label("rangestrike");
        ui.vertical(|ui| rangestrike_form(ui, &mut e.rangestrike, hooks));
        ui.end_row();
    });
    ui.label("Native to:");
    ui.horizontal_wrapped(|ui| {
        for h in &data.hazards {
            let mut on = e.natives.contains(&h.name);
            if ui.checkbox(&mut on, &h.name).changed() {
                if on {
                    e.natives.push(h.name.clone());
                } else {
                    e.natives.retain(|n| *n != h.name);
                }
            }
        }
    });
    ui.label("Abilities (hooks the scripts register):");
    let mut remove = None;
    for (i, a) in e.abilities.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(a);
            if ui.small_button("remove ability").clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        e.abilities.remove(i);
    }
    if hooks.is_empty() {
        ui.label(super::terrains::NO_HOOKS);
        return;
    }
    let mut add = None;
    egui::ComboBox::from_id_salt("add ability")
        .selected_text("add ability")
        .show_ui(ui, |ui| {
            for h in hooks.iter().filter(|h| !e.abilities.contains(h)) {
                if ui.selectable_label(false, h).clicked() {
                    add = Some(h.clone());
                }
            }
        });
    if let Some(h) = add {
        e.abilities.push(h);
    }
}

/// A rangestrike (or none) as a form.
fn rangestrike_form(ui: &mut egui::Ui, r: &mut Option<RangestrikeDef>, hooks: &[String]) {
    let kinds = ["none", "half power", "power", "fixed", "hook"];
    let current = match r.as_ref().map(|r| &r.strength) {
        None => 0,
        Some(RangeStrength::HalfPower) => 1,
        Some(RangeStrength::Power) => 2,
        Some(RangeStrength::Fixed(_)) => 3,
        Some(RangeStrength::Hook(_)) => 4,
    };
    let mut chosen = current;
    egui::ComboBox::from_id_salt("rangestrike")
        .selected_text(kinds[current])
        .show_ui(ui, |ui| {
            for (i, k) in kinds.iter().enumerate() {
                ui.selectable_value(&mut chosen, i, *k);
            }
        });
    if chosen != current {
        let strength = match chosen {
            1 => Some(RangeStrength::HalfPower),
            2 => Some(RangeStrength::Power),
            3 => Some(RangeStrength::Fixed(2)),
            4 => Some(RangeStrength::Hook(
                hooks.first().cloned().unwrap_or_default(),
            )),
            _ => None,
        };
        *r = strength.map(|strength| RangestrikeDef {
            magic: r.as_ref().is_some_and(|r| r.magic),
            strength,
            strikes: r.as_ref().map_or(1, |r| r.strikes),
        });
    }
    if let Some(r) = r {
        ui.horizontal(|ui| {
            match &mut r.strength {
                RangeStrength::Fixed(n) => {
                    ui.add(egui::DragValue::new(n).range(1..=99).prefix("dice "));
                }
                RangeStrength::Hook(h) => {
                    egui::ComboBox::from_id_salt("rangestrike hook")
                        .selected_text(h.clone())
                        .show_ui(ui, |ui| {
                            for k in hooks {
                                ui.selectable_value(h, k.clone(), k);
                            }
                        });
                }
                _ => {}
            }
            ui.checkbox(&mut r.magic, "magic");
            ui.add(
                egui::DragValue::new(&mut r.strikes)
                    .range(1..=9)
                    .prefix("strikes "),
            );
        });
    }
}

/// A row's needs, each as a form of its kind, with add and remove.
fn needs_form(
    ui: &mut egui::Ui,
    row: usize,
    needs: &mut Vec<Needs>,
    data: &titan_core::format::VariantData,
    classes: &[String],
    hooks: &[String],
    first: &str,
) {
    let mut remove = None;
    for (j, n) in needs.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            let mut kind = need_kind(n);
            egui::ComboBox::from_id_salt(("need kind", row, j))
                .selected_text(kind)
                .show_ui(ui, |ui| {
                    for k in NEED_KINDS {
                        ui.selectable_value(&mut kind, k, k);
                    }
                });
            if kind != need_kind(n) {
                *n = need_of_kind(kind, n, first);
            }
            match n {
                Needs::Previous(k) => {
                    ui.add(egui::DragValue::new(k).range(1..=7));
                }
                Needs::Free => {}
                Needs::Identical { count, class } => {
                    ui.add(egui::DragValue::new(count).range(1..=7));
                    egui::ComboBox::from_id_salt(("need class", row, j))
                        .selected_text(class.clone().unwrap_or_else(|| "any class".into()))
                        .show_ui(ui, |ui| {
                            ui.selectable_value(class, None, "any class");
                            for k in classes {
                                ui.selectable_value(class, Some(k.clone()), k);
                            }
                        });
                }
                Needs::Character { name, count } => {
                    ui.add(egui::DragValue::new(count).range(1..=7));
                    egui::ComboBox::from_id_salt(("need character", row, j))
                        .selected_text(name.clone())
                        .show_ui(ui, |ui| {
                            for c in &data.characters {
                                ui.selectable_value(name, c.name.clone(), &c.name);
                            }
                        });
                }
                Needs::Hook(h) => {
                    egui::ComboBox::from_id_salt(("need hook", row, j))
                        .selected_text(h.clone())
                        .show_ui(ui, |ui| {
                            for k in hooks {
                                ui.selectable_value(h, k.clone(), k);
                            }
                        });
                }
            }
            if ui
                .small_button("x")
                .on_hover_text("Remove this need")
                .clicked()
            {
                remove = Some(j);
            }
        });
    }
    if let Some(j) = remove {
        needs.remove(j);
    }
    // One line however narrow the column (it wrapped to three).
    if ui
        .add(egui::Button::new("add need").wrap_mode(egui::TextWrapMode::Extend))
        .clicked()
    {
        needs.push(Needs::Previous(2));
    }
}
