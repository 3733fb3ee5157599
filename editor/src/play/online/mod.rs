//! "Play online": the server's address, logging in, and the lobby (your
//! games, open games, running games; create, join, watch). A game opened
//! here is played on the usual screens through a [`RemoteSession`].
//!
//! Every request goes through a [`Background`] connection: the screen sends
//! and, in later frames, takes in the answers; it never waits.
//!
//! The log-in form and the remembered log-in are in `login.rs`, the lobby
//! in `lobby.rs`.

mod lobby;
mod login;

use std::collections::HashMap;
use std::path::Path;

use titan_server::client::{Background, Report};
use titan_server::protocol::{GameState, GameSummary, Request};

use super::settings::OnlineLogin;
use super::{Seat, default_level};
use crate::remote::RemoteSession;

/// What a request sent was for.
#[derive(Debug, Clone, PartialEq)]
enum Ask {
    Login,
    /// A log-in with the remembered token.
    TokenLogin,
    Lobby,
    Variants,
    Create,
    Join,
    Watch(String),
    LogOut,
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
    /// A log-in to remember (or to forget: an empty token), for the app to
    /// write to its settings.
    pub remember: Option<OnlineLogin>,
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
            remember: None,
        }
    }
}

impl OnlineScreen {
    /// The screen with the remembered log-in: the form filled in, and
    /// logging in with the token if there is one.
    pub fn new(remembered: &OnlineLogin) -> OnlineScreen {
        let mut s = OnlineScreen::default();
        if !remembered.server.is_empty() {
            s.server = remembered.server.clone();
        }
        s.user = remembered.user.clone();
        if !remembered.token.is_empty() {
            s.token = remembered.token.clone();
            s.log_in_with_token();
        }
        s
    }

    fn send(&mut self, request: Request, ask: Ask) {
        if let Some(c) = &mut self.conn {
            let tag = c.send(request);
            self.asked.insert(tag, ask);
        }
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
                        (Some(Ask::Login | Ask::TokenLogin), Ok(v)) => self.logged_in(&v),
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
                        (Some(Ask::LogOut), _) => self.conn = None,
                        (Some(Ask::Login), Err(e)) => self.refused(&e),
                        (Some(Ask::TokenLogin), Err(e)) => self.token_refused(&e),
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
            if !self.status.is_empty() {
                // Above the lobby (which may be long): always in sight.
                ui.label(self.status.clone());
                ui.separator();
            }
            egui::ScrollArea::vertical().show(ui, |ui| {
                if self.me.is_none() {
                    self.login_form(ui);
                } else {
                    self.lobby(ui);
                }
            });
        });
        exit
    }
}
