//! The online game tried as new users would (the online audit): three
//! players and a spectator on one server, each client's every message
//! checked for what its seat may not see, and the ways a client may try to
//! act for another seat.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::*;
use titan_core::format::Visibility;
use titan_core::game::{Action, Event, Game, PlayerId};
use titan_core::rng::GameRng;
use titan_server::client::Client;
use titan_server::protocol::{GameState, Message, Request};

/// Bounded wait against a hang (never a verdict on speed).
const HANG: Duration = Duration::from_secs(60);

/// A client of `server` signed in as `user` (whose password is
/// "<user>-password").
fn signed_in(server: &TestServer, user: &str) -> Client {
    let mut c = Client::connect(&server.addr).unwrap();
    c.sign_in(user, &format!("{user}-password")).unwrap();
    c
}

fn create(c: &mut Client, variant: &str, seats: &[&str]) -> String {
    c.request(&Request::Create {
        variant: variant.into(),
        options: Default::default(),
        seats: seats.iter().map(|s| s.to_string()).collect(),
        timeout_secs: 0,
    })
    .unwrap()["game"]
        .as_str()
        .unwrap()
        .to_string()
}

fn join(c: &mut Client, id: &str) {
    c.request(&Request::Join {
        game: id.into(),
        seat: None,
    })
    .unwrap();
}

fn watch(c: &mut Client, id: &str) -> GameState {
    c.request(&Request::Watch {
        game: id.into(),
        events_from: 0,
    })
    .unwrap();
    c.next_state(HANG).unwrap().expect("no state after a watch")
}

/// The state pushed after the game reached `actions` actions, keeping every
/// state pushed on the way in `seen`.
fn state_at(c: &mut Client, actions: usize, seen: &mut Vec<GameState>) -> GameState {
    loop {
        let s = c
            .next_state(HANG)
            .unwrap()
            .unwrap_or_else(|| panic!("no state with {actions} actions was pushed"));
        seen.push(s.clone());
        if s.actions >= actions {
            return s;
        }
    }
}

/// What a seat (or a spectator) may be shown, checked against the rules
/// and not only against the engine's own view: another player's legion
/// only once the rules revealed it to this client (a reveal it was sent),
/// another player's `Owner` and anyone's `Nobody` variables never, no
/// event revealed to another player, no `VarSet` of a hidden variable, only
/// its own seat's legal actions, the battle only when engaged.
fn check_private(game: &Game, states: &[GameState]) {
    let variant = &game.variant;
    let hidden_var = |name: &str| {
        variant
            .variable(name)
            .is_some_and(|d| d.visibility != Visibility::Everyone)
    };
    let mut revealed_to_me = BTreeSet::new();
    for s in states {
        let me = s.seat;
        assert_eq!(s.view.me, me.unwrap_or(titan_server::protocol::SPECTATOR));
        for (_, e) in &s.events {
            match e {
                Event::Revealed { legion, to, .. } => {
                    assert!(
                        to.is_none() || *to == me,
                        "{me:?} was sent a reveal to {to:?}"
                    );
                    revealed_to_me.insert(*legion);
                }
                Event::VarSet { variable, .. } => {
                    assert!(!hidden_var(variable), "{me:?} was sent {e:?}")
                }
                Event::Battle { events } => {
                    for b in events {
                        if let titan_core::battle::BattleEvent::VarSet { variable, .. } = b {
                            assert!(!hidden_var(variable), "{me:?} was sent {b:?}");
                        }
                    }
                }
                _ => {}
            }
        }
        for l in &s.view.legions {
            if Some(l.owner) != me && l.characters.is_some() {
                assert!(
                    me.is_some() && revealed_to_me.contains(&l.marker),
                    "{me:?} sees the contents of {:?}, never revealed to it",
                    l.marker
                );
            }
        }
        for v in &s.view.vars {
            let def = variant.variable(&v.variable).unwrap();
            match def.visibility {
                Visibility::Everyone => {}
                Visibility::Nobody => panic!("{me:?} was shown {v:?}"),
                Visibility::Owner => assert!(
                    me.is_some() && titan_core::game::view::var_owner(game, &v.of) == me
                        || matches!(v.of, titan_core::vars::VarTarget::Player(p) if Some(p) == me),
                    "{me:?} was shown another's {v:?}"
                ),
            }
        }
        match me {
            None => assert!(s.legal.is_empty() && s.battle.is_none()),
            Some(_) => {
                if let Some(b) = &s.battle {
                    let e = s
                        .view
                        .engagement
                        .as_ref()
                        .expect("a battle with no engagement");
                    let owners: Vec<_> = s
                        .view
                        .legions
                        .iter()
                        .filter(|l| l.marker == e.attacker || l.marker == e.defender)
                        .map(|l| Some(l.owner))
                        .collect();
                    assert!(owners.contains(&me), "{me:?} not engaged was sent {b:?}");
                    for v in &b.view.vars {
                        let def = variant.variable(&v.variable).unwrap();
                        let mine = matches!(v.of, titan_core::vars::VarTarget::Unit(u)
                            if b.view.units.iter().any(|x| x.id == u && x.side == b.side));
                        assert!(
                            def.visibility == Visibility::Everyone
                                || def.visibility == Visibility::Owner && mine,
                            "{me:?} was shown the battle's {v:?}"
                        );
                    }
                }
            }
        }
    }
}

/// The legal actions each state carried are exactly its seat's, at that
/// point of the stored game.
fn check_legal(db: &str, id: &str, states: &[Vec<GameState>]) {
    let r = replay(db, id);
    let variant = r.game.variant.clone();
    let players: Vec<String> = r
        .game
        .state
        .players
        .iter()
        .map(|p| p.name.clone())
        .collect();
    let row_seed = 11;
    let (mut game, _) = Game::new(variant, Default::default(), &players, row_seed).unwrap();
    let mut legal = Vec::new();
    let seats = players.len();
    let at = |g: &Game| {
        (0..seats)
            .map(|p| g.legal_actions(PlayerId(p as u8)))
            .collect::<Vec<_>>()
    };
    legal.push(at(&game));
    for (p, a) in &r.actions {
        game.apply(PlayerId(*p), a).unwrap();
        legal.push(at(&game));
    }
    for s in states.iter().flatten() {
        if let Some(me) = s.seat
            && s.status == "running"
        {
            assert_eq!(
                s.legal, legal[s.actions][me.0 as usize],
                "the legal actions sent to {me:?} after {} actions are not its own",
                s.actions
            );
        }
    }
}

/// Three players and a spectator play house-spells (a variant with an
/// `Owner` variable, `mana`) by random legal actions until the game has
/// had battles, two players concede, and every message each client got is
/// checked for what its seat may not see ("Views never show a player what
/// the rules hide from them"; Law of the Masterboard: a legion's contents
/// are hidden but for musters, teleports and engagements).
#[test]
fn three_players_and_a_spectator_see_only_what_their_seat_may() {
    let (_dir, db) = sqlite();
    let server = TestServer::start(config(&db));
    let names = ["ann", "bob", "cat"];
    let mut clients: Vec<Client> = names
        .iter()
        .map(|n| {
            let mut c = Client::connect(&server.addr).unwrap();
            c.sign_in(n, &format!("{n}-password")).unwrap();
            c
        })
        .collect();
    let id = create(
        &mut clients[0],
        "house-spells",
        &["human", "human", "human"],
    );
    join(&mut clients[1], &id);
    join(&mut clients[2], &id);
    let mut eve = signed_in(&server, "eve");
    let mut seen: Vec<Vec<GameState>> = vec![Vec::new(); 4];
    let mut last: Vec<GameState> = clients.iter_mut().map(|c| watch(c, &id)).collect();
    last.push(watch(&mut eve, &id));
    for (i, s) in last.iter().enumerate() {
        seen[i].push(s.clone());
    }
    // The lobby names players and who is to act, nothing of a legion.
    let lobby = eve.request(&Request::Lobby {}).unwrap().to_string();
    assert!(
        !lobby.contains("legion") && !lobby.contains("mana"),
        "{lobby}"
    );
    // Chat goes to everyone watching.
    clients[1]
        .request(&Request::Chat {
            text: "hello".into(),
        })
        .unwrap();
    let mut rng = GameRng::new(5);
    let mut battles = 0;
    let mut n = 0;
    while n < 3000 && (battles < 3 || n < 300) {
        let Some(i) = (0..3).find(|&i| {
            last[i].to_act.contains(&last[i].seat.unwrap()) && !last[i].legal.is_empty()
        }) else {
            break;
        };
        // Random play, but no giving up yet.
        let legal: Vec<Action> = last[i]
            .legal
            .iter()
            .filter(|a| !matches!(a, Action::ConcedeGame | Action::Concede))
            .cloned()
            .collect();
        let legal = if legal.is_empty() {
            last[i].legal.clone()
        } else {
            legal
        };
        let action = titan_core::game::random::choose(legal, &mut rng).unwrap();
        clients[i]
            .request(&Request::Act {
                action: serde_json::to_value(&action).unwrap(),
                expect: last[i].actions,
            })
            .unwrap();
        n += 1;
        for (k, c) in clients.iter_mut().enumerate() {
            last[k] = state_at(c, n, &mut seen[k]);
        }
        last[3] = state_at(&mut eve, n, &mut seen[3]);
        battles += last[3]
            .events
            .iter()
            .filter(|(_, e)| matches!(e, Event::BattleBegins { .. }))
            .count();
        if last[0].view.outcome.is_some() {
            break;
        }
    }
    assert!(n >= 300, "the game stalled after {n} actions");
    // Two players concede: the game ends and everyone is told its outcome.
    for i in [1, 2] {
        if last[i].view.outcome.is_some() {
            break;
        }
        if !last[i].view.players[i].alive {
            continue;
        }
        clients[i]
            .request(&Request::Act {
                action: serde_json::to_value(Action::ConcedeGame).unwrap(),
                expect: last[i].actions,
            })
            .unwrap();
        n += 1;
        for (k, c) in clients.iter_mut().enumerate() {
            last[k] = state_at(c, n, &mut seen[k]);
        }
        last[3] = state_at(&mut eve, n, &mut seen[3]);
    }
    let outcome = last[3].view.outcome.clone().expect("the game did not end");
    for s in &last {
        assert_eq!(s.view.outcome.as_ref(), Some(&outcome));
        assert_eq!(s.status, "over");
        assert!(s.legal.is_empty(), "a finished game offers {:?}", s.legal);
    }
    let r = replay(&db, &id);
    for s in &seen {
        check_pushed(&r, s);
        check_private(&r.game, s);
        assert!(
            s.iter()
                .any(|s| s.chat.iter().any(|(u, t)| u == "bob" && t == "hello")),
            "a chat line did not reach everyone"
        );
    }
    check_legal(&db, &id, &seen[..3]);
    // Mana was earned, and someone was shown its own.
    assert!(
        seen.iter()
            .flatten()
            .any(|s| s.view.vars.iter().any(|v| v.variable == "mana")),
        "no mana was earned in {n} actions: the check of Owner variables proved nothing"
    );
    // A player back after the end is shown the outcome.
    let mut late = signed_in(&server, "cat");
    let s = watch(&mut late, &id);
    assert_eq!(s.view.outcome, Some(outcome));
    server.stop();
}

/// A player who left a running game (his seat handed to a computer) no
/// longer acts for it nor sees it as its player from another connection of
/// his: the seat is the computer's (docs/online.md, "How a game goes" 5).
#[test]
fn a_seat_left_to_a_computer_is_not_played_from_another_connection() {
    let (_dir, db) = sqlite();
    let server = TestServer::start(config(&db));
    let mut ann = signed_in(&server, "ann");
    let mut ann2 = signed_in(&server, "ann");
    let mut bob = signed_in(&server, "bob");
    let id = create(&mut ann, "titan", &["human", "human"]);
    join(&mut bob, &id);
    watch(&mut bob, &id);
    let mut s = watch(&mut ann, &id);
    // Ann plays until it is Bob's turn alone, so that nothing moves while
    // she tries.
    while s.to_act.contains(&PlayerId(0)) {
        ann.request(&Request::Act {
            action: serde_json::to_value(&s.legal[0]).unwrap(),
            expect: s.actions,
        })
        .unwrap();
        let n = s.actions + 1;
        s = state_at(&mut ann, n, &mut Vec::new());
    }
    let n = s.actions;
    let s2 = watch(&mut ann2, &id);
    assert_eq!(s2.seat, Some(PlayerId(0)));
    ann.request(&Request::Leave { game: id.clone() }).unwrap();
    // Conceding is open to a seat whose turn it is not: not to its old player.
    let refused = ann2.request(&Request::Act {
        action: serde_json::to_value(Action::ConcedeGame).unwrap(),
        expect: n,
    });
    assert!(
        refused.is_err(),
        "a seat left to a computer was conceded by its old player"
    );
    assert_eq!(replay(&db, &id).actions.len(), n);
    assert!(
        ann2.request(&Request::Suggest {
            level: "simple".into()
        })
        .is_err()
    );
    // Its pushes are a spectator's from now on.
    ann2.pushes.clear();
    ann2.request(&Request::Chat {
        text: "still here".into(),
    })
    .unwrap();
    let s = loop {
        let s = ann2
            .next_state(HANG)
            .unwrap()
            .expect("no push after a chat");
        if s.chat.iter().any(|(_, t)| t == "still here") {
            break s;
        }
    };
    assert!(s.seat.is_none() && s.legal.is_empty() && s.battle.is_none());
    assert!(
        s.view.legions.iter().all(|l| l.characters.is_none()),
        "the old player still sees the seat's legions"
    );
    server.stop();
}

/// Bad input inside the size limit neither crashes nor stalls the server
/// nor the game: each is an error to its sender, the others play on.
#[test]
fn hostile_messages_leave_the_game_playable() {
    let (_dir, db) = sqlite();
    let server = TestServer::start(config(&db));
    let mut ann = signed_in(&server, "ann");
    let mut bob = signed_in(&server, "bob");
    let id = create(&mut ann, "titan", &["human", "human"]);
    join(&mut bob, &id);
    let a = watch(&mut ann, &id);
    let b = watch(&mut bob, &id);
    let (mover, other, state) = if a.to_act.contains(&a.seat.unwrap()) {
        (&mut ann, &mut bob, a)
    } else {
        (&mut bob, &mut ann, b)
    };
    let deep = format!("{}{}", "[".repeat(20_000), "]".repeat(20_000));
    let hostile = [
        deep.clone(),
        format!(r#"{{"cmd":"act","expect":0,"action":{deep}}}"#),
        format!(
            r#"{{"cmd":"act","expect":0,"action":{{"Split":{{"legion":"{}","parts":[]}}}}}}"#,
            "x".repeat(30_000)
        ),
        r#"{"cmd":"act","expect":18446744073709551615,"action":"Pass"}"#.to_string(),
        r#"{"cmd":"act","expect":-1,"action":"Pass"}"#.to_string(),
        r#"{"cmd":"watch","game":"nope","events_from":18446744073709551615}"#.to_string(),
        r#"{"cmd":"suggest","level":"god"}"#.to_string(),
        r#"{"cmd":"join","game":"x","seat":255}"#.to_string(),
        format!(
            r#"{{"cmd":"create","variant":"titan","seats":[{}]}}"#,
            vec![r#""human""#; 5000].join(",")
        ),
        format!(
            r#"{{"cmd":"create","variant":"titan","options":{{"{}":1}},"seats":["human","human"]}}"#,
            "o".repeat(30_000)
        ),
        r#"{"cmd":"create","variant":"titan","seats":[]}"#.to_string(),
        r#"{"cmd":"chat","text":"   "}"#.to_string(),
        "\u{0}".to_string(),
        "null".to_string(),
        "[]".to_string(),
    ];
    for text in &hostile {
        for c in [&mut *mover, &mut *other] {
            c.send_raw(text).unwrap();
            match c.read(HANG).unwrap() {
                Some(Message::Error { .. }) => {}
                other => panic!("{} was answered {other:?}", &text[..text.len().min(80)]),
            }
        }
    }
    assert_eq!(replay(&db, &id).actions.len(), 0);
    // The game goes on.
    let action = state.legal[0].clone();
    mover
        .request(&Request::Act {
            action: serde_json::to_value(&action).unwrap(),
            expect: 0,
        })
        .unwrap();
    other.pushes.clear();
    let s = other
        .next_state(HANG)
        .unwrap()
        .expect("no push to the other player");
    assert!(s.actions >= 1);
    assert_eq!(replay(&db, &id).actions.len(), 1);
    server.stop();
}

/// Plays `c`'s seat by its first legal action until `done` holds for its
/// latest state; other seats are played by whoever plays them.
fn play_until(c: &mut Client, mut s: GameState, done: impl Fn(&GameState) -> bool) -> GameState {
    for _ in 0..5000 {
        if done(&s) || s.status != "running" {
            return s;
        }
        if s.seat.is_some_and(|me| s.to_act.contains(&me)) && !s.legal.is_empty() {
            let action = s.legal[0].clone();
            // Stale only if someone else moved meanwhile: then read on.
            let _ = c.request(&Request::Act {
                action: serde_json::to_value(&action).unwrap(),
                expect: s.actions,
            });
            let n = s.actions + 1;
            s = state_at(c, n, &mut Vec::new());
        } else {
            let n = s.actions + 1;
            s = state_at(c, n, &mut Vec::new());
        }
    }
    panic!("the game did not get there in 5000 actions");
}

/// An absent player's turn is played by a computer after the creator's
/// timeout, and the seat stays his: back, with his token, he is shown his
/// seat and plays on himself (docs/online.md, "How a game goes" 5 and 6).
#[test]
fn an_absent_player_is_played_for_and_plays_on_when_back() {
    let (_dir, db) = sqlite();
    let server = TestServer::start(config(&db));
    let mut ann = signed_in(&server, "ann");
    let id = ann
        .request(&Request::Create {
            variant: "titan".into(),
            options: Default::default(),
            seats: vec!["human".into(), "human".into()],
            timeout_secs: 1,
        })
        .unwrap()["game"]
        .as_str()
        .unwrap()
        .to_string();
    let mut dan = Client::connect(&server.addr).unwrap();
    let token = dan.sign_in("dan", "dan-password").unwrap();
    join(&mut dan, &id);
    drop(dan);
    let s = watch(&mut ann, &id);
    // Ann plays; Dan's turns come and are played for him.
    let s = play_until(&mut ann, s, |_| {
        replay(&db, &id)
            .actions
            .iter()
            .filter(|(p, _)| *p == 1)
            .count()
            >= 3
    });
    assert_eq!(s.status, "running");
    // Dan is back.
    let mut dan = Client::connect(&server.addr).unwrap();
    dan.request(&Request::Token { token }).unwrap();
    let mut d = watch(&mut dan, &id);
    assert_eq!(d.seat, Some(PlayerId(1)));
    assert_eq!(
        d.view,
        replay_view(&db, &id, 1),
        "Dan's view is not his seat's"
    );
    // Both play until Dan has acted himself.
    let mut a = ann
        .next_state(Duration::from_millis(0))
        .unwrap()
        .unwrap_or(s);
    let mut mine = None;
    for _ in 0..5000 {
        if a.status != "running" {
            break;
        }
        if d.to_act.contains(&PlayerId(1)) && !d.legal.is_empty() && d.actions >= a.actions {
            let action = d.legal[0].clone();
            dan.request(&Request::Act {
                action: serde_json::to_value(&action).unwrap(),
                expect: d.actions,
            })
            .expect("the player back was refused his own seat's action");
            mine = Some((d.actions, action));
            break;
        }
        if a.to_act.contains(&PlayerId(0)) && !a.legal.is_empty() && a.actions >= d.actions {
            ann.request(&Request::Act {
                action: serde_json::to_value(&a.legal[0]).unwrap(),
                expect: a.actions,
            })
            .unwrap();
        }
        let n = a.actions.max(d.actions) + 1;
        a = state_at(&mut ann, n, &mut Vec::new());
        d = state_at(&mut dan, n, &mut Vec::new());
    }
    let (at, action) = mine.expect("Dan never had a turn");
    assert_eq!(replay(&db, &id).actions[at], (1, action));
    server.stop();
}

/// Seat `seat`'s view of the stored game now.
fn replay_view(db: &str, id: &str, seat: u8) -> titan_core::game::view::PlayerView {
    titan_core::game::view::view(&replay(db, id).game, PlayerId(seat))
}

/// Two instances on one database: a game suspended, or a seat left,
/// through one is so at once for an action sent through the other (the
/// database decides, not what an instance read earlier; docs/online.md,
/// "Several instances" and "How a game goes" 5).
#[test]
fn suspend_and_leave_through_one_instance_hold_on_the_other() {
    let (_dir, db) = sqlite();
    let one = TestServer::start(config(&db));
    let two = TestServer::start(config(&db));
    let mut ann = Client::connect(&one.addr).unwrap();
    ann.sign_in("ann", "ann-password").unwrap();
    let mut bob = Client::connect(&two.addr).unwrap();
    bob.sign_in("bob", "bob-password").unwrap();
    let id = create(&mut ann, "titan", &["human", "human"]);
    join(&mut bob, &id);
    // Both instances have the game live.
    watch(&mut ann, &id);
    let s = watch(&mut bob, &id);
    let concede = |c: &mut Client, n| {
        c.request(&Request::Act {
            action: serde_json::to_value(Action::ConcedeGame).unwrap(),
            expect: n,
        })
    };
    ann.request(&Request::Suspend { game: id.clone() }).unwrap();
    // Bob, on the other instance, is told.
    bob.pushes.clear();
    while bob
        .next_state(HANG)
        .unwrap()
        .expect("no push after the suspend")
        .status
        != "suspended"
    {}
    let refused = concede(&mut bob, s.actions);
    assert!(
        refused.as_ref().is_err_and(|e| e.contains("suspended")),
        "an action was taken in a suspended game: {refused:?}"
    );
    ann.request(&Request::Resume { game: id.clone() }).unwrap();
    // Bob leaves through a third connection, on instance one.
    let mut bob1 = Client::connect(&one.addr).unwrap();
    bob1.sign_in("bob", "bob-password").unwrap();
    bob1.request(&Request::Leave { game: id.clone() }).unwrap();
    let r = replay(&db, &id);
    let refused = concede(&mut bob, r.actions.len());
    assert!(
        refused.as_ref().is_err_and(|e| e.contains("left")),
        "a seat left to a computer was conceded through another instance: {refused:?}"
    );
    assert!(replay(&db, &id).game.state.outcome.is_none());
    one.stop();
    two.stop();
}

/// Guessing a password from many connections is slow: past the wrong
/// passwords allowed in a row for one name, its log-ins wait (the right
/// password too), the same for a name nobody has; other names are not held
/// up, and the wait ends. The wait is an hour, which no run of this test
/// lasts, and its end is reached by moving the server's clock on
/// (`Config::clock`), not by sleeping.
#[test]
fn wrong_passwords_make_a_name_wait() {
    let (_dir, db) = sqlite();
    let mut config = config(&db);
    config.login_failures = 3;
    config.login_wait = Duration::from_secs(3600);
    config.clock = titan_server::Clock::manual();
    let clock = config.clock.clone();
    let server = TestServer::start(config);
    signed_in(&server, "ann");
    signed_in(&server, "bob");
    let login = |user: &str, password: &str| {
        // A new connection each time, as a guesser would.
        let mut c = Client::connect(&server.addr).unwrap();
        c.request(&Request::Login {
            user: user.into(),
            password: password.into(),
        })
    };
    for name in ["ann", "nobody"] {
        for _ in 0..3 {
            let e = login(name, "guess").unwrap_err();
            assert!(e.contains("wrong user name or password"), "{e}");
        }
        let e = login(name, "ann-password").unwrap_err();
        assert!(e.contains("too many wrong passwords"), "{name}: {e}");
    }
    login("bob", "bob-password").expect("another name is not held up");
    clock.advance(Duration::from_secs(1800));
    let e = login("ann", "ann-password").unwrap_err();
    assert!(e.contains("too many wrong passwords"), "still waiting: {e}");
    clock.advance(Duration::from_secs(1801));
    login("ann", "ann-password").expect("the wait ends");
    server.stop();
}
