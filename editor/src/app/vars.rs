//! The "Variables and actions" page: the variant's script variables
//! (`variables.ron`) and actions (`actions.ron`) as forms, beside the
//! actions its scripts register with `titan.action`.

use egui::Color32;
use titan_core::format::{
    ActionCost, ActionLimit, ActionWhen, ActionWho, LimitPer, ParamDef, ParamKind, VarScope,
    VarType, VarValue, Visibility,
};

use super::EditorApp;
use crate::project::default_of;

/// What the page remembers between frames.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VarsForms {
    /// The variable and the action shown in their forms.
    pub variable: Option<String>,
    pub action: Option<String>,
    /// The names typed in the forms (applied when valid).
    pub variable_name: String,
    pub action_name: String,
    /// Why the last edit was refused.
    pub error: Option<String>,
}

/// A combo box of `options`, labelled; true when the choice changed.
fn choose<T: PartialEq + Copy + std::fmt::Debug>(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut T,
    options: &[T],
) -> bool {
    let before = *value;
    egui::ComboBox::from_label(label)
        .selected_text(format!("{value:?}"))
        .show_ui(ui, |ui| {
            for o in options {
                ui.selectable_value(value, *o, format!("{o:?}"));
            }
        });
    *value != before
}

/// A labelled one-line text field.
fn text(ui: &mut egui::Ui, label: &str, value: &mut String) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.text_edit_singleline(value).labelled_by(l.id);
    });
}

/// A list of names written as one comma-separated line.
fn names_field(ui: &mut egui::Ui, label: &str, names: &mut Vec<String>) {
    let mut line = names.join(", ");
    text(ui, label, &mut line);
    let parsed: Vec<String> = line
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if parsed != *names {
        *names = parsed;
    }
}

impl EditorApp {
    pub(super) fn vars_page(&mut self, ui: &mut egui::Ui) {
        let Some(project) = &mut self.project else {
            return;
        };
        let f = &mut self.vars_forms;
        let own_vars = project.own_variables();
        let own_actions = project.own_actions();
        let all_vars = project.data().variables.clone();
        let scripted = project.script_actions();
        if let Some(e) = &f.error {
            ui.colored_label(Color32::RED, e);
        }
        ui.columns(2, |cols| {
            // ---- Variables ------------------------------------------------
            let ui = &mut cols[0];
            ui.heading("Variables");
            ui.horizontal_wrapped(|ui| {
                for v in &all_vars {
                    let own = own_vars.iter().any(|o| o.name == v.name);
                    let label = if own {
                        v.name.clone()
                    } else {
                        format!("{} (base)", v.name)
                    };
                    if ui
                        .selectable_label(f.variable.as_deref() == Some(&v.name), label)
                        .clicked()
                    {
                        f.variable = Some(v.name.clone());
                        f.variable_name = v.name.clone();
                    }
                }
            });
            ui.horizontal(|ui| {
                if ui.button("Add variable").clicked() {
                    let name = project.add_variable();
                    f.variable_name = name.clone();
                    f.variable = Some(name);
                    f.error = None;
                }
                if let Some(name) = f.variable.clone()
                    && own_vars.iter().any(|v| v.name == name)
                    && ui.button("Remove variable").clicked()
                {
                    project.remove_variable(&name);
                    f.variable = None;
                }
            });
            let selected = f.variable.as_ref().and_then(|n| own_vars.iter().find(|v| &v.name == n));
            if let Some(var) = selected {
                let old = var.name.clone();
                let mut v = var.clone();
                text(ui, "Variable name:", &mut f.variable_name);
                if f.variable_name != old {
                    v.name = f.variable_name.clone();
                }
                choose(
                    ui,
                    "scope",
                    &mut v.scope,
                    &[
                        VarScope::Game,
                        VarScope::Player,
                        VarScope::Legion,
                        VarScope::Character,
                        VarScope::Land,
                        VarScope::Unit,
                    ],
                );
                if choose(
                    ui,
                    "type",
                    &mut v.kind,
                    &[VarType::Int, VarType::Bool, VarType::Text, VarType::Names],
                ) {
                    v.default = default_of(v.kind);
                }
                match &mut v.default {
                    VarValue::Int(n) => {
                        ui.horizontal(|ui| {
                            let l = ui.label("Default:");
                            ui.add(egui::DragValue::new(n)).labelled_by(l.id);
                        });
                    }
                    VarValue::Bool(b) => {
                        ui.checkbox(b, "Default: true");
                    }
                    VarValue::Text(t) => text(ui, "Default:", t),
                    VarValue::Names(n) => names_field(ui, "Default (names, by commas):", n),
                }
                choose(
                    ui,
                    "visibility",
                    &mut v.visibility,
                    &[Visibility::Everyone, Visibility::Owner, Visibility::Nobody],
                );
                text(ui, "Variable description:", &mut v.description);
                if v != *var {
                    match project.set_variable(&old, v.clone()) {
                        Ok(()) => {
                            f.variable = Some(v.name.clone());
                            f.error = None;
                        }
                        Err(e) => f.error = Some(e),
                    }
                }
            } else if let Some(v) = f.variable.as_ref().and_then(|n| all_vars.iter().find(|v| &v.name == n)) {
                ui.label(format!(
                    "{}: {:?} {:?}, default {:?}, seen by {:?} (from the base variant: not editable here)",
                    v.name, v.scope, v.kind, v.default, v.visibility
                ));
            }

            // ---- Actions ---------------------------------------------------
            let ui = &mut cols[1];
            ui.heading("Actions");
            ui.label(if scripted.is_empty() {
                "Actions the scripts register (titan.action): none (or a script fails to run)"
                    .to_string()
            } else {
                format!("Actions the scripts register (titan.action): {}", scripted.join(", "))
            });
            let all_actions = project.data().actions.clone();
            ui.horizontal_wrapped(|ui| {
                for a in &all_actions {
                    let mut label = egui::RichText::new(&a.name);
                    if !scripted.contains(&a.name) {
                        label = egui::RichText::new(format!("{} (no script)", a.name))
                            .color(Color32::RED);
                    }
                    if ui
                        .selectable_label(f.action.as_deref() == Some(&a.name), label)
                        .clicked()
                    {
                        f.action = Some(a.name.clone());
                        f.action_name = a.name.clone();
                    }
                }
            });
            ui.horizontal(|ui| {
                if ui.button("Add action").clicked() {
                    let name = project.add_action();
                    f.action_name = name.clone();
                    f.action = Some(name);
                    f.error = None;
                }
                if let Some(name) = f.action.clone()
                    && own_actions.iter().any(|a| a.name == name)
                    && ui.button("Remove action").clicked()
                {
                    project.remove_action(&name);
                    f.action = None;
                }
            });
            let Some(action) = f.action.as_ref().and_then(|n| own_actions.iter().find(|a| &a.name == n)) else {
                return;
            };
            let old = action.name.clone();
            let mut a = action.clone();
            text(ui, "Action name:", &mut f.action_name);
            if f.action_name != old {
                a.name = f.action_name.clone();
            }
            text(ui, "Label:", &mut a.label);
            text(ui, "Action description:", &mut a.description);
            // Who: the player, any unit, a class, or named characters.
            let mut who = match &a.who {
                ActionWho::Player => 0,
                ActionWho::AnyUnit => 1,
                ActionWho::Class(_) => 2,
                ActionWho::Characters(_) => 3,
            };
            let names = ["Player", "AnyUnit", "Class", "Characters"];
            egui::ComboBox::from_label("who")
                .selected_text(names[who])
                .show_ui(ui, |ui| {
                    for (i, n) in names.iter().enumerate() {
                        ui.selectable_value(&mut who, i, *n);
                    }
                });
            a.who = match (who, a.who.clone()) {
                (0, _) => ActionWho::Player,
                (1, _) => ActionWho::AnyUnit,
                (2, ActionWho::Class(c)) => ActionWho::Class(c),
                (2, _) => ActionWho::Class(String::new()),
                (_, ActionWho::Characters(c)) => ActionWho::Characters(c),
                _ => ActionWho::Characters(Vec::new()),
            };
            match &mut a.who {
                ActionWho::Class(c) => text(ui, "Class:", c),
                ActionWho::Characters(c) => names_field(ui, "Characters (by commas):", c),
                _ => {}
            }
            choose(
                ui,
                "when",
                &mut a.when,
                &[
                    ActionWhen::Split,
                    ActionWhen::Move,
                    ActionWhen::Engage,
                    ActionWhen::Muster,
                    ActionWhen::Maneuver,
                    ActionWhen::Strike,
                    ActionWhen::OwnStrike,
                    ActionWhen::StrikeBack,
                ],
            );
            ui.label("Parameters:");
            let mut remove = None;
            for (i, p) in a.parameters.iter_mut().enumerate() {
                ui.push_id(i, |ui| {
                    ui.horizontal(|ui| {
                        let l = ui.label(format!("parameter {}:", i + 1));
                        ui.add(egui::TextEdit::singleline(&mut p.name).desired_width(90.0))
                            .labelled_by(l.id);
                        choose(
                            ui,
                            "kind",
                            &mut p.kind,
                            &[
                                ParamKind::Unit,
                                ParamKind::Hex,
                                ParamKind::Legion,
                                ParamKind::Land,
                                ParamKind::Character,
                                ParamKind::Number,
                            ],
                        );
                        let l = ui.label("its label:");
                        ui.text_edit_singleline(&mut p.label).labelled_by(l.id);
                        if ui.button("Remove parameter").clicked() {
                            remove = Some(i);
                        }
                    });
                });
            }
            if let Some(i) = remove {
                a.parameters.remove(i);
            }
            if ui.button("Add parameter").clicked() {
                a.parameters.push(ParamDef {
                    name: format!("p{}", a.parameters.len() + 1),
                    kind: ParamKind::Unit,
                    label: String::new(),
                });
            }
            let int_vars: Vec<String> = all_vars
                .iter()
                .filter(|v| v.kind == VarType::Int)
                .map(|v| v.name.clone())
                .collect();
            let pick_var = |ui: &mut egui::Ui, label: &str, var: &mut String| {
                egui::ComboBox::from_label(label)
                    .selected_text(var.clone())
                    .show_ui(ui, |ui| {
                        for n in &int_vars {
                            ui.selectable_value(var, n.clone(), n);
                        }
                    });
            };
            // Limit: none, or times per battle/turn/game counted in a variable.
            let mut limited = a.limit.is_some();
            ui.checkbox(&mut limited, "Limited");
            match (limited, &mut a.limit) {
                (false, l) => *l = None,
                (true, None) => {
                    a.limit = Some(ActionLimit {
                        per: LimitPer::Battle,
                        times: 1,
                        variable: int_vars.first().cloned().unwrap_or_default(),
                    })
                }
                (true, Some(l)) => {
                    choose(ui, "per", &mut l.per, &[LimitPer::Battle, LimitPer::Turn, LimitPer::Game]);
                    ui.horizontal(|ui| {
                        let t = ui.label("times:");
                        ui.add(egui::DragValue::new(&mut l.times)).labelled_by(t.id);
                    });
                    pick_var(ui, "limit counted in", &mut l.variable);
                }
            }
            // Cost: none, or an amount of an integer variable of the player.
            let mut costs = a.cost.is_some();
            ui.checkbox(&mut costs, "Has a cost");
            match (costs, &mut a.cost) {
                (false, c) => *c = None,
                (true, None) => {
                    a.cost = Some(ActionCost {
                        variable: int_vars.first().cloned().unwrap_or_default(),
                        amount: 1,
                    })
                }
                (true, Some(c)) => {
                    pick_var(ui, "paid from", &mut c.variable);
                    ui.horizontal(|ui| {
                        let t = ui.label("amount:");
                        ui.add(egui::DragValue::new(&mut c.amount)).labelled_by(t.id);
                    });
                }
            }
            if a != *action {
                match project.set_action(&old, a.clone()) {
                    Ok(()) => {
                        f.action = Some(a.name.clone());
                        f.error = None;
                    }
                    Err(e) => f.error = Some(e),
                }
            }
            // What the check says of the variant's actions and variables.
            for d in project.problems() {
                if d.message.contains("action") || d.message.contains("variable") {
                    ui.colored_label(Color32::RED, &d.message);
                }
            }
        });
    }
}
