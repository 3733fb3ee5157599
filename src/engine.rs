//! `titan engine`: a game engine on stdin and stdout for bots, GUIs and tests
//! in any language.
//!
//! One JSON request per line in, one JSON response per line out (see
//! `docs/protocol.md`, whose examples are run as tests). A session holds at
//! most one game; every answer that concerns the game is given as one player
//! sees it. Errors are responses (`{"ok": false, "error": {...}}`) and never
//! end the session; end of input does.

pub mod wire;

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use serde::Deserialize;

use crate::rules_battle::{BattleQuery, Board};
use serde_json::{Map, Value, json};
use titan_core::format::OptionValue;
use titan_core::game::save::{Position, SaveFile};
use titan_core::game::{Action, Event, Game, PlayerId, view};
use titan_core::model::Variant;

use crate::rules_masterboard::{self as queries, Place};

/// Reads requests from stdin until it ends, answering each on stdout;
/// saves go below `saves` (default: the user's data folder).
pub fn run(saves: Option<PathBuf>) -> ExitCode {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let saves = saves.unwrap_or_else(titan_core::files::default_saves_dir);
    match serve_in(&saves, stdin.lock(), stdout.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        // stdout closed: the other side has gone; nothing more to say.
        // Anything else (stdin unreadable, stdout full) is said.
        Err(e) => {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                eprintln!("titan engine: {e}");
            }
            ExitCode::FAILURE
        }
    }
}

/// Serves a session: one response line per non-blank request line.
#[cfg(test)]
pub fn serve(input: impl BufRead, output: impl Write) -> std::io::Result<()> {
    serve_in(&titan_core::files::default_saves_dir(), input, output)
}

/// [`serve`] with saves below `saves`.
pub fn serve_in(
    saves: &Path,
    mut input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    let mut session = Session {
        saves: saves.to_path_buf(),
        ..Session::default()
    };
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(());
        }
        let response = match std::str::from_utf8(&bytes) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => session.handle_line(line),
            Err(e) => {
                failure(None, Failure::json(format!("the line is not UTF-8: {e}"))).to_string()
            }
        };
        writeln!(output, "{response}")?;
        output.flush()?;
    }
}

/// Why a request failed: `kind` says whose fault, `rule` cites the rule that
/// refuses an action (only for kind "rule").
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    kind: &'static str,
    rule: Option<String>,
    message: String,
}

impl Failure {
    fn new(kind: &'static str, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            rule: None,
            message: message.into(),
        }
    }
    fn json(message: impl Into<String>) -> Failure {
        Failure::new("json", message)
    }
    fn request(message: impl Into<String>) -> Failure {
        Failure::new("request", message)
    }
}

fn failure(id: Option<Value>, f: Failure) -> Value {
    let mut out = json!({
        "ok": false,
        "error": {"kind": f.kind, "rule": f.rule, "message": f.message},
    });
    if let Some(id) = id {
        out["id"] = id;
    }
    out
}

/// A player named in a request: by seat (0 is the first player given to
/// `new_game`) or by name.
#[derive(Debug, Clone)]
enum PlayerRef {
    Seat(u8),
    Name(String),
}

impl<'de> Deserialize<'de> for PlayerRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(name) => Ok(PlayerRef::Name(name)),
            Value::Number(n) if n.as_u64().is_some_and(|s| s <= u64::from(u8::MAX)) => {
                Ok(PlayerRef::Seat(n.as_u64().unwrap_or_default() as u8))
            }
            other => Err(serde::de::Error::custom(format!(
                "a player is a seat (0, 1, ...) or a name, not {other}"
            ))),
        }
    }
}

/// The requests, by their `cmd`.
#[derive(Debug, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
enum Request {
    // Empty struct variants, not unit ones: unknown fields are refused.
    Variants {},
    NewGame {
        variant: String,
        players: Vec<String>,
        #[serde(default)]
        seed: u64,
        #[serde(default)]
        options: Map<String, Value>,
    },
    LoadPosition {
        variant: String,
        #[serde(default)]
        path: Option<PathBuf>,
        #[serde(default)]
        position: Option<Value>,
    },
    Save {
        path: PathBuf,
    },
    Load {
        path: PathBuf,
        /// The variant to replay on (a name or folder), when it is not the
        /// bundled variant the save names (say, a variant loaded by path).
        #[serde(default)]
        variant: Option<String>,
    },
    View {
        player: PlayerRef,
    },
    LegalActions {
        player: PlayerRef,
    },
    Apply {
        player: PlayerRef,
        action: Value,
    },
    ToAct {},
    Battle {
        player: PlayerRef,
    },
    Moves {
        #[serde(default)]
        variant: Option<String>,
        land: u32,
        roll: u8,
    },
    Strike {
        #[serde(default)]
        variant: Option<String>,
        battleland: String,
        striker: String,
        target: String,
        #[serde(default)]
        place: Vec<String>,
        #[serde(default)]
        ally: Vec<String>,
    },
    Los {
        #[serde(default)]
        variant: Option<String>,
        battleland: String,
        striker: String,
        target: String,
        #[serde(default)]
        place: Vec<String>,
        #[serde(default)]
        ally: Vec<String>,
    },
    Reach {
        #[serde(default)]
        variant: Option<String>,
        battleland: String,
        character: String,
        #[serde(default)]
        place: Vec<String>,
        #[serde(default)]
        ally: Vec<String>,
    },
    Recruits {
        #[serde(default)]
        variant: Option<String>,
        #[serde(default)]
        land: Option<u32>,
        #[serde(default)]
        terrain: Option<String>,
        legion: Vec<String>,
    },
}

/// A session: loaded variants (by the name asked for) and the game, if any.
#[derive(Default)]
pub struct Session {
    variants: HashMap<String, Arc<Variant>>,
    game: Option<Game>,
    /// The folder saves are written below, and relative paths read from.
    saves: PathBuf,
}

type Answer = Result<Map<String, Value>, Failure>;

/// A battle query, answered as `titan rules strike|los|reach` answers it.
fn battle_query(query: BattleQuery) -> Answer {
    let (root, _) = queries::load_options();
    let text = crate::rules_battle::answer(query, &root).map_err(Failure::request)?;
    let value: Value = serde_json::from_str(&text).map_err(|e| Failure::request(e.to_string()))?;
    answer(value)
}

fn answer(value: Value) -> Answer {
    match value {
        Value::Object(map) => Ok(map),
        other => Ok(Map::from_iter([("value".to_string(), other)])),
    }
}

/// A JSON value read strictly: an object with a key twice is an error (the
/// plain reader keeps the last, silently).
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Strict::deserialize(d).map(|s| s.0)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key {key:?} is given twice"
                )));
            }
            let Strict(v) = map.next_value()?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

impl Session {
    /// Answers one request line. The response echoes the request's `id`
    /// byte for byte, as sent.
    pub fn handle_line(&mut self, line: &str) -> String {
        let request: Value = match serde_json::from_str::<Strict>(line) {
            Ok(v) => v.0,
            Err(e) => {
                return failure(None, Failure::json(format!("malformed JSON: {e}"))).to_string();
            }
        };
        let Value::Object(mut fields) = request else {
            return failure(None, Failure::request("a request is a JSON object")).to_string();
        };
        let id = fields.remove("id").and_then(|_| {
            let raw: BTreeMap<String, &serde_json::value::RawValue> =
                serde_json::from_str(line).ok()?;
            raw.get("id").map(|r| r.get().to_string())
        });
        let response = self.answer_fields(fields);
        match id {
            // The response is an object: put the id first, as sent.
            Some(raw) => match response.to_string().strip_prefix('{') {
                Some("}") => format!("{{\"id\":{raw}}}"),
                Some(rest) => format!("{{\"id\":{raw},{rest}"),
                None => response.to_string(),
            },
            None => response.to_string(),
        }
    }

    /// Answers a request's fields (its `id` taken out).
    fn answer_fields(&mut self, fields: Map<String, Value>) -> Value {
        let result = serde_json::from_value::<Request>(Value::Object(fields))
            .map_err(|e| Failure::request(format!("bad request: {e}")))
            .and_then(|r| {
                // A bug must not end a session that others rely on. The game
                // is replaced only once a request has succeeded (and
                // `Game::apply` works on a copy), so after a panic the
                // session's game is the one before the request.
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.handle(r)))
                    .unwrap_or_else(|_| {
                        Err(Failure::new(
                            "internal",
                            "the engine failed on this request (a bug: please report it with the request); the game is as it was before it",
                        ))
                    })
            });
        // What the scripts logged while this request was answered goes
        // back with it (docs/scripting.md, "titan.log").
        let log = self.game.as_ref().map(|g| g.take_log()).unwrap_or_default();
        let mut response = match result {
            Ok(mut map) => {
                map.insert("ok".into(), Value::Bool(true));
                // A hook that failed while this answer was worked out (a
                // view's Titan power, the legal musters) was answered with
                // the data's fallback: say so rather than hide it.
                if let Some(e) = self.game.as_ref().and_then(|g| {
                    g.take_script_failure()
                        .or_else(|| g.take_battle_script_failure())
                }) {
                    map.insert("script_error".into(), Value::String(e.to_string()));
                }
                Value::Object(map)
            }
            Err(f) => failure(None, f),
        };
        if !log.is_empty()
            && let Value::Object(map) = &mut response
        {
            map.insert("log".into(), json!(log));
        }
        response
    }

    fn handle(&mut self, request: Request) -> Answer {
        match request {
            Request::Variants {} => self.list_variants(),
            Request::NewGame {
                variant,
                players,
                seed,
                options,
            } => {
                let v = self.variant(&variant)?;
                let options = game_options(&options)?;
                let (game, events) = Game::new(v.clone(), options, &players, seed)
                    .map_err(|e| Failure::new("setup", e.to_string()))?;
                self.game = Some(game);
                // The tower rolls and placings are public.
                let mut out =
                    json!({"events": wire::to_wire(&v, &events), "to_act": self.to_act()?});
                add_marker_names(&mut out, &v);
                answer(out)
            }
            Request::LoadPosition {
                variant,
                path,
                position,
            } => {
                let v = self.variant(&variant)?;
                let position = match (path, position) {
                    (Some(p), None) => Position::read_in(&self.saves, &p)
                        .map_err(|e| Failure::new("load", e.to_string()))?,
                    (None, Some(inline)) => inline_position(inline)?,
                    _ => {
                        return Err(Failure::request(
                            "load_position takes a `path` or an inline `position`, one of them",
                        ));
                    }
                };
                check_position(&position)?;
                let game = position
                    .to_game(v)
                    .map_err(|e| Failure::new("load", e.to_string()))?;
                self.game = Some(game);
                answer(json!({"to_act": self.to_act()?}))
            }
            Request::Save { path } => {
                self.game()?.save_in(&self.saves, &path).map_err(|e| {
                    Failure::new("io", format!("cannot write {}: {e}", path.display()))
                })?;
                answer(json!({"path": path}))
            }
            Request::Load { path, variant } => {
                let game = self.load(&path, variant.as_deref())?;
                self.game = Some(game);
                answer(json!({"variant": self.game()?.variant.id, "to_act": self.to_act()?}))
            }
            Request::View { player } => {
                let game = self.game()?;
                let p = seat(game, &player)?;
                answer(json!({
                    "view": wire::to_wire(&game.variant, &view::view(game, p)),
                    "to_act": self.to_act()?,
                }))
            }
            Request::LegalActions { player } => {
                let game = self.game()?;
                let p = seat(game, &player)?;
                let actions = game.legal_actions(p);
                let mut out = json!({"actions": wire::to_wire(&game.variant, &actions)});
                let described = describe_script_actions(&game.variant, &actions);
                if !described.is_empty() {
                    out["script_actions"] = Value::Object(described);
                }
                answer(out)
            }
            Request::Apply { player, action } => {
                let game = self.game.as_mut().ok_or_else(no_game)?;
                let p = seat(game, &player)?;
                let variant = game.variant.clone();
                let parsed: Action = wire::from_wire(&variant, &action)
                    .map_err(|e| Failure::request(format!("bad action: {e}")))?;
                unknown_fields(&action, &wire::to_wire(&variant, &parsed))?;
                let action = parsed;
                let events = game.apply(p, &action).map_err(|e| {
                    if e.is_script_failure() {
                        Failure::new("script", e.message)
                    } else {
                        Failure {
                            kind: "rule",
                            rule: Some(e.rule.to_string()),
                            message: e.message,
                        }
                    }
                })?;
                let seen = events_seen_by(events, p);
                answer(json!({"events": wire::to_wire(&variant, &seen), "to_act": self.to_act()?}))
            }
            Request::ToAct {} => answer(json!({"to_act": self.to_act()?})),
            Request::Battle { player } => {
                let game = self.game()?;
                let p = seat(game, &player)?;
                answer(json!({"battle": battle_seen_by(game, p)?}))
            }
            Request::Strike {
                variant,
                battleland,
                striker,
                target,
                place,
                ally,
            } => {
                let board = self.battle_board(variant, battleland, place, ally)?;
                battle_query(BattleQuery::Strike {
                    board,
                    striker,
                    target,
                })
            }
            Request::Los {
                variant,
                battleland,
                striker,
                target,
                place,
                ally,
            } => {
                let board = self.battle_board(variant, battleland, place, ally)?;
                battle_query(BattleQuery::Los {
                    board,
                    striker,
                    target,
                })
            }
            Request::Reach {
                variant,
                battleland,
                character,
                place,
                ally,
            } => {
                let board = self.battle_board(variant, battleland, place, ally)?;
                battle_query(BattleQuery::Reach { board, character })
            }
            Request::Moves {
                variant,
                land,
                roll,
            } => {
                let v = self.query_variant(variant.as_deref())?;
                queries::moves(&v, land, roll)
                    .map_err(Failure::request)
                    .and_then(answer)
            }
            Request::Recruits {
                variant,
                land,
                terrain,
                legion,
            } => {
                let v = self.query_variant(variant.as_deref())?;
                let place = match (land, terrain) {
                    (Some(n), None) => Place::Land(n),
                    (None, Some(t)) => Place::Terrain(t),
                    _ => {
                        return Err(Failure::request(
                            "recruits takes a `land` or a `terrain`, one of them",
                        ));
                    }
                };
                queries::recruits(&v, &place, &legion)
                    .map_err(Failure::request)
                    .and_then(answer)
            }
        }
    }

    fn game(&self) -> Result<&Game, Failure> {
        self.game.as_ref().ok_or_else(no_game)
    }

    fn to_act(&self) -> Result<Value, Failure> {
        Ok(json!(self.game()?.to_act()))
    }

    /// A variant by name or folder, loaded once per session.
    fn variant(&mut self, spec: &str) -> Result<Arc<Variant>, Failure> {
        if let Some(v) = self.variants.get(spec) {
            return Ok(v.clone());
        }
        let v = Arc::new(queries::find_variant(spec).map_err(|e| Failure::new("variant", e))?);
        self.variants.insert(spec.to_string(), v.clone());
        Ok(v)
    }

    /// The variant a query names, or the game's.
    /// The battleland of a battle query: the named variant, or the game's.
    fn battle_board(
        &mut self,
        variant: Option<String>,
        battleland: String,
        place: Vec<String>,
        ally: Vec<String>,
    ) -> Result<Board, Failure> {
        let variant = match variant {
            Some(v) => v,
            None => self.query_variant(None)?.id.clone(),
        };
        Ok(Board {
            variant,
            battleland,
            place,
            ally,
        })
    }

    fn query_variant(&mut self, spec: Option<&str>) -> Result<Arc<Variant>, Failure> {
        match spec {
            Some(s) => self.variant(s),
            None => match &self.game {
                Some(g) => Ok(g.variant.clone()),
                None => Err(Failure::request(
                    "name a `variant`, or start a game whose variant is used",
                )),
            },
        }
    }

    fn list_variants(&mut self) -> Answer {
        let (root, _) = queries::load_options();
        let mut list = Vec::new();
        for name in queries::bundled_variants(&root) {
            let v = self.variant(&name)?;
            let options: Map<String, Value> = v
                .options
                .iter()
                .map(|o| (o.name.clone(), option_value(&o.default)))
                .collect();
            let mut entry = json!({
                "id": v.id,
                "title": v.title,
                "version": v.version,
                "players": {"min": v.players.min, "max": v.players.max},
                "options": options,
            });
            add_marker_names(&mut entry, &v);
            list.push(entry);
        }
        answer(json!({"variants": list}))
    }

    /// Reads a save, loads the variant it names (or `spec`) and replays it.
    fn load(&mut self, path: &Path, spec: Option<&str>) -> Result<Game, Failure> {
        let fail = |m: String| Failure::new("load", m);
        let save: SaveFile = titan_core::game::save::read_save_in(&self.saves, path)
            .map_err(|e| fail(e.to_string()))?;
        let variant = self.variant(spec.unwrap_or(&save.variant))?;
        Game::from_save(variant, &save).map_err(|e| fail(e.to_string()))
    }
}

/// The variant's names of the legion markers (`rules.legions.
/// marker_names`, a list per seat), beside the other facts of a variant a
/// client is told, when it names them: markers stay `"P1-03"` everywhere
/// else, and a variant without names is answered as before.
fn add_marker_names(out: &mut Value, v: &Variant) {
    let names = &v.rules.legions.marker_names;
    if !names.is_empty()
        && let Some(map) = out.as_object_mut()
    {
        map.insert("marker_names".into(), json!(names));
    }
}

/// What a position must have before the core sets it up: players, and an
/// active seat among them.
fn check_position(position: &Position) -> Result<(), Failure> {
    let n = position.players.len();
    if n == 0 {
        return Err(Failure::new("load", "a position needs players"));
    }
    if usize::from(position.active) >= n {
        return Err(Failure::new(
            "load",
            format!(
                "the active seat is {}, but the seats are 0 to {}",
                position.active,
                n - 1
            ),
        ));
    }
    Ok(())
}

/// The variant's actions among `actions`, described so that a client can
/// offer them without knowing the variant: label, description, who takes
/// it, when, and its parameters (name, kind, label), by action name.
fn describe_script_actions(variant: &Variant, actions: &[Action]) -> Map<String, Value> {
    let mut out = Map::new();
    for a in actions {
        let name = match a {
            Action::Script { name, .. } => name,
            Action::Battle {
                battle: titan_core::battle::Action::Script { name, .. },
            } => name,
            _ => continue,
        };
        if out.contains_key(name) {
            continue;
        }
        let Some(s) = variant.script_action(name) else {
            continue;
        };
        let d = &s.def;
        out.insert(
            name.clone(),
            json!({
                "label": d.label,
                "description": d.description,
                "who": serde_json::to_value(&d.who).unwrap_or(Value::Null),
                "when": serde_json::to_value(d.when).unwrap_or(Value::Null),
                "parameters": d.parameters.iter().map(|p| json!({
                    "name": p.name,
                    "kind": serde_json::to_value(p.kind).unwrap_or(Value::Null),
                    "label": p.label,
                })).collect::<Vec<_>>(),
            }),
        );
    }
    out
}

fn no_game() -> Failure {
    Failure::request("there is no game: send new_game, load_position or load first")
}

/// The seat of a player named by seat or name.
fn seat(game: &Game, player: &PlayerRef) -> Result<PlayerId, Failure> {
    let players = &game.state.players;
    let found = match player {
        PlayerRef::Seat(s) => (usize::from(*s) < players.len()).then_some(*s),
        PlayerRef::Name(n) => players.iter().position(|p| &p.name == n).map(|i| i as u8),
    };
    found.map(PlayerId).ok_or_else(|| {
        let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        let asked = match player {
            PlayerRef::Seat(s) => format!("in seat {s}"),
            PlayerRef::Name(n) => format!("{n:?}"),
        };
        Failure::request(format!(
            "no player {asked} in this game (seats 0 to {}: {})",
            players.len().saturating_sub(1),
            names.join(", ")
        ))
    })
}

/// The events `player` may see: characters revealed to another player only
/// are not shown.
pub fn events_seen_by(events: Vec<Event>, player: PlayerId) -> Vec<Event> {
    events
        .into_iter()
        .filter(|e| !matches!(e, Event::Revealed { to: Some(to), .. } if *to != player))
        .collect()
}

/// Refuses fields of a sent action that the action does not have (a
/// misspelled field would otherwise be ignored): every field sent must be in
/// the action as read back.
fn unknown_fields(sent: &Value, read: &Value) -> Result<(), Failure> {
    let (Some(sent), Some(read)) = (sent.as_object(), read.as_object()) else {
        return Ok(());
    };
    match sent.keys().find(|k| !read.contains_key(*k)) {
        Some(k) => Err(Failure::request(format!(
            "bad action: {} has no field {k:?}",
            read.get("action")
                .and_then(Value::as_str)
                .unwrap_or("this action")
        ))),
        None => Ok(()),
    }
}

/// The battle being fought, as `player` may see it: what was handed to the
/// battle engine and the battleland now (`view`). Only the engaged players
/// are told, and only the attacker is told what could be summoned from the
/// attacker's other legions. `null` when no battle is being fought.
fn battle_seen_by(game: &Game, player: PlayerId) -> Result<Value, Failure> {
    if game.battle_request().is_none() && game.state.showdown.is_none() {
        return Ok(Value::Null);
    }
    let Some(seat) = game.battle_seat(player) else {
        return Err(Failure::request(format!(
            "{} is not in this battle: only the engaged players see it",
            game.state.players[usize::from(player.0)].name
        )));
    };
    let mut answer = wire::to_wire(&game.variant, &seat.request);
    answer["view"] = wire::to_wire(&game.variant, &seat.view);
    Ok(answer)
}

/// Rule options from plain JSON: true/false, integers, strings.
fn game_options(options: &Map<String, Value>) -> Result<BTreeMap<String, OptionValue>, Failure> {
    options
        .iter()
        .map(|(name, v)| {
            let value = match v {
                Value::Bool(b) => OptionValue::Bool(*b),
                Value::Number(n) if n.as_i64().is_some() => {
                    OptionValue::Int(n.as_i64().unwrap_or_default())
                }
                Value::String(s) => OptionValue::Text(s.clone()),
                other => {
                    return Err(Failure::request(format!(
                        "option {name:?}: {other} is no option value (true/false, an integer or a string)"
                    )));
                }
            };
            Ok((name.clone(), value))
        })
        .collect()
}

fn option_value(v: &OptionValue) -> Value {
    match v {
        OptionValue::Bool(b) => json!(b),
        OptionValue::Int(i) => json!(i),
        OptionValue::Text(s) => json!(s),
    }
}

/// An inline position: the scenario file's fields as JSON, its options as
/// plain JSON values.
fn inline_position(mut inline: Value) -> Result<Position, Failure> {
    if let Some(options) = inline.get_mut("options") {
        let map = options
            .as_object()
            .ok_or_else(|| Failure::request("position options are an object"))?;
        let converted: Map<String, Value> = game_options(map)?
            .into_iter()
            .map(|(k, v)| (k, serde_json::to_value(v).unwrap_or(Value::Null)))
            .collect();
        *options = Value::Object(converted);
    }
    serde_json::from_value(inline).map_err(|e| Failure::request(format!("bad position: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(lines: &[&str]) -> Vec<Value> {
        let input = lines.join("\n");
        let mut out = Vec::new();
        serve(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn errors_are_answers_and_the_session_goes_on() {
        let r = session(&[
            "{not json",
            r#"{"id": 5, "cmd": "fly"}"#,
            r#"[1, 2]"#,
            r#"{"id": "v", "cmd": "view", "player": 0}"#,
            "",
            r#"{"id": 6, "cmd": "moves", "variant": "titan", "land": 1, "roll": 1}"#,
        ]);
        assert_eq!(r.len(), 5);
        assert_eq!(r[0]["ok"], false);
        assert_eq!(r[0]["error"]["kind"], "json");
        assert_eq!(r[1]["id"], 5);
        assert_eq!(r[1]["error"]["kind"], "request");
        assert_eq!(r[2]["error"]["kind"], "request");
        assert_eq!(r[3]["id"], "v");
        assert!(
            r[3]["error"]["message"]
                .as_str()
                .unwrap()
                .contains("no game")
        );
        assert_eq!(r[4]["ok"], true);
        assert_eq!(r[4]["moves"][1]["land"], 1000);
    }

    #[test]
    fn invalid_utf8_is_an_error_response() {
        let mut out = Vec::new();
        serve(&b"\xff\xfe\n{\"cmd\": \"to_act\"}\n"[..], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["error"]["kind"], "json");
        assert_eq!(lines[1]["error"]["kind"], "request");
    }

    #[test]
    fn revealed_events_for_others_are_dropped() {
        let m = "P1-01".parse().unwrap();
        let events = vec![
            Event::Revealed {
                legion: m,
                characters: vec![],
                to: Some(PlayerId(1)),
            },
            Event::Revealed {
                legion: m,
                characters: vec![],
                to: None,
            },
            Event::Fled { legion: m },
        ];
        assert_eq!(events_seen_by(events.clone(), PlayerId(0)).len(), 2);
        assert_eq!(events_seen_by(events, PlayerId(1)).len(), 3);
    }
}
