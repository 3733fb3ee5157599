//! The start screen: a new game (variant, rule options, seats, seed), the
//! last game continued, a saved game loaded or replayed, online play, the
//! editor.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use titan_core::LoadOptions;
use titan_core::format::OptionValue;
use titan_core::game::Game;
use titan_core::model::Variant;

use super::{GameScreen, PlayApp, Replay, SaveSeats, Screen, Seat, seats_path};
use crate::project::variant_folders;
use crate::session::{GameSession, LocalSession, read_save};

/// The user's data folder for the game: `$XDG_DATA_HOME/titan`, else
/// `~/.local/share/titan` (else a `titan-data` folder here).
pub fn data_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("titan");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(h).join(".local/share/titan");
    }
    PathBuf::from("titan-data")
}

/// Loads and validates the variant in `dir` (its bases looked for beside it).
pub fn load_variant(dir: &Path) -> Result<Arc<Variant>, String> {
    let opts = LoadOptions {
        search_paths: dir.parent().map(Path::to_path_buf).into_iter().collect(),
        shared_scripts: None,
    };
    titan_core::load(dir, &opts).map(Arc::new).map_err(|errs| {
        errs.iter()
            .take(5)
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// The new-game form and the lists of saves.
pub struct StartForm {
    pub variants: Vec<PathBuf>,
    pub variant_dir: PathBuf,
    /// A folder typed in, for a variant outside `variants/`.
    pub folder: String,
    pub variant: Result<Arc<Variant>, String>,
    pub options: BTreeMap<String, OptionValue>,
    pub seats: Vec<Seat>,
    /// Empty: a seed from the clock.
    pub seed: String,
    pub saves: Vec<PathBuf>,
    pub autosave: bool,
    /// The saves folder has been read.
    pub refreshed: bool,
}

const NAMES: [&str; 6] = ["Red", "Blue", "Green", "Yellow", "Purple", "Cyan"];

impl StartForm {
    pub fn new(root: &Path) -> StartForm {
        let variants = variant_folders(root);
        let first = variants
            .iter()
            .find(|d| d.file_name().is_some_and(|n| n == "titan"))
            .or(variants.first())
            .cloned()
            .unwrap_or_else(|| root.join("titan"));
        let mut form = StartForm {
            variants,
            variant_dir: PathBuf::new(),
            folder: String::new(),
            variant: Err(String::new()),
            options: BTreeMap::new(),
            seats: vec![Seat::person(NAMES[0]), Seat::computer(NAMES[1])],
            seed: String::new(),
            saves: Vec::new(),
            autosave: false,
            refreshed: false,
        };
        form.pick(&first);
        form
    }

    /// Picks a variant: loads it and resets the options to its defaults.
    pub fn pick(&mut self, dir: &Path) {
        self.variant_dir = dir.to_path_buf();
        self.variant = load_variant(dir);
        self.options.clear();
        if let Ok(v) = &self.variant {
            for o in &v.options {
                self.options.insert(o.name.clone(), o.default.clone());
            }
            let (min, max) = (v.players.min as usize, v.players.max as usize);
            while self.seats.len() < min.max(2) {
                self.add_seat();
            }
            self.seats.truncate(max.clamp(2, 6));
        }
    }

    /// Rereads the variants under `root` and the chosen variant (its rule
    /// options back to their defaults), keeping the seats.
    pub fn reload(&mut self, root: &Path) {
        self.variants = variant_folders(root);
        let dir = self.variant_dir.clone();
        self.pick(&dir);
    }

    fn add_seat(&mut self) {
        let n = self.seats.len();
        self.seats
            .push(Seat::computer(NAMES.get(n).copied().unwrap_or("Player")));
    }

    /// Rereads the saves folder and whether there is an autosave.
    pub fn refresh(&mut self, data: &Path) {
        self.refreshed = true;
        self.autosave = data.join("autosave.ron").is_file();
        let mut saves: Vec<PathBuf> = std::fs::read_dir(data.join("saves"))
            .map(|d| {
                d.filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| {
                        p.extension().is_some_and(|x| x == "ron")
                            && !p.to_string_lossy().ends_with(".seats.ron")
                    })
                    .collect()
            })
            .unwrap_or_default();
        saves.sort();
        self.saves = saves;
    }

    fn seed(&self) -> Result<u64, String> {
        let s = self.seed.trim();
        if s.is_empty() {
            return Ok(std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64));
        }
        s.parse()
            .map_err(|_| format!("the seed {s:?} is not a whole number"))
    }
}

impl PlayApp {
    /// Starts the game the form describes.
    pub fn start_new_game(&mut self) {
        // The files as they are now: they may have been edited since the
        // variant was picked (the rule options chosen are kept where the
        // variant still has them).
        self.form.variant = load_variant(&self.form.variant_dir);
        if let Ok(v) = &self.form.variant {
            let options = std::mem::take(&mut self.form.options);
            for o in &v.options {
                let value = options.get(&o.name).cloned().unwrap_or(o.default.clone());
                self.form.options.insert(o.name.clone(), value);
            }
        }
        let variant = match &self.form.variant {
            Ok(v) => v.clone(),
            Err(e) => {
                self.status = format!("The variant cannot be played: {e}");
                return;
            }
        };
        let seed = match self.form.seed() {
            Ok(s) => s,
            Err(e) => {
                self.status = e;
                return;
            }
        };
        let names: Vec<String> = self.form.seats.iter().map(|s| s.name.clone()).collect();
        // The engine counts players from 0; the form shows seats from 1.
        for (i, n) in names.iter().enumerate() {
            if n.trim().is_empty() {
                self.status = format!("Cannot start: seat {} has no name", i + 1);
                return;
            }
            if n.len() > titan_core::game::save::MAX_NAME_LEN {
                self.status = format!(
                    "Cannot start: the name of seat {} is longer than {} bytes",
                    i + 1,
                    titan_core::game::save::MAX_NAME_LEN
                );
                return;
            }
        }
        match Game::new(variant, self.form.options.clone(), &names, seed) {
            Ok((game, events)) => {
                let session = Box::new(LocalSession::new(game, events));
                let mut g = GameScreen::new(
                    session,
                    self.form.seats.clone(),
                    self.form.variant_dir.clone(),
                    Some(self.autosave_path()),
                    seed,
                );
                g.autosave_now();
                self.screen = Screen::Game(Box::new(g));
                self.status.clear();
            }
            Err(e) => self.status = format!("Cannot start: {e}"),
        }
    }

    /// Opens a saved game (to play on, or to replay).
    pub fn open_save(&mut self, path: &Path, replay: bool) {
        match self.read_saved(path) {
            Ok((session, seats, dir, save)) => {
                let autosave = (!replay).then(|| self.autosave_path());
                let mut g = GameScreen::new(Box::new(session), seats.seats, dir, autosave, 7);
                if replay {
                    g.replay = Some(Replay { save, step: 0 });
                    g.viewer = crate::session::SPECTATOR;
                    g.pass_to = None;
                    g.replay_to(0);
                }
                self.screen = Screen::Game(Box::new(g));
                self.status.clear();
            }
            Err(e) => self.status = e,
        }
    }

    fn read_saved(
        &self,
        path: &Path,
    ) -> Result<
        (
            LocalSession,
            SaveSeats,
            PathBuf,
            titan_core::game::save::SaveFile,
        ),
        String,
    > {
        let save = read_save(path)?;
        // The seats file says where the variant is; without one (a save from
        // `titan engine`) the variant is looked for by id, and every seat is
        // a person.
        // A seats file that is there but unreadable is refused, not taken
        // for a missing one: that would make every seat a person, and the
        // next autosave would overwrite who played which seat.
        let seats_file = seats_path(path);
        let seats = match std::fs::read_to_string(&seats_file) {
            Ok(t) => Some(
                titan_core::load::ron_options()
                    .from_str::<SaveSeats>(&t)
                    .map_err(|e| {
                        format!(
                            "{} is not a valid seats file: {e} (without it the save opens with every seat a person)",
                            seats_file.display()
                        )
                    })?,
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(format!("cannot read {}: {e}", seats_file.display())),
        };
        let dir = match &seats {
            Some(s) if s.variant_dir.join("variant.ron").is_file() => s.variant_dir.clone(),
            _ => self.variants_root.join(&save.variant),
        };
        // Every refusal names the save, so the message says which file.
        let variant = load_variant(&dir).map_err(|e| {
            format!(
                "{}: its variant {} does not load: {e}",
                path.display(),
                dir.display()
            )
        })?;
        let session = LocalSession::from_save(variant, &save)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let seats = match seats {
            Some(s) => s,
            None => {
                let v = session.view(crate::session::SPECTATOR);
                SaveSeats {
                    variant_dir: dir.clone(),
                    seats: v.players.iter().map(|p| Seat::person(&p.name)).collect(),
                }
            }
        };
        Ok((session, seats, dir, save))
    }

    pub(super) fn start_screen(&mut self, ui: &mut egui::Ui) {
        // The data folder is read when the start screen is first shown (and
        // on "Refresh", and on coming back from a game), not every frame.
        if !self.form.refreshed {
            self.form.refresh(&self.data_dir);
        }
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.heading("Titan");
                    ui.add_space(24.0);
                    ui_scale_buttons(ui);
                });
                if !self.status.is_empty() {
                    ui.colored_label(egui::Color32::from_rgb(230, 120, 60), self.status.clone());
                }
                ui.columns(2, |cols| {
                    self.new_game_form(&mut cols[0]);
                    self.saves_column(&mut cols[1]);
                });
            });
        });
    }

    fn new_game_form(&mut self, ui: &mut egui::Ui) {
        ui.heading("New game");
        ui.label("Variant");
        let mut pick = None;
        ui.horizontal_wrapped(|ui| {
            for dir in &self.form.variants {
                let name = dir
                    .file_name()
                    .map(|n| n.to_string_lossy().to_string())
                    .unwrap_or_default();
                if ui
                    .selectable_label(self.form.variant_dir == *dir, name)
                    .clicked()
                {
                    pick = Some(dir.clone());
                }
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("or a folder:");
            ui.text_edit_singleline(&mut self.form.folder)
                .labelled_by(l.id);
            if ui.button("Use folder").clicked() {
                pick = Some(PathBuf::from(self.form.folder.trim()));
            }
        });
        if let Some(d) = pick {
            self.form.pick(&d);
        }
        match &self.form.variant {
            Ok(v) => {
                ui.label(format!("{}: {}", v.title, v.description));
            }
            Err(e) => {
                ui.colored_label(egui::Color32::RED, format!("Cannot be played:\n{e}"));
            }
        }
        if let Ok(v) = self.form.variant.clone() {
            if !v.options.is_empty() {
                ui.separator();
                ui.label("Rule options");
            }
            for o in &v.options {
                let value = self
                    .form
                    .options
                    .entry(o.name.clone())
                    .or_insert(o.default.clone());
                let title = o.title();
                ui.horizontal(|ui| match value {
                    OptionValue::Bool(b) => {
                        ui.checkbox(b, &title);
                    }
                    OptionValue::Int(i) => {
                        // A text field, which a label names for screen
                        // readers (egui's number fields cannot be named).
                        let l = ui.label(&title);
                        let mut text = i.to_string();
                        if ui
                            .text_edit_singleline(&mut text)
                            .labelled_by(l.id)
                            .changed()
                        {
                            let t = text.trim();
                            if t.is_empty() {
                                *i = 0;
                            } else if let Ok(n) = t.parse() {
                                *i = n;
                            }
                        }
                    }
                    OptionValue::Text(t) => {
                        let l = ui.label(&title);
                        ui.text_edit_singleline(t).labelled_by(l.id);
                    }
                })
                .response
                .on_hover_text(&o.description);
                if !o.description.is_empty() {
                    // Wrapped, in the text's own colour, a little in.
                    ui.indent(("option description", &o.name), |ui| {
                        ui.add(egui::Label::new(&o.description).wrap());
                    });
                }
            }
            ui.separator();
            ui.label(format!(
                "Seats ({} to {})",
                v.players.min.max(2),
                v.players.max.min(6)
            ));
            let mut remove = None;
            let min = (v.players.min as usize).max(2);
            // At the fewest seats the variant allows, none may be removed.
            let removable = self.form.seats.len() > min;
            for (i, seat) in self.form.seats.iter_mut().enumerate() {
                ui.horizontal(|ui| {
                    // "Player 1: person", "Player 2: computer (simple)":
                    // who plays the seat; its list says the same words.
                    let n = i + 1;
                    let kind = |computer: bool, level: &str| {
                        if computer {
                            format!("computer ({level})")
                        } else {
                            "person".to_string()
                        }
                    };
                    let l = ui.label(format!("Player {n}:"));
                    egui::ComboBox::from_id_salt(("seat", i))
                        .selected_text(kind(seat.computer, &seat.level))
                        .show_ui(ui, |ui| {
                            let person = format!("Player {n}: {}", kind(false, ""));
                            if ui.selectable_label(!seat.computer, person).clicked() {
                                seat.computer = false;
                            }
                            for level in titan_core::ai::LEVELS {
                                let on = seat.computer && seat.level == *level;
                                let text = format!("Player {n}: {}", kind(true, level));
                                if ui.selectable_label(on, text).clicked() {
                                    seat.computer = true;
                                    seat.level = level.to_string();
                                }
                            }
                        })
                        .response
                        .labelled_by(l.id);
                    let l = ui.label("name");
                    ui.add(egui::TextEdit::singleline(&mut seat.name).desired_width(90.0))
                        .labelled_by(l.id);
                    if removable && ui.small_button(format!("remove seat {}", i + 1)).clicked() {
                        remove = Some(i);
                    }
                });
            }
            if let Some(i) = remove
                && removable
            {
                self.form.seats.remove(i);
            }
            if self.form.seats.len() < (v.players.max as usize).min(6)
                && ui.button("Add a seat").clicked()
            {
                self.form.add_seat();
            }
            ui.horizontal(|ui| {
                let l = ui.label("Seed (empty: random)");
                ui.text_edit_singleline(&mut self.form.seed)
                    .labelled_by(l.id);
            });
            if ui.button("Start game").clicked() {
                self.start_new_game();
            }
        }
    }

    fn saves_column(&mut self, ui: &mut egui::Ui) {
        ui.heading("Continue");
        if ui
            .add_enabled(
                self.form.autosave,
                egui::Button::new("Continue the last game"),
            )
            .clicked()
        {
            let p = self.autosave_path();
            self.open_save(&p, false);
        }
        if ui
            .add_enabled(
                self.form.autosave,
                egui::Button::new("Replay the last game"),
            )
            .clicked()
        {
            let p = self.autosave_path();
            self.open_save(&p, true);
        }
        ui.separator();
        ui.label(format!("Saved games ({})", self.saves_dir().display()));
        if ui.button("Refresh").clicked() {
            self.form.refresh(&self.data_dir);
        }
        let saves = self.form.saves.clone();
        for s in saves {
            let name = s
                .file_stem()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            ui.horizontal(|ui| {
                ui.label(&name);
                if ui.button(format!("Load {name}")).clicked() {
                    self.open_save(&s, false);
                }
                if ui.button(format!("Replay {name}")).clicked() {
                    self.open_save(&s, true);
                }
            });
        }
        ui.separator();
        ui.heading("Online");
        if ui.button("Play online").clicked() {
            self.screen = Screen::Online(Box::new(super::online::OnlineScreen::new(
                &self.settings.online,
            )));
        }
        // Whether games wait for you is the server's to say: the start
        // screen does not connect, it says where "Play online" will look.
        let online = &self.settings.online;
        if !online.token.is_empty() {
            ui.label(format!(
                "Remembered log-in: {} at {}. \"Play online\" logs in and lists \
                 the games waiting for you.",
                online.user, online.server
            ));
        }
        ui.separator();
        ui.heading("Edit");
        if ui.button("Open the editor").clicked() {
            let dir = self.form.variant_dir.clone();
            let root = dir
                .parent()
                .map_or(self.variants_root.clone(), Path::to_path_buf);
            self.screen = Screen::Editor(Box::new(crate::EditorApp::new(&dir, &root)));
        }
    }
}

/// The UI scale as buttons (egui's Ctrl + and Ctrl - do the same anywhere;
/// the app remembers the scale).
fn ui_scale_buttons(ui: &mut egui::Ui) {
    use super::settings::SCALE_RANGE;
    let ctx = ui.ctx().clone();
    let z = ctx.zoom_factor();
    ui.label(format!("UI scale {:.0}%", z * 100.0));
    let set = |z: f32| ctx.set_zoom_factor((z * 10.0).round() / 10.0);
    if ui
        .add_enabled(z > SCALE_RANGE.0 + 1e-3, egui::Button::new("Smaller"))
        .on_hover_text("Ctrl -")
        .clicked()
    {
        set(z - 0.1);
    }
    if ui
        .add_enabled(z < SCALE_RANGE.1 - 1e-3, egui::Button::new("Larger"))
        .on_hover_text("Ctrl +")
        .clicked()
    {
        set(z + 0.1);
    }
    if ui
        .add_enabled((z - 1.0).abs() > 1e-3, egui::Button::new("Normal size"))
        .on_hover_text("Ctrl 0")
        .clicked()
    {
        set(1.0);
    }
}
