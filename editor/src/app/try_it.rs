//! The "Try it" page: plays seeded random games of the variant as it is
//! edited (saved or not), in the background with progress, and shows the
//! outcomes as plots and every script error with a link to its line.
//!
//! It is the app's `titan simulate games`: the same random player
//! ([`titan_core::game::random`]), the same seeds (game `i` is seed
//! `seed + i`), so a result seen here is reproduced on the command line.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use egui::Color32;
use egui_plot::{Bar, BarChart, Plot};
use titan_core::Variant;
use titan_core::game::random::random_action;
use titan_core::game::{Game, Outcome};
use titan_core::rng::GameRng;

use super::{EditorApp, Tab};

/// The random players' own generator is the game's seed mixed with this
/// (as `titan simulate` does), so the players' choices do not follow the
/// game's dice.
const PLAYERS_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// How many of the scripts' log lines the console keeps.
pub const CONSOLE_LINES: usize = 500;

/// What the page remembers: the settings and the run, if one was started.
pub struct TryIt {
    pub games: u32,
    pub players: u8,
    pub seed: u64,
    pub max_turns: u32,
    run: Option<Run>,
}

impl Default for TryIt {
    fn default() -> TryIt {
        TryIt {
            games: 50,
            players: 0,
            seed: 1,
            max_turns: 200,
            run: None,
        }
    }
}

struct Run {
    tally: Arc<Mutex<Tally>>,
    cancel: Arc<AtomicBool>,
    games: u32,
}

/// The outcomes of the games played so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    /// Games played (with an outcome, unfinished or stopped by an error).
    pub done: u32,
    /// Wins by seat.
    pub wins: Vec<u32>,
    pub draws: u32,
    /// Games still going at the turn limit.
    pub unfinished: u32,
    /// Each finished game's length in turns.
    pub turns: Vec<u32>,
    pub battles: u32,
    pub errors: Vec<TryError>,
    /// What the scripts logged (`titan.log`, `print`), each line with the
    /// seed of its game; the last [`CONSOLE_LINES`] only.
    pub log: std::collections::VecDeque<String>,
    /// The run is over (all played, stopped, or a game could not start).
    pub finished: bool,
}

/// An action refused during a random game: a script failing, or (a bug of
/// the engine's) a listed action refused by the rules.
#[derive(Debug, Clone, PartialEq)]
pub struct TryError {
    pub seed: u64,
    /// How many actions of that game had been taken.
    pub action: usize,
    /// The action, as the engine prints it.
    pub what: String,
    pub message: String,
    pub script_failure: bool,
    /// The script (its name in the variant) and line the message names.
    pub at: Option<(String, usize)>,
}

impl TryIt {
    /// Starts `games` random games of `variant` on another thread.
    pub fn start(&mut self, variant: Variant, scripts: Vec<(String, String)>) {
        self.stop();
        let names: Vec<String> = (1..=self.players).map(|i| format!("P{i}")).collect();
        let tally = Arc::new(Mutex::new(Tally {
            wins: vec![0; names.len()],
            ..Tally::default()
        }));
        let cancel = Arc::new(AtomicBool::new(false));
        let (games, seed, max_turns) = (self.games, self.seed, self.max_turns);
        let (t, c) = (tally.clone(), cancel.clone());
        std::thread::spawn(move || {
            play(
                Arc::new(variant),
                &names,
                &scripts,
                games,
                seed,
                max_turns,
                &t,
                &c,
            );
            if let Ok(mut t) = t.lock() {
                t.finished = true;
            }
        });
        self.run = Some(Run {
            tally,
            cancel,
            games,
        });
    }

    /// Asks a run to stop after the game it is playing.
    pub fn stop(&mut self) {
        if let Some(r) = &self.run {
            r.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// The outcomes so far of the last run.
    pub fn tally(&self) -> Option<Tally> {
        let r = self.run.as_ref()?;
        r.tally.lock().ok().map(|t| t.clone())
    }

    pub fn running(&self) -> bool {
        self.tally().is_some_and(|t| !t.finished)
    }
}

/// Plays the games, adding each to `tally` as it ends.
#[allow(clippy::too_many_arguments)]
fn play(
    variant: Arc<Variant>,
    names: &[String],
    scripts: &[(String, String)],
    games: u32,
    seed: u64,
    max_turns: u32,
    tally: &Mutex<Tally>,
    cancel: &AtomicBool,
) {
    for i in 0..games {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        let seed = seed.wrapping_add(u64::from(i));
        let mut game = match Game::new(variant.clone(), Default::default(), names, seed) {
            Ok((game, _)) => game,
            Err(e) => {
                if let Ok(mut t) = tally.lock() {
                    t.errors.push(TryError {
                        seed,
                        action: 0,
                        what: "setting up the game".into(),
                        message: e.to_string(),
                        script_failure: false,
                        at: script_line(&e.to_string(), scripts),
                    });
                }
                return;
            }
        };
        let mut pick = GameRng::new(seed ^ PLAYERS_SEED);
        let (mut actions, mut battles) = (0usize, 0u32);
        let mut error = None;
        while game.state.outcome.is_none() && game.state.turn <= max_turns {
            let Some((player, action)) = random_action(&game, &mut pick) else {
                break;
            };
            if matches!(action, titan_core::game::Action::Fight) {
                battles += 1;
            }
            if let Err(e) = game.apply(player, &action) {
                let message = e.to_string();
                error = Some(TryError {
                    seed,
                    action: actions,
                    what: format!("{action:?} by P{}", player.0 + 1),
                    at: script_line(&message, scripts),
                    script_failure: e.is_script_failure(),
                    message,
                });
                break;
            }
            actions += 1;
            keep_log(&game, seed, tally);
        }
        // What a failing action logged before it failed, too.
        keep_log(&game, seed, tally);
        let Ok(mut t) = tally.lock() else {
            return;
        };
        t.done += 1;
        t.battles += battles;
        match (error, &game.state.outcome) {
            (Some(e), _) => t.errors.push(e),
            (None, Some(Outcome::Winner(p))) => {
                if let Some(w) = t.wins.get_mut(usize::from(p.0)) {
                    *w += 1;
                }
                t.turns.push(game.state.turn);
            }
            (None, Some(Outcome::Draw(_))) => {
                t.draws += 1;
                t.turns.push(game.state.turn);
            }
            (None, None) => t.unfinished += 1,
        }
    }
}

/// Moves what the scripts logged since the last call into the console.
fn keep_log(game: &Game, seed: u64, tally: &Mutex<Tally>) {
    let lines = game.take_log();
    if lines.is_empty() {
        return;
    }
    if let Ok(mut t) = tally.lock() {
        for l in lines {
            if t.log.len() == CONSOLE_LINES {
                t.log.pop_front();
            }
            t.log.push_back(format!("[seed {seed}] {l}"));
        }
    }
}

/// The script and line an error message names (`path:line:` of one of the
/// variant's own scripts, given as (name, path)).
fn script_line(message: &str, scripts: &[(String, String)]) -> Option<(String, usize)> {
    scripts.iter().find_map(|(name, path)| {
        let at = message.find(&format!("{path}:"))? + path.len() + 1;
        let digits: String = message[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        Some((name.clone(), digits.parse().ok()?))
    })
}

impl EditorApp {
    pub(super) fn try_it_page(&mut self, ui: &mut egui::Ui) {
        let Some(project) = &self.project else {
            return;
        };
        let (min, max) = project
            .compiled()
            .map(|v| (v.players.min, v.players.max))
            .or(project.data().manifest.players.map(|p| (p.min, p.max)))
            .unwrap_or((2, 6));
        let t = &mut self.try_it;
        if t.players < min || t.players > max {
            t.players = min.max(2).min(max);
        }
        ui.label(
            "Plays random games of the variant as edited, saved or not: the players choose \
             among the legal actions at random, as `titan simulate games` does.",
        );
        ui.horizontal_wrapped(|ui| {
            ui.label("games");
            ui.add(egui::DragValue::new(&mut t.games).range(1..=10_000));
            ui.label("players");
            ui.add(egui::DragValue::new(&mut t.players).range(min..=max));
            ui.label("first seed");
            ui.add(egui::DragValue::new(&mut t.seed));
            ui.label("at most");
            ui.add(egui::DragValue::new(&mut t.max_turns).range(1..=10_000));
            ui.label("turns");
        });
        let running = t.running();
        let compiled = project.compiled();
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!running && compiled.is_some(), egui::Button::new("Try it"))
                .clicked()
                && let Some(v) = compiled
            {
                let scripts = project
                    .script_names()
                    .into_iter()
                    .map(|n| {
                        let path = project.dir().join(&n).display().to_string();
                        (n, path)
                    })
                    .collect();
                t.start(v.clone(), scripts);
            }
            if running && ui.button("Stop").clicked() {
                t.stop();
            }
        });
        if compiled.is_none() {
            ui.colored_label(
                Color32::RED,
                "The variant does not pass its check: mend the problems below first.",
            );
        }
        let Some(tally) = t.tally() else {
            return;
        };
        if running {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
        let games = t.run.as_ref().map_or(0, |r| r.games);
        ui.add(
            egui::ProgressBar::new(tally.done as f32 / games.max(1) as f32)
                .text(format!("{} of {games} games", tally.done))
                .show_percentage(),
        );
        let mut summary: Vec<String> = tally
            .wins
            .iter()
            .enumerate()
            .map(|(i, w)| format!("P{} won {w}", i + 1))
            .collect();
        summary.push(format!("draws {}", tally.draws));
        summary.push(format!("unfinished {}", tally.unfinished));
        summary.push(format!("script errors {}", tally.errors.len()));
        ui.label(summary.join(", "));
        if !tally.turns.is_empty() {
            let avg = tally.turns.iter().sum::<u32>() as f32 / tally.turns.len() as f32;
            ui.label(format!(
                "finished games lasted {avg:.1} turns on average; {:.1} battles a game",
                tally.battles as f32 / tally.done.max(1) as f32
            ));
        }
        let mut goto = None;
        for e in &tally.errors {
            ui.horizontal_wrapped(|ui| {
                let kind = if e.script_failure {
                    "script error"
                } else {
                    "refused"
                };
                ui.colored_label(
                    Color32::RED,
                    format!(
                        "{kind} in the game of seed {}, action {} ({}): {}",
                        e.seed, e.action, e.what, e.message
                    ),
                );
                if let Some((name, line)) = &e.at
                    && ui.link(format!("line {line} of {name}")).clicked()
                {
                    goto = Some((name.clone(), *line));
                }
            });
        }
        console(ui, &tally);
        if let Some((name, line)) = goto {
            self.script_forms.script = Some(name);
            self.script_forms.mark = Some(line);
            self.tab = Tab::Scripts;
            return;
        }
        outcome_plots(ui, &tally);
    }
}

/// The scripts' `titan.log` output of the last run.
pub(super) fn console(ui: &mut egui::Ui, tally: &Tally) {
    egui::CollapsingHeader::new(format!(
        "Console: the scripts' log ({} lines)",
        tally.log.len()
    ))
    .default_open(!tally.log.is_empty())
    .show(ui, |ui| {
        if tally.log.is_empty() {
            ui.label("nothing logged (titan.log and print write here)");
        }
        egui::ScrollArea::vertical()
            .id_salt("console")
            .max_height(200.0)
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for l in &tally.log {
                    ui.monospace(l);
                }
            });
    });
}

/// Wins by seat, draws and unfinished games; and how long finished games
/// lasted, in bins of five turns.
fn outcome_plots(ui: &mut egui::Ui, tally: &Tally) {
    let mut bars: Vec<Bar> = tally
        .wins
        .iter()
        .enumerate()
        .map(|(i, w)| Bar::new(i as f64, f64::from(*w)).name(format!("P{}", i + 1)))
        .collect();
    let n = tally.wins.len() as f64;
    bars.push(Bar::new(n, f64::from(tally.draws)).name("draws"));
    bars.push(Bar::new(n + 1.0, f64::from(tally.unfinished)).name("unfinished"));
    let labels: Vec<String> = (1..=tally.wins.len())
        .map(|i| format!("P{i}"))
        .chain(["draws".to_string(), "unfinished".to_string()])
        .collect();
    let half = (ui.available_width() / 2.0 - 8.0).max(120.0);
    ui.horizontal_top(|ui| {
        ui.vertical(|ui| {
            ui.label("Outcomes");
            Plot::new("try-outcomes")
                .width(half)
                .height(220.0)
                .allow_scroll(false)
                .x_axis_formatter(move |mark, _| {
                    let i = mark.value.round();
                    if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
                        labels.get(i as usize).cloned().unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
                .show(ui, |plot| {
                    plot.bar_chart(BarChart::new("games", bars).color(Color32::LIGHT_BLUE))
                });
        });
        ui.vertical(|ui| {
            ui.label("Length of finished games (turns)");
            let mut bins: std::collections::BTreeMap<u32, u32> = Default::default();
            for t in &tally.turns {
                *bins.entry(t / 5 * 5).or_default() += 1;
            }
            let bars = bins
                .iter()
                .map(|(from, k)| {
                    Bar::new(f64::from(*from) + 2.5, f64::from(*k))
                        .width(5.0)
                        .name(format!("{from} to {}", from + 4))
                })
                .collect();
            Plot::new("try-lengths")
                .width(half)
                .height(220.0)
                .allow_scroll(false)
                .show(ui, |plot| {
                    plot.bar_chart(BarChart::new("games", bars).color(Color32::LIGHT_GREEN))
                });
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_names_its_script_and_line() {
        let scripts = vec![(
            "scripts/a.lua".to_string(),
            "/v/x/scripts/a.lua".to_string(),
        )];
        let m = "script error: /v/x/scripts/a.lua:12: boom (the action is refused)";
        assert_eq!(
            script_line(m, &scripts),
            Some(("scripts/a.lua".to_string(), 12))
        );
        assert_eq!(script_line("no script here", &scripts), None);
    }
}
