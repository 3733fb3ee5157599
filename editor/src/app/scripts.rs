//! The scripts page: the variant's own Lua scripts, edited with line
//! numbers and syntax colours; each edit is run by the same check as `titan
//! check`, and an error is shown at its line.

use egui::text::{LayoutJob, TextFormat};
use egui::{Color32, FontId};

use super::EditorApp;

/// What the scripts page remembers between frames.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScriptForms {
    /// The script shown.
    pub script: Option<String>,
    /// The name typed for a new script, and why the last try failed.
    pub new_name: String,
    pub error: Option<String>,
    /// A line of the shown script to point at (where a game on the "Try
    /// it" page met a script error).
    pub mark: Option<usize>,
}

const KEYWORDS: [&str; 22] = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
    "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
];

/// Lua source coloured: keywords, strings, comments and numbers.
pub fn highlight_lua(code: &str, font: FontId) -> LayoutJob {
    let mut job = LayoutJob::default();
    let fmt = |c: Color32| TextFormat::simple(font.clone(), c);
    let plain = Color32::from_gray(220);
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let colour = if code[i..].starts_with("--") {
            // A comment runs to the end of the line (long comments too, as
            // far as colouring goes).
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            Color32::from_rgb(120, 160, 110)
        } else if b[i] == b'"' || b[i] == b'\'' {
            let quote = b[i];
            i += 1;
            while i < b.len() && b[i] != quote && b[i] != b'\n' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(b.len());
            Color32::from_rgb(220, 170, 110)
        } else if b[i].is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                i += 1;
            }
            Color32::from_rgb(180, 150, 230)
        } else if b[i].is_ascii_alphabetic() || b[i] == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            if KEYWORDS.contains(&&code[start..i]) {
                Color32::from_rgb(110, 160, 230)
            } else {
                plain
            }
        } else {
            // One character (a whole UTF-8 one) of anything else.
            i += code[i..].chars().next().map_or(1, char::len_utf8);
            plain
        };
        job.append(&code[start..i], 0.0, fmt(colour));
    }
    job
}

impl EditorApp {
    pub(super) fn scripts_page(&mut self, ui: &mut egui::Ui) {
        // The console of the last "Try it" run.
        let tally = self.try_it.tally();
        let Some(project) = &mut self.project else {
            return;
        };
        let f = &mut self.script_forms;
        let names = project.script_names();
        if f.script.as_ref().is_none_or(|s| !names.contains(s)) {
            f.script = names.first().cloned();
        }
        ui.horizontal_wrapped(|ui| {
            ui.label("Scripts:");
            for n in &names {
                let problems = project.script_problems(n).len();
                let text = if problems > 0 {
                    egui::RichText::new(format!("{n} ({problems})")).color(Color32::RED)
                } else {
                    egui::RichText::new(n)
                };
                if ui
                    .selectable_label(f.script.as_deref() == Some(n), text)
                    .clicked()
                {
                    f.script = Some(n.clone());
                    f.mark = None;
                }
            }
            if names.is_empty() {
                ui.label("none yet");
            }
            ui.separator();
            let label = ui.label("New script:");
            ui.add(egui::TextEdit::singleline(&mut f.new_name).desired_width(120.0))
                .labelled_by(label.id);
            if ui.button("Add script").clicked() {
                match project.add_script(&f.new_name) {
                    Ok(name) => {
                        f.script = Some(name);
                        f.new_name.clear();
                        f.error = None;
                    }
                    Err(e) => f.error = Some(e),
                }
            }
        });
        if let Some(e) = &f.error {
            ui.colored_label(Color32::RED, e);
        }
        let hooks = project.hooks();
        if !hooks.is_empty() {
            ui.label(format!("Hooks the scripts register: {}", hooks.join(", ")));
        }
        match &tally {
            Some(t) => super::try_it::console(ui, t),
            None => {
                ui.label("The scripts' log (titan.log, print) shows here after a run on the \"Try it\" page.");
            }
        }
        let Some(name) = f.script.clone() else {
            return;
        };
        let Some(text) = project.script_text(&name).map(str::to_string) else {
            return;
        };
        let problems = project.script_problems(&name);
        for d in &problems {
            ui.colored_label(Color32::RED, format!("line {}: {}", d.line, d.message));
        }
        if let Some(line) = f.mark {
            ui.colored_label(
                Color32::from_rgb(255, 160, 60),
                format!("line {line}: where a game on the \"Try it\" page met a script error"),
            );
        }
        let bad_lines: Vec<usize> = problems.iter().map(|d| d.line).collect();
        let mark = f.mark;
        let mut code = text.clone();
        let font = egui::TextStyle::Monospace.resolve(ui.style());
        egui::ScrollArea::both().id_salt("script").show(ui, |ui| {
            ui.horizontal_top(|ui| {
                // The line numbers, an error's in red.
                let lines = code.split('\n').count().max(1);
                let mut gutter = LayoutJob::default();
                for n in 1..=lines {
                    let colour = if bad_lines.contains(&n) {
                        Color32::RED
                    } else if mark == Some(n) {
                        Color32::from_rgb(255, 160, 60)
                    } else {
                        Color32::from_gray(120)
                    };
                    let sep = if n < lines { "\n" } else { "" };
                    gutter.append(
                        &format!("{n:>4}{sep}"),
                        0.0,
                        TextFormat::simple(font.clone(), colour),
                    );
                }
                ui.add(egui::Label::new(gutter).selectable(false));
                let mut layouter = |ui: &egui::Ui, text: &dyn egui::TextBuffer, wrap: f32| {
                    let mut job = highlight_lua(text.as_str(), font.clone());
                    job.wrap.max_width = wrap;
                    ui.fonts_mut(|f| f.layout_job(job))
                };
                ui.add(
                    egui::TextEdit::multiline(&mut code)
                        .code_editor()
                        .desired_width(f32::INFINITY)
                        .desired_rows(30)
                        .lock_focus(true)
                        .layouter(&mut layouter),
                );
            });
        });
        if code != text {
            project.set_script(&name, code);
        }
    }
}
