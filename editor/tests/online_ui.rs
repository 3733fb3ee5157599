//! The app's "Play online" against a game server started in the test (on
//! loopback, SQLite in a temporary folder): sign up, see the lobby, create a
//! game against a computer seat, open it and play on the usual screens
//! through the remote session, through a restart of the server.

mod common;

use std::time::{Duration, Instant};

use common::repo;
use egui::accesskit::Role;
use egui::{Key, Modifiers, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use titan_core::game::Action;
use titan_editor::PlayApp;
use titan_editor::play::Screen;

fn type_into(h: &mut Harness<'_, PlayApp>, label: &str, text: &str) {
    type_in(h, Role::TextInput, label, text);
}

fn type_in(h: &mut Harness<'_, PlayApp>, role: Role, label: &str, text: &str) {
    h.get_by_role_and_label(role, label).focus();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(1);
    h.get_by_role_and_label(role, label).type_text(text);
    h.run_steps(2);
}

/// How long a step of the test may wait for the server before it fails: a
/// bound against a hang, not a speed check (a loaded CI machine running
/// debug builds of every test at once may take many seconds).
const PATIENCE: Duration = Duration::from_secs(90);

/// Steps frames (the answers come from the connection's thread between
/// them) until `done` holds; false after [`PATIENCE`].
fn until(h: &mut Harness<'_, PlayApp>, done: impl Fn(&Harness<'_, PlayApp>) -> bool) -> bool {
    let since = Instant::now();
    while since.elapsed() < PATIENCE {
        h.step();
        if done(h) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn log_in_see_the_lobby_create_a_game_and_play() {
    let dir = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let mut config = titan_server::Config::new(
        "127.0.0.1:0".parse().unwrap(),
        format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("s.sqlite").display()
        ),
        repo().join("variants"),
    );
    config.poll = Duration::from_millis(40);
    let server = rt.block_on(titan_server::start(config.clone())).unwrap();
    let addr = server.addr.to_string();

    let app = PlayApp::new(&repo().join("variants"), dir.path());
    let mut h = Harness::builder()
        .with_size(Vec2::new(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut PlayApp| app.ui(ui), app);
    h.run_steps(2);
    h.get_by_label("Play online").click();
    h.run_steps(2);
    type_into(&mut h, "Server", &addr);
    type_into(&mut h, "User", "ann");
    type_in(&mut h, Role::PasswordInput, "Password", "ann-password");
    h.get_by_label("New account (sign up)").click();
    h.run_steps(1);
    h.get_by_label("Sign up").click();
    assert!(
        until(&mut h, |h| h.query_by_label("Your games").is_some()),
        "the lobby did not appear"
    );
    assert!(h.query_by_label_contains("Logged in as ann").is_some());

    // A game against a computer seat: one person, one computer.
    let online = |h: &mut Harness<'_, PlayApp>| match &mut h.state_mut().screen {
        Screen::Online(o) => {
            o.create_people = 1;
            o.create_computers = 1;
        }
        _ => panic!("not the online screen"),
    };
    online(&mut h);
    h.get_by_label("Create").click();
    let running = |h: &Harness<'_, PlayApp>| match &h.state().screen {
        Screen::Online(o) => o
            .games
            .iter()
            .find(|g| g.status == "running")
            .map(|g| g.id.clone()),
        _ => None,
    };
    // Named by its variant and players; one click on the name opens it.
    assert!(
        until(&mut h, |h| running(h).is_some()
            && h.query_by_label_contains(
                "titan: ann vs computer, created"
            )
            .is_some()),
        "the game created is not in the lobby"
    );
    h.get_by_label_contains("titan: ann vs computer, created")
        .click();
    assert!(
        until(&mut h, |h| h.state().game().is_some()),
        "the game did not open"
    );

    // Play on the game screen until a turn has passed: every action goes to
    // the server and comes back as the seat's new state.
    let seat = h.state().game().unwrap().viewer;
    assert_ne!(seat, titan_editor::session::SPECTATOR);
    let mut acted = 0;
    let played = {
        // Act whenever the seat has a move.
        let since = Instant::now();
        loop {
            if since.elapsed() > PATIENCE {
                break false;
            }
            h.step();
            let g = h.state_mut().game_mut().unwrap();
            if g.view().turn >= 2 && g.view().active == seat {
                break true;
            }
            let actions: Vec<Action> = g.my_actions();
            if let Some(a) = actions
                .iter()
                .find(|a| **a == Action::DoneSplitting)
                // Not a concession nor a proposal, which the computer may
                // answer with a rejection for ever: the game must move on.
                .or_else(|| {
                    actions.iter().find(|a| {
                        !matches!(
                            a,
                            Action::ConcedeGame | Action::Concede | Action::Propose { .. }
                        )
                    })
                })
                .cloned()
            {
                g.act(&a);
                acted += 1;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    assert!(played, "no turn was played");
    // The seat's turn: the window's title says so.
    assert_eq!(h.state().window_title(), "(Your turn) Titan");
    assert!(acted > 0, "the seat took no action");
    let g = h.state().game().unwrap();
    assert!(
        g.session.history_len() > acted,
        "the computer seat played too"
    );
    // Chat: a line typed and sent comes back from the server.
    type_into(&mut h, "Say", "good game");
    h.get_by_label("Send").click();
    assert!(
        until(&mut h, |h| h.query_by_label("ann: good game").is_some()),
        "the chat line did not come back"
    );

    // The server restarts (on its address and database): the app says
    // why, connects again with its token and plays on; the actions it is
    // asked for meanwhile are refused with a message, not lost.
    rt.block_on(server.stop());
    let status = |h: &Harness<'_, PlayApp>| h.state().game().unwrap().status.clone();
    assert!(
        until(&mut h, |h| status(h).contains("server restarting")),
        "the app was not told why the connection closed"
    );
    let g = h.state_mut().game_mut().unwrap();
    let a = g
        .my_actions()
        .into_iter()
        .find(|a| *a != Action::ConcedeGame)
        .expect("the phase's actions stay offered while the server is away");
    let before = g.session.history_len();
    g.act(&a);
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("not connected: your move was not sent")
            .is_some(),
        "{}",
        status(&h)
    );
    assert_eq!(h.state().game().unwrap().session.history_len(), before);
    // While it is away, the app says what to check.
    assert!(
        until(&mut h, |h| status(h)
            .contains("is `titan serve` running there")),
        "{}",
        status(&h)
    );
    let mut again = config.clone();
    again.listen = addr.parse().unwrap();
    let server = rt.block_on(titan_server::start(again)).unwrap();
    // Connected again: the banner goes.
    assert!(
        until(&mut h, |h| status(h).is_empty()),
        "the banner stayed: {}",
        status(&h)
    );
    assert!(h.query_by_label_contains("cannot reach").is_none());
    let before = h.state().game().unwrap().session.history_len();
    let since = Instant::now();
    while h.state().game().unwrap().session.history_len() < before + 2 {
        let g = h.state().game().unwrap();
        assert!(
            since.elapsed() < PATIENCE,
            "no action after the restart (an action taken while the app was \
             connecting again must not leave it waiting for good): status {:?}",
            g.status
        );
        h.step();
        let g = h.state_mut().game_mut().unwrap();
        if let Some(a) = g
            .my_actions()
            .into_iter()
            .find(|a| *a != Action::ConcedeGame)
        {
            g.act(&a);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    rt.block_on(server.stop());
}

/// A server on loopback with its database in `dir`: the runtime, the
/// server and its address.
fn serve(
    dir: &std::path::Path,
) -> (
    tokio::runtime::Runtime,
    titan_server::Server,
    String,
    titan_server::Config,
) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let mut config = titan_server::Config::new(
        "127.0.0.1:0".parse().unwrap(),
        format!("sqlite://{}?mode=rwc", dir.join("s.sqlite").display()),
        repo().join("variants"),
    );
    config.poll = Duration::from_millis(40);
    let server = rt.block_on(titan_server::start(config.clone())).unwrap();
    let addr = server.addr.to_string();
    (rt, server, addr, config)
}

/// The app with its data in `data`, frames a sixtieth of a second apart
/// (as on a screen: a double click spans a few).
fn app(data: &std::path::Path) -> Harness<'static, PlayApp> {
    let app = PlayApp::new(&repo().join("variants"), data);
    let mut h = Harness::builder()
        .with_size(Vec2::new(1500.0, 1000.0))
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut PlayApp| app.ui(ui), app);
    h.run_steps(2);
    h
}

/// Signs `user` up on the server at `addr`, from the start screen to the
/// lobby.
fn sign_up(h: &mut Harness<'_, PlayApp>, addr: &str, user: &str) {
    h.get_by_label("Play online").click();
    h.run_steps(2);
    type_into(h, "Server", addr);
    type_into(h, "User", user);
    type_in(
        h,
        Role::PasswordInput,
        "Password",
        &format!("{user}-password"),
    );
    h.get_by_label("New account (sign up)").click();
    h.run_steps(1);
    h.get_by_label("Sign up").click();
    assert!(
        until(h, |h| h.query_by_label("Your games").is_some()),
        "{user}: the lobby did not appear"
    );
}

fn online_status(h: &Harness<'_, PlayApp>) -> String {
    match &h.state().screen {
        Screen::Online(o) => o.status.clone(),
        _ => String::new(),
    }
}

#[test]
fn messages_a_taken_name_and_a_remembered_log_in() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("app");
    let mut h = app(&data);
    h.get_by_label("Play online").click();
    h.run_steps(2);
    // The fields show an address whole.
    for (role, label) in [
        (Role::TextInput, "Server"),
        (Role::TextInput, "User"),
        (Role::PasswordInput, "Password"),
    ] {
        let w = h.get_by_role_and_label(role, label).rect().width();
        assert!(w >= 240.0, "{label}: {w} px");
    }
    // No server there: the app says what to check.
    type_into(&mut h, "Server", "127.0.0.1:1");
    type_into(&mut h, "User", "ann");
    type_in(&mut h, Role::PasswordInput, "Password", "ann-password");
    h.get_by_label("Log in").click();
    assert!(
        until(&mut h, |h| h
            .query_by_label_contains(
                "cannot reach the server at ws://127.0.0.1:1/ws: is `titan serve` running there, \
                 and is the address right?"
            )
            .is_some()),
        "{}",
        online_status(&h)
    );

    let (rt, server, addr, _) = serve(dir.path());
    h.get_by_label("Back to the start screen").click();
    h.run_steps(2);
    sign_up(&mut h, &addr, "ann");
    // The address, the user and a token are remembered; not the password.
    let settings = std::fs::read_to_string(data.join("settings.ron")).unwrap();
    let remembered = titan_editor::play::settings::Settings::read(&data).online;
    assert_eq!(
        (remembered.server.as_str(), remembered.user.as_str()),
        (addr.as_str(), "ann")
    );
    assert!(!remembered.token.is_empty());
    assert!(!settings.contains("ann-password"));

    // Logging out revokes the token and forgets it; the form keeps the
    // address and name.
    h.get_by_label("Log out").click();
    h.run_steps(2);
    let revoked = |old: &str| {
        titan_server::client::Client::connect(&addr)
            .unwrap()
            .request(&titan_server::protocol::Request::Token {
                token: old.to_string(),
            })
            .is_err_and(|e| e.contains("the token is not valid"))
    };
    assert!(
        until(&mut h, |_| revoked(&remembered.token)),
        "the server still takes the token"
    );
    assert!(
        titan_editor::play::settings::Settings::read(&data)
            .online
            .token
            .is_empty()
    );
    match &h.state().screen {
        Screen::Online(o) => {
            assert_eq!((o.server.as_str(), o.user.as_str()), (addr.as_str(), "ann"))
        }
        _ => panic!("not the online screen"),
    }
    // Signing up with a taken name: the button says "Sign up", the answer
    // that the name is taken.
    type_in(&mut h, Role::PasswordInput, "Password", "another-password");
    h.get_by_label("Sign up").click();
    assert!(
        until(&mut h, |h| h
            .query_by_label_contains("cannot sign up: that name is taken")
            .is_some()),
        "{}",
        online_status(&h)
    );
    // Logging in, remembered again.
    h.get_by_label("New account (sign up)").click();
    h.run_steps(1);
    type_in(&mut h, Role::PasswordInput, "Password", "ann-password");
    h.get_by_label("Log in").click();
    assert!(
        until(&mut h, |h| h.query_by_label("Your games").is_some()),
        "{}",
        online_status(&h)
    );
    h.get_by_label("Back to the start screen").click();
    h.run_steps(2);
    // The start screen says so, without connecting.
    assert!(
        h.query_by_label_contains(&format!("Remembered log-in: ann at {addr}"))
            .is_some()
    );
    // A later visit (another run of the app) logs in by itself.
    drop(h);
    let mut h = app(&data);
    h.get_by_label("Play online").click();
    assert!(
        until(&mut h, |h| h
            .query_by_label_contains("Logged in as ann")
            .is_some()),
        "{}",
        online_status(&h)
    );
    rt.block_on(server.stop());
}

/// Whether a label contains `text` (one or more).
fn has(h: &Harness<'_, PlayApp>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

/// Steps every app once.
fn step_all(hs: &mut [&mut Harness<'_, PlayApp>]) {
    for h in hs.iter_mut() {
        h.step();
    }
    std::thread::sleep(Duration::from_millis(15));
}

#[test]
fn two_players_a_spectator_the_lobby_and_the_panel_out_of_turn() {
    let dir = tempfile::tempdir().unwrap();
    let (rt, server, addr, _) = serve(dir.path());
    let mut ann = app(&dir.path().join("ann"));
    let mut bob = app(&dir.path().join("bob"));
    let mut carol = app(&dir.path().join("carol"));
    sign_up(&mut ann, &addr, "ann");
    sign_up(&mut bob, &addr, "bob");
    sign_up(&mut carol, &addr, "carol");

    // Ann creates a game of two people; Bob joins it from "Open games" by
    // its name.
    ann.get_by_label("Create").click();
    ann.run_steps(2);
    assert!(until(&mut bob, |h| has(h, "titan: ann vs open seat")));
    assert!(bob.query_by_label("Open games").is_some());
    bob.get_by_label_contains("titan: ann vs open seat").click();
    // Running: in Bob's games, and in Carol's "Running games" to watch.
    assert!(until(&mut bob, |h| has(h, "titan: ann vs bob")));
    assert!(until(&mut carol, |h| has(h, "running: click to watch")));
    let rows = |h: &Harness<'_, PlayApp>, heading: &str| h.get_by_label(heading).rect().top();
    let game_row = carol
        .get_by_label_contains("titan: ann vs bob")
        .rect()
        .top();
    assert!(game_row > rows(&carol, "Running games"));
    assert!(rows(&carol, "Open games") < rows(&carol, "Running games"));
    bob.get_by_label_contains("titan: ann vs bob").click();
    carol.get_by_label_contains("titan: ann vs bob").click();
    assert!(until(&mut ann, |h| has(h, "titan: ann vs bob")));
    ann.get_by_label_contains("titan: ann vs bob").click();
    for (h, who) in [(&mut ann, "ann"), (&mut bob, "bob"), (&mut carol, "carol")] {
        assert!(until(h, |h| h.state().game().is_some()), "{who}: no game");
        h.run_steps(2);
    }
    // The spectator is told he watches.
    assert!(has(&carol, "you are watching"));

    // Play on until a split phase with one player to act; the other's
    // panel asks nothing of him, and the titles say whose turn it is.
    let since = Instant::now();
    let (mover, waiter) = loop {
        assert!(since.elapsed() < PATIENCE, "no split phase came");
        step_all(&mut [&mut ann, &mut bob, &mut carol]);
        let (a, b) = (ann.state().game().unwrap(), bob.state().game().unwrap());
        let to_act = a.session.to_act();
        let ready = a.view().phase == titan_core::game::Phase::Split
            && to_act.len() == 1
            && b.session.to_act() == to_act
            && b.view().phase == titan_core::game::Phase::Split
            && a.my_actions().len() + b.my_actions().len() > 2;
        let ann_moves = to_act.first() == Some(&a.viewer);
        if ready {
            break if ann_moves {
                (&mut ann, &mut bob)
            } else {
                (&mut bob, &mut ann)
            };
        }
        for h in [&mut ann, &mut bob] {
            let g = h.state_mut().game_mut().unwrap();
            let acts = g.my_actions();
            if !g.session.to_act().contains(&g.viewer) {
                continue;
            }
            if let Some(a) = acts
                .iter()
                .find(|a| matches!(a, Action::DoneSplitting | Action::DoneMoving))
                .or_else(|| acts.iter().find(|a| **a != Action::ConcedeGame))
                .cloned()
            {
                g.act(&a);
            }
        }
    };
    waiter.run_steps(2);
    mover.run_steps(30);
    let name = |h: &Harness<'_, PlayApp>| {
        let g = h.state().game().unwrap();
        g.seats[usize::from(g.viewer.0)].name.clone()
    };
    let (m, w) = (name(mover), name(waiter));
    assert!(!has(waiter, &format!("{w}: your")));
    assert!(!has(waiter, "Click one of your legions"));
    assert!(has(waiter, &format!("you are waiting for {m}")));
    assert!(has(mover, &format!("{m}: your split phase")));
    assert_eq!(mover.state().window_title(), "(Your turn) Titan");
    assert_eq!(waiter.state().window_title(), "Titan");

    // A double click on "Done splitting" ends the split phase, and only
    // it: the game is not conceded (the concession is elsewhere, and asks).
    let done = mover.get_by_label("Done splitting").rect();
    let concede = mover.get_by_label("Concede the game").rect();
    assert!(!done.intersects(concede));
    let press = |h: &mut Harness<'_, PlayApp>, pressed: bool| {
        h.event(egui::Event::PointerButton {
            pos: done.center(),
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        });
        h.step();
    };
    mover.hover_at(done.center());
    mover.step();
    press(&mut *mover, true);
    press(&mut *mover, false);
    mover.run_steps(3);
    press(&mut *mover, true);
    press(&mut *mover, false);
    assert!(until(mover, |h| h.state().game().unwrap().view().phase
        == titan_core::game::Phase::Move));
    mover.run_steps(30);
    let g = mover.state().game().unwrap();
    assert!(g.view().outcome.is_none(), "the game ended");
    assert!(g.confirm.is_none());
    assert_eq!(g.view().phase, titan_core::game::Phase::Move);
    assert!(
        g.my_actions().contains(&Action::ConcedeGame),
        "the player left the game"
    );

    // Chat: the spectator's line is marked; the chat sits beside the log,
    // which keeps its height, below the board.
    type_into(&mut carol, "Say", "hi");
    carol.get_by_label("Send").click();
    carol.run_steps(2);
    type_into(&mut ann, "Say", "hello");
    ann.get_by_label("Send").click();
    assert!(
        until(&mut ann, |h| h
            .query_by_label("(spectator) carol: hi")
            .is_some()
            && h.query_by_label("ann: hello").is_some()),
        "the chat lines did not come: {:?}",
        ann.state().game().unwrap().session.chat()
    );
    let log = ann.get_by_label("Log").rect();
    let chat = ann.get_by_label("Chat").rect();
    assert!((log.top() - chat.top()).abs() < 4.0, "{log:?} {chat:?}");
    let say = ann.get_by_role_and_label(Role::TextInput, "Say").rect();
    assert!(say.top() > log.top() - 4.0 && say.bottom() <= 1000.0);
    assert!(
        1000.0 - log.bottom() > 9.0 * 21.0,
        "the log is short: {log:?}"
    );
    rt.block_on(server.stop());
}
