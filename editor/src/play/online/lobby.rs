//! The lobby: your games (those waiting for you first), open games to
//! join, running games to watch; each named by its variant, players and
//! age, and opened (joined, watched) with one click on its name.

use titan_server::protocol::{GameSummary, Request};

use super::{Ask, OnlineScreen};

/// How a game is named in the lobby: its variant, its players (a free seat
/// as "open seat") and how long ago it was created.
pub fn game_name(g: &GameSummary, now_ms: i64) -> String {
    let players: Vec<String> = g
        .seats
        .iter()
        .map(|s| match (&s.user, s.kind.as_str()) {
            (_, "computer") => "computer".to_string(),
            (Some(u), _) => u.clone(),
            (None, _) => "open seat".to_string(),
        })
        .collect();
    let age = if g.created_ms > 0 {
        format!(", created {}", ago(now_ms - g.created_ms))
    } else {
        String::new()
    };
    format!("{}: {}{age}", g.variant, players.join(" vs "))
}

/// The lobby's names of `games`, told apart: two that would read the same
/// (same variant, players and age) get the start of their ids.
pub fn game_names(games: &[&GameSummary], now_ms: i64) -> Vec<String> {
    let names: Vec<String> = games.iter().map(|g| game_name(g, now_ms)).collect();
    names
        .iter()
        .zip(games)
        .map(|(n, g)| {
            if names.iter().filter(|m| *m == n).count() > 1 {
                let short: String = g.id.chars().take(6).collect();
                format!("{n} (game {short})")
            } else {
                n.clone()
            }
        })
        .collect()
}

/// A duration in milliseconds, roughly, as "5 min ago".
fn ago(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    match s {
        0..60 => "just now".into(),
        60..3600 => format!("{} min ago", s / 60),
        3600..86_400 => format!("{} h ago", s / 3600),
        _ => format!("{} days ago", s / 86_400),
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// What a click on a game's name does.
enum Open {
    Join,
    Play,
    Watch,
    /// Nothing: an open game of yours waiting for players.
    Wait,
}

impl OnlineScreen {
    pub(super) fn lobby(&mut self, ui: &mut egui::Ui) {
        let me = self.me.clone().unwrap_or_default();
        ui.horizontal(|ui| {
            ui.label(format!("Logged in as {me} at {}", self.server));
            if ui.button("Refresh").clicked() {
                self.refresh_lobby();
            }
            if ui.button("Log out").clicked() {
                self.log_out();
            }
        });
        let now = now_ms();
        let seated = |g: &GameSummary| g.seats.iter().any(|s| s.user.as_deref() == Some(&me));
        let games = self.games.clone();
        let mut mine: Vec<&GameSummary> = games.iter().filter(|g| seated(g)).collect();
        // The games waiting for you first.
        mine.sort_by_key(|g| !(g.status == "running" && g.to_act.contains(&me)));
        let open: Vec<&GameSummary> = games
            .iter()
            .filter(|g| !seated(g) && g.status == "open")
            .collect();
        let running: Vec<&GameSummary> = games
            .iter()
            .filter(|g| !seated(g) && g.status != "open")
            .collect();
        let turns = self.my_turns().len();
        if turns > 0 {
            ui.colored_label(
                egui::Color32::from_rgb(230, 160, 40),
                if turns == 1 {
                    "Your turn in one game: click its name below".to_string()
                } else {
                    format!("Your turn in {turns} games: click one's name below")
                },
            );
        }
        ui.heading("Your games");
        self.table(ui, "my-games", &mine, &me, now);
        ui.heading("Open games");
        self.table(ui, "open-games", &open, &me, now);
        ui.heading("Running games");
        self.table(ui, "running-games", &running, &me, now);
        ui.separator();
        self.create_form(ui);
    }

    fn create_form(&mut self, ui: &mut egui::Ui) {
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
    }

    /// The games, one a row: the name (a click opens, joins or watches
    /// it), and where it stands.
    fn table(&mut self, ui: &mut egui::Ui, id: &str, games: &[&GameSummary], me: &str, now: i64) {
        if games.is_empty() {
            ui.label("none");
            return;
        }
        let names = game_names(games, now);
        egui::Grid::new(id).striped(true).show(ui, |ui| {
            for (g, name) in games.iter().zip(names) {
                let seated = g.seats.iter().any(|s| s.user.as_deref() == Some(me));
                let free = g
                    .seats
                    .iter()
                    .any(|s| s.kind == "human" && s.user.is_none());
                let open = match (g.status.as_str(), seated) {
                    ("open", false) if free => Open::Join,
                    ("open", _) => Open::Wait,
                    (_, true) => Open::Play,
                    (_, false) => Open::Watch,
                };
                let clicked = match open {
                    Open::Wait => {
                        ui.label(&name);
                        false
                    }
                    _ => ui.link(&name).clicked(),
                };
                let yours = g.status == "running" && g.to_act.iter().any(|n| n == me);
                ui.label(match open {
                    Open::Join => "open: click to join".to_string(),
                    Open::Wait => "waiting for players".to_string(),
                    Open::Watch => format!("running: click to watch; {}", to_act(g)),
                    Open::Play if yours => "your turn".to_string(),
                    Open::Play => to_act(g),
                });
                if clicked {
                    self.open(g, &open);
                }
                ui.end_row();
            }
        });
    }

    fn open(&mut self, g: &GameSummary, open: &Open) {
        match open {
            Open::Join => self.send(
                Request::Join {
                    game: g.id.clone(),
                    seat: None,
                },
                Ask::Join,
            ),
            Open::Play | Open::Watch => self.send(
                Request::Watch {
                    game: g.id.clone(),
                    events_from: 0,
                },
                Ask::Watch(g.id.clone()),
            ),
            Open::Wait => {}
        }
    }
}

/// Who is to act in a game, in words.
fn to_act(g: &GameSummary) -> String {
    match g.status.as_str() {
        "running" if !g.to_act.is_empty() => format!("waiting for {}", g.to_act.join(", ")),
        s => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use titan_server::protocol::SeatSummary;

    fn game(id: &str, players: &[&str]) -> GameSummary {
        GameSummary {
            id: id.into(),
            variant: "titan".into(),
            creator: players[0].into(),
            status: "running".into(),
            seats: players
                .iter()
                .enumerate()
                .map(|(i, p)| SeatSummary {
                    seat: i as u8,
                    kind: "human".into(),
                    user: Some(p.to_string()),
                })
                .collect(),
            to_act: Vec::new(),
            created_ms: 1_000,
        }
    }

    #[test]
    fn games_that_would_read_the_same_are_told_apart_by_their_ids() {
        let (a, b, c) = (
            game("9344ffd7d894", &["ann", "bob"]),
            game("17aa03be11c2", &["ann", "bob"]),
            game("5e2b9d0c7a41", &["ann", "cy"]),
        );
        let names = game_names(&[&a, &b, &c], 61_000);
        assert_eq!(
            names,
            [
                "titan: ann vs bob, created 1 min ago (game 9344ff)",
                "titan: ann vs bob, created 1 min ago (game 17aa03)",
                "titan: ann vs cy, created 1 min ago",
            ]
        );
    }
}
