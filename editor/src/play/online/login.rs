//! Logging in: the form (server, user, password; signing up or logging
//! in), the remembered log-in (a session token, never the password) and
//! logging out.

use serde_json::Value;
use titan_server::client::Background;
use titan_server::protocol::Request;

use super::{Ask, OnlineScreen};
use crate::play::settings::OnlineLogin;

/// The width of the form's fields: an address or a name shows whole.
const FIELD_WIDTH: f32 = 260.0;

impl OnlineScreen {
    /// Connects and logs in (or signs up).
    pub fn log_in(&mut self) {
        self.connect();
        let (user, password) = (self.user.trim().to_string(), self.password.clone());
        let request = if self.new_account {
            Request::Signup { user, password }
        } else {
            Request::Login { user, password }
        };
        self.send(request, Ask::Login);
    }

    /// Connects and logs in with the remembered token.
    pub fn log_in_with_token(&mut self) {
        self.connect();
        self.status = format!(
            "logging in to {} as {} (remembered log-in)",
            self.server, self.user
        );
        let token = self.token.clone();
        self.send(Request::Token { token }, Ask::TokenLogin);
    }

    fn connect(&mut self) {
        self.conn = Some(Background::connect(&self.server));
        self.me = None;
        self.asked.clear();
        self.status = format!("connecting to {}", self.server);
    }

    /// Logged in (by password, sign-up or token): the lobby, and the
    /// log-in remembered.
    pub(super) fn logged_in(&mut self, answer: &Value) {
        self.me = answer["user"].as_str().map(String::from);
        // A log-in by token keeps its token; the others bring a new one.
        if let Some(t) = answer["token"].as_str() {
            self.token = t.to_string();
        }
        self.password.clear();
        let me = self.me.clone().unwrap_or_default();
        self.user = me.clone();
        self.status = format!("logged in as {me}");
        self.remember = Some(OnlineLogin {
            server: self.server.clone(),
            user: me,
            token: self.token.clone(),
        });
        self.send(Request::Variants {}, Ask::Variants);
        self.refresh_lobby();
    }

    /// The password log-in or sign-up was refused: why, in words.
    pub(super) fn refused(&mut self, e: &str) {
        self.conn = None;
        self.status = if !self.new_account {
            format!("cannot log in: {e}")
        } else if e.contains("is taken") {
            "cannot sign up: that name is taken (choose another, or untick \
             \"New account\" to log in to it)"
                .to_string()
        } else {
            format!("cannot sign up: {e}")
        };
    }

    /// The remembered token no longer logs in (expired or signed out): it
    /// is forgotten, and the form asks for the password.
    pub(super) fn token_refused(&mut self, e: &str) {
        self.conn = None;
        self.token.clear();
        self.forget_token();
        self.status = format!("the remembered log-in no longer works ({e}): log in again");
    }

    /// Logs out: the server revokes the token, the connection closes and
    /// the token is forgotten (the server and the user stay in the form).
    pub fn log_out(&mut self) {
        // The connection closes once the server has answered (closed at
        // once, the request could be lost with it).
        let token = self.token.clone();
        if token.is_empty() {
            self.conn = None;
        } else {
            self.asked.clear();
            self.send(Request::LogOut { token }, Ask::LogOut);
        }
        self.me = None;
        self.games.clear();
        self.token.clear();
        self.forget_token();
        self.status = "logged out: the log-in is no longer remembered".into();
    }

    fn forget_token(&mut self) {
        self.remember = Some(OnlineLogin {
            server: self.server.clone(),
            user: self.user.clone(),
            token: String::new(),
        });
    }

    pub(super) fn login_form(&mut self, ui: &mut egui::Ui) {
        // Sized, not desired: in a grid a field is given the column's
        // width, which starts narrow.
        let size = egui::vec2(FIELD_WIDTH, ui.spacing().interact_size.y);
        egui::Grid::new("login").show(ui, |ui| {
            let l = ui.label("Server");
            ui.add_sized(size, egui::TextEdit::singleline(&mut self.server))
                .labelled_by(l.id);
            ui.end_row();
            let l = ui.label("User");
            ui.add_sized(size, egui::TextEdit::singleline(&mut self.user))
                .labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Password");
            ui.add_sized(
                size,
                egui::TextEdit::singleline(&mut self.password).password(true),
            )
            .labelled_by(l.id);
            ui.end_row();
        });
        ui.checkbox(&mut self.new_account, "New account (sign up)");
        let busy = self.conn.is_some();
        // The button says which it does.
        let label = if self.new_account {
            "Sign up"
        } else {
            "Log in"
        };
        if ui.add_enabled(!busy, egui::Button::new(label)).clicked() {
            self.log_in();
        }
    }
}
