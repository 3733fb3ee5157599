//! The terrains and hazards page: a terrain's name, colour and battleland;
//! a hazard's place, colour, movement, natives and each effect of the
//! closed effect set as a form (a `Hook` effect choosing among the hooks the
//! scripts register).

use egui::Color32;
use titan_core::format::{
    At, Atop, Crossing, Effect, HazardDef, Move, Passage, Place, Rgb, Sight, TerrainDef, Who,
};

use super::{EditorApp, Tab};

/// What the terrains page remembers between frames.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TerrainForms {
    pub terrain: Option<String>,
    pub hazard: Option<String>,
    /// The name typed for a new terrain, and the battleland to copy (none:
    /// a blank board).
    pub new_name: String,
    pub copy_of: Option<String>,
    /// The names typed for the selected terrain and hazard.
    pub terrain_name: Option<String>,
    pub hazard_name: Option<String>,
    /// Why the last add or rename was refused.
    pub error: Option<String>,
}

const EFFECT_KINDS: [&str; 9] = [
    "strike",
    "rangestrike",
    "rangestrike through",
    "blocks sight",
    "no contact",
    "damage",
    "script hook",
    "no contact in the hex",
    "sight counted over the line",
];

fn effect_kind(e: &Effect) -> &'static str {
    match e {
        Effect::Strike { .. } => EFFECT_KINDS[0],
        Effect::Rangestrike { .. } => EFFECT_KINDS[1],
        Effect::RangestrikeThrough { .. } => EFFECT_KINDS[2],
        Effect::BlocksSight(_) => EFFECT_KINDS[3],
        Effect::NoContact => EFFECT_KINDS[4],
        Effect::Damage { .. } => EFFECT_KINDS[5],
        Effect::Hook(_) => EFFECT_KINDS[6],
        Effect::NoContactIn(_) => EFFECT_KINDS[7],
        Effect::SightCrossed { .. } => EFFECT_KINDS[8],
    }
}

fn effect_of_kind(kind: &str, hooks: &[String]) -> Effect {
    match kind {
        k if k == EFFECT_KINDS[0] => Effect::Strike {
            at: At::StrikerIn,
            striker: Who::Anyone,
            target: Who::Anyone,
            skill: 0,
            dice: 0,
        },
        k if k == EFFECT_KINDS[1] => Effect::Rangestrike {
            at: At::StrikerIn,
            striker: Who::Anyone,
            target: Who::Anyone,
            skill: 0,
            dice: 0,
        },
        k if k == EFFECT_KINDS[2] => Effect::RangestrikeThrough {
            striker: Who::Anyone,
            skill: -1,
        },
        k if k == EFFECT_KINDS[3] => Effect::BlocksSight(Sight::Always),
        k if k == EFFECT_KINDS[4] => Effect::NoContact,
        k if k == EFFECT_KINDS[5] => Effect::Damage {
            who: Who::Anyone,
            hits: 1,
        },
        k if k == EFFECT_KINDS[7] => Effect::NoContactIn(Who::Natives),
        k if k == EFFECT_KINDS[8] => Effect::SightCrossed {
            atop: vec![Atop::One],
            not_at_foot: false,
            waived_by: Vec::new(),
        },
        _ => Effect::Hook(hooks.first().cloned().unwrap_or_default()),
    }
}

/// A menu of the values of a small enum, by their words.
fn choose<T: PartialEq + Copy>(
    ui: &mut egui::Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    value: &mut T,
    all: &[(T, &str)],
) {
    let current = all
        .iter()
        .find(|(v, _)| v == value)
        .map_or("?", |(_, w)| *w);
    egui::ComboBox::from_id_salt(id)
        .selected_text(current)
        .show_ui(ui, |ui| {
            for (v, w) in all {
                ui.selectable_value(value, *v, *w);
            }
        });
}

const WHO: [(Who, &str); 3] = [
    (Who::Anyone, "anyone"),
    (Who::Natives, "natives"),
    (Who::Others, "non-natives"),
];
const AT: [(At, &str); 4] = [
    (At::StrikerIn, "striker in the hex"),
    (At::TargetIn, "target in the hex"),
    (At::StrikingDown, "striking down across"),
    (At::StrikingUp, "striking up across"),
];
const MOVE: [(Move, &str); 4] = [
    (Move::Free, "free"),
    (Move::Slow, "slow (counts two)"),
    (Move::Block, "blocked"),
    (Move::Stop, "stops"),
];
const CROSSING: [(Crossing, &str); 3] = [
    (Crossing::Up, "crossing up"),
    (Crossing::Down, "crossing down"),
    (Crossing::Both, "either way"),
];
const ATOP: [(Atop, &str); 3] = [
    (Atop::Neither, "no end atop"),
    (Atop::One, "an end atop"),
    (Atop::Both, "both ends atop"),
];
const SIGHT: [(Sight, &str); 5] = [
    (Sight::Always, "always"),
    (Sight::UnlessEndAtop, "unless an end is atop"),
    (
        Sight::UnlessEndAtopAny,
        "unless ends atop (counted over the line)",
    ),
    (Sight::For(Who::Others), "non-natives' rangestrikes only"),
    (Sight::For(Who::Natives), "natives' rangestrikes only"),
];

fn colour(ui: &mut egui::Ui, c: &mut Rgb) {
    ui.color_edit_button_srgb(&mut c.0);
}

/// One effect as a form.
fn effect_form(ui: &mut egui::Ui, i: usize, e: &mut Effect, hooks: &[String]) {
    let mut kind = effect_kind(e);
    egui::ComboBox::from_id_salt(("effect kind", i))
        .selected_text(kind)
        .show_ui(ui, |ui| {
            for k in EFFECT_KINDS {
                ui.selectable_value(&mut kind, k, k);
            }
        });
    if kind != effect_kind(e) {
        *e = effect_of_kind(kind, hooks);
    }
    match e {
        Effect::Strike {
            at,
            striker,
            target,
            skill,
            dice,
        }
        | Effect::Rangestrike {
            at,
            striker,
            target,
            skill,
            dice,
        } => {
            choose(ui, ("at", i), at, &AT);
            ui.label("striker");
            choose(ui, ("striker", i), striker, &WHO);
            ui.label("target");
            choose(ui, ("target", i), target, &WHO);
            ui.add(egui::DragValue::new(skill).range(-6..=6).prefix("skill "));
            ui.add(egui::DragValue::new(dice).range(-9..=9).prefix("dice "));
        }
        Effect::RangestrikeThrough { striker, skill } => {
            ui.label("striker");
            choose(ui, ("striker", i), striker, &WHO);
            ui.add(egui::DragValue::new(skill).range(-6..=6).prefix("skill "));
        }
        Effect::BlocksSight(s) => choose(ui, ("sight", i), s, &SIGHT),
        Effect::NoContact => {}
        Effect::NoContactIn(who) => choose(ui, ("who", i), who, &WHO),
        Effect::SightCrossed {
            atop,
            not_at_foot,
            waived_by,
        } => {
            // One menu per count crossed (one, two, ...); more are blocked.
            for (n, a) in atop.iter_mut().enumerate() {
                ui.label(format!("crossing {}:", n + 1));
                choose(ui, ("atop", i, n), a, &ATOP);
            }
            if ui.small_button("+").clicked() {
                atop.push(Atop::Both);
            }
            if atop.len() > 1 && ui.small_button("-").clicked() {
                atop.pop();
            }
            ui.checkbox(not_at_foot, "not at its foot");
            let mut text = waived_by.join(", ");
            ui.label("waived by");
            if ui
                .add(egui::TextEdit::singleline(&mut text).desired_width(100.0))
                .changed()
            {
                *waived_by = text
                    .split(',')
                    .map(|w| w.trim().to_string())
                    .filter(|w| !w.is_empty())
                    .collect();
            }
        }
        Effect::Damage { who, hits } => {
            choose(ui, ("who", i), who, &WHO);
            ui.add(egui::DragValue::new(hits).range(1..=9).prefix("hits "));
        }
        Effect::Hook(h) if hooks.is_empty() => {
            ui.label(format!("{h} {NO_HOOKS}"));
        }
        Effect::Hook(h) => {
            egui::ComboBox::from_id_salt(("effect hook", i))
                .selected_text(h.clone())
                .show_ui(ui, |ui| {
                    for k in hooks {
                        ui.selectable_value(h, k.clone(), k);
                    }
                });
        }
    }
}

/// What a hook's menu says while the scripts register none.
pub(super) const NO_HOOKS: &str =
    "(no hooks yet: a script registers them with titan.hook, on the Scripts page)";

fn passage(ui: &mut egui::Ui, id: &str, p: &mut Passage) {
    ui.label("natives");
    choose(ui, (id, "natives"), &mut p.natives, &MOVE);
    ui.label("others");
    choose(ui, (id, "others"), &mut p.others, &MOVE);
}

impl EditorApp {
    pub(super) fn terrains_page(&mut self, ui: &mut egui::Ui) {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.columns(2, |cols| {
                self.terrain_column(&mut cols[0]);
                self.hazard_column(&mut cols[1]);
            });
        });
    }

    fn terrain_column(&mut self, ui: &mut egui::Ui) {
        let Some(project) = &mut self.project else {
            return;
        };
        let data = project.data().clone();
        let f = &mut self.terrain_forms;
        ui.heading("Terrains");
        ui.horizontal_wrapped(|ui| {
            for t in &data.terrains {
                let (r, g, b) = (t.color.0[0], t.color.0[1], t.color.0[2]);
                // Dark letters on a light colour, light on a dark one.
                let light = u32::from(r) * 3 + u32::from(g) * 6 + u32::from(b) > 1280;
                let text = egui::RichText::new(&t.name)
                    .background_color(Color32::from_rgb(r, g, b))
                    .color(if light {
                        Color32::BLACK
                    } else {
                        Color32::WHITE
                    });
                if ui
                    .selectable_label(f.terrain.as_deref() == Some(&t.name), text)
                    .clicked()
                {
                    f.terrain = Some(t.name.clone());
                    f.terrain_name = None;
                }
            }
        });
        ui.separator();
        ui.horizontal(|ui| {
            let label = ui.label("New terrain:");
            ui.add(egui::TextEdit::singleline(&mut f.new_name).desired_width(120.0))
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            ui.label("its battleland:");
            egui::ComboBox::from_id_salt("copy of")
                .selected_text(match &f.copy_of {
                    None => "a blank board".to_string(),
                    Some(t) => format!("a copy of {t}"),
                })
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut f.copy_of, None, "a blank board");
                    for b in &data.battlelands {
                        ui.selectable_value(
                            &mut f.copy_of,
                            Some(b.terrain.clone()),
                            format!("a copy of {}", b.terrain),
                        );
                    }
                });
        });
        if ui.button("Add terrain").clicked() {
            match project.add_terrain(&f.new_name, f.copy_of.as_deref()) {
                Ok(()) => {
                    f.terrain = Some(f.new_name.trim().to_string());
                    f.terrain_name = None;
                    f.new_name.clear();
                    f.error = None;
                }
                Err(e) => f.error = Some(e),
            }
        }
        if let Some(e) = &f.error {
            ui.colored_label(Color32::RED, e);
        }
        let Some(name) = f.terrain.clone() else {
            return;
        };
        let Some(t) = data.terrains.iter().find(|t| t.name == name).cloned() else {
            return;
        };
        ui.separator();
        ui.strong(&t.name);
        if !project.terrain_is_own(&t.name) {
            ui.label("From the base variant: edits are saved as an override here.");
        }
        let buffer = f.terrain_name.get_or_insert(t.name.clone());
        ui.horizontal(|ui| {
            let label = ui.label("Terrain name:");
            ui.add(egui::TextEdit::singleline(buffer).desired_width(120.0))
                .labelled_by(label.id);
            if ui.button("Rename terrain").clicked() {
                let mut renamed: TerrainDef = t.clone();
                renamed.name = buffer.trim().to_string();
                match project.set_terrain(&t.name, renamed) {
                    Ok(()) => {
                        f.terrain = Some(buffer.trim().to_string());
                        f.error = None;
                    }
                    Err(e) => f.error = Some(e),
                }
            }
        });
        let mut e = t.clone();
        ui.horizontal(|ui| {
            ui.label("colour");
            colour(ui, &mut e.color);
            ui.checkbox(&mut e.tower, "tower (legions start here)");
        });
        if e != t {
            let _ = project.set_terrain(&t.name, e);
        }
        if ui.button("Edit its battleland").clicked() {
            self.battleland = Some(t.name.clone());
            self.tab = Tab::Battlelands;
        }
    }

    fn hazard_column(&mut self, ui: &mut egui::Ui) {
        let Some(project) = &mut self.project else {
            return;
        };
        let data = project.data().clone();
        let hooks = project.hooks();
        let f = &mut self.terrain_forms;
        ui.heading("Hazards");
        ui.horizontal_wrapped(|ui| {
            for h in &data.hazards {
                let text = format!(
                    "{}{}",
                    h.name,
                    if h.place == Place::Hexside {
                        " (side)"
                    } else {
                        ""
                    }
                );
                if ui
                    .selectable_label(f.hazard.as_deref() == Some(&h.name), text)
                    .clicked()
                {
                    f.hazard = Some(h.name.clone());
                    f.hazard_name = None;
                }
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Add hex hazard").clicked() {
                f.hazard = Some(project.add_hazard(Place::Hex));
                f.hazard_name = None;
            }
            if ui.button("Add hexside hazard").clicked() {
                f.hazard = Some(project.add_hazard(Place::Hexside));
                f.hazard_name = None;
            }
        });
        let Some(name) = f.hazard.clone() else {
            return;
        };
        let Some(h) = data.hazards.iter().find(|h| h.name == name).cloned() else {
            return;
        };
        ui.separator();
        let buffer = f.hazard_name.get_or_insert(h.name.clone());
        ui.horizontal(|ui| {
            let label = ui.label("Hazard name:");
            ui.add(egui::TextEdit::singleline(buffer).desired_width(120.0))
                .labelled_by(label.id);
            if ui.button("Rename hazard").clicked() {
                let mut renamed: HazardDef = h.clone();
                renamed.name = buffer.trim().to_string();
                match project.set_hazard(&h.name, renamed) {
                    Ok(()) => {
                        f.hazard = Some(buffer.trim().to_string());
                        f.error = None;
                    }
                    Err(e) => f.error = Some(e),
                }
            }
        });
        let mut e = h.clone();
        egui::Grid::new("hazard").show(ui, |ui| {
            ui.label("place");
            choose(
                ui,
                "place",
                &mut e.place,
                &[(Place::Hex, "a hex"), (Place::Hexside, "a hexside")],
            );
            ui.end_row();
            ui.label("colour");
            colour(ui, &mut e.color);
            ui.end_row();
            ui.label("walking");
            ui.horizontal(|ui| passage(ui, "ground", &mut e.movement.ground));
            ui.end_row();
            ui.label("flying");
            ui.horizontal(|ui| passage(ui, "flying", &mut e.movement.flying));
            ui.end_row();
            if e.place == Place::Hexside {
                ui.label("applies");
                choose(ui, "crossing", &mut e.movement.crossing, &CROSSING);
                ui.end_row();
            }
        });
        ui.label("Effects:");
        let mut remove = None;
        for (i, effect) in e.effects.iter_mut().enumerate() {
            ui.horizontal_wrapped(|ui| {
                effect_form(ui, i, effect, &hooks);
                if ui.small_button("remove effect").clicked() {
                    remove = Some(i);
                }
            });
        }
        if let Some(i) = remove {
            e.effects.remove(i);
        }
        if ui.button("Add effect").clicked() {
            e.effects.push(Effect::NoContact);
        }
        if e != h
            && let Err(err) = project.set_hazard(&h.name, e)
        {
            f.error = Some(err);
        }
        ui.label("Native to it:");
        let mut natives = Vec::new();
        ui.horizontal_wrapped(|ui| {
            for c in &data.characters {
                let mut on = c.natives.contains(&h.name);
                if ui.checkbox(&mut on, &c.name).changed() {
                    natives.push((c.name.clone(), on));
                }
            }
        });
        for (c, on) in natives {
            project.set_native(&h.name, &c, on);
        }
        if let Some(e) = &f.error {
            ui.colored_label(Color32::RED, e);
        }
    }
}
