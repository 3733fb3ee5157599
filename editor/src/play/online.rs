//! "Play online": the server's address, logging in, and the lobby (open
//! games, my games, whose turn it is; create and join). A game opened here
//! is played on the usual screens through a [`RemoteSession`].
//!
//! Every request goes through a [`Background`] connection: the screen sends
//! and, in later frames, takes in the answers; it never waits.

use std::collections::HashMap;
use std::path::Path;

use titan_server::client::{Background, Report};
use titan_server::protocol::{GameState, GameSummary, Request};

use super::{Seat, default_level};
use crate::remote::RemoteSession;

/// What a request sent was for.
#[derive(Debug, Clone, PartialEq)]
enum Ask {
    Login,
    Lobby,
    Variants,
    Create,
    Join,
    Watch(String),
}

/// The online screen's state.
pub struct OnlineScreen {
    pub server: String,
    pub user: String,
    pub password: String,
    /// Sign up instead of logging in.
    pub new_account: bool,
    conn: Option<Background>,
    /// The user logged in.
    pub me: Option<String>,
    token: String,
    pub games: Vec<GameSummary>,
    pub variants: Vec<String>,
    asked: HashMap<u64, Ask>,
    pub status: String,
    pub create_variant: String,
    pub create_people: usize,
    pub create_computers: usize,
    /// The level of the computers created (see `titan_core::ai`).
    pub create_level: String,
    pub timeout_secs: u32,
    last_lobby: f64,
}

/// What the online screen asks of the app.
pub enum OnlineExit {
    Back,
    /// Play this game (the first state has arrived).
    Play(Box<RemoteSession>, Vec<Seat>, std::path::PathBuf),
}

/// How often the lobby is asked again (seconds).
const LOBBY_EVERY: f64 = 3.0;

impl Default for OnlineScreen {
    fn default() -> Self {
        OnlineScreen {
            server: "127.0.0.1:7860".into(),
            user: String::new(),
            password: String::new(),
            new_account: false,
            conn: None,
            me: None,
            token: String::new(),
            games: Vec::new(),
            variants: Vec::new(),
            asked: HashMap::new(),
            status: String::new(),
            create_variant: "titan".into(),
            create_people: 2,
            create_computers: 0,
            create_level: "simple".into(),
            timeout_secs: 0,
            last_lobby: f64::NEG_INFINITY,
        }
    }
}

impl OnlineScreen {
    fn send(&mut self, request: Request, ask: Ask) {
        if let Some(c) = &mut self.conn {
            let tag = c.send(request);
            self.asked.insert(tag, ask);
        }
    }

    /// Connects and logs in (or signs up).
    pub fn log_in(&mut self) {
        self.conn = Some(Background::connect(&self.server));
        self.me = None;
        self.asked.clear();
        self.status = format!("connecting to {}", self.server);
        let (user, password) = (self.user.trim().to_string(), self.password.clone());
        let request = if self.new_account {
            Request::Signup { user, password }
        } else {
            Request::Login { user, password }
        };
        self.send(request, Ask::Login);
    }

    pub fn refresh_lobby(&mut self) {
        self.send(Request::Lobby {}, Ask::Lobby);
    }

    /// The games where it is this user's turn.
    pub fn my_turns(&self) -> Vec<&GameSummary> {
        let me = self.me.as_deref().unwrap_or_default();
        self.games
            .iter()
            .filter(|g| g.status == "running" && g.to_act.iter().any(|n| n == me))
            .collect()
    }

    /// Takes in the answers; a game to play when its first state came.
    fn take_reports(&mut self, variants_root: &Path) -> Option<OnlineExit> {
        let reports = self.conn.as_ref().map(Background::poll).unwrap_or_default();
        for report in reports {
            match report {
                Report::Answer { tag, result } => {
                    let ask = self.asked.remove(&tag);
                    match (ask, result) {
                        (Some(Ask::Login), Ok(v)) => {
                            self.me = v["user"].as_str().map(String::from);
                            self.token = v["token"].as_str().unwrap_or_default().to_string();
                            self.password.clear();
                            self.status =
                                format!("logged in as {}", self.me.clone().unwrap_or_default());
                            self.send(Request::Variants {}, Ask::Variants);
                            self.refresh_lobby();
                        }
                        (Some(Ask::Lobby), Ok(v)) => {
                            self.games = serde_json::from_value(v).unwrap_or_default();
                        }
                        (Some(Ask::Variants), Ok(v)) => {
                            self.variants = serde_json::from_value(v).unwrap_or_default();
                        }
                        (Some(Ask::Create | Ask::Join), Ok(v)) => {
                            self.status = format!(
                                "game {}: {}",
                                v["game"].as_str().unwrap_or_default(),
                                v["status"].as_str().unwrap_or("joined")
                            );
                            self.refresh_lobby();
                        }
                        (Some(Ask::Watch(_)), Ok(_)) => {}
                        (Some(Ask::Login), Err(e)) => {
                            self.status = format!("cannot log in: {e}");
                            self.conn = None;
                        }
                        (_, Err(e)) => self.status = e,
                        (None, Ok(_)) => {}
                    }
                }
                Report::State(state) => return self.play(*state, variants_root),
                Report::Notice(n) => self.status = n,
                Report::Closed(e) => {
                    self.status = e;
                    self.conn = None;
                    self.me = None;
                }
            }
        }
        None
    }

    /// Opens the game whose first state has come.
    fn play(&mut self, state: GameState, variants_root: &Path) -> Option<OnlineExit> {
        let dir = variants_root.join(&state.variant);
        let variant = match super::load_variant(&dir) {
            Ok(v) => v,
            Err(e) => {
                self.status = format!("variant {} does not load here: {e}", state.variant);
                return None;
            }
        };
        let conn = self.conn.take()?;
        let seats = state
            .view
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| Seat {
                name: p.name.clone(),
                // The other seats are played elsewhere: not on this screen.
                computer: state.seat.is_none_or(|s| s.0 as usize != i),
                // The server plays its computer seats at their own level.
                level: default_level(),
                stand_in: false,
            })
            .collect();
        match RemoteSession::new(conn, &self.server, &self.token, variant, state) {
            Ok(session) => Some(OnlineExit::Play(Box::new(session), seats, dir)),
            Err(e) => {
                self.status = e;
                self.me = None;
                None
            }
        }
    }

    /// Draws the screen.
    pub fn ui(&mut self, ui: &mut egui::Ui, variants_root: &Path) -> Option<OnlineExit> {
        let now = ui.input(|i| i.time);
        if let Some(exit) = self.take_reports(variants_root) {
            return Some(exit);
        }
        if self.conn.is_some() {
            // Answers arrive between frames.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
        if self.me.is_some() && now - self.last_lobby > LOBBY_EVERY {
            self.last_lobby = now;
            self.refresh_lobby();
        }
        let mut exit = None;
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                if ui.button("Back to the start screen").clicked() {
                    exit = Some(OnlineExit::Back);
                }
                ui.heading("Play online");
            });
            ui.separator();
            if self.me.is_none() {
                self.login_form(ui);
            } else {
                self.lobby(ui);
            }
            if !self.status.is_empty() {
                ui.separator();
                ui.label(self.status.clone());
            }
        });
        exit
    }

    fn login_form(&mut self, ui: &mut egui::Ui) {
        egui::Grid::new("login").show(ui, |ui| {
            let l = ui.label("Server");
            ui.text_edit_singleline(&mut self.server).labelled_by(l.id);
            ui.end_row();
            let l = ui.label("User");
            ui.text_edit_singleline(&mut self.user).labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Password");
            ui.add(egui::TextEdit::singleline(&mut self.password).password(true))
                .labelled_by(l.id);
            ui.end_row();
        });
        ui.checkbox(&mut self.new_account, "New account (sign up)");
        let busy = self.conn.is_some();
        if ui.add_enabled(!busy, egui::Button::new("Log in")).clicked() {
            self.log_in();
        }
    }

    fn lobby(&mut self, ui: &mut egui::Ui) {
        let me = self.me.clone().unwrap_or_default();
        let turns: Vec<String> = self.my_turns().iter().map(|g| g.id.clone()).collect();
        if !turns.is_empty() {
            ui.colored_label(
                egui::Color32::from_rgb(230, 160, 40),
                format!("Your turn in {}", turns.join(", ")),
            );
        }
        ui.horizontal(|ui| {
            ui.label(format!("Logged in as {me}"));
            if ui.button("Refresh").clicked() {
                self.refresh_lobby();
            }
        });
        ui.heading("Create a game");
        ui.horizontal(|ui| {
            egui::ComboBox::from_label("variant")
                .selected_text(self.create_variant.clone())
                .show_ui(ui, |ui| {
                    for v in self.variants.clone() {
                        ui.selectable_value(&mut self.create_variant, v.clone(), v);
                    }
                });
            ui.add(egui::DragValue::new(&mut self.create_people).range(1..=6));
            ui.label("people");
            ui.add(egui::DragValue::new(&mut self.create_computers).range(0..=5));
            ui.label("computers");
            egui::ComboBox::from_id_salt("computer level")
                .selected_text(self.create_level.clone())
                .show_ui(ui, |ui| {
                    for l in titan_server::computer::LEVELS {
                        ui.selectable_value(&mut self.create_level, l.to_string(), *l);
                    }
                });
            ui.add(egui::DragValue::new(&mut self.timeout_secs).range(0..=604_800));
            ui.label("seconds before an absent player's turn is played (0: never)");
        });
        if ui.button("Create").clicked() {
            let mut seats = vec!["human".to_string(); self.create_people];
            seats.extend(vec![
                format!("computer:{}", self.create_level);
                self.create_computers
            ]);
            self.send(
                Request::Create {
                    variant: self.create_variant.clone(),
                    options: Default::default(),
                    seats,
                    timeout_secs: self.timeout_secs,
                },
                Ask::Create,
            );
        }
        ui.separator();
        let (mine, open): (Vec<GameSummary>, Vec<GameSummary>) = self
            .games
            .clone()
            .into_iter()
            .partition(|g| g.seats.iter().any(|s| s.user.as_deref() == Some(&me)));
        ui.heading("My games");
        self.table(ui, "my-games", &mine, &me);
        ui.heading("Open games");
        self.table(ui, "open-games", &open, &me);
    }

    fn table(&mut self, ui: &mut egui::Ui, id: &str, games: &[GameSummary], me: &str) {
        if games.is_empty() {
            ui.label("none");
            return;
        }
        egui::Grid::new(id).striped(true).show(ui, |ui| {
            for g in games {
                ui.label(&g.id);
                ui.label(&g.variant);
                ui.label(&g.status);
                let seats: Vec<String> = g
                    .seats
                    .iter()
                    .map(|s| match (&s.user, s.kind.as_str()) {
                        (_, "computer") => "computer".to_string(),
                        (Some(u), _) => u.clone(),
                        (None, _) => "open".to_string(),
                    })
                    .collect();
                ui.label(seats.join(", "));
                ui.label(if g.to_act.is_empty() {
                    String::new()
                } else {
                    format!("to act: {}", g.to_act.join(", "))
                });
                let seated = g.seats.iter().any(|s| s.user.as_deref() == Some(me));
                let free = g
                    .seats
                    .iter()
                    .any(|s| s.kind == "human" && s.user.is_none());
                if g.status == "open" && !seated && free {
                    if ui.button(format!("Join {}", g.id)).clicked() {
                        self.send(
                            Request::Join {
                                game: g.id.clone(),
                                seat: None,
                            },
                            Ask::Join,
                        );
                    }
                } else if g.status != "open" {
                    let label = if seated { "Play" } else { "Watch" };
                    if ui.button(format!("{label} {}", g.id)).clicked() {
                        self.send(
                            Request::Watch {
                                game: g.id.clone(),
                                events_from: 0,
                            },
                            Ask::Watch(g.id.clone()),
                        );
                    }
                } else {
                    ui.label("waiting for players");
                }
                ui.end_row();
            }
        });
    }
}
