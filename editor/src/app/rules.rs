//! The rules page: every field of `rules.ron` and every rule option as a
//! form; where an extending variant overrides its base, the base's value is
//! shown beside the field.

use egui::Color32;
use titan_core::format::{
    Acquire, ClassDef, Counted, Edge, MustMove, MusterLimit, OptionValue, RuleOption,
    TitanTeleport, TowerTeleport,
};

use super::EditorApp;

/// The base's value beside a field whose value differs from it.
fn base_note<T: PartialEq + std::fmt::Debug>(ui: &mut egui::Ui, value: &T, base: Option<&T>) {
    if let Some(b) = base
        && b != value
    {
        ui.colored_label(Color32::from_rgb(150, 110, 0), format!("base: {b:?}"));
    }
}

fn num<T: egui::emath::Numeric + PartialEq + std::fmt::Debug>(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut T,
    base: Option<&T>,
) {
    ui.label(label);
    ui.horizontal(|ui| {
        ui.add(egui::DragValue::new(value));
        base_note(ui, value, base);
    });
    ui.end_row();
}

/// A choice among an enum's values, by their names in the data.
fn choice<T: PartialEq + Copy + std::fmt::Debug>(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut T,
    all: &[T],
    base: Option<&T>,
) {
    ui.label(label);
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt(label)
            .selected_text(format!("{value:?}"))
            .show_ui(ui, |ui| {
                for &v in all {
                    ui.selectable_value(value, v, format!("{v:?}"));
                }
            });
        base_note(ui, value, base);
    });
    ui.end_row();
}

/// The battle procedure (`battle.procedure`: docs/variant-format.md, "The
/// battle procedure").
fn procedure_form(
    ui: &mut egui::Ui,
    p: &mut titan_core::format::Procedure,
    base: Option<&titan_core::format::Procedure>,
) {
    use titan_core::format::{Maneuvering, Reinforcement, Round, TitanDeath};
    ui.label(egui::RichText::new("procedure").strong());
    egui::Grid::new("battle procedure").show(ui, |ui| {
        choice(
            ui,
            "round",
            &mut p.round,
            &[Round::EachSide, Round::BothThenStrikes],
            base.map(|b| &b.round),
        );
        choice(
            ui,
            "movement",
            &mut p.movement,
            &[Maneuvering::Maneuver, Maneuvering::Placement],
            base.map(|b| &b.movement),
        );
        choice(
            ui,
            "reinforcement",
            &mut p.reinforcement,
            &[Reinforcement::Round, Reinforcement::AfterFirstSlain],
            base.map(|b| &b.reinforcement),
        );
        flag(
            ui,
            "time_loss",
            &mut p.time_loss,
            base.map(|b| &b.time_loss),
        );
        choice(
            ui,
            "titan_death",
            &mut p.titan_death,
            &[TitanDeath::AtOnce, TitanDeath::PhaseEnd],
            base.map(|b| &b.titan_death),
        );
        for (label, zone, b) in [
            (
                "attacker_zone",
                &mut p.attacker_zone,
                base.map(|b| &b.attacker_zone),
            ),
            (
                "defender_zone",
                &mut p.defender_zone,
                base.map(|b| &b.defender_zone),
            ),
        ] {
            ui.label(label);
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(zone).desired_width(120.0));
                base_note(ui, &*zone, b);
            });
            ui.end_row();
        }
        num(ui, "shift", &mut p.shift, base.map(|b| &b.shift));
    });
}

/// A showdown of one player against all the others (`battle.showdown`:
/// docs/variant-format.md, "Showdowns"): on or off, its battleland's terrain,
/// its zones' names and the order of strikes.
fn showdown_form(
    ui: &mut egui::Ui,
    sd: &mut Option<titan_core::format::Showdown>,
    base: Option<&titan_core::format::Showdown>,
    terrains: &[String],
) {
    ui.label(egui::RichText::new("showdown").strong());
    let mut on = sd.is_some();
    ui.horizontal(|ui| {
        if ui
            .checkbox(&mut on, "a battle of one player against all the others")
            .changed()
        {
            *sd = on.then(|| titan_core::format::Showdown {
                terrain: terrains.last().cloned().unwrap_or_default(),
                attacker_zones: "attacker".into(),
                defender_zones: "defender".into(),
                right_to_left: true,
            });
        }
        base_note(ui, &on, base.map(|_| &true));
    });
    let Some(s) = sd else {
        return;
    };
    egui::Grid::new("battle showdown").show(ui, |ui| {
        ui.label("terrain");
        ui.horizontal(|ui| {
            character(ui, "showdown terrain", &mut s.terrain, terrains);
            base_note(ui, &s.terrain, base.map(|b| &b.terrain));
        });
        ui.end_row();
        for (label, zone, b) in [
            (
                "attacker_zones",
                &mut s.attacker_zones,
                base.map(|b| &b.attacker_zones),
            ),
            (
                "defender_zones",
                &mut s.defender_zones,
                base.map(|b| &b.defender_zones),
            ),
        ] {
            ui.label(label);
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(zone).desired_width(120.0));
                base_note(ui, &*zone, b);
            });
            ui.end_row();
        }
        ui.label("right_to_left");
        ui.horizontal(|ui| {
            ui.checkbox(&mut s.right_to_left, "each team strikes from right to left");
            base_note(ui, &s.right_to_left, base.map(|b| &b.right_to_left));
        });
        ui.end_row();
    });
}

/// `legions.marker_names`: each seat's names, one a line (a line left
/// blank is a blank name, which the Problems panel reports until it is
/// filled in, so that a new line can be typed). Seats whose lists end empty
/// are left out, and with them the whole field when no seat names any.
/// `legions.muster_per_turn`, one limit a line: "1: Hydra, Basilisk".
fn muster_per_turn(ui: &mut egui::Ui, limits: &mut Vec<MusterLimit>) {
    egui::CollapsingHeader::new("muster_per_turn")
        .id_salt("muster per turn")
        .default_open(!limits.is_empty())
        .show(ui, |ui| {
            ui.label("At most so many of these characters mustered a turn, one limit a line: \"1: Hydra, Basilisk\" (optional).");
            let mut text = limits
                .iter()
                .map(|m| format!("{}: {}", m.count, m.characters.join(", ")))
                .collect::<Vec<_>>()
                .join("\n");
            let label = ui.label("muster limits");
            let field = egui::TextEdit::multiline(&mut text)
                .desired_rows(2)
                .desired_width(320.0);
            if ui.add(field).labelled_by(label.id).changed() {
                // A line that does not read is left out until it does.
                *limits = text
                    .lines()
                    .filter_map(|line| {
                        let (count, names) = line.split_once(':')?;
                        Some(MusterLimit {
                            count: count.trim().parse().ok()?,
                            characters: names
                                .split(',')
                                .map(str::trim)
                                .filter(|n| !n.is_empty())
                                .map(String::from)
                                .collect(),
                        })
                    })
                    .collect();
            }
        });
}

fn marker_names(ui: &mut egui::Ui, names: &mut Vec<Vec<String>>, seats: usize) {
    egui::CollapsingHeader::new("marker_names")
        .id_salt("marker names")
        .default_open(!names.is_empty())
        .show(ui, |ui| {
            ui.label("Names of each seat's markers, one a line, from marker 1 (optional).");
            let mut edited = names.clone();
            edited.resize(seats.max(names.len()), Vec::new());
            let mut changed = false;
            for (seat, list) in edited.iter_mut().enumerate() {
                let mut text = list.join("\n");
                let label = ui.label(format!("seat {} marker names", seat + 1));
                let field = egui::TextEdit::multiline(&mut text)
                    .desired_rows(2)
                    .desired_width(160.0);
                if ui.add(field).labelled_by(label.id).changed() {
                    changed = true;
                    *list = if text.is_empty() {
                        Vec::new()
                    } else {
                        text.split('\n').map(String::from).collect()
                    };
                }
            }
            // Only an edit rewrites the field (the file's own form of it,
            // an empty list of a seat included, stays as it is otherwise).
            if changed {
                while edited.last().is_some_and(Vec::is_empty) {
                    edited.pop();
                }
                *names = edited;
            }
        });
}

fn flag(ui: &mut egui::Ui, label: &str, value: &mut bool, base: Option<&bool>) {
    ui.label(label);
    ui.horizontal(|ui| {
        ui.checkbox(value, "");
        base_note(ui, value, base);
    });
    ui.end_row();
}

fn character(
    ui: &mut egui::Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    value: &mut String,
    names: &[String],
) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(value.clone())
        .show_ui(ui, |ui| {
            for n in names {
                ui.selectable_value(value, n.clone(), n);
            }
        });
}

/// A section's heading, saying whether this variant gives it.
fn section_heading(ui: &mut egui::Ui, name: &str, overrides: bool, extends: bool) {
    ui.horizontal(|ui| {
        ui.strong(name);
        if extends {
            ui.label(if overrides {
                "(given here, over the base)"
            } else {
                "(from the base)"
            });
        }
    });
}

impl EditorApp {
    pub(super) fn rules_page(&mut self, ui: &mut egui::Ui) {
        let Some(project) = &mut self.project else {
            return;
        };
        let merged = project.data().rules.clone();
        let base = project.base_rules().cloned();
        let extends = base.is_some();
        let names: Vec<String> = project
            .data()
            .characters
            .iter()
            .map(|c| c.name.clone())
            .collect();
        let terrains: Vec<String> = project
            .data()
            .terrains
            .iter()
            .map(|t| t.name.clone())
            .collect();
        let seats = project
            .data()
            .manifest
            .players
            .as_ref()
            .map_or(6, |p| usize::from(p.max));
        let overrides: Vec<bool> = [
            "classes",
            "legions",
            "start",
            "movement",
            "titan",
            "scoring",
            "strike_chart",
            "battle",
            "scripts",
        ]
        .iter()
        .map(|s| project.overrides_rule_section(s))
        .collect();
        let mut r = merged.clone();
        let b = base.unwrap_or_default();
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.columns(2, |cols| {
                let ui = &mut cols[0];
                section_heading(ui, "legions", overrides[1], extends);
                if let Some(l) = &mut r.legions {
                    let bl = b.legions.as_ref();
                    egui::Grid::new("legions").show(ui, |ui| {
                        num(ui, "max_size", &mut l.max_size, bl.map(|x| &x.max_size));
                        num(
                            ui,
                            "markers_per_player",
                            &mut l.markers_per_player,
                            bl.map(|x| &x.markers_per_player),
                        );
                        num(
                            ui,
                            "min_split_size",
                            &mut l.min_split_size,
                            bl.map(|x| &x.min_split_size),
                        );
                        num(
                            ui,
                            "max_split_parts",
                            &mut l.max_split_parts,
                            bl.map(|x| &x.max_split_parts),
                        );
                        flag(
                            ui,
                            "full_legions_move",
                            &mut l.full_legions_move,
                            bl.map(|x| &x.full_legions_move),
                        );
                    });
                    marker_names(ui, &mut l.marker_names, seats);
                    muster_per_turn(ui, &mut l.muster_per_turn);
                }
                ui.separator();
                section_heading(ui, "start", overrides[2], extends);
                if let Some(s) = &mut r.start {
                    let bs = b.start.as_ref();
                    let mut remove = None;
                    for (i, c) in s.characters.iter_mut().enumerate() {
                        ui.horizontal(|ui| {
                            character(ui, ("start character", i), &mut c.character, &names);
                            ui.add(egui::DragValue::new(&mut c.count).range(1..=99));
                            if ui.small_button("x").clicked() {
                                remove = Some(i);
                            }
                        });
                    }
                    if let Some(i) = remove {
                        s.characters.remove(i);
                    }
                    ui.horizontal(|ui| {
                        if ui.small_button("add starting character").clicked() {
                            s.characters.push(Counted {
                                character: names.first().cloned().unwrap_or_default(),
                                count: 1,
                            });
                        }
                        base_note(ui, &s.characters, bs.map(|x| &x.characters));
                    });
                    egui::Grid::new("start").show(ui, |ui| {
                        num(ui, "legions", &mut s.legions, bs.map(|x| &x.legions));
                        flag(
                            ui,
                            "no_split_first_turn",
                            &mut s.no_split_first_turn,
                            bs.map(|x| &x.no_split_first_turn),
                        );
                        flag(ui, "mulligan", &mut s.mulligan, bs.map(|x| &x.mulligan));
                    });
                }
                ui.separator();
                section_heading(ui, "movement", overrides[3], extends);
                if let Some(m) = &mut r.movement {
                    let bm = b.movement.as_ref();
                    egui::Grid::new("movement").show(ui, |ui| {
                        num(ui, "die", &mut m.die, bm.map(|x| &x.die));
                        num(
                            ui,
                            "teleports_per_turn",
                            &mut m.teleports_per_turn,
                            bm.map(|x| &x.teleports_per_turn),
                        );
                        flag(
                            ui,
                            "chosen_distance",
                            &mut m.chosen_distance,
                            bm.map(|x| &x.chosen_distance),
                        );
                        let mut on = m.tower_teleport.is_some();
                        ui.label("tower_teleport");
                        ui.horizontal(|ui| {
                            if ui.checkbox(&mut on, "").changed() {
                                m.tower_teleport =
                                    on.then_some(TowerTeleport { roll: 6, range: 6 });
                            }
                            if let Some(t) = &mut m.tower_teleport {
                                ui.add(egui::DragValue::new(&mut t.roll).prefix("roll "));
                                ui.add(egui::DragValue::new(&mut t.range).prefix("range "));
                            }
                            base_note(ui, &m.tower_teleport, bm.map(|x| &x.tower_teleport));
                        });
                        ui.end_row();
                        let mut on = m.titan_teleport.is_some();
                        ui.label("titan_teleport");
                        ui.horizontal(|ui| {
                            if ui.checkbox(&mut on, "").changed() {
                                m.titan_teleport = on.then_some(TitanTeleport {
                                    roll: 6,
                                    min_score: 400,
                                });
                            }
                            if let Some(t) = &mut m.titan_teleport {
                                ui.add(egui::DragValue::new(&mut t.roll).prefix("roll "));
                                ui.add(egui::DragValue::new(&mut t.min_score).prefix("min score "));
                            }
                            base_note(ui, &m.titan_teleport, bm.map(|x| &x.titan_teleport));
                        });
                        ui.end_row();
                        flag(
                            ui,
                            "per_legion",
                            &mut m.per_legion,
                            bm.map(|x| &x.per_legion),
                        );
                        let mut on = m.must_move.is_some();
                        ui.label("must_move");
                        ui.horizontal(|ui| {
                            if ui.checkbox(&mut on, "").changed() {
                                m.must_move = on.then(MustMove::default);
                            }
                            if let Some(mm) = &mut m.must_move {
                                ui.checkbox(&mut mm.except_own_tower, "except own tower");
                                let mut text = mm.except_terrains.join(", ");
                                ui.label("except terrains");
                                if ui.text_edit_singleline(&mut text).changed() {
                                    mm.except_terrains = text
                                        .split(',')
                                        .map(str::trim)
                                        .filter(|t| !t.is_empty())
                                        .map(String::from)
                                        .collect();
                                }
                            }
                            base_note(ui, &m.must_move, bm.map(|x| &x.must_move));
                        });
                        ui.end_row();
                        ui.label("muster_distances");
                        ui.horizontal(|ui| {
                            let mut text = m
                                .muster_distances
                                .iter()
                                .map(u8::to_string)
                                .collect::<Vec<_>>()
                                .join(", ");
                            if ui.text_edit_singleline(&mut text).changed() {
                                m.muster_distances = text
                                    .split(',')
                                    .filter_map(|t| t.trim().parse().ok())
                                    .collect();
                            }
                            base_note(ui, &m.muster_distances, bm.map(|x| &x.muster_distances));
                        });
                        ui.end_row();
                    });
                }
                ui.separator();
                section_heading(ui, "titan", overrides[4], extends);
                if let Some(t) = &mut r.titan {
                    let bt = b.titan.as_ref();
                    egui::Grid::new("titan").show(ui, |ui| {
                        ui.label("character");
                        ui.horizontal(|ui| {
                            character(ui, "titan character", &mut t.character, &names);
                            base_note(ui, &t.character, bt.map(|x| &x.character));
                        });
                        ui.end_row();
                        num(
                            ui,
                            "points_per_power",
                            &mut t.points_per_power,
                            bt.map(|x| &x.points_per_power),
                        );
                        ui.label("base_power");
                        ui.horizontal(|ui| {
                            let mut on = t.base_power.is_some();
                            if ui.checkbox(&mut on, "given").changed() {
                                t.base_power = on.then_some(6);
                            }
                            if let Some(p) = &mut t.base_power {
                                ui.add(egui::DragValue::new(p));
                            }
                        });
                        ui.end_row();
                    });
                }
                ui.separator();
                section_heading(ui, "scoring", overrides[5], extends);
                if let Some(s) = &mut r.scoring {
                    let bs = b.scoring.as_ref();
                    ui.horizontal(|ui| {
                        ui.label("flee_fraction");
                        ui.add(egui::DragValue::new(&mut s.flee_fraction.0));
                        ui.label("/");
                        ui.add(egui::DragValue::new(&mut s.flee_fraction.1).range(1..=100));
                        base_note(ui, &s.flee_fraction, bs.map(|x| &x.flee_fraction));
                    });
                    let left = &mut s.left_legions;
                    ui.horizontal(|ui| {
                        ui.label("left_legions: fraction")
                            .on_hover_text("what a player's legions score when he leaves the game");
                        ui.add(egui::DragValue::new(&mut left.fraction.0));
                        ui.label("/");
                        ui.add(egui::DragValue::new(&mut left.fraction.1).range(1..=100));
                        base_note(ui, &*left, bs.map(|x| &x.left_legions));
                    });
                    ui.checkbox(
                        &mut left.engaged_to_opponent,
                        "an engaged legion scores to its opponent",
                    );
                    ui.checkbox(
                        &mut left.engaged_concession_is_slain,
                        "conceding with the Titan's legion engaged is a slain Titan",
                    );
                    let mut remove = None;
                    for (i, a) in s.acquire.iter_mut().enumerate() {
                        ui.horizontal(|ui| {
                            ui.label("acquire");
                            character(ui, ("acquire", i), &mut a.character, &names);
                            ui.add(egui::DragValue::new(&mut a.every).prefix("every "));
                            if ui.small_button("x").clicked() {
                                remove = Some(i);
                            }
                        });
                    }
                    if let Some(i) = remove {
                        s.acquire.remove(i);
                    }
                    if ui.small_button("add acquisition").clicked() {
                        s.acquire.push(Acquire {
                            character: names.first().cloned().unwrap_or_default(),
                            every: 100,
                            terrains: Vec::new(),
                        });
                    }
                }

                let ui = &mut cols[1];
                section_heading(ui, "battle", overrides[7], extends);
                if let Some(x) = &mut r.battle {
                    let bb = b.battle.as_ref();
                    egui::Grid::new("battle").show(ui, |ui| {
                        num(
                            ui,
                            "defender_maneuvers",
                            &mut x.defender_maneuvers,
                            bb.map(|y| &y.defender_maneuvers),
                        );
                        num(
                            ui,
                            "reinforcement_maneuver",
                            &mut x.reinforcement_maneuver,
                            bb.map(|y| &y.reinforcement_maneuver),
                        );
                        num(ui, "max_range", &mut x.max_range, bb.map(|y| &y.max_range));
                        num(
                            ui,
                            "long_range",
                            &mut x.long_range,
                            bb.map(|y| &y.long_range),
                        );
                        num(
                            ui,
                            "long_range_skill",
                            &mut x.long_range_skill,
                            bb.map(|y| &y.long_range_skill),
                        );
                        flag(
                            ui,
                            "elevation_blocks_sight",
                            &mut x.elevation_blocks_sight,
                            bb.map(|y| &y.elevation_blocks_sight),
                        );
                        ui.label("attacker_edges");
                        ui.horizontal_wrapped(|ui| {
                            for e in Edge::ALL {
                                let mut on = x.attacker_edges.contains(&e);
                                if ui.checkbox(&mut on, format!("{e:?}")).changed() {
                                    x.attacker_edges.retain(|y| *y != e);
                                    if on {
                                        x.attacker_edges.push(e);
                                    }
                                }
                            }
                            base_note(ui, &x.attacker_edges, bb.map(|y| &y.attacker_edges));
                        });
                        ui.end_row();
                        ui.label("name_side");
                        ui.horizontal(|ui| {
                            egui::ComboBox::from_id_salt("name side")
                                .selected_text(format!("{:?}", x.name_side))
                                .show_ui(ui, |ui| {
                                    for e in Edge::ALL {
                                        ui.selectable_value(&mut x.name_side, e, format!("{e:?}"));
                                    }
                                });
                            base_note(ui, &x.name_side, bb.map(|y| &y.name_side));
                        });
                        ui.end_row();
                    });
                    procedure_form(ui, &mut x.procedure, bb.map(|y| &y.procedure));
                    showdown_form(
                        ui,
                        &mut x.showdown,
                        bb.and_then(|y| y.showdown.as_ref()),
                        &terrains,
                    );
                }
                ui.separator();
                section_heading(ui, "strike_chart", overrides[6], extends);
                if let Some(s) = &mut r.strike_chart {
                    let bs = b.strike_chart.as_ref();
                    egui::Grid::new("strike chart").show(ui, |ui| {
                        num(ui, "base", &mut s.base, bs.map(|y| &y.base));
                        num(ui, "min", &mut s.min, bs.map(|y| &y.min));
                        num(ui, "max", &mut s.max, bs.map(|y| &y.max));
                    });
                }
                ui.separator();
                section_heading(ui, "scripts", overrides[8], extends);
                if let Some(s) = &mut r.scripts {
                    let bs = b.scripts.as_ref();
                    egui::Grid::new("script limits").show(ui, |ui| {
                        num(
                            ui,
                            "memory_mib",
                            &mut s.memory_mib,
                            bs.map(|y| &y.memory_mib),
                        );
                        num(
                            ui,
                            "instructions_per_call",
                            &mut s.instructions_per_call,
                            bs.map(|y| &y.instructions_per_call),
                        );
                    });
                }
                ui.separator();
                section_heading(ui, "classes", overrides[0], extends);
                if let Some(classes) = &mut r.classes {
                    classes_form(ui, classes);
                    base_note(ui, classes, b.classes.as_ref());
                }
            });
        });
        if r != merged {
            project.set_rules(r);
        }
        ui.separator();
        self.options_form(ui);
    }

    fn options_form(&mut self, ui: &mut egui::Ui) {
        let Some(project) = &mut self.project else {
            return;
        };
        ui.strong("Rule options (chosen when a game starts)");
        let options: Vec<RuleOption> = project.rule_options().to_vec();
        let mut edits = Vec::new();
        let mut remove = None;
        egui::Grid::new("options").striped(true).show(ui, |ui| {
            for h in ["name", "label", "description", "default", "min", "max", ""] {
                ui.strong(h);
            }
            ui.end_row();
            for (i, o) in options.iter().enumerate() {
                let mut e = o.clone();
                ui.add(egui::TextEdit::singleline(&mut e.name).desired_width(120.0));
                // Empty: the start screen says the name in words (shown
                // greyed).
                let words = RuleOption {
                    label: None,
                    ..e.clone()
                }
                .title();
                let mut label = e.label.clone().unwrap_or_default();
                ui.add(
                    egui::TextEdit::singleline(&mut label)
                        .hint_text(words)
                        .desired_width(120.0),
                );
                e.label = (!label.trim().is_empty()).then_some(label);
                ui.add(egui::TextEdit::singleline(&mut e.description).desired_width(280.0));
                ui.horizontal(|ui| {
                    match &mut e.default {
                        OptionValue::Bool(v) => {
                            ui.checkbox(v, "");
                        }
                        OptionValue::Int(v) => {
                            ui.add(egui::DragValue::new(v));
                        }
                        OptionValue::Text(v) => {
                            ui.add(egui::TextEdit::singleline(v).desired_width(80.0));
                        }
                    }
                    let base = project.base_option(&o.name).map(|b| &b.default);
                    base_note(ui, &e.default, base);
                });
                for bound in [&mut e.min, &mut e.max] {
                    ui.horizontal(|ui| {
                        let mut on = bound.is_some();
                        if ui.checkbox(&mut on, "").changed() {
                            *bound = on.then_some(0);
                        }
                        if let Some(v) = bound {
                            ui.add(egui::DragValue::new(v));
                        }
                    });
                }
                if ui.small_button("remove option").clicked() {
                    remove = Some(o.name.clone());
                }
                ui.end_row();
                if e != *o {
                    edits.push((i, o.name.clone(), e));
                }
            }
        });
        for (_, name, e) in edits {
            project.set_rule_option(&name, e);
        }
        if let Some(name) = remove {
            project.delete_rule_option(&name);
        }
        ui.horizontal(|ui| {
            for (label, value) in [
                ("Add on/off option", OptionValue::Bool(false)),
                ("Add number option", OptionValue::Int(0)),
            ] {
                if ui.button(label).clicked() {
                    let mut name = "new_option".to_string();
                    let mut n = 1;
                    while project.rule_options().iter().any(|o| o.name == name) {
                        n += 1;
                        name = format!("new_option_{n}");
                    }
                    project.set_rule_option(
                        &name.clone(),
                        RuleOption {
                            name,
                            label: None,
                            description: String::new(),
                            default: value,
                            min: None,
                            max: None,
                        },
                    );
                }
            }
        });
    }
}

fn classes_form(ui: &mut egui::Ui, classes: &mut Vec<ClassDef>) {
    let mut remove = None;
    egui::Grid::new("classes").striped(true).show(ui, |ui| {
        for h in [
            "class",
            "tower_teleport",
            "rangestrike_immune",
            "returns_when_slain",
            "forbids_flight",
            "",
        ] {
            ui.label(h);
        }
        ui.end_row();
        for (i, c) in classes.iter_mut().enumerate() {
            ui.add(egui::TextEdit::singleline(&mut c.name).desired_width(90.0));
            ui.checkbox(&mut c.tower_teleport, "");
            ui.checkbox(&mut c.rangestrike_immune, "");
            ui.checkbox(&mut c.returns_when_slain, "");
            ui.checkbox(&mut c.forbids_flight, "");
            if ui.small_button("x").clicked() {
                remove = Some(i);
            }
            ui.end_row();
        }
    });
    if let Some(i) = remove {
        classes.remove(i);
    }
    if ui.small_button("add class").clicked() {
        classes.push(ClassDef {
            per_legion: None,
            name: "new class".into(),
            tower_teleport: false,
            rangestrike_immune: false,
            returns_when_slain: false,
            forbids_flight: false,
        });
    }
}
