//! `titan engine` driven as a bot or GUI drives it: the real binary, one
//! JSON request per line on its stdin, one response per line on its stdout.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

/// A running `titan engine`.
struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start() -> Engine {
        Engine::start_saving_in(&std::env::temp_dir())
    }

    /// An engine whose saves go below `saves`.
    fn start_saving_in(saves: &std::path::Path) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_titan"))
            .arg("engine")
            .arg("--saves")
            .arg(saves)
            .current_dir(common::root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("titan engine starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            input,
            output,
        }
    }

    /// Sends one line and reads the one line that answers it.
    fn raw(&mut self, line: &str) -> Value {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
        let mut answer = String::new();
        self.output.read_line(&mut answer).unwrap();
        serde_json::from_str(&answer).unwrap_or_else(|e| panic!("{answer:?} is no JSON: {e}"))
    }

    fn send(&mut self, request: Value) -> Value {
        self.raw(&request.to_string())
    }

    /// Sends a request that must succeed.
    fn ok(&mut self, request: Value) -> Value {
        let answer = self.send(request.clone());
        assert_eq!(answer["ok"], true, "{request} -> {answer}");
        answer
    }

    fn view(&mut self, player: u64) -> Value {
        self.ok(json!({"cmd": "view", "player": player}))["view"].clone()
    }

    fn actions(&mut self, player: u64) -> Vec<Value> {
        self.ok(json!({"cmd": "legal_actions", "player": player}))["actions"]
            .as_array()
            .unwrap()
            .clone()
    }

    fn apply(&mut self, player: u64, action: &Value) -> Value {
        self.ok(json!({"cmd": "apply", "player": player, "action": action}))
    }

    /// Ends the session by closing stdin; the engine must exit cleanly.
    fn finish(self) {
        let Engine {
            mut child, input, ..
        } = self;
        drop(input);
        assert!(child.wait().unwrap().success());
    }
}

fn to_act(answer: &Value) -> u64 {
    answer["to_act"][0].as_u64().expect("someone is to act")
}

fn legion<'a>(view: &'a Value, marker: &str) -> &'a Value {
    view["legions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["marker"] == marker)
        .unwrap_or_else(|| panic!("no legion {marker} in {view}"))
}

/// A whole short game: setup, the initial splits, a roll, a move, views as
/// each player, a refused action, a save and a load.
#[test]
fn a_short_game_over_the_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = Engine::start_saving_in(dir.path());
    let started = e.ok(json!({"id": 1, "cmd": "new_game", "variant": "titan",
        "players": ["Ann", "Bob"], "seed": 7}));
    assert_eq!(started["id"], 1);
    // Reference sheet, "Setup": each player is placed in a tower.
    let placed: Vec<&Value> = started["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|ev| ev["event"] == "Placed")
        .collect();
    assert_eq!(placed.len(), 2);
    let towers: Vec<u64> = placed
        .iter()
        .map(|p| p["tower"].as_u64().unwrap())
        .collect();
    for t in &towers {
        assert!([100, 200, 300, 400, 500, 600].contains(t), "{towers:?}");
    }

    // The initial splits, each player in turn: the first division offered.
    let mut answer = started;
    for _ in 0..2 {
        let p = to_act(&answer);
        let offered = e.actions(p);
        assert_eq!(offered[0]["action"], "InitialSplit", "{offered:?}");
        // Characters by name on the wire.
        assert!(offered[0]["legions"][0][0].is_string());
        answer = e.apply(p, &offered[0]);
        assert!(
            answer["events"]
                .as_array()
                .unwrap()
                .iter()
                .any(|ev| ev["event"] == "LegionFormed")
        );
    }
    let mover = to_act(&answer);
    let other = 1 - mover;

    // Hidden information: each sees his own legions whole, the other's as
    // height only.
    for me in [mover, other] {
        let v = e.view(me);
        assert_eq!(v["me"], me);
        for l in v["legions"].as_array().unwrap() {
            assert_eq!(l["height"], 4);
            if l["owner"] == me {
                assert_eq!(l["characters"].as_array().unwrap().len(), 4, "{l}");
            } else {
                assert!(l["characters"].is_null(), "player {me} sees {l}");
            }
        }
    }
    // The same view asked by name.
    let name = e.view(mover)["players"][mover as usize]["name"].clone();
    let by_name = e.ok(json!({"cmd": "view", "player": name}));
    assert_eq!(by_name["view"], e.view(mover));

    // An action out of turn is refused with its rule, and changes nothing.
    let before: Vec<Value> = [0, 1].iter().map(|&p| e.view(p)).collect();
    let refused = e.send(json!({"cmd": "apply", "player": other, "action": {"action": "Roll"}}));
    assert_eq!(refused["ok"], false);
    assert_eq!(refused["error"]["kind"], "rule");
    assert!(
        refused["error"]["rule"]
            .as_str()
            .unwrap()
            .starts_with("reference sheet")
    );
    // Moving before the roll is refused too.
    let mine = e.view(mover)["legions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["owner"] == mover)
        .unwrap()["marker"]
        .clone();
    let early = e.send(json!({"cmd": "apply", "player": mover, "action":
        {"action": "Move", "legion": mine, "to": 1, "entered_from": 1}}));
    assert_eq!(early["error"]["kind"], "rule", "{early}");
    assert!(early["error"]["message"].is_string());
    let after: Vec<Value> = [0, 1].iter().map(|&p| e.view(p)).collect();
    assert_eq!(before, after);

    // The roll, and a move the engine offers.
    let rolled = e.apply(mover, &json!({"action": "Roll"}));
    let roll = rolled["events"][0]["roll"].as_u64().unwrap();
    assert_eq!(rolled["events"][0]["event"], "Rolled");
    assert!((1..=6).contains(&roll));
    let offered = e.actions(mover);
    let step = offered
        .iter()
        .find(|a| a["action"] == "Move")
        .expect("a move is offered")
        .clone();
    // The same move answered by the rules query (an empty board, no lords
    // needed): every offered move of this legion is among them.
    let home = legion(&e.view(mover), step["legion"].as_str().unwrap())["land"].clone();
    let query = e.ok(json!({"cmd": "moves", "land": home, "roll": roll}));
    assert!(
        query["moves"]
            .as_array()
            .unwrap()
            .contains(&json!({"land": step["to"], "entered_from": step["entered_from"]})),
        "{step} not in {query}"
    );
    // A move to a land not offered is refused.
    let wrong = e.send(json!({"cmd": "apply", "player": mover, "action":
        {"action": "Move", "legion": step["legion"], "to": 1000, "entered_from": 1}}));
    assert_eq!(wrong["ok"], false, "{wrong}");
    let moved = e.apply(mover, &step);
    assert_eq!(moved["events"][0]["event"], "Moved", "{moved}");
    assert_eq!(moved["events"][0]["to"], step["to"]);
    let seen = e.view(other);
    let l = legion(&seen, step["legion"].as_str().unwrap());
    assert_eq!(l["land"], step["to"]);
    assert_eq!(l["moved"], true);

    // Save, then load in a new session: the same view for each player.
    let path = dir.path().join("game.ron");
    e.ok(json!({"cmd": "save", "path": path}));
    let views: Vec<Value> = [0, 1].iter().map(|&p| e.view(p)).collect();
    let actions = e.actions(mover);
    e.finish();
    let mut e2 = Engine::start_saving_in(dir.path());
    let loaded = e2.ok(json!({"cmd": "load", "path": path}));
    assert_eq!(loaded["variant"], "titan");
    assert_eq!(loaded["to_act"], json!([mover]));
    let again: Vec<Value> = [0, 1].iter().map(|&p| e2.view(p)).collect();
    assert_eq!(views, again);
    assert_eq!(actions, e2.actions(mover));

    // The loaded game goes on: the turn ends and the other player's begins.
    e2.apply(mover, &json!({"action": "DoneMoving"}));
    let offered = e2.actions(mover);
    assert!(
        offered.contains(&json!({"action": "EndTurn"})),
        "{offered:?}"
    );
    let ended = e2.apply(mover, &json!({"action": "EndTurn"}));
    assert_eq!(
        ended["events"].as_array().unwrap().last().unwrap(),
        &json!({"event": "TurnBegins", "player": other, "turn": 1})
    );
    assert_eq!(ended["to_act"], json!([other]));
    e2.finish();
}

/// A bot's loop over the protocol: ask who is to act, ask that player's
/// legal actions, apply one. Every action offered on the wire is accepted
/// back, over hundreds of actions of three-player games, each played to its
/// end or to 400 actions.
#[test]
fn every_offered_action_is_accepted_over_the_wire() {
    let mut e = Engine::start();
    // A fixed sequence of picks (a linear congruential generator): the test
    // is the same on every run.
    let mut pick = 12345u64;
    let mut applied = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0.. {
        if applied >= 500 {
            break;
        }
        let mut answer = e.ok(json!({"cmd": "new_game", "variant": "titan",
            "players": ["A", "B", "C"], "seed": seed}));
        for _ in 0..400 {
            let Some(p) = answer["to_act"].as_array().and_then(|t| t.first()) else {
                // Nobody to act: the game is over.
                assert!(!e.view(0)["outcome"].is_null(), "{answer}");
                break;
            };
            let p = p.as_u64().unwrap();
            let offered: Vec<Value> = e
                .actions(p)
                .into_iter()
                .filter(|a| a["action"] != "ConcedeGame")
                .collect();
            assert!(
                !offered.is_empty(),
                "seed {seed}: player {p} is to act but may not: {answer}\n{}\n{:?}",
                e.view(p),
                e.actions(p)
            );
            pick = pick
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Splits are many and optional: mostly pass, as a cautious bot does.
            let chosen = match offered.iter().find(|a| a["action"] == "DoneSplitting") {
                Some(done) if !pick.is_multiple_of(4) => done.clone(),
                _ => offered[((pick >> 33) as usize) % offered.len()].clone(),
            };
            kinds.insert(chosen["action"].as_str().unwrap().to_string());
            answer = e.apply(p, &chosen);
            applied += 1;
        }
    }
    eprintln!("{applied} actions over the wire: {kinds:?}");
    for k in [
        "InitialSplit",
        "Roll",
        "Move",
        "DoneMoving",
        "Engage",
        "EndTurn",
    ] {
        assert!(kinds.contains(k), "{k} never played: {kinds:?}");
    }
    e.finish();
}

/// Reference sheet, "Engagement": "At the start of an Engagement, each
/// player secretly examines the characters in the opposing Legion." The
/// attacker's answer shows the defender's legion, not what the defender was
/// shown; a third player sees neither.
#[test]
fn an_engagement_reveals_each_legion_to_its_opponent_only() {
    let mut e = Engine::start();
    let position = json!({
        "players": [
            {"name": "Ann", "tower": 100},
            {"name": "Bob", "tower": 200},
            {"name": "Cy", "tower": 300},
        ],
        "legions": [
            {"marker": "P1-01", "land": 1, "characters": ["Titan", "Ogre", "Ogre"],
             "moved": true, "entered_from": 42},
            {"marker": "P2-01", "land": 1, "characters": ["Titan", "Centaur", "Lion"]},
            {"marker": "P3-01", "land": 300, "characters": ["Titan", "Gargoyle"]},
        ],
        "active": 0,
        "phase": "Engage",
        "roll": 1,
    });
    e.ok(json!({"cmd": "load_position", "variant": "titan", "position": position}));
    assert_eq!(
        e.actions(0),
        vec![
            json!({"action": "Engage", "land": 1}),
            json!({"action": "ConcedeGame"})
        ]
    );
    let engaged = e.apply(0, &json!({"action": "Engage", "land": 1}));
    let revealed: Vec<&Value> = engaged["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|ev| ev["event"] == "Revealed")
        .collect();
    assert_eq!(
        revealed,
        vec![&json!({"event": "Revealed", "legion": "P2-01", "to": 0,
            "characters": ["Centaur", "Lion", "Titan"]})],
        "{engaged}"
    );
    let (ann, bob, cy) = (e.view(0), e.view(1), e.view(2));
    assert!(legion(&ann, "P2-01")["characters"].is_array());
    assert!(legion(&bob, "P1-01")["characters"].is_array());
    assert!(legion(&cy, "P1-01")["characters"].is_null());
    assert!(legion(&cy, "P2-01")["characters"].is_null());
    assert!(legion(&ann, "P3-01")["characters"].is_null());
    // A Titan's legion may not flee (reference sheet, "Engagement"): both
    // players now negotiate.
    assert_eq!(e.ok(json!({"cmd": "to_act"}))["to_act"], json!([0, 1]));
    assert_eq!(
        ann["engagement"]["step"],
        json!({"Negotiate": {"proposal": null}})
    );
    e.finish();
}

#[test]
fn positions_load_from_files_and_bad_ones_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.ron");
    std::fs::write(
        &file,
        r#"(
            players: [(name: "Ann", tower: 100), (name: "Bob", tower: 400)],
            legions: [
                (marker: "P1-01", land: 100, characters: ["Titan", "Angel"]),
                (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
            ],
            active: 1,
            phase: Move,
        )"#,
    )
    .unwrap();
    let mut e = Engine::start_saving_in(dir.path());
    let loaded = e.ok(json!({"cmd": "load_position", "variant": "titan", "path": file}));
    assert_eq!(loaded["to_act"], json!([1]));
    let v = e.view(1);
    assert_eq!(v["phase"], "Move");
    assert_eq!(legion(&v, "P2-01")["land"], 400);
    let bad = e.send(
        json!({"cmd": "load_position", "variant": "titan", "position": {
        "players": [{"name": "Ann", "tower": 100}, {"name": "Bob", "tower": 400}],
        "legions": [{"marker": "P1-01", "land": 100, "characters": ["Orc"]}],
        "active": 0, "phase": "Move"}}),
    );
    assert_eq!(bad["error"]["kind"], "load", "{bad}");
    assert!(bad["error"]["message"].as_str().unwrap().contains("Orc"));
    let no_seat = e.send(
        json!({"cmd": "load_position", "variant": "titan", "position": {
        "players": [{"name": "Ann", "tower": 100}], "legions": [], "active": 7, "phase": "Move"}}),
    );
    assert!(
        no_seat["error"]["message"]
            .as_str()
            .unwrap()
            .contains("active seat is 7"),
        "{no_seat}"
    );
    // The game loaded before is still there.
    assert_eq!(e.view(1), v);
    let nowhere = e.send(json!({"cmd": "load_position", "variant": "titan",
        "path": dir.path().join("missing.ron")}));
    assert_eq!(nowhere["error"]["kind"], "load");
    e.finish();
}

/// A save made with another version of the variant is refused, saying so.
#[test]
fn a_save_of_another_variant_version_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.ron");
    let mut e = Engine::start_saving_in(dir.path());
    e.ok(json!({"cmd": "new_game", "variant": "titan", "players": ["A", "B", "C"], "seed": 3}));
    e.ok(json!({"cmd": "save", "path": path}));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"1.1.0\""), "{text}");
    std::fs::write(&path, text.replace("\"1.1.0\"", "\"0.9.0\"")).unwrap();
    let refused = e.send(json!({"cmd": "load", "path": path}));
    assert_eq!(refused["ok"], false);
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("version 0.9.0"), "{message}");
    // A save whose actions do not reach the saved state is refused too.
    let tampered: Vec<String> = text
        .lines()
        .map(|l| match l.trim_start().starts_with("state_hash:") {
            true => "    state_hash: 12345,".to_string(),
            false => l.to_string(),
        })
        .collect();
    std::fs::write(&path, tampered.join("\n")).unwrap();
    let diverged = e.send(json!({"cmd": "load", "path": path}));
    assert_eq!(diverged["error"]["kind"], "load", "{diverged}");
    e.finish();
}

#[test]
fn malformed_requests_are_answers_not_crashes() {
    let mut e = Engine::start();
    let r = e.raw("{\"cmd\": \"new_game\", ");
    assert_eq!(r["ok"], false);
    assert_eq!(r["error"]["kind"], "json");
    let r =
        e.send(json!({"id": [1], "cmd": "new_game", "variant": "nowhere", "players": ["A", "B"]}));
    assert_eq!(r["id"], json!([1]));
    assert_eq!(r["error"]["kind"], "variant");
    let r = e.send(json!({"cmd": "new_game", "variant": "titan", "players": ["A"]}));
    assert_eq!(r["error"]["kind"], "setup", "{r}");
    let r =
        e.send(json!({"cmd": "new_game", "variant": "titan", "players": ["A", "B"], "colour": 1}));
    assert_eq!(r["error"]["kind"], "request", "{r}");
    e.ok(json!({"cmd": "new_game", "variant": "titan", "players": ["A", "B"], "seed": 1}));
    let r = e.send(json!({"cmd": "view", "player": 2}));
    assert_eq!(r["error"]["kind"], "request", "{r}");
    let r = e.send(json!({"cmd": "view", "player": -1}));
    assert!(
        r["error"]["message"].as_str().unwrap().contains("a seat"),
        "{r}"
    );
    let r = e.send(json!({"cmd": "view", "player": "Zed"}));
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no player"),
        "{r}"
    );
    let r = e.send(json!({"cmd": "apply", "player": "A", "action": {"action": "Roll", "dice": 2}}));
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no field \"dice\""),
        "{r}"
    );
    let r = e.send(json!({"cmd": "apply", "player": "A", "action": {"action": "Jump"}}));
    assert_eq!(r["error"]["kind"], "request", "{r}");
    let r = e.send(json!({"cmd": "apply", "player": "A", "action":
        {"action": "InitialSplit", "legions": [["Orc"]]}}));
    assert!(
        r["error"]["message"].as_str().unwrap().contains("\"Orc\""),
        "{r}"
    );
    let r = e.send(json!({"cmd": "recruits", "terrain": "Marsh", "legion": ["Ogre", "Ogre"]}));
    assert_eq!(r["ok"], true, "{r}");
    e.finish();
}

/// A game of a variant loaded by path is saved under its id; loading it
/// again needs the path, given as `variant`.
#[test]
fn a_variant_by_path_saves_and_loads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hooked.ron");
    let mut e = Engine::start_saving_in(dir.path());
    let fixture = "tests/fixtures/muster-hook";
    e.ok(json!({"cmd": "new_game", "variant": fixture, "players": ["A", "B"], "seed": 5}));
    // Queries without a variant use the game's: its Marsh has the hook.
    let r = e.ok(json!({"cmd": "recruits", "terrain": "Marsh",
        "legion": ["Ogre", "Ogre", "Troll", "Lion", "Lion"]}));
    assert!(
        r["recruits"]
            .as_array()
            .unwrap()
            .contains(&json!({"recruit": "Ranger", "reveal": []})),
        "{r}"
    );
    let views = [e.view(0), e.view(1)];
    e.ok(json!({"cmd": "save", "path": path}));
    let lost = e.send(json!({"cmd": "load", "path": path}));
    assert_eq!(lost["error"]["kind"], "variant", "{lost}");
    let loaded = e.ok(json!({"cmd": "load", "path": path, "variant": fixture}));
    assert_eq!(loaded["variant"], "muster-hook");
    assert_eq!([e.view(0), e.view(1)], views);
    e.finish();
}
