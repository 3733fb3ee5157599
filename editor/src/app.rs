//! The editor's user interface: an egui app over a [`Project`].
//!
//! Everything is drawn by [`EditorApp::ui`], which the eframe shell calls
//! each frame and the headless tests (egui_kittest) call directly, so the
//! tests drive the same code a user does.

use std::path::{Path, PathBuf};

use egui::{Color32, Pos2, Rect, Shape, Stroke};
use std::sync::Arc;
use titan_core::battleland::Board;
use titan_core::diag::Diagnostic;
use titan_core::format::{Place, Side, Sign};

use crate::project::{Project, Subject, variant_folders};
use crate::watch::Watcher;

mod board_shape;
mod pages;
mod rules;
mod scripts;
mod terrains;
mod try_it;
mod vars;
pub use scripts::ScriptForms;
pub use terrains::TerrainForms;
pub use try_it::{Tally, TryError, TryIt};
pub use vars::VarsForms;

use crate::draw::{
    HEX, SIDE, View, cell_at, centroid, dist_to_segment, draw_battleland, draw_sign, hex_at,
    hex_centre, rgb, same_edge, shared_edge, side_corners,
};
// The grid's geometry, where the tests have always found it.
pub use crate::draw::{neighbours, triangle};

/// The editor's pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Masterboard,
    Battlelands,
    Characters,
    Mustering,
    Terrains,
    Rules,
    Scripts,
    Vars,
    TryIt,
}

/// What a click on a battleland does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HexTool {
    /// Selects the hex.
    Select,
    /// Sets the hex's hazard.
    Hazard(String),
    /// Sets the hex's elevation.
    Elevation(u8),
    /// Sets (or with `None` clears) the hazard of the clicked hexside.
    Hexside(Option<String>),
    /// The first click picks one end of a line of sight, the second the
    /// other.
    Sight,
    /// Adds a hex where the board has none (a battleland with a board of
    /// its own).
    AddHex,
    /// Removes the clicked hex.
    RemoveHex,
}

/// Something waiting for the user to say what happens to unsaved edits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pending {
    Close,
    /// Back to the game window's start screen (the editor opened from it):
    /// the editor is left, the window stays open.
    Leave,
    Switch(PathBuf),
    Revert,
}

/// The "New variant" or "Save as copy" form while it is open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewVariant {
    /// `Some(base)`: a new variant extending `base`; `None`: a copy of the
    /// edited one.
    pub extends: Option<String>,
    /// The new folder's name, also the variant's id.
    pub id: String,
    /// Why the last try failed.
    pub error: Option<String>,
}

/// The editor.
pub struct EditorApp {
    /// The variant being edited (none when it could not be opened at all).
    pub project: Option<Project>,
    /// Why the variant could not be opened.
    pub open_errors: Vec<Diagnostic>,
    dir: PathBuf,
    variants_root: PathBuf,
    watcher: Option<Watcher>,
    /// Whether to watch the disk (off in tests that do not need it).
    pub watch: bool,
    pub tab: Tab,
    pub selected_land: Option<u32>,
    /// A movement roll whose reachable lands are shown from the selected
    /// land.
    pub move_roll: Option<u8>,
    /// When set, the next click on an empty cell of the board adds a land.
    pub adding_land: bool,
    pub battleland: Option<String>,
    pub selected_hex: Option<String>,
    /// A zone's name being typed on the battlelands page.
    pub new_zone: String,
    pub hex_tool: HexTool,
    /// The ends of the line of sight shown (the second once picked).
    pub sight: Option<(String, Option<String>)>,
    pub selected_character: Option<String>,
    pub muster_terrain: Option<String>,
    pub pending: Option<Pending>,
    /// The terrains and hazards page's selections and typed names.
    pub terrain_forms: TerrainForms,
    /// The scripts page's selection and typed name.
    pub script_forms: ScriptForms,
    /// The "Variables and actions" page's forms.
    pub vars_forms: VarsForms,
    /// The "Try it" page's settings and its last run.
    pub try_it: TryIt,
    /// The new-variant or copy form, while open.
    pub new_variant: Option<NewVariant>,
    /// The character whose deletion waits for confirmation.
    pub confirm_delete: Option<String>,
    /// The name being typed for the selected character, and why the last
    /// rename was refused.
    pub rename: Option<(String, Option<String>)>,
    /// Set once the user has agreed to close.
    pub may_close: bool,
    /// The editor may be left for the start screen (`Pending::Leave` done).
    pub left: bool,
    pub status: String,
    board_view: View,
    hex_view: View,
}

impl EditorApp {
    /// Opens the variant in `dir`; `variants_root` is the folder whose
    /// variants the picker offers.
    pub fn new(dir: &Path, variants_root: &Path) -> EditorApp {
        let mut app = EditorApp {
            project: None,
            open_errors: Vec::new(),
            dir: dir.to_path_buf(),
            variants_root: variants_root.to_path_buf(),
            watcher: None,
            watch: true,
            tab: Tab::Masterboard,
            selected_land: None,
            move_roll: None,
            adding_land: false,
            battleland: None,
            selected_hex: None,
            new_zone: String::new(),
            hex_tool: HexTool::Select,
            sight: None,
            selected_character: None,
            muster_terrain: None,
            pending: None,
            new_variant: None,
            terrain_forms: TerrainForms::default(),
            script_forms: ScriptForms::default(),
            vars_forms: VarsForms::default(),
            try_it: TryIt::default(),
            confirm_delete: None,
            rename: None,
            may_close: false,
            left: false,
            status: String::new(),
            board_view: View::default(),
            hex_view: View::default(),
        };
        app.open(dir);
        app
    }

    fn open(&mut self, dir: &Path) {
        self.dir = dir.to_path_buf();
        self.watcher = None;
        self.board_view.fitted = false;
        self.hex_view.fitted = false;
        self.selected_land = None;
        self.selected_hex = None;
        match Project::open(dir) {
            Ok(p) => {
                self.battleland = p.data().battlelands.first().map(|b| b.terrain.clone());
                self.muster_terrain = p.data().mustering.first().map(|m| m.terrain.clone());
                self.project = Some(p);
                self.open_errors.clear();
                self.status = format!("opened {}", dir.display());
            }
            Err(e) => {
                // Not the last variant's "opened ...": say why nothing shows.
                self.status = format!(
                    "cannot open {}: {} (see Problems)",
                    dir.display(),
                    e.first()
                        .map_or("no reason given".into(), |d| d.to_string())
                );
                self.project = None;
                self.open_errors = e;
            }
        }
    }

    /// Whether there are edits not yet saved.
    pub fn is_dirty(&self) -> bool {
        self.project.as_ref().is_some_and(Project::is_dirty)
    }

    /// Saves every edited file.
    pub fn save(&mut self) {
        if let Some(p) = &mut self.project {
            self.status = match p.save() {
                Ok(w) if w.is_empty() => "nothing to save".into(),
                Ok(w) => format!("saved {}", w.join(", ")),
                Err(e) => format!("could not save: {e}"),
            };
        }
    }

    /// Reloads after changes on disk (what the watcher triggers).
    pub fn poll_disk(&mut self, ctx: &egui::Context) {
        if self.watch && self.watcher.is_none() {
            let dirs = match &self.project {
                Some(p) => p.watched_dirs(),
                None => vec![self.dir.clone()],
            };
            let ctx = ctx.clone();
            match Watcher::new(&dirs, move || ctx.request_repaint()) {
                Ok(w) => self.watcher = Some(w),
                Err(e) => {
                    self.status = format!("cannot watch the files: {e}");
                    self.watch = false;
                }
            }
        }
        let changed = self.watcher.as_ref().map(Watcher::changed);
        if changed.is_some_and(|c| !c.is_empty()) {
            self.reload_from_disk();
        }
    }

    /// Rereads the disk now.
    pub fn reload_from_disk(&mut self) {
        match &mut self.project {
            Some(p) => {
                p.reload_from_disk();
                // Say so when a file on disk is broken: the editor shows its
                // last good version, not what is on disk.
                let broken = p.broken_files();
                self.status = if broken.is_empty() {
                    "reloaded from disk".into()
                } else {
                    format!(
                        "reloaded; {} does not parse (showing its last good version; see Problems)",
                        broken.join(", ")
                    )
                };
            }
            None => {
                let dir = self.dir.clone();
                self.open(&dir);
            }
        }
    }

    /// Asks for `action`, first asking about unsaved edits when there are.
    pub fn request(&mut self, action: Pending) {
        if self.is_dirty() {
            self.pending = Some(action);
        } else {
            self.perform(action);
        }
    }

    fn perform(&mut self, action: Pending) {
        match action {
            Pending::Close => self.may_close = true,
            Pending::Leave => self.left = true,
            Pending::Switch(dir) => self.open(&dir),
            Pending::Revert => {
                if let Some(p) = &mut self.project {
                    p.revert();
                }
            }
        }
    }

    /// Draws the whole editor.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.poll_disk(&ctx);
        self.shortcuts(&ctx);
        if ctx.input(|i| i.viewport().close_requested()) && !self.may_close && self.is_dirty() {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.pending = Some(Pending::Close);
        }
        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar(ui));
        egui::Panel::bottom("problems")
            .resizable(true)
            .default_size(110.0)
            .show(ui, |ui| self.problems(ui));
        match self.tab {
            Tab::Masterboard => {
                egui::Panel::right("land")
                    .default_size(260.0)
                    .show(ui, |ui| self.land_panel(ui));
                egui::CentralPanel::default().show(ui, |ui| self.board(ui));
            }
            Tab::Battlelands => {
                egui::Panel::right("hex")
                    .default_size(260.0)
                    .show(ui, |ui| self.hex_panel(ui));
                egui::CentralPanel::default().show(ui, |ui| self.battleland_canvas(ui));
            }
            Tab::Characters => {
                egui::Panel::right("character")
                    .default_size(300.0)
                    .show(ui, |ui| {
                        egui::ScrollArea::vertical().show(ui, |ui| self.character_panel(ui))
                    });
                egui::CentralPanel::default().show(ui, |ui| self.characters(ui));
            }
            Tab::Mustering => {
                egui::CentralPanel::default().show(ui, |ui| self.mustering(ui));
            }
            Tab::Terrains => {
                egui::CentralPanel::default().show(ui, |ui| self.terrains_page(ui));
            }
            Tab::Rules => {
                egui::CentralPanel::default().show(ui, |ui| self.rules_page(ui));
            }
            Tab::Scripts => {
                egui::CentralPanel::default().show(ui, |ui| self.scripts_page(ui));
            }
            Tab::Vars => {
                egui::CentralPanel::default().show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| self.vars_page(ui))
                });
            }
            Tab::TryIt => {
                egui::CentralPanel::default().show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| self.try_it_page(ui))
                });
            }
        }
        self.dialogs(&ctx);
        if self.may_close {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let save = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
        let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
        let redo = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        let (s, r, u) = ctx.input_mut(|i| {
            (
                i.consume_shortcut(&save),
                i.consume_shortcut(&redo),
                i.consume_shortcut(&undo),
            )
        });
        if s {
            self.save();
        }
        if let Some(p) = &mut self.project {
            if r {
                p.redo();
            } else if u {
                p.undo();
            }
        }
    }

    fn toolbar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            let current = self
                .dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let mut switch = None;
            egui::ComboBox::from_label("variant")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for dir in variant_folders(&self.variants_root) {
                        let name = dir.file_name().unwrap_or_default().to_string_lossy();
                        if ui
                            .selectable_label(dir == self.dir, name.as_ref())
                            .clicked()
                            && dir != self.dir
                        {
                            switch = Some(dir.clone());
                        }
                    }
                });
            if let Some(dir) = switch {
                self.request(Pending::Switch(dir));
            }
            ui.separator();
            for (tab, label) in [
                (Tab::Masterboard, "Masterboard"),
                (Tab::Battlelands, "Battlelands"),
                (Tab::Characters, "Characters"),
                (Tab::Mustering, "Mustering"),
                (Tab::Terrains, "Terrains and hazards"),
                (Tab::Rules, "Rules and options"),
                (Tab::Scripts, "Scripts"),
                (Tab::Vars, "Variables and actions"),
                (Tab::TryIt, "Try it"),
            ] {
                if ui.selectable_label(self.tab == tab, label).clicked() {
                    self.tab = tab;
                }
            }
            ui.separator();
            let dirty = self.is_dirty();
            if ui
                .add_enabled(dirty, egui::Button::new("Save"))
                .on_hover_text("Ctrl+S")
                .clicked()
            {
                self.save();
            }
            let (can_undo, can_redo) = self
                .project
                .as_ref()
                .map_or((false, false), |p| (p.can_undo(), p.can_redo()));
            if ui
                .add_enabled(can_undo, egui::Button::new("Undo"))
                .clicked()
                && let Some(p) = &mut self.project
            {
                p.undo();
            }
            if ui
                .add_enabled(can_redo, egui::Button::new("Redo"))
                .clicked()
                && let Some(p) = &mut self.project
            {
                p.redo();
            }
            if ui
                .add_enabled(dirty, egui::Button::new("Revert"))
                .on_hover_text("Drop the unsaved edits")
                .clicked()
            {
                self.request(Pending::Revert);
            }
            ui.separator();
            if ui
                .button("New variant...")
                .on_hover_text("A new variant extending one of these")
                .clicked()
            {
                let base = self
                    .dir
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned());
                self.new_variant = Some(NewVariant {
                    extends: base,
                    id: String::new(),
                    error: None,
                });
            }
            if ui
                .add_enabled(self.project.is_some(), egui::Button::new("Save as copy..."))
                .on_hover_text("Write this variant, edits included, to a new folder")
                .clicked()
            {
                self.new_variant = Some(NewVariant {
                    extends: None,
                    id: String::new(),
                    error: None,
                });
            }
            ui.separator();
            if dirty {
                ui.label("* unsaved edits");
            }
            ui.label(&self.status);
        });
    }

    fn problems(&mut self, ui: &mut egui::Ui) {
        let problems: Vec<Diagnostic> = match &self.project {
            Some(p) => p.problems().to_vec(),
            None => self.open_errors.clone(),
        };
        ui.horizontal(|ui| {
            ui.strong(format!("Problems ({})", problems.len()));
            if problems.is_empty() {
                ui.label("none: titan check would pass");
            }
        });
        egui::ScrollArea::vertical().show(ui, |ui| {
            for d in &problems {
                if ui
                    .link(d.to_string())
                    .on_hover_text("Select what it is about")
                    .clicked()
                {
                    self.select_problem(d);
                }
            }
        });
    }

    /// Selects the land, hex or row a diagnostic is about.
    pub fn select_problem(&mut self, d: &Diagnostic) {
        let Some(p) = &self.project else { return };
        match p.subject(d) {
            Subject::Land(n) => {
                self.tab = Tab::Masterboard;
                self.selected_land = Some(n);
            }
            Subject::Hex { terrain, label } => {
                self.tab = Tab::Battlelands;
                self.battleland = Some(terrain);
                self.selected_hex = Some(label);
            }
            Subject::Character(name) => {
                self.tab = Tab::Characters;
                self.selected_character = Some(name);
            }
            Subject::Mustering(terrain) => {
                self.tab = Tab::Mustering;
                self.muster_terrain = Some(terrain);
            }
            Subject::File => {}
        }
    }

    fn dialogs(&mut self, ctx: &egui::Context) {
        if self.new_variant.is_some() {
            self.new_variant_form(ctx);
            return;
        }
        if self.confirm_delete.is_some() {
            self.delete_character_form(ctx);
            return;
        }
        if let Some(c) = self
            .project
            .as_ref()
            .and_then(|p| p.conflicts().first().cloned())
        {
            let mut choice = None;
            egui::Modal::new(egui::Id::unique("conflict")).show(ctx, |ui| {
                ui.heading("Changed on disk");
                ui.label(format!(
                    "{} was changed by another program while you have unsaved edits of it.",
                    c.file
                ));
                ui.horizontal(|ui| {
                    if ui.button("Keep my edits").clicked() {
                        choice = Some(false);
                    }
                    if ui.button("Take the file on disk").clicked() {
                        choice = Some(true);
                    }
                });
            });
            if let (Some(theirs), Some(p)) = (choice, &mut self.project) {
                p.resolve(&c.file, theirs);
            }
            return;
        }
        let Some(action) = self.pending.clone() else {
            return;
        };
        let what = match &action {
            Pending::Close => "closing".to_string(),
            Pending::Leave => "leaving the editor".to_string(),
            Pending::Switch(d) => format!("opening {}", d.display()),
            Pending::Revert => "reverting".to_string(),
        };
        let mut choice = None;
        egui::Modal::new(egui::Id::unique("unsaved")).show(ctx, |ui| {
            ui.heading("Unsaved edits");
            ui.label(format!("There are unsaved edits. Save them before {what}?"));
            ui.horizontal(|ui| {
                if action != Pending::Revert && ui.button("Save first").clicked() {
                    choice = Some("save");
                }
                if ui.button("Discard").clicked() {
                    choice = Some("discard");
                }
                if ui.button("Cancel").clicked() {
                    choice = Some("cancel");
                }
            });
        });
        match choice {
            Some("save") => {
                self.save();
                self.pending = None;
                if !self.is_dirty() {
                    self.perform(action);
                }
            }
            Some("discard") => {
                self.pending = None;
                if let (Pending::Close | Pending::Leave | Pending::Switch(_), Some(p)) =
                    (&action, &mut self.project)
                {
                    p.revert();
                }
                self.perform(action);
            }
            Some(_) => self.pending = None,
            None => {}
        }
    }

    /// The "New variant" / "Save as copy" form.
    fn new_variant_form(&mut self, ctx: &egui::Context) {
        let Some(mut form) = self.new_variant.clone() else {
            return;
        };
        let bases: Vec<String> = variant_folders(&self.variants_root)
            .iter()
            .filter_map(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect();
        let mut go = false;
        let mut cancel = false;
        egui::Modal::new(egui::Id::unique("new variant")).show(ctx, |ui| {
            match &mut form.extends {
                Some(base) => {
                    ui.heading("New variant");
                    egui::ComboBox::from_label("extends")
                        .selected_text(base.clone())
                        .show_ui(ui, |ui| {
                            for b in &bases {
                                ui.selectable_value(base, b.clone(), b);
                            }
                        });
                }
                None => {
                    ui.heading("Save as copy");
                    ui.label("The variant, unsaved edits included, in a new folder beside it.");
                }
            }
            ui.horizontal(|ui| {
                let label = ui.label("Folder and id:");
                ui.add(egui::TextEdit::singleline(&mut form.id).desired_width(180.0))
                    .labelled_by(label.id);
            });
            if let Some(e) = &form.error {
                ui.colored_label(Color32::RED, e);
            }
            ui.horizontal(|ui| {
                if ui.button("Create").clicked() {
                    go = true;
                }
                if ui.button("Cancel").clicked() {
                    cancel = true;
                }
            });
        });
        if cancel {
            self.new_variant = None;
            return;
        }
        if !go {
            self.new_variant = Some(form);
            return;
        }
        let id = form.id.trim().to_string();
        let made = match (&form.extends, &self.project) {
            (Some(base), _) => crate::project::create_extending(&self.variants_root, &id, base),
            (None, Some(p)) => p.save_as_copy(&self.variants_root, &id),
            (None, None) => Err("no variant is open".into()),
        };
        match made {
            Ok(dir) => {
                self.new_variant = None;
                let copy = form.extends.is_none();
                if copy {
                    // The edits now live in the copy; open it in their place.
                    if let Some(p) = &mut self.project {
                        p.revert();
                    }
                    self.open(&dir);
                } else {
                    self.request(Pending::Switch(dir.clone()));
                }
                self.status = format!("created {}", dir.display());
            }
            Err(e) => {
                form.error = Some(e);
                self.new_variant = Some(form);
            }
        }
    }

    // -----------------------------------------------------------------------
    // Masterboard
    // -----------------------------------------------------------------------

    /// The screen position of a land's centre as last drawn.
    pub fn land_screen_pos(&self, number: u32) -> Option<Pos2> {
        let land = self.project.as_ref()?.land(number)?;
        let [a, b, c] = triangle(land.position);
        Some(self.board_view.to_screen(centroid(a, b, c)))
    }

    /// The screen position of the middle of the border between two
    /// neighbouring lands, slightly inside `from`, as last drawn.
    pub fn border_screen_pos(&self, from: u32, to: u32) -> Option<Pos2> {
        let p = self.project.as_ref()?;
        let (a, b) = shared_edge(p.land(from)?.position, p.land(to)?.position)?;
        let [x, y, z] = triangle(p.land(from)?.position);
        let mid = a + (b - a) / 2.0;
        let inside = mid + (centroid(x, y, z) - mid) * 0.1;
        Some(self.board_view.to_screen(inside))
    }

    fn board(&mut self, ui: &mut egui::Ui) {
        let Some(project) = &self.project else {
            ui.label("The variant could not be opened; see the problems below.");
            return;
        };
        let data = project.data();
        let (response, painter) = self.board_view.canvas(ui, || {
            let mut bounds = Rect::NOTHING;
            for land in &data.masterboard.lands {
                for p in triangle(land.position) {
                    bounds.extend_with(p);
                }
            }
            bounds.expand(SIDE * 0.3)
        });
        let view = self.board_view;
        let colour = |terrain: &str| {
            data.terrains
                .iter()
                .find(|t| t.name == terrain)
                .map_or(Color32::GRAY, |t| rgb(t.color))
        };
        for land in &data.masterboard.lands {
            let pts: Vec<Pos2> = triangle(land.position)
                .iter()
                .map(|p| view.to_screen(*p))
                .collect();
            painter.add(Shape::convex_polygon(
                pts.clone(),
                colour(&land.terrain),
                Stroke::new(1.0, Color32::BLACK),
            ));
            let c = centroid(pts[0], pts[1], pts[2]);
            painter.text(
                c,
                egui::Align2::CENTER_CENTER,
                land.number.to_string(),
                egui::FontId::proportional((8.0 * view.zoom).clamp(6.0, 30.0)),
                Color32::BLACK,
            );
        }
        // Where a legion on the selected land could move with the roll.
        for n in self.move_targets() {
            if let Some(land) = project.land(n) {
                let pts: Vec<Pos2> = triangle(land.position)
                    .iter()
                    .map(|p| view.to_screen(*p))
                    .collect();
                painter.add(Shape::closed_line(
                    pts,
                    Stroke::new(3.0, Color32::from_rgb(0, 220, 255)),
                ));
            }
        }
        // The selected land on top of its neighbours' borders.
        if let Some(land) = self.selected_land.and_then(|n| project.land(n)) {
            let pts: Vec<Pos2> = triangle(land.position)
                .iter()
                .map(|p| view.to_screen(*p))
                .collect();
            painter.add(Shape::closed_line(
                pts,
                Stroke::new(4.0, Color32::from_rgb(255, 0, 200)),
            ));
        }
        // Signs on top of every land.
        for land in &data.masterboard.lands {
            for exit in &land.exits {
                let Some(to) = data.masterboard.lands.iter().find(|l| l.number == exit.to) else {
                    continue;
                };
                draw_sign(&painter, &view, land.position, to.position, exit.sign);
            }
        }
        // Which colour is which terrain.
        let legend: Vec<(String, Color32, bool)> = data
            .terrains
            .iter()
            .map(|t| (t.name.clone(), rgb(t.color), false))
            .collect();
        crate::draw::draw_legend(&painter, &response, "Terrains", &legend);
        // Clicks: a border of the selected land cycles its sign; elsewhere
        // selects a land (or adds one on an empty cell).
        if response.clicked()
            && let Some(pointer) = response.interact_pointer_pos()
        {
            let board = view.to_board(pointer);
            self.board_click(board);
        }
    }

    /// The lands a legion on the selected land could reach with
    /// `move_roll` (empty when no roll is chosen or the variant does not
    /// validate).
    pub fn move_targets(&self) -> Vec<u32> {
        match (&self.project, self.selected_land, self.move_roll) {
            (Some(p), Some(land), Some(roll)) => p.moves_from(land, roll).unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    fn board_click(&mut self, board: Pos2) {
        let Some(project) = &mut self.project else {
            return;
        };
        let cell = cell_at(board);
        if let Some(sel) = self.selected_land
            && let Some(land) = project.land(sel).cloned()
        {
            let [a, b, c] = triangle(land.position);
            for (p, q) in [(a, b), (b, c), (c, a)] {
                if dist_to_segment(board, p, q) < SIDE * 0.12 {
                    let across = neighbours(land.position).into_iter().find(|n| {
                        shared_edge(land.position, *n).is_some_and(|e| same_edge(e, (p, q)))
                    });
                    if let Some(to) = across.and_then(|n| project.land_at(n)).map(|l| l.number) {
                        let now = land.exits.iter().find(|e| e.to == to).map(|e| e.sign);
                        let next = match now {
                            None => Some(Sign::Block),
                            Some(Sign::Block) => Some(Sign::Arch),
                            Some(Sign::Arch) => Some(Sign::Arrow),
                            Some(Sign::Arrow) => Some(Sign::TripleArrow),
                            Some(Sign::TripleArrow) => Some(Sign::Gate),
                            Some(Sign::Gate) => None,
                        };
                        project.set_sign(sel, to, next);
                        self.status = format!("sign from {sel} to {to}: {next:?}");
                        return;
                    }
                }
            }
        }
        match project.land_at(cell).map(|l| l.number) {
            Some(n) => self.selected_land = Some(n),
            None if self.adding_land => {
                self.selected_land = project.add_land(cell);
                self.adding_land = false;
            }
            None => self.selected_land = None,
        }
    }

    fn land_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("Land");
        ui.toggle_value(&mut self.adding_land, "Add land")
            .on_hover_text("Then click an empty cell of the board");
        ui.small("Click a land to select it; click a border of the selected land to cycle its sign. Right-drag pans, scroll zooms.");
        let Some(project) = &mut self.project else {
            return;
        };
        let Some(mut land) = self.selected_land.and_then(|n| project.land(n).cloned()) else {
            ui.label("No land selected.");
            return;
        };
        let before = land.clone();
        if project.land_is_inherited(land.number) {
            ui.small("From the base variant: an edit is saved as an override in this variant.");
        }
        ui.label(format!("Land {}", land.number));
        let mut number = land.number;
        ui.horizontal(|ui| {
            ui.label("Number");
            ui.add(egui::DragValue::new(&mut number).range(1..=9999));
        });
        let mut name = land.name.clone().unwrap_or_default();
        ui.horizontal(|ui| {
            ui.label("Name");
            ui.text_edit_singleline(&mut name);
        });
        land.name = (!name.is_empty()).then_some(name);
        ui.label("Terrain");
        let terrains: Vec<String> = project
            .data()
            .terrains
            .iter()
            .map(|t| t.name.clone())
            .collect();
        ui.horizontal_wrapped(|ui| {
            for t in terrains {
                if ui.selectable_label(land.terrain == t, &t).clicked() {
                    land.terrain = t;
                }
            }
        });
        ui.separator();
        ui.label("Exits (signs on this land's borders)");
        let signs = [
            ("none", None),
            ("Block", Some(Sign::Block)),
            ("Arch", Some(Sign::Arch)),
            ("Arrow", Some(Sign::Arrow)),
            ("Triple arrow", Some(Sign::TripleArrow)),
            ("Gate", Some(Sign::Gate)),
        ];
        let mut sign_edit = None;
        for n in neighbours(land.position) {
            let Some(to) = project.land_at(n).map(|l| l.number) else {
                continue;
            };
            let now = land.exits.iter().find(|e| e.to == to).map(|e| e.sign);
            egui::ComboBox::new(("sign", land.number, to), format!("to land {to}"))
                .selected_text(signs.iter().find(|s| s.1 == now).map_or("?", |s| s.0))
                .show_ui(ui, |ui| {
                    for (label, sign) in signs {
                        if ui.selectable_label(now == sign, label).clicked() {
                            sign_edit = Some((to, sign));
                        }
                    }
                });
        }
        for e in &land.exits {
            if !neighbours(land.position)
                .iter()
                .any(|n| project.land_at(*n).is_some_and(|l| l.number == e.to))
            {
                ui.label(format!("to {} (not a neighbour): {:?}", e.to, e.sign));
            }
        }
        ui.separator();
        ui.label("Where a legion here could move (empty board, no teleports):");
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut self.move_roll, None, "no roll");
            for roll in 1..=6u8 {
                ui.selectable_value(&mut self.move_roll, Some(roll), format!("roll {roll}"));
            }
        });
        if let Some(roll) = self.move_roll {
            match project.moves_from(land.number, roll) {
                Some(ends) => ui.label(format!(
                    "{} lands: {}",
                    ends.len(),
                    ends.iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(" ")
                )),
                None => ui.label("(fix the problems first)"),
            };
        }
        ui.separator();
        let delete = ui.button("Delete land").clicked();
        if land != before {
            project.set_land(land.clone());
        }
        if let Some((to, sign)) = sign_edit {
            project.set_sign(land.number, to, sign);
        }
        if number != land.number && project.land(number).is_none() {
            project.renumber_land(land.number, number);
            self.selected_land = Some(number);
        }
        if delete {
            project.delete_land(land.number);
            self.selected_land = None;
        }
    }

    // -----------------------------------------------------------------------
    // Battlelands
    // -----------------------------------------------------------------------

    /// The board of the battleland shown: its own, else the standard one.
    fn shown_board(&self) -> Arc<Board> {
        self.battleland
            .as_ref()
            .zip(self.project.as_ref())
            .and_then(|(t, p)| p.battleland(t))
            .and_then(|def| Board::of(def).ok())
            .unwrap_or_else(Board::standard)
    }

    /// The screen position of a hex's centre, as last drawn.
    pub fn hex_screen_pos(&self, label: &str) -> Option<Pos2> {
        let board = self.shown_board();
        Some(
            self.hex_view
                .to_screen(hex_centre(&board, board.hex(label)?)),
        )
    }

    /// The screen position of a point just inside a side of a hex.
    pub fn hexside_screen_pos(&self, label: &str, side: Side) -> Option<Pos2> {
        let board = self.shown_board();
        let c = hex_centre(&board, board.hex(label)?);
        let (a, b) = side_corners(c, side);
        let mid = a + (b - a) / 2.0;
        Some(self.hex_view.to_screen(mid + (c - mid) * 0.15))
    }

    fn hex_panel(&mut self, ui: &mut egui::Ui) {
        let Some(project) = &mut self.project else {
            return;
        };
        ui.heading("Battleland");
        let terrains: Vec<String> = project
            .data()
            .battlelands
            .iter()
            .map(|b| b.terrain.clone())
            .collect();
        ui.horizontal_wrapped(|ui| {
            for t in terrains {
                if ui
                    .selectable_label(self.battleland.as_deref() == Some(&t), &t)
                    .clicked()
                {
                    self.battleland = Some(t);
                    self.hex_view.fitted = false;
                }
            }
        });
        ui.separator();
        ui.label("Click tool");
        let data = project.data();
        let tool = &mut self.hex_tool;
        ui.selectable_value(tool, HexTool::Select, "select");
        ui.label("Hex hazard:");
        ui.horizontal_wrapped(|ui| {
            for h in data.hazards.iter().filter(|h| h.place == Place::Hex) {
                ui.selectable_value(
                    tool,
                    HexTool::Hazard(h.name.clone()),
                    format!("hex: {}", h.name),
                );
            }
        });
        ui.label("Elevation:");
        ui.horizontal(|ui| {
            for e in 0..=3u8 {
                ui.selectable_value(tool, HexTool::Elevation(e), format!("elevation {e}"));
            }
        });
        ui.label("Hexside (click near a side; the clicked hex is its top side):");
        ui.horizontal_wrapped(|ui| {
            for h in data.hazards.iter().filter(|h| h.place == Place::Hexside) {
                ui.selectable_value(
                    tool,
                    HexTool::Hexside(Some(h.name.clone())),
                    format!("side: {}", h.name),
                );
            }
            ui.selectable_value(tool, HexTool::Hexside(None), "clear side");
        });
        ui.separator();
        if let (Some(t), Some(label)) = (&self.battleland, &self.selected_hex)
            && let Some(hex) = project.battleland(t).and_then(|b| b.hexes.get(label))
        {
            ui.label(format!(
                "Hex {label}: {}, elevation {}",
                hex.hazard, hex.elevation
            ));
            for (side, h) in &hex.sides {
                ui.label(format!("  {side:?} side: {h}"));
            }
        }
        self.board_shape_panel(ui);
        let Some(project) = &mut self.project else {
            return;
        };
        if let Some(b) = self.battleland.as_ref().and_then(|t| project.battleland(t)) {
            if let Some(edge) = b.attacker_edge {
                ui.label(format!("Attacker always enters: {edge:?}"));
            }
            if !b.defender_area.is_empty() {
                ui.label(format!(
                    "Defender deploys in: {}",
                    b.defender_area.join(" ")
                ));
            }
        }
        ui.separator();
        ui.selectable_value(&mut self.hex_tool, HexTool::Sight, "line of sight")
            .on_hover_text("Click two hexes");
        if let Some(lines) = self.sight_lines() {
            let (from, to) = match &self.sight {
                Some((a, Some(b))) => (a.clone(), b.clone()),
                _ => (String::new(), String::new()),
            };
            for (i, line) in lines.iter().enumerate() {
                let reading = if lines.len() > 1 {
                    format!(" (reading {})", i + 1)
                } else {
                    String::new()
                };
                ui.label(format!(
                    "{from} to {to}{reading}: {}; {}",
                    line.hexes.join(" "),
                    line.blocked.as_deref().unwrap_or("clear")
                ));
            }
        } else if let Some((a, None)) = &self.sight {
            ui.label(format!("Line of sight from {a}: click the other end."));
        }
    }

    fn battleland_canvas(&mut self, ui: &mut egui::Ui) {
        let Some(project) = &self.project else {
            return;
        };
        let Some(land) = self
            .battleland
            .as_ref()
            .and_then(|t| project.battleland(t))
            .cloned()
        else {
            ui.label("Pick a battleland.");
            return;
        };
        let data = project.data();
        let board = Board::of(&land).unwrap_or_else(|_| Board::standard());
        let (response, painter) = self.hex_view.canvas(ui, || {
            let mut bounds = Rect::NOTHING;
            for h in board.ids() {
                bounds.extend_with(hex_centre(&board, h));
            }
            bounds.expand(HEX * 1.6)
        });
        let view = self.hex_view;
        let colour = |name: &str| {
            data.hazards
                .iter()
                .find(|h| h.name == name)
                .map_or(Color32::GRAY, |h| rgb(h.color))
        };
        draw_battleland(
            &painter,
            &view,
            &land,
            &colour,
            self.selected_hex.as_deref(),
        );
        if let Some(lines) = self.sight_lines() {
            for (i, line) in lines.iter().enumerate() {
                let ink = if line.blocked.is_some() {
                    Color32::RED
                } else {
                    Color32::from_rgb(0, 200, 255)
                };
                for label in &line.hexes {
                    if let Some(h) = board.hex(label) {
                        let r = HEX * (0.3 - 0.08 * i as f32) * view.zoom;
                        painter.circle_stroke(
                            view.to_screen(hex_centre(&board, h)),
                            r,
                            Stroke::new(2.0, ink),
                        );
                    }
                }
                let ends: Vec<Pos2> = [line.hexes.first(), line.hexes.last()]
                    .into_iter()
                    .flatten()
                    .filter_map(|l| board.hex(l))
                    .map(|h| view.to_screen(hex_centre(&board, h)))
                    .collect();
                if let [a, b] = ends[..] {
                    painter.line_segment([a, b], Stroke::new(2.0, ink));
                }
            }
        }
        // The hazards on this battleland, hexsides drawn as their line.
        let mut used: Vec<&str> = Vec::new();
        for hex in land.hexes.values() {
            used.push(&hex.hazard);
            used.extend(hex.sides.values().map(String::as_str));
        }
        let legend: Vec<(String, Color32, bool)> = data
            .hazards
            .iter()
            .filter(|h| used.contains(&h.name.as_str()))
            .map(|h| (h.name.clone(), rgb(h.color), h.place == Place::Hexside))
            .collect();
        crate::draw::draw_legend(&painter, &response, "Hazards", &legend);
        if response.clicked()
            && let Some(pointer) = response.interact_pointer_pos()
        {
            let terrain = land.terrain.clone();
            self.hex_click(&terrain, view.to_board(pointer));
        }
    }

    /// The line of sight between the two picked hexes on the battleland
    /// shown (the battle engine's geometry, no characters on the board).
    pub fn sight_lines(&self) -> Option<Vec<crate::project::SightLine>> {
        let (Some((a, Some(b))), Some(t), Some(p)) = (&self.sight, &self.battleland, &self.project)
        else {
            return None;
        };
        p.line_of_sight(t, a, b)
    }

    fn hex_click(&mut self, terrain: &str, board: Pos2) {
        let Some(project) = &mut self.project else {
            return;
        };
        let shape = project
            .battleland(terrain)
            .and_then(|def| Board::of(def).ok())
            .unwrap_or_else(Board::standard);
        if self.hex_tool == HexTool::AddHex {
            if hex_at(&shape, board).is_none()
                && let Some(label) = project.add_board_hex(terrain, crate::draw::axial_at(board))
            {
                self.selected_hex = Some(label);
            }
            return;
        }
        let Some((hex, side)) = hex_at(&shape, board) else {
            return;
        };
        let label = shape.label(hex).to_string();
        self.selected_hex = Some(label.clone());
        let current = project
            .battleland(terrain)
            .and_then(|b| b.hexes.get(&label))
            .cloned();
        match self.hex_tool.clone() {
            HexTool::Select => {}
            HexTool::Hazard(h) => {
                let elevation = current.map_or(0, |c| c.elevation);
                project.set_hex(terrain, &label, &h, elevation);
            }
            HexTool::Elevation(e) => {
                let hazard = current.map_or_else(String::new, |c| c.hazard);
                project.set_hex(terrain, &label, &hazard, e);
            }
            HexTool::Hexside(h) => {
                if let Some(side) = side {
                    project.set_hexside(terrain, &label, side, h.as_deref());
                }
            }
            HexTool::AddHex => {}
            HexTool::RemoveHex => {
                project.remove_board_hex(terrain, &label);
                self.selected_hex = None;
            }
            HexTool::Sight => {
                self.sight = match self.sight.take() {
                    Some((a, None)) => Some((a, Some(label))),
                    _ => Some((label, None)),
                };
            }
        }
    }

    // -----------------------------------------------------------------------
    // Tables
    // -----------------------------------------------------------------------
}

// ---------------------------------------------------------------------------
// Geometry of the masterboard grid (ARCHITECTURE.md, "Masterboard grid")
