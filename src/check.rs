//! `titan check`: load and validate variants, and (`--play N`) play random
//! games of them to find the errors their scripts make only in play.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;
use titan_core::{Diagnostic, LoadOptions, Summary};

/// What `titan check --json` prints for one variant.
#[derive(Serialize)]
struct Report {
    variant: String,
    #[serde(flatten)]
    summary: Summary,
    errors: Vec<Diagnostic>,
    /// What is likely a mistake but loads (an option nothing reads).
    warnings: Vec<Diagnostic>,
    #[serde(skip_serializing_if = "Option::is_none")]
    play: Option<PlayReport>,
}

/// How many random games `--play` plays, and how long each may be.
#[derive(Debug, Clone, Copy)]
pub struct Play {
    pub games: u64,
    pub max_actions: u64,
}

/// What `--play` found in one variant.
#[derive(Serialize, Default)]
struct PlayReport {
    games: u64,
    /// Games that ended (the others reached --max-actions or got stuck).
    finished: u64,
    /// Games in which a showdown was fought (`rules.battle.showdown`).
    #[serde(skip_serializing_if = "is_zero")]
    showdowns: u64,
    /// How often each of the variant's own actions (`actions.ron`: a
    /// spell, an ability, a masterplay action) was taken, by name: whether
    /// random games reach them at all.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    variant_actions: std::collections::BTreeMap<String, u64>,
    /// How each game ended, by seed.
    outcomes: Vec<GameOutcome>,
    /// Each error once (script, line, message), with how often it came
    /// and where it came first.
    script_errors: Vec<PlayError>,
}

impl PlayReport {
    fn add(&mut self, e: PlayError) {
        match self
            .script_errors
            .iter_mut()
            .find(|x| x.script == e.script && x.line == e.line && x.message == e.message)
        {
            Some(x) => x.count += 1,
            None => self.script_errors.push(e),
        }
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// How one game of `--play` ended.
#[derive(Serialize)]
struct GameOutcome {
    seed: u64,
    /// As `titan engine` gives it: `{"Winner": seat}` or `{"Draw": [seats]}`
    /// (seats from 0); null for a game that did not end.
    outcome: Option<titan_core::game::Outcome>,
    /// Actions taken in the game.
    actions: u64,
    /// Why a game that did not end stopped: "max_actions", "nobody_to_act",
    /// "script_errors", "action_refused" or "not_set_up"; null for one that
    /// ended.
    stopped: Option<&'static str>,
    /// The line the text output prints for it.
    text: String,
}

/// A script error met in play: where, and how to reach it again.
#[derive(Serialize)]
struct PlayError {
    seed: u64,
    /// Actions taken before it, in that game.
    action_number: u64,
    /// The action the error refused (none: the game's set-up).
    action: Option<String>,
    script: String,
    line: Option<u32>,
    message: String,
    /// How many times it came, in all the games.
    count: u64,
}

/// A refused action that names a script error ("script error:
/// script:line: message (the action is refused)"): script, line, message.
fn split_script_error(message: &str) -> (String, Option<u32>, String) {
    let text = message
        .strip_prefix("script error: ")
        .unwrap_or(message)
        .trim_end_matches(" (the action is refused)");
    // The first ":<line>: " (or ":?: ") ends the script's name, which may
    // hold ':' itself.
    for (i, _) in text.match_indices(':') {
        let rest = &text[i + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (line, after) = if let Some(after) = rest.strip_prefix('?') {
            (None, after)
        } else if digits > 0 {
            (rest[..digits].parse().ok(), &rest[digits..])
        } else {
            continue;
        };
        if let Some(message) = after.strip_prefix(": ") {
            return (text[..i].to_string(), line, message.to_string());
        }
    }
    (String::new(), None, text.to_string())
}

/// The name of a variant's own action (`actions.ron`), in masterplay or
/// in a battle.
fn variant_action(a: &titan_core::game::Action) -> Option<&str> {
    use titan_core::battle::Action as B;
    use titan_core::game::Action as G;
    match a {
        G::Script { name, .. } => Some(name),
        G::Battle {
            battle: B::Script { name, .. },
        } => Some(name),
        _ => None,
    }
}

/// Plays the random games of `--play`.
fn play_games(variant: titan_core::Variant, play: Play) -> PlayReport {
    use crate::count;
    use std::sync::Arc;
    use titan_core::game::{Game, Outcome, random::random_action};
    use titan_core::rng::GameRng;
    let variant = Arc::new(variant);
    let seats = variant.players.min.max(2) as usize;
    let names: Vec<String> = (1..=seats).map(|i| format!("Player {i}")).collect();
    let mut report = PlayReport {
        games: play.games,
        ..Default::default()
    };
    let bar = indicatif::ProgressBar::new(play.games);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} games of {} ({{eta}} left)",
            variant.id
        ))
        .expect("a valid template"),
    );
    for seed in 0..play.games {
        bar.inc(1);
        let mut game = match Game::new(Arc::clone(&variant), Default::default(), &names, seed) {
            Ok((g, _)) => g,
            Err(e) => {
                let (script, line, message) = split_script_error(&e.to_string());
                report.add(PlayError {
                    seed,
                    action_number: 0,
                    action: None,
                    script,
                    line,
                    message,
                    count: 1,
                });
                report.outcomes.push(GameOutcome {
                    seed,
                    outcome: None,
                    actions: 0,
                    stopped: Some("not_set_up"),
                    text: format!("seed {seed}: not set up"),
                });
                continue;
            }
        };
        let mut rng = GameRng::new(seed ^ 0x5eed);
        let mut failures_in_a_row = 0;
        let mut taken = 0;
        let mut showdown = false;
        // Why the game stopped, and the end of its line of text.
        let (stopped, end) = loop {
            let after = format!("after {}", count(taken, "action"));
            if let Some(o) = &game.state.outcome {
                report.finished += 1;
                let who = match o {
                    Outcome::Winner(p) => format!("{} wins", names[p.0 as usize]),
                    Outcome::Draw(ps) => format!(
                        "a draw between {}",
                        ps.iter()
                            .map(|p| names[p.0 as usize].as_str())
                            .collect::<Vec<_>>()
                            .join(" and ")
                    ),
                };
                break (None, format!("{who} {after}"));
            }
            if taken >= play.max_actions {
                break (Some("max_actions"), format!("unfinished {after}"));
            }
            let listed = random_action(&game, &mut rng);
            // A hook that failed while the actions were listed (a variant
            // action's `legal`, a mustering hook) left its answer out rather
            // than stop the game: still a script error of the variant.
            if let Some(e) = game
                .take_script_failure()
                .or_else(|| game.take_battle_script_failure())
            {
                report.add(PlayError {
                    seed,
                    action_number: taken,
                    action: Some("listing the legal actions (the failing answer left out)".into()),
                    script: e.script,
                    line: e.line,
                    message: e.message,
                    count: 1,
                });
            }
            let Some((p, a)) = listed else {
                break (Some("nobody_to_act"), format!("nobody to act {after}"));
            };
            match game.apply(p, &a) {
                Ok(_) => {
                    taken += 1;
                    if let Some(name) = variant_action(&a) {
                        *report.variant_actions.entry(name.to_string()).or_default() += 1;
                    }
                    failures_in_a_row = 0;
                    showdown |= game.state.showdown.is_some();
                }
                Err(e) if e.is_script_failure() => {
                    let (script, line, message) = split_script_error(&e.message);
                    report.add(PlayError {
                        seed,
                        action_number: taken,
                        action: Some(format!(
                            "{} by player {}",
                            crate::engine::wire::to_wire(&variant, &a),
                            p.0 + 1
                        )),
                        script,
                        line,
                        message,
                        count: 1,
                    });
                    failures_in_a_row += 1;
                    // The random player keeps picking among the same actions:
                    // a position every choice of which fails is stuck.
                    if failures_in_a_row >= 20 {
                        break (
                            Some("script_errors"),
                            format!("stuck on script errors {after}"),
                        );
                    }
                }
                Err(e) => {
                    break (
                        Some("action_refused"),
                        format!("a legal action was refused {after}: {e}"),
                    );
                }
            }
        };
        report.showdowns += u64::from(showdown);
        report.outcomes.push(GameOutcome {
            seed,
            outcome: game.state.outcome.clone(),
            actions: taken,
            stopped,
            text: format!("seed {seed}: {end}"),
        });
    }
    bar.finish_and_clear();
    report
}

/// The `variants/` folder: `./variants`, or one in a folder above, or the one
/// this program was built from.
pub fn variants_root() -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    cwd.ancestors()
        .map(|a| a.join("variants"))
        .find(|p| p.is_dir())
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("variants"))
}

/// Every folder under `root` that holds a variant.ron, sorted.
fn all_variants(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.join("variant.ron").is_file())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

fn check_one(dir: &Path, opts: &LoadOptions, play: Play) -> Report {
    let fallback_id = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    match titan_core::load_data(dir, opts) {
        Err(errors) => Report {
            variant: fallback_id,
            summary: Summary::default(),
            errors,
            warnings: Vec::new(),
            play: None,
        },
        Ok(loaded) => {
            let summary = Summary::of(&loaded.data);
            let variant = loaded.data.manifest.id.clone();
            let (errors, warnings, play) = match titan_core::compile(&loaded) {
                Ok(v) => {
                    let warnings = option_warnings(&loaded, &v);
                    let play = (play.games > 0).then(|| play_games(v, play));
                    (Vec::new(), warnings, play)
                }
                Err(errors) => (errors, Vec::new(), None),
            };
            Report {
                variant,
                summary,
                errors,
                warnings,
                play,
            }
        }
    }
}

/// A warning for each option of `v` that neither the engine nor any of
/// its scripts reads, placed at its declaration (the variant's own
/// variant.ron, else the base's that declares it).
fn option_warnings(loaded: &titan_core::Loaded, v: &titan_core::Variant) -> Vec<Diagnostic> {
    titan_core::game::unread_options(v)
        .into_iter()
        .map(|name| {
            let quoted = format!("{name:?}");
            let anchors = ["name:", &quoted];
            let declared_in = loaded
                .sources
                .files()
                .find(|f| f.path.ends_with("variant.ron") && f.text.contains(&quoted));
            let (file, (line, column)) = match declared_in {
                Some(f) => (f, f.locate(&anchors)),
                None => (loaded.sources.get(loaded.origins.manifest), (1, 1)),
            };
            Diagnostic {
                file: file.path.display().to_string(),
                line,
                column,
                message: format!("option `{name}` is read by neither the engine nor any script"),
            }
        })
        .collect()
}

pub fn run(
    dirs: Vec<PathBuf>,
    json: bool,
    variants: Option<PathBuf>,
    scripts: Option<PathBuf>,
    play: Play,
) -> ExitCode {
    // A folder named on the command line must be one: a typo would
    // otherwise be checked against nothing, without a word.
    for (option, dir) in [("--variants", &variants), ("--scripts", &scripts)] {
        if let Some(dir) = dir
            && let Err(problem) = a_folder(dir)
        {
            eprintln!("titan check: {option} {}: {problem}", dir.display());
            return ExitCode::from(2);
        }
    }
    let root = variants.unwrap_or_else(variants_root);
    let shared = scripts.unwrap_or_else(|| root.parent().unwrap_or(Path::new(".")).join("scripts"));
    let opts = LoadOptions {
        search_paths: vec![root.clone()],
        shared_scripts: Some(shared),
    };
    let dirs = if dirs.is_empty() {
        all_variants(&root)
    } else {
        dirs
    };
    if dirs.is_empty() {
        eprintln!("titan check: no variants found under {}", root.display());
        return ExitCode::FAILURE;
    }
    let mut failed = false;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for dir in &dirs {
        let report = check_one(dir, &opts, play);
        failed |= !report.errors.is_empty()
            || report
                .play
                .as_ref()
                .is_some_and(|p| !p.script_errors.is_empty());
        let written = if json {
            serde_json::to_string(&report)
                .map_err(std::io::Error::other)
                .and_then(|line| writeln!(out, "{line}"))
        } else {
            print_text(&mut out, &report)
        };
        if let Err(e) = written {
            // stdout closed (e.g. piped into `head`): nothing more to say;
            // any other failure (a full disk) is said, and fails.
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                crate::report_output_error(&e);
                failed = true;
            }
            break;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Whether `dir` is a folder there is; if not, what it is instead.
pub(crate) fn a_folder(dir: &Path) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err("a file, not a folder".into()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err("no such folder".into()),
        Err(e) => Err(format!("cannot be read: {e}")),
    }
}

fn print_text(out: &mut impl Write, r: &Report) -> std::io::Result<()> {
    use crate::count;
    let s = &r.summary;
    let verdict = if r.errors.is_empty() {
        "ok".to_string()
    } else {
        count(r.errors.len() as u64, "error")
    };
    writeln!(
        out,
        "{}: {}, {}, {}, {}, {}, {}, {}: {verdict}",
        r.variant,
        count(s.lands as u64, "land"),
        count(s.exits as u64, "exit"),
        count(s.battlelands as u64, "battleland"),
        count(s.hexes as u64, "hex"),
        count(s.characters as u64, "character"),
        count(s.terrains as u64, "terrain"),
        count(s.scripts as u64, "script"),
    )?;
    for e in &r.errors {
        writeln!(out, "  {e}")?;
    }
    for w in &r.warnings {
        writeln!(
            out,
            "  {}:{}:{}: warning: {}",
            w.file, w.line, w.column, w.message
        )?;
    }
    if let Some(p) = &r.play {
        writeln!(
            out,
            "  played {}: {} finished, {}",
            count(p.games, "random game"),
            p.finished,
            count(
                p.script_errors.iter().map(|e| e.count).sum::<u64>(),
                "script error"
            )
        )?;
        if p.showdowns > 0 {
            writeln!(
                out,
                "  {} reached a showdown (rules.battle.showdown)",
                count(p.showdowns, "game")
            )?;
        }
        if !p.variant_actions.is_empty() {
            let taken: Vec<String> = p
                .variant_actions
                .iter()
                .map(|(name, n)| format!("{name} {n}"))
                .collect();
            writeln!(out, "  variant actions taken: {}", taken.join(", "))?;
        }
        for e in &p.script_errors {
            let line = e.line.map_or_else(|| "?".to_string(), |l| l.to_string());
            let action = e.action.as_deref().unwrap_or("the game's set-up");
            writeln!(
                out,
                "  {}:{line}: {} ({}; first with seed {}, action {}: {action})",
                e.script,
                e.message,
                count(e.count, "time"),
                e.seed,
                e.action_number
            )?;
        }
        for o in &p.outcomes {
            writeln!(out, "    {}", o.text)?;
        }
    }
    Ok(())
}
