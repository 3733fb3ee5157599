//! The game window: a game of any variant, hot-seat and against the
//! computer, over a [`GameSession`].
//!
//! [`GameScreen`] is one game on screen: who sits where, which seat is in
//! front of the screen (the only seat whose view is read), the "pass to"
//! screen between two people, the computer seats' pace, the selection, and
//! autosaves. The masterboard is drawn by `board.rs`, the battle by
//! `battle.rs`; the start screen, saves and replays are in `start.rs`.

mod battle;
mod board;
mod ends;
mod engagement;
mod lands;
mod log;
pub mod online;
mod over;
pub mod settings;
mod start;
mod top;
mod turns;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::Color32;
use serde::{Deserialize, Serialize};
use titan_core::battle::UnitId;
use titan_core::game::save::SaveFile;
use titan_core::game::view::PlayerView;
use titan_core::game::{Action, Event, Marker, Phase, PlayerId};
use titan_core::model::{CharacterId, Variant};
use titan_core::rng::GameRng;

use crate::draw::View;
use crate::session::{GameSession, LocalSession, SPECTATOR, write_save};
use crate::words::Words;

pub use start::{StartForm, data_dir, load_variant};

/// Who plays a seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub name: String,
    /// A computer player instead of a person.
    pub computer: bool,
    /// The computer player's level (`random`, `simple` or `strong`; see
    /// `titan_core::ai`). Saves from before levels play `simple`.
    #[serde(default = "default_level")]
    pub level: String,
    /// A person's seat the computer plays for him until he takes it back.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_in: bool,
}

pub(crate) fn default_level() -> String {
    "simple".into()
}

impl Seat {
    /// A seat played by a person.
    pub fn person(name: &str) -> Seat {
        Seat {
            name: name.into(),
            computer: false,
            level: DEFAULT_LEVEL.into(),
            stand_in: false,
        }
    }

    /// A seat played by the computer at the default level.
    pub fn computer(name: &str) -> Seat {
        Seat {
            computer: true,
            ..Seat::person(name)
        }
    }
}

/// The level a new computer seat plays at.
pub const DEFAULT_LEVEL: &str = "strong";

/// What a save needs besides the game to be continued: the variant's folder
/// and who plays each seat. Written beside the save as `<name>.seats.ron`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SaveSeats {
    pub variant_dir: PathBuf,
    pub seats: Vec<Seat>,
}

/// The seats' colours, by seat (the variant gives players no colours).
pub const SEAT_COLOURS: [Color32; 6] = [
    Color32::from_rgb(200, 40, 40),
    Color32::from_rgb(40, 90, 220),
    Color32::from_rgb(30, 150, 60),
    Color32::from_rgb(220, 170, 20),
    Color32::from_rgb(140, 60, 190),
    Color32::from_rgb(20, 170, 180),
];

pub fn seat_colour(p: PlayerId) -> Color32 {
    SEAT_COLOURS
        .get(p.0 as usize)
        .copied()
        .unwrap_or(Color32::GRAY)
}

/// A replay being watched: the save and how many of its actions are shown.
pub struct Replay {
    pub save: SaveFile,
    pub step: usize,
}

/// What is being built by clicking characters between legions: the initial
/// division (one column per legion) or a split (the old marker, the new).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitEdit {
    /// None for the initial division.
    pub legion: Option<Marker>,
    pub columns: Vec<Vec<CharacterId>>,
}

/// One game on screen.
pub struct GameScreen {
    pub session: Box<dyn GameSession>,
    pub seats: Vec<Seat>,
    pub variant_dir: PathBuf,
    /// The seat in front of the screen: the only one whose view is read.
    pub viewer: PlayerId,
    /// Set when the screen must be passed to another person first.
    pub pass_to: Option<PlayerId>,
    /// Seconds between two computer actions (0: as fast as possible).
    pub pace: f64,
    pub paused: bool,
    next_computer_at: f64,
    rng: GameRng,
    /// The computer players, by seat, made when first needed.
    ai: Vec<Option<Box<dyn titan_core::ai::Player>>>,
    /// The battle odds of the engagement shown (its land and legions, and
    /// the estimate), computed on request.
    pub odds: Option<(String, titan_core::ai::odds::Odds)>,
    /// Odds being computed on another thread (the key they are for), so
    /// that a frame never waits for them.
    pub odds_pending: Option<(
        String,
        std::sync::mpsc::Receiver<Result<titan_core::ai::odds::Odds, String>>,
    )>,
    pub selected: Option<Marker>,
    pub split: Option<SplitEdit>,
    pub selected_unit: Option<UnitId>,
    /// A summon or reinforcement chosen in the battle panel, waiting for
    /// the hex it enters on.
    pub placing: Option<titan_core::battle::Action>,
    pub board_view: View,
    pub hex_view: View,
    /// The board of the battle last drawn (its hexes' places on screen).
    pub battle_board: std::sync::Arc<titan_core::battleland::Board>,
    /// Where autosaves go (None: no autosave, as in a replay).
    pub autosave: Option<PathBuf>,
    pub replay: Option<Replay>,
    pub status: String,
    /// The name typed for "Save".
    pub save_name: String,
    pub show_menu: bool,
    /// The chat line being typed (online games).
    pub chat_line: String,
    /// The viewer's legal actions, kept until the game or the viewer
    /// changes (a split phase offers many; a frame asks several times).
    actions_cache: std::cell::RefCell<Option<(usize, PlayerId, Vec<Action>)>>,
    /// A concession of the game or of a battle the viewer clicked, waiting
    /// for him to confirm it (one click never ends a game).
    pub confirm: Option<Action>,
    /// The units of each battle the log has shown, by the index of the
    /// event its battle began with: its lines keep their characters' names
    /// once the battle is over.
    battle_units: std::collections::BTreeMap<usize, Vec<titan_core::battle::UnitView>>,
    /// Phases the app ended for a person who could do nothing else, as log
    /// lines, by the number of events before them (in order).
    phase_notes: Vec<(usize, String)>,
    /// The level a seat handed to the computer is played at.
    pub stand_in_level: String,
    /// The phase's end the bar offers, and since when (the app's time): a
    /// new one takes no click at once (a double click on the last would
    /// end the next phase too).
    bar_end: (String, f64),
    /// The number of actions the autosave holds: it is written again at
    /// the end of a frame in which the game went on.
    autosaved: usize,
    /// When the autosave was last written (the app's time).
    autosaved_at: f64,
    /// A person acted since the last autosave.
    person_acted: bool,
    /// The seats last written beside the autosave (written again only
    /// when they change).
    seats_written: Option<(PathBuf, Vec<Seat>)>,
}

/// Seconds between two autosaves of the computer's actions alone.
const AUTOSAVE_EVERY: f64 = 1.0;

/// Whether `action` gives up the game or a battle (asked again before it
/// is taken).
fn is_concession(action: &Action) -> bool {
    matches!(
        action,
        Action::ConcedeGame
            | Action::Battle {
                battle: titan_core::battle::Action::Concede(_)
            }
    )
}

/// Actions the computer takes per frame at full speed (the window stays
/// responsive).
const INSTANT_BATCH: usize = 40;

impl GameScreen {
    pub fn new(
        session: Box<dyn GameSession>,
        seats: Vec<Seat>,
        variant_dir: PathBuf,
        autosave: Option<PathBuf>,
        seed: u64,
    ) -> GameScreen {
        let mut g = GameScreen {
            session,
            seats,
            variant_dir,
            viewer: SPECTATOR,
            pass_to: None,
            pace: 0.3,
            paused: false,
            next_computer_at: 0.0,
            rng: GameRng::new(seed ^ 0xc0_ffee),
            ai: Vec::new(),
            odds: None,
            odds_pending: None,
            selected: None,
            split: None,
            selected_unit: None,
            placing: None,
            board_view: View::default(),
            hex_view: View::default(),
            battle_board: titan_core::battleland::Board::standard(),
            autosave,
            replay: None,
            status: String::new(),
            save_name: String::new(),
            show_menu: false,
            chat_line: String::new(),
            actions_cache: std::cell::RefCell::new(None),
            confirm: None,
            battle_units: Default::default(),
            phase_notes: Vec::new(),
            stand_in_level: DEFAULT_LEVEL.into(),
            bar_end: (String::new(), 0.0),
            autosaved: 0,
            autosaved_at: f64::NEG_INFINITY,
            person_acted: false,
            seats_written: None,
        };
        g.autosaved = g.session.history_len();
        let humans = g.humans();
        if let Some(&first) = humans.first() {
            g.viewer = first;
        } else if let Some(i) = g.seats.iter().position(|s| s.stand_in) {
            // A seat handed to the computer, saved so: its person watches.
            g.viewer = PlayerId(i as u8);
        }
        g.end_empty_phases();
        g.update_viewer();
        g
    }

    pub fn variant(&self) -> Arc<Variant> {
        self.session.variant().clone()
    }

    pub fn humans(&self) -> Vec<PlayerId> {
        (0..self.seats.len())
            .filter(|&i| !self.seats[i].computer)
            .map(|i| PlayerId(i as u8))
            .collect()
    }

    fn is_human(&self, p: PlayerId) -> bool {
        self.seats.get(p.0 as usize).is_some_and(|s| !s.computer)
    }

    pub fn view(&self) -> PlayerView {
        self.session.view(self.viewer)
    }

    pub fn words(&self, units: &[titan_core::battle::UnitView]) -> Words {
        Words {
            variant: self.session.variant().clone(),
            players: self.seats.iter().map(|s| s.name.clone()).collect(),
            units: units.to_vec(),
        }
    }

    /// The viewer's legal actions (none while the screen waits to be passed,
    /// or in a replay).
    pub fn my_actions(&self) -> Vec<Action> {
        if self.pass_to.is_some() || self.replay.is_some() || !self.is_human(self.viewer) {
            return Vec::new();
        }
        let key = (self.session.history_len(), self.viewer);
        if let Some((n, p, a)) = &*self.actions_cache.borrow()
            && (*n, *p) == key
        {
            return a.clone();
        }
        let acting = self.session.to_act();
        let actions = self.session.legal_actions(self.viewer);
        let actions: Vec<Action> = if acting.contains(&self.viewer) {
            actions
        } else {
            // Out of turn, a player may only leave the game.
            actions
                .into_iter()
                .filter(|a| *a == Action::ConcedeGame)
                .collect()
        };
        *self.actions_cache.borrow_mut() = Some((key.0, key.1, actions.clone()));
        actions
    }

    /// Decides who should be in front of the screen: the viewer while they
    /// have something to do, else the first person who has. Between two
    /// people the screen must be passed.
    pub fn update_viewer(&mut self) {
        if self.replay.is_some() {
            return;
        }
        let humans = self.humans();
        // Whoever handed his seat to the computer still sits in front of
        // the screen, and sees what his seat sees.
        let stand_in = self
            .seats
            .get(usize::from(self.viewer.0))
            .is_some_and(|s| s.stand_in);
        if humans.is_empty() {
            if !stand_in {
                self.viewer = SPECTATOR;
            }
            return;
        }
        if humans.len() == 1 && !stand_in {
            self.viewer = humans[0];
            return;
        }
        let acting = self.session.to_act();
        // A pass screen for someone with nothing left to do (his phase
        // ended by itself) is not shown.
        if self.pass_to.is_some_and(|p| !acting.contains(&p)) {
            self.pass_to = None;
        }
        if acting.contains(&self.viewer) && self.is_human(self.viewer) {
            self.pass_to = None;
            return;
        }
        if let Some(&next) = acting.iter().find(|p| self.is_human(**p))
            && next != self.viewer
            && self.pass_to != Some(next)
        {
            self.pass_to = Some(next);
            self.clear_selection();
        }
    }

    /// The person the screen was passed to takes it.
    pub fn take_screen(&mut self) {
        if let Some(p) = self.pass_to.take() {
            self.viewer = p;
            self.board_view.fitted = false;
            // The last refusal was the other person's business.
            self.status.clear();
        }
    }

    fn clear_selection(&mut self) {
        self.selected = None;
        self.split = None;
        self.selected_unit = None;
        self.placing = None;
    }

    /// Acts for the viewer; a refusal is shown, and changes nothing. A
    /// concession (of the game or of a battle) is only asked for here: it
    /// is taken once the viewer confirms it ([`GameScreen::confirm_bar`]).
    pub fn act(&mut self, action: &Action) {
        if is_concession(action) {
            self.confirm = Some(action.clone());
            return;
        }
        let player = self.viewer;
        self.act_as(player, action);
    }

    /// The question of a concession waiting to be confirmed, above
    /// everything else of the side panel, with its two answers side by
    /// side: never where a button of the phase was.
    fn confirm_bar(&mut self, ui: &mut egui::Ui) {
        let Some(action) = self.confirm.clone() else {
            return;
        };
        // Only while it is still the viewer's to take.
        if !self.my_actions().contains(&action) && !self.battle_concession_legal(&action) {
            self.confirm = None;
            return;
        }
        let (question, yes) = match &action {
            Action::ConcedeGame => (
                "Concede the game? Your legions leave the board and you are out of the game.",
                "Yes, concede the game",
            ),
            _ => (
                "Concede the battle? Your legion is eliminated and the enemy scores it.",
                "Yes, concede the battle",
            ),
        };
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.label(egui::RichText::new(question).strong());
            ui.horizontal(|ui| {
                if ui.button("No, go on playing").clicked() {
                    self.confirm = None;
                }
                ui.add_space(24.0);
                if ui.button(yes).clicked() {
                    self.confirm = None;
                    let player = self.viewer;
                    self.act_as(player, &action);
                }
            });
        });
        ui.separator();
    }

    /// Whether `action` is a battle concession the viewer may take now.
    fn battle_concession_legal(&self, action: &Action) -> bool {
        match action {
            Action::Battle { battle } => self.battle_actions().contains(battle),
            _ => false,
        }
    }

    fn act_as(&mut self, player: PlayerId, action: &Action) {
        // A remote session answers later, with the same history length.
        self.actions_cache.borrow_mut().take();
        match self.session.apply(player, action) {
            Ok(events) => {
                if self.is_human(player) {
                    self.status.clear();
                    self.person_acted = true;
                }
                self.after(&events);
            }
            Err(e) => self.status = format!("Refused: {e}"),
        }
    }

    fn after(&mut self, events: &[Event]) {
        self.note_events(events);
        self.end_empty_phases();
        self.update_viewer();
    }

    /// What an action's events change on screen: a selection gone with its
    /// legion or battle.
    fn note_events(&mut self, _events: &[Event]) {
        self.actions_cache.borrow_mut().take();
        if let Some(m) = self.selected
            && !self.view().legions.iter().any(|l| l.marker == m)
        {
            self.selected = None;
        }
        if self.session.battle(self.viewer).is_none() {
            self.selected_unit = None;
            self.placing = None;
        }
    }

    /// Writes the autosave (and its seats) atomically.
    pub fn autosave_now(&mut self) {
        self.autosaved = self.session.history_len();
        self.person_acted = false;
        let Some(path) = self.autosave.clone() else {
            return;
        };
        // The seats beside it change seldom: written when they do.
        let seats_known = self
            .seats_written
            .as_ref()
            .is_some_and(|(p, s)| *p == path && *s == self.seats);
        let written = if seats_known {
            write_save(&path, &self.session.save_file())
        } else {
            self.save_to(&path)
                .inspect(|()| self.seats_written = Some((path.clone(), self.seats.clone())))
        };
        if let Err(e) = written {
            self.status = format!("autosave failed: {e}");
        }
    }

    /// Autosaves if an action was taken since the last autosave: killing
    /// the app loses no action of a person, in a battle as anywhere. At
    /// most once a frame, at once after a person's action; the computer's
    /// actions alone at most every [`AUTOSAVE_EVERY`] seconds (a write and
    /// its sync take some milliseconds: not one per computer action).
    fn autosave_if_changed(&mut self, ctx: &egui::Context, now: f64) {
        if self.autosave.is_none() || self.session.history_len() == self.autosaved {
            return;
        }
        if self.person_acted || now - self.autosaved_at >= AUTOSAVE_EVERY {
            self.autosaved_at = now;
            self.autosave_now();
        } else {
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(AUTOSAVE_EVERY));
        }
    }

    /// Writes the game to `path` and its seats beside it.
    pub fn save_to(&self, path: &Path) -> Result<(), String> {
        write_save(path, &self.session.save_file())?;
        let seats = SaveSeats {
            variant_dir: self.variant_dir.clone(),
            seats: self.seats.clone(),
        };
        let text = titan_core::write::to_ron(&seats).map_err(|e| e.to_string())?;
        titan_core::write::write_atomic(&seats_path(path), text.as_bytes())
            .map_err(|e| e.to_string())
    }

    /// Lets the computer seats act: one action when its time has come, or a
    /// batch at full speed. Returns whether anything was done.
    pub fn computer_turns(&mut self, now: f64) -> bool {
        if self.paused
            || self.pass_to.is_some()
            || self.replay.is_some()
            || !self.session.drives_computers()
        {
            return false;
        }
        let batch = if self.pace <= 0.0 { INSTANT_BATCH } else { 1 };
        if self.pace > 0.0 && now < self.next_computer_at {
            return false;
        }
        let mut done = false;
        for _ in 0..batch {
            let acting = self.session.to_act();
            let Some(&p) = acting.iter().find(|p| !self.is_human(**p)) else {
                break;
            };
            let Some(action) = self.computer_action(p) else {
                break;
            };
            self.act_as(p, &action);
            done = true;
            if self.pass_to.is_some() {
                break;
            }
        }
        if done {
            self.next_computer_at = now + self.pace;
        }
        done
    }

    /// The action of the computer seat `p`: its player's choice from what
    /// the seat may know, or a random legal action where the session gives
    /// no observation or the player fails.
    fn computer_action(&mut self, p: PlayerId) -> Option<Action> {
        let i = usize::from(p.0);
        if self.ai.len() <= i {
            self.ai.resize_with(i + 1, || None);
        }
        if self.ai[i].is_none() {
            let level = self
                .seats
                .get(i)
                .map_or(DEFAULT_LEVEL, |s| s.level.as_str());
            let seed = self.rng.next_u64();
            self.ai[i] = titan_core::ai::player(level, seed).ok();
        }
        if let (Some(player), Some(obs)) = (self.ai[i].as_mut(), self.session.observe(p))
            && let Ok(a) = player.choose(&obs)
            && obs.legal.contains(&a)
        {
            return Some(a);
        }
        let actions = self.session.legal_actions(p);
        titan_core::game::random::choose(actions, &mut self.rng)
    }

    /// Whether an online game waits for the viewer (for the window's
    /// title).
    pub fn online_turn(&self) -> bool {
        !self.session.drives_computers()
            && self.replay.is_none()
            && self.viewer != SPECTATOR
            && self.session.to_act().contains(&self.viewer)
            && self.view().outcome.is_none()
    }

    /// Whether a computer seat has something to do.
    pub fn computer_to_act(&self) -> bool {
        self.session.drives_computers() && self.session.to_act().iter().any(|p| !self.is_human(*p))
    }

    /// Shows the replay at `step` actions.
    pub fn replay_to(&mut self, step: usize) {
        let Some(r) = &self.replay else {
            return;
        };
        let step = step.min(r.save.actions.len());
        match crate::session::replay(self.session.variant().clone(), &r.save, step) {
            Ok((game, events)) => {
                self.session = Box::new(LocalSession::new(game, events));
                if let Some(r) = &mut self.replay {
                    r.step = step;
                }
            }
            Err(e) => self.status = e,
        }
    }

    /// Draws the game, and autosaves what was played in the frame.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<GameExit> {
        let exit = self.draw(ui);
        let now = ui.input(|i| i.time);
        self.autosave_if_changed(ui.ctx(), now);
        exit
    }

    fn draw(&mut self, ui: &mut egui::Ui) -> Option<GameExit> {
        let now = ui.input(|i| i.time);
        if self.session.poll() {
            self.after(&[]);
            ui.ctx().request_repaint();
        }
        if let Some(notice) = self.session.take_notice() {
            self.status = notice;
        }
        if !self.session.drives_computers() {
            // Online: the server's pushes arrive between frames.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
        if self.computer_turns(now) {
            ui.ctx().request_repaint();
        } else if self.computer_to_act() && !self.paused && self.pass_to.is_none() {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs_f64(self.pace.max(0.01)));
        }
        if let Some(p) = self.pass_to {
            return self.pass_screen(ui, p);
        }
        let exit = egui::Panel::top("game-top")
            .show(ui, |ui| self.top_bar(ui))
            .inner;
        let battle = self.session.battle(self.viewer);
        // Resizable by its top edge; a dozen lines to begin with.
        egui::Panel::bottom("log")
            .resizable(true)
            .default_size(250.0)
            .show(ui, |ui| self.log(ui, battle.as_ref()));
        egui::Panel::right("side")
            .default_size(340.0)
            .show(ui, |ui| {
                // Not for a replay or a table of computers: nothing to end.
                if self.replay.is_none() && self.viewer != SPECTATOR {
                    egui::Panel::bottom("side-ends")
                        .show(ui, |ui| self.end_bar(ui, battle.as_ref()));
                }
                egui::ScrollArea::vertical().show(ui, |ui| {
                    self.confirm_bar(ui);
                    match &battle {
                        Some(b) => self.battle_panel(ui, b),
                        None => self.board_panel(ui),
                    }
                })
            });
        egui::CentralPanel::default().show(ui, |ui| match &battle {
            Some(b) => self.battle_canvas(ui, b),
            None => self.board_canvas(ui),
        });
        exit
    }

    fn pass_screen(&mut self, ui: &mut egui::Ui, to: PlayerId) -> Option<GameExit> {
        let name = self.seats[to.0 as usize].name.clone();
        let mut exit = None;
        egui::CentralPanel::default().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(ui.available_height() / 3.0);
                ui.heading(format!("Pass the screen to {name}"));
                ui.label("Everything is hidden until they take it.");
                ui.add_space(12.0);
                if ui.button(format!("I am {name}: show my game")).clicked() {
                    self.take_screen();
                }
                ui.add_space(24.0);
                if ui.button("Quit to the start screen").clicked() {
                    exit = Some(GameExit::ToStart);
                }
            });
        });
        exit
    }
}

/// What the game screen asks of the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameExit {
    ToStart,
    /// Save under this name in the saves folder.
    Save(String),
}

/// The file beside a save that holds its seats.
pub fn seats_path(save: &Path) -> PathBuf {
    let stem = save
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    save.with_file_name(format!("{stem}.seats.ron"))
}

pub fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::InitialSplit => "initial split",
        Phase::Split => "split phase",
        Phase::Move => "movement phase",
        Phase::Engage => "engagement phase",
        Phase::Muster => "muster phase",
        Phase::Over => "game over",
    }
}

/// Which screen the app shows.
pub enum Screen {
    Start,
    Game(Box<GameScreen>),
    Editor(Box<crate::EditorApp>),
    Online(Box<online::OnlineScreen>),
}

/// The whole app: the start screen, a game, a replay, or the editor.
pub struct PlayApp {
    pub variants_root: PathBuf,
    /// Autosave and saves (`saves/`) live here.
    pub data_dir: PathBuf,
    pub screen: Screen,
    pub form: StartForm,
    pub status: String,
    /// What is remembered between runs (`settings.ron` in the data folder).
    pub settings: settings::Settings,
    /// The remembered UI scale has been given to egui.
    scale_applied: bool,
    /// The window's title last set.
    title: String,
}

impl PlayApp {
    pub fn new(variants_root: &Path, data_dir: &Path) -> PlayApp {
        PlayApp {
            variants_root: variants_root.to_path_buf(),
            data_dir: data_dir.to_path_buf(),
            screen: Screen::Start,
            form: StartForm::new(variants_root),
            status: String::new(),
            settings: settings::Settings::read(data_dir),
            scale_applied: false,
            title: "Titan".into(),
        }
    }

    /// Puts a game already set up on screen (a position, a test's game).
    pub fn open_game(&mut self, session: Box<dyn GameSession>, seats: Vec<Seat>, dir: &Path) {
        let g = GameScreen::new(
            session,
            seats,
            dir.to_path_buf(),
            Some(self.autosave_path()),
            1,
        );
        self.screen = Screen::Game(Box::new(g));
    }

    pub fn autosave_path(&self) -> PathBuf {
        self.data_dir.join("autosave.ron")
    }

    pub fn saves_dir(&self) -> PathBuf {
        self.data_dir.join("saves")
    }

    /// The game on screen, if any.
    pub fn game(&self) -> Option<&GameScreen> {
        match &self.screen {
            Screen::Game(g) => Some(g),
            _ => None,
        }
    }

    pub fn game_mut(&mut self) -> Option<&mut GameScreen> {
        match &mut self.screen {
            Screen::Game(g) => Some(g),
            _ => None,
        }
    }

    /// The window's title: "(Your turn) Titan" while an online game (on
    /// screen, or in the lobby) waits for this player.
    pub fn window_title(&self) -> String {
        let yours = match &self.screen {
            Screen::Game(g) => g.online_turn(),
            Screen::Online(o) => !o.my_turns().is_empty(),
            _ => false,
        };
        if yours { "(Your turn) Titan" } else { "Titan" }.to_string()
    }

    /// Sets the window's title when it changes, and asks for the user's
    /// attention when his turn comes (the window may be behind another).
    fn keep_title(&mut self, ctx: &egui::Context) {
        let title = self.window_title();
        if title == self.title {
            return;
        }
        let yours = title != "Titan";
        ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
        ctx.send_viewport_cmd(egui::ViewportCommand::RequestUserAttention(if yours {
            egui::UserAttentionType::Informational
        } else {
            egui::UserAttentionType::Reset
        }));
        self.title = title;
    }

    /// Draws the app.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.keep_ui_scale(ui.ctx());
        self.keep_title(ui.ctx());
        match &mut self.screen {
            Screen::Start => self.start_screen(ui),
            Screen::Game(g) => {
                let over = g.replay.is_none() && g.view().outcome.is_some();
                let exit = if over {
                    over::game_over_screen(g, ui)
                } else {
                    g.ui(ui)
                };
                match exit {
                    Some(GameExit::ToStart) => {
                        // "Continue the last game" picks up from here, not
                        // from the start of the turn.
                        g.autosave_now();
                        self.screen = Screen::Start;
                        self.form.refresh(&self.data_dir);
                    }
                    Some(GameExit::Save(name)) => self.save_game(&name),
                    None => {}
                }
            }
            Screen::Online(o) => {
                let exit = o.ui(ui, &self.variants_root);
                if let Some(login) = o.remember.take() {
                    self.settings.online = login;
                    if let Err(e) = self.settings.write(&self.data_dir) {
                        o.status = format!("could not remember the log-in: {e}");
                    }
                }
                match exit {
                    Some(online::OnlineExit::Back) => self.screen = Screen::Start,
                    Some(online::OnlineExit::Play(session, seats, dir)) => {
                        let g = GameScreen::new(session, seats, dir, None, 1);
                        self.screen = Screen::Game(Box::new(g));
                    }
                    None => {}
                }
            }
            Screen::Editor(e) => {
                let mut back = false;
                egui::Panel::top("back-to-play").show(ui, |ui| {
                    back = ui.button("Back to the start screen").clicked();
                });
                e.ui(ui);
                // With unsaved edits the editor asks first; "Close" would
                // close the whole window, so leaving is a request of its own.
                if back {
                    e.request(crate::Pending::Leave);
                }
                if e.left {
                    // The editor may have changed the chosen variant or made
                    // new ones: the form plays what is on disk now.
                    self.form.reload(&self.variants_root);
                    self.screen = Screen::Start;
                }
            }
        }
    }

    /// Gives egui the remembered UI scale on the first frame, and remembers
    /// it whenever it changes after (egui's Ctrl + and Ctrl -, the start
    /// screen's buttons).
    fn keep_ui_scale(&mut self, ctx: &egui::Context) {
        if !self.scale_applied {
            self.scale_applied = true;
            ctx.set_zoom_factor(self.settings.ui_scale);
            return;
        }
        let z = ctx.zoom_factor();
        if (z - self.settings.ui_scale).abs() > 1e-3 {
            self.settings.ui_scale = z;
            if let Err(e) = self.settings.write(&self.data_dir) {
                self.status = format!("could not remember the UI scale: {e}");
            }
        }
    }

    /// The window is closing: the game on screen is autosaved where it
    /// stands (a replay or an online game has no autosave).
    pub fn on_exit(&mut self) {
        if let Some(g) = self.game_mut() {
            g.autosave_now();
        }
    }

    fn save_game(&mut self, name: &str) {
        let Some(g) = self.game_mut() else {
            return;
        };
        let name = if name.is_empty() {
            let v = g.view();
            format!("{}-turn-{}", g.session.variant().id, v.turn)
        } else {
            name.replace(['/', '\\'], "-")
        };
        // `<name>.seats.ron` is the seats file beside save `<name>`: a save
        // named so would be left out of the saves list (and could overwrite
        // another save's seats), so it is saved as `<name>-seats`.
        let (name, renamed) = match name.strip_suffix(".seats") {
            Some(stem) => (format!("{stem}-seats"), true),
            None => (name, false),
        };
        let path = self.saves_dir().join(format!("{name}.ron"));
        let g = self.game_mut().unwrap();
        g.status = match g.save_to(&path) {
            Ok(()) if renamed => format!(
                "saved to {} (a name ending in .seats is kept for seats files)",
                path.display()
            ),
            Ok(()) => format!("saved to {}", path.display()),
            Err(e) => format!("could not save: {e}"),
        };
    }
}
