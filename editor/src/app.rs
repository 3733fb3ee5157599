//! The editor's user interface: an egui app over a [`Project`].
//!
//! Everything is drawn by [`EditorApp::ui`], which the eframe shell calls
//! each frame and the headless tests (egui_kittest) call directly, so the
//! tests drive the same code a user does.

use std::path::{Path, PathBuf};

use egui::{Color32, Pos2, Rect, Sense, Shape, Stroke, Vec2, pos2, vec2};
use titan_core::battleland::HexId;
use titan_core::diag::Diagnostic;
use titan_core::format::{BattlelandDef, Edge, GridPos, MusterRow, Needs, Place, Rgb, Side, Sign};

use crate::project::{Project, Subject, variant_folders};
use crate::watch::Watcher;

/// The side of a masterboard triangle in board units (before zooming).
const SIDE: f32 = 40.0;
/// The radius of a battleland hex in board units.
const HEX: f32 = 34.0;

/// The editor's pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Masterboard,
    Battlelands,
    Characters,
    Mustering,
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
}

/// Something waiting for the user to say what happens to unsaved edits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pending {
    Close,
    Switch(PathBuf),
    Revert,
}

/// The pan and zoom of a canvas, and where it was last drawn.
#[derive(Debug, Clone, Copy)]
struct View {
    offset: Vec2,
    zoom: f32,
    rect: Rect,
    fitted: bool,
}

impl Default for View {
    fn default() -> Self {
        View {
            offset: Vec2::ZERO,
            zoom: 1.0,
            rect: Rect::NOTHING,
            fitted: false,
        }
    }
}

impl View {
    fn to_screen(self, p: Pos2) -> Pos2 {
        self.rect.min + self.offset + p.to_vec2() * self.zoom
    }

    fn to_board(self, p: Pos2) -> Pos2 {
        ((p - self.rect.min - self.offset) / self.zoom).to_pos2()
    }

    /// Zooms and centres so that `bounds` (board units) fills the canvas.
    fn fit(&mut self, bounds: Rect) {
        if self.rect.width() <= 0.0 || bounds.width() <= 0.0 {
            return;
        }
        let zoom = (self.rect.width() / bounds.width()).min(self.rect.height() / bounds.height());
        self.zoom = zoom * 0.95;
        self.offset = self.rect.size() / 2.0 - bounds.center().to_vec2() * self.zoom;
        self.fitted = true;
    }

    /// Drag to pan, scroll or pinch to zoom about the pointer.
    fn interact(&mut self, ui: &egui::Ui, response: &egui::Response) {
        if response.dragged_by(egui::PointerButton::Secondary)
            || response.dragged_by(egui::PointerButton::Middle)
        {
            self.offset += response.drag_delta();
        }
        if response.hovered() {
            let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
            let factor = zoom * (scroll / 400.0).exp();
            if (factor - 1.0).abs() > 1e-4
                && let Some(p) = response.hover_pos()
            {
                let board = self.to_board(p);
                self.zoom = (self.zoom * factor).clamp(0.1, 20.0);
                self.offset = p - self.rect.min - board.to_vec2() * self.zoom;
            }
        }
    }
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
    pub hex_tool: HexTool,
    /// The ends of the line of sight shown (the second once picked).
    pub sight: Option<(String, Option<String>)>,
    pub selected_character: Option<String>,
    pub muster_terrain: Option<String>,
    pub pending: Option<Pending>,
    /// Set once the user has agreed to close.
    pub may_close: bool,
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
            hex_tool: HexTool::Select,
            sight: None,
            selected_character: None,
            muster_terrain: None,
            pending: None,
            may_close: false,
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
                self.status = "reloaded from disk".into();
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
                egui::CentralPanel::default().show(ui, |ui| self.characters(ui));
            }
            Tab::Mustering => {
                egui::CentralPanel::default().show(ui, |ui| self.mustering(ui));
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
                if let (Pending::Close | Pending::Switch(_), Some(p)) = (&action, &mut self.project)
                {
                    p.revert();
                }
                self.perform(action);
            }
            Some(_) => self.pending = None,
            None => {}
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
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        self.board_view.rect = response.rect;
        if !self.board_view.fitted {
            let mut bounds = Rect::NOTHING;
            for land in &data.masterboard.lands {
                for p in triangle(land.position) {
                    bounds.extend_with(p);
                }
            }
            self.board_view.fit(bounds.expand(SIDE * 0.3));
        }
        self.board_view.interact(ui, &response);
        let view = self.board_view;
        let colour = |terrain: &str| {
            data.terrains
                .iter()
                .find(|t| t.name == terrain)
                .map_or(Color32::GRAY, |t| rgb(t.color))
        };
        painter.rect_filled(response.rect, 0.0, Color32::from_gray(30));
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
                            Some(Sign::TripleArrow) => None,
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

    /// The screen position of a hex's centre, as last drawn.
    pub fn hex_screen_pos(&self, label: &str) -> Option<Pos2> {
        Some(
            self.hex_view
                .to_screen(hex_centre(HexId::from_label(label)?)),
        )
    }

    /// The screen position of a point just inside a side of a hex.
    pub fn hexside_screen_pos(&self, label: &str, side: Side) -> Option<Pos2> {
        let c = hex_centre(HexId::from_label(label)?);
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
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        self.hex_view.rect = response.rect;
        if !self.hex_view.fitted {
            let mut bounds = Rect::NOTHING;
            for h in HexId::all() {
                bounds.extend_with(hex_centre(h));
            }
            self.hex_view.fit(bounds.expand(HEX * 1.6));
        }
        self.hex_view.interact(ui, &response);
        let view = self.hex_view;
        painter.rect_filled(response.rect, 0.0, Color32::from_gray(30));
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
                    if let Some(h) = HexId::from_label(label) {
                        let r = HEX * (0.3 - 0.08 * i as f32) * view.zoom;
                        painter.circle_stroke(
                            view.to_screen(hex_centre(h)),
                            r,
                            Stroke::new(2.0, ink),
                        );
                    }
                }
                let ends: Vec<Pos2> = [line.hexes.first(), line.hexes.last()]
                    .into_iter()
                    .flatten()
                    .filter_map(|l| HexId::from_label(l))
                    .map(|h| view.to_screen(hex_centre(h)))
                    .collect();
                if let [a, b] = ends[..] {
                    painter.line_segment([a, b], Stroke::new(2.0, ink));
                }
            }
        }
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
        let Some((hex, side)) = hex_at(board) else {
            return;
        };
        let label = hex.label();
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

    fn characters(&mut self, ui: &mut egui::Ui) {
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
                ] {
                    ui.strong(h);
                }
                ui.end_row();
                for c in &data.characters {
                    let mut e = c.clone();
                    let selected = self.selected_character.as_deref() == Some(&c.name);
                    if ui.selectable_label(selected, &c.name).clicked() {
                        self.selected_character = Some(c.name.clone());
                    }
                    ui.add(egui::TextEdit::singleline(&mut e.plural).desired_width(90.0));
                    ui.add(egui::DragValue::new(&mut e.power).range(1..=99));
                    ui.add(egui::DragValue::new(&mut e.skill).range(1..=9));
                    ui.menu_button(e.class.clone(), |ui| {
                        for k in &classes {
                            ui.selectable_value(&mut e.class, k.clone(), k);
                        }
                    });
                    ui.checkbox(&mut e.flies, "");
                    ui.label(match &e.rangestrike {
                        None => "-".to_string(),
                        Some(r) => {
                            format!("{:?}{}", r.strength, if r.magic { ", magic" } else { "" })
                        }
                    });
                    ui.menu_button(
                        if e.natives.is_empty() {
                            "none".to_string()
                        } else {
                            e.natives.join(", ")
                        },
                        |ui| {
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
                        },
                    );
                    ui.add(egui::DragValue::new(&mut e.count).range(1..=999));
                    ui.checkbox(&mut e.summonable, "");
                    ui.label(
                        e.value
                            .unwrap_or(u32::from(e.power) * u32::from(e.skill))
                            .to_string(),
                    );
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

    fn mustering(&mut self, ui: &mut egui::Ui) {
        let Some(project) = &mut self.project else {
            return;
        };
        let data = project.data().clone();
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
            return;
        };
        let mut t = table.clone();
        ui.checkbox(
            &mut t.ladder,
            "ladder (a higher character musters any lower one)",
        );
        let mut remove = None;
        egui::Grid::new("mustering").striped(true).show(ui, |ui| {
            for h in ["row", "character", "needs", "like", ""] {
                ui.strong(h);
            }
            ui.end_row();
            for (i, row) in t.rows.iter_mut().enumerate() {
                ui.label((i + 1).to_string());
                ui.menu_button(row.character.clone(), |ui| {
                    for c in &data.characters {
                        ui.selectable_value(&mut row.character, c.name.clone(), &c.name);
                    }
                });
                ui.horizontal(|ui| {
                    let mut previous = row.needs.iter().find_map(|n| match n {
                        Needs::Previous(k) => Some(*k),
                        _ => None,
                    });
                    let mut on = previous.is_some();
                    if ui.checkbox(&mut on, "of previous:").changed() {
                        previous = on.then_some(2);
                    }
                    if let Some(k) = &mut previous {
                        ui.add(egui::DragValue::new(k).range(1..=7));
                    }
                    row.needs.retain(|n| !matches!(n, Needs::Previous(_)));
                    if let Some(k) = previous {
                        row.needs.insert(0, Needs::Previous(k));
                    }
                    let mut free = row.needs.contains(&Needs::Free);
                    if ui.checkbox(&mut free, "free").changed() {
                        row.needs.retain(|n| *n != Needs::Free);
                        if free {
                            row.needs.push(Needs::Free);
                        }
                    }
                    for n in &row.needs {
                        if !matches!(n, Needs::Previous(_) | Needs::Free) {
                            ui.label(format!("{n:?}"));
                        }
                    }
                });
                ui.checkbox(&mut row.like, "");
                if ui.small_button("remove").clicked() {
                    remove = Some(i);
                }
                ui.end_row();
            }
        });
        if let Some(i) = remove {
            t.rows.remove(i);
        }
        if ui.button("Add row").clicked()
            && let Some(c) = data.characters.first()
        {
            t.rows.push(MusterRow {
                character: c.name.clone(),
                needs: Vec::new(),
                like: true,
                ladder: true,
            });
        }
        if t != table {
            project.set_muster_table(t);
        }
    }
}

// ---------------------------------------------------------------------------
// Geometry of the masterboard grid (ARCHITECTURE.md, "Masterboard grid")
// ---------------------------------------------------------------------------

/// The corners of a land's triangle in board units. A land at `(x, y)`
/// points down (its third border on top) when `x + y` is even.
pub fn triangle(pos: GridPos) -> [Pos2; 3] {
    let h = SIDE * 3f32.sqrt() / 2.0;
    let cx = pos.x as f32 * SIDE / 2.0;
    let top = pos.y as f32 * h;
    if (pos.x + pos.y) % 2 == 0 {
        [
            pos2(cx - SIDE / 2.0, top),
            pos2(cx + SIDE / 2.0, top),
            pos2(cx, top + h),
        ]
    } else {
        [
            pos2(cx, top),
            pos2(cx + SIDE / 2.0, top + h),
            pos2(cx - SIDE / 2.0, top + h),
        ]
    }
}

/// The three cells sharing a border with `pos`.
pub fn neighbours(pos: GridPos) -> [GridPos; 3] {
    let third = if (pos.x + pos.y) % 2 == 0 {
        pos.y - 1
    } else {
        pos.y + 1
    };
    [
        GridPos {
            x: pos.x - 1,
            y: pos.y,
        },
        GridPos {
            x: pos.x + 1,
            y: pos.y,
        },
        GridPos { x: pos.x, y: third },
    ]
}

/// The border two cells share, if they are neighbours.
pub fn shared_edge(a: GridPos, b: GridPos) -> Option<(Pos2, Pos2)> {
    if !neighbours(a).contains(&b) {
        return None;
    }
    let ta = triangle(a);
    let tb = triangle(b);
    let common: Vec<Pos2> = ta
        .into_iter()
        .filter(|p| tb.iter().any(|q| p.distance(*q) < 0.01))
        .collect();
    (common.len() == 2).then(|| (common[0], common[1]))
}

fn same_edge(a: (Pos2, Pos2), b: (Pos2, Pos2)) -> bool {
    let close = |p: Pos2, q: Pos2| p.distance(q) < 0.01;
    (close(a.0, b.0) && close(a.1, b.1)) || (close(a.0, b.1) && close(a.1, b.0))
}

/// The grid cell a board point lies in.
pub fn cell_at(p: Pos2) -> GridPos {
    let h = SIDE * 3f32.sqrt() / 2.0;
    let y = (p.y / h).floor() as i32;
    let guess = (p.x / (SIDE / 2.0)).round() as i32;
    (guess - 1..=guess + 1)
        .map(|x| GridPos { x, y })
        .find(|c| {
            let [a, b, cc] = triangle(*c);
            in_triangle(p, a, b, cc)
        })
        .unwrap_or(GridPos { x: guess, y })
}

fn in_triangle(p: Pos2, a: Pos2, b: Pos2, c: Pos2) -> bool {
    let cross = |o: Pos2, u: Pos2, v: Pos2| (u - o).x * (v - o).y - (u - o).y * (v - o).x;
    let (d1, d2, d3) = (cross(a, b, p), cross(b, c, p), cross(c, a, p));
    let neg = d1 < 0.0 || d2 < 0.0 || d3 < 0.0;
    let pos = d1 > 0.0 || d2 > 0.0 || d3 > 0.0;
    !(neg && pos)
}

fn centroid(a: Pos2, b: Pos2, c: Pos2) -> Pos2 {
    pos2((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0)
}

fn dist_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_sq()).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

fn rgb(c: Rgb) -> Color32 {
    let [r, g, b] = c.0;
    Color32::from_rgb(r, g, b)
}

/// Draws a sign on the border from `from` to `to`, inside `from`, as the
/// sign chart shows it: a block, an arch, an arrow or three arrows pointing
/// across.
fn draw_sign(painter: &egui::Painter, view: &View, from: GridPos, to: GridPos, sign: Sign) {
    let Some((a, b)) = shared_edge(from, to) else {
        return;
    };
    let [x, y, z] = triangle(from);
    let c = centroid(x, y, z);
    let mid = a + (b - a) / 2.0;
    let out = (mid - c).normalized(); // towards the neighbour
    let along = (b - a).normalized();
    let at = mid - out * SIDE * 0.1;
    let s = SIDE * 0.09;
    let screen = |p: Pos2| view.to_screen(p);
    let ink = Color32::BLACK;
    let stroke = Stroke::new((1.2 * view.zoom).clamp(0.5, 3.0), ink);
    let arrow = |tip: Pos2| {
        Shape::convex_polygon(
            vec![
                screen(tip),
                screen(tip - out * s * 1.4 + along * s * 0.8),
                screen(tip - out * s * 1.4 - along * s * 0.8),
            ],
            Color32::WHITE,
            stroke,
        )
    };
    match sign {
        Sign::Block => {
            let corners = [
                at + along * s + out * s * 0.6,
                at - along * s + out * s * 0.6,
                at - along * s - out * s * 0.6,
                at + along * s - out * s * 0.6,
            ];
            painter.add(Shape::convex_polygon(
                corners.iter().map(|p| screen(*p)).collect(),
                Color32::WHITE,
                stroke,
            ));
        }
        Sign::Arch => {
            let pts: Vec<Pos2> = (0..=12)
                .map(|i| {
                    let t = std::f32::consts::PI * i as f32 / 12.0;
                    screen(at + along * s * t.cos() + out * s * t.sin() - out * s * 0.4)
                })
                .collect();
            painter.add(Shape::line(
                pts,
                Stroke::new(stroke.width * 2.0, Color32::WHITE),
            ));
            painter.add(Shape::line(
                vec![
                    screen(at - along * s - out * s * 0.4),
                    screen(at + along * s - out * s * 0.4),
                ],
                stroke,
            ));
        }
        Sign::Arrow => {
            painter.add(arrow(at + out * s));
        }
        Sign::TripleArrow => {
            for k in [-1.0, 0.0, 1.0] {
                painter.add(arrow(at + out * s + along * s * 1.6 * k));
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Geometry of battlelands
// ---------------------------------------------------------------------------

/// A hex's centre in board units (flat-topped, r growing downward).
pub fn hex_centre(hex: HexId) -> Pos2 {
    let c = hex.coord();
    let (q, r) = (c.x as f32, c.y as f32);
    pos2(HEX * 1.5 * q, HEX * 3f32.sqrt() * (r + q / 2.0))
}

fn corner(c: Pos2, i: usize) -> Pos2 {
    // Corner 0 is at the east; corners go clockwise on screen (y down).
    let angle = std::f32::consts::PI / 3.0 * i as f32;
    c + vec2(angle.cos(), angle.sin()) * HEX
}

/// The two corners of a side: N is the top edge, then clockwise.
fn side_corners(c: Pos2, side: Side) -> (Pos2, Pos2) {
    let (i, j) = match side {
        Side::N => (4, 5),
        Side::NE => (5, 0),
        Side::SE => (0, 1),
        Side::S => (1, 2),
        Side::SW => (2, 3),
        Side::NW => (3, 4),
    };
    (corner(c, i), corner(c, j))
}

/// The hex under a board point, and the side it is near (if near one).
pub fn hex_at(p: Pos2) -> Option<(HexId, Option<Side>)> {
    let hex = HexId::all().min_by(|a, b| {
        hex_centre(*a)
            .distance(p)
            .total_cmp(&hex_centre(*b).distance(p))
    })?;
    let c = hex_centre(hex);
    if c.distance(p) > HEX {
        return None;
    }
    let side = Side::ALL.into_iter().min_by(|a, b| {
        let d = |s: Side| {
            let (x, y) = side_corners(c, s);
            dist_to_segment(p, x, y)
        };
        d(*a).total_cmp(&d(*b))
    });
    let near = side.filter(|s| {
        let (x, y) = side_corners(c, *s);
        dist_to_segment(p, x, y) < HEX * 0.3
    });
    Some((hex, near))
}

fn draw_battleland(
    painter: &egui::Painter,
    view: &View,
    land: &BattlelandDef,
    colour: &dyn Fn(&str) -> Color32,
    selected: Option<&str>,
) {
    let font = egui::FontId::proportional((8.0 * view.zoom).clamp(6.0, 24.0));
    for hex in HexId::all() {
        let c = hex_centre(hex);
        let label = hex.label();
        let def = land.hexes.get(&label);
        let fill = def.map_or(Color32::DARK_GRAY, |d| colour(&d.hazard));
        let pts: Vec<Pos2> = (0..6).map(|i| view.to_screen(corner(c, i))).collect();
        painter.add(Shape::convex_polygon(
            pts,
            fill,
            Stroke::new(1.0, Color32::BLACK),
        ));
        let sc = view.to_screen(c);
        let mut text = label.clone();
        if let Some(d) = def {
            text = format!("{label}\n{}", d.hazard);
            if d.elevation > 0 {
                text.push_str(&format!("\nelev. {}", d.elevation));
            }
        }
        painter.text(
            sc,
            egui::Align2::CENTER_CENTER,
            text,
            font.clone(),
            Color32::BLACK,
        );
    }
    // Hexside hazards, drawn inside their top hex.
    for hex in HexId::all() {
        let Some(def) = land.hexes.get(&hex.label()) else {
            continue;
        };
        let c = hex_centre(hex);
        for (side, hazard) in &def.sides {
            let (a, b) = side_corners(c, *side);
            let inset = |p: Pos2| view.to_screen(p + (c - p) * 0.08);
            // A white casing so that dark hazards show on dark hexes.
            let width = (5.0 * view.zoom).clamp(3.0, 12.0);
            painter.line_segment(
                [inset(a), inset(b)],
                Stroke::new(width + 3.0, Color32::WHITE),
            );
            painter.line_segment([inset(a), inset(b)], Stroke::new(width, colour(hazard)));
        }
    }
    if let Some(sel) = selected.and_then(HexId::from_label) {
        let c = hex_centre(sel);
        let pts: Vec<Pos2> = (0..=6).map(|i| view.to_screen(corner(c, i % 6))).collect();
        painter.add(Shape::line(pts, Stroke::new(3.0, Color32::YELLOW)));
    }
    // Entry edges: the attacker's fixed edge, else every edge named.
    for edge in Edge::ALL {
        let hexes: Vec<Pos2> = titan_core::battleland::edge_hexes(edge)
            .map(hex_centre)
            .collect();
        let mid = hexes.iter().fold(Vec2::ZERO, |s, p| s + p.to_vec2()) / hexes.len() as f32;
        let board_centre = hex_centre(HexId::from_label("D3").unwrap_or(HexId(0)));
        let out = (mid.to_pos2() - board_centre).normalized();
        let at = mid.to_pos2() + out * HEX * 1.3;
        let fixed = land.attacker_edge == Some(edge);
        let text = if fixed {
            format!("{edge:?}\n(attacker)")
        } else {
            format!("{edge:?}")
        };
        painter.text(
            view.to_screen(at),
            egui::Align2::CENTER_CENTER,
            text,
            font.clone(),
            if fixed {
                Color32::RED
            } else {
                Color32::LIGHT_GRAY
            },
        );
    }
    for label in &land.defender_area {
        if let Some(h) = HexId::from_label(label) {
            painter.circle_stroke(
                view.to_screen(hex_centre(h)),
                HEX * 0.8 * view.zoom,
                Stroke::new(1.0, Color32::from_rgb(40, 40, 160)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_share_a_border_both_ways() {
        for x in 0..6 {
            for y in 0..4 {
                let a = GridPos { x, y };
                for b in neighbours(a) {
                    assert!(neighbours(b).contains(&a));
                    assert!(shared_edge(a, b).is_some(), "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn a_point_is_in_its_own_cell() {
        for x in -2..6 {
            for y in -2..4 {
                let pos = GridPos { x, y };
                let [a, b, c] = triangle(pos);
                assert_eq!(cell_at(centroid(a, b, c)), pos);
            }
        }
    }

    #[test]
    fn hex_clicks_find_the_hex_and_side() {
        for hex in HexId::all() {
            let c = hex_centre(hex);
            assert_eq!(hex_at(c), Some((hex, None)));
            for side in Side::ALL {
                let (a, b) = side_corners(c, side);
                let mid = a + (b - a) / 2.0;
                let p = mid + (c - mid) * 0.15;
                assert_eq!(
                    hex_at(p),
                    Some((hex, Some(side))),
                    "{} {side:?}",
                    hex.label()
                );
            }
        }
    }

    #[test]
    fn sides_point_at_their_neighbours() {
        // The hex across a side is where the side's corners say it is.
        let d3 = HexId::from_label("D3").unwrap();
        for side in Side::ALL {
            if let Some(n) = d3.neighbour(side) {
                let (a, b) = side_corners(hex_centre(d3), side);
                let mid = a + (b - a) / 2.0;
                let mirrored = mid + (mid - hex_centre(d3));
                assert!(mirrored.distance(hex_centre(n)) < 0.5, "{side:?}");
            }
        }
    }
}
