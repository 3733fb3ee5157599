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
    h.get_by_label("Log in").click();
    assert!(
        until(&mut h, |h| h.query_by_label("My games").is_some()),
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
    assert!(
        until(&mut h, |h| running(h).is_some_and(|id| h
            .query_by_label(&format!("Play {id}"))
            .is_some())),
        "the game created is not in the lobby"
    );
    let id = running(&h).unwrap();
    h.get_by_label(&format!("Play {id}")).click();
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
                .or_else(|| actions.iter().find(|a| **a != Action::ConcedeGame))
                .cloned()
            {
                g.act(&a);
                acted += 1;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    assert!(played, "no turn was played");
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
    // asked for meanwhile are refused, not lost.
    rt.block_on(server.stop());
    let mut again = config.clone();
    again.listen = addr.parse().unwrap();
    let server = rt.block_on(titan_server::start(again)).unwrap();
    assert!(
        until(&mut h, |h| h
            .state()
            .game()
            .unwrap()
            .status
            .contains("server restarting")),
        "the app was not told why the connection closed"
    );
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
