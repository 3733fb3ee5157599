//! The client end of the online protocol: [`Client`], blocking, for the bot
//! and the tests, and [`Background`], the same on its own thread behind
//! channels, for the app (whose frames must never wait on the network).

use std::collections::VecDeque;
use std::net::TcpStream;
use std::sync::mpsc::{Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message as WsMessage, WebSocket};

use crate::protocol::{GameState, Message, Request};

/// The WebSocket address of a server given as `HOST:PORT`, `http://...` or
/// `ws://...`.
pub fn ws_url(server: &str) -> String {
    let s = server.trim().trim_end_matches('/');
    let s = s
        .strip_prefix("http://")
        .map(|r| format!("ws://{r}"))
        .unwrap_or_else(|| s.to_string());
    let s = if s.starts_with("ws://") || s.starts_with("wss://") {
        s
    } else {
        format!("ws://{s}")
    };
    if s.ends_with("/ws") {
        s
    } else {
        format!("{s}/ws")
    }
}

/// A message from the server. A state push (the most of them, and the
/// largest) is read straight into its [`GameState`] (which ignores the
/// message's `type`), not through the tagged [`Message`]'s buffering.
fn parse(text: &str) -> Result<Message, String> {
    if text.starts_with(r#"{"type":"state","#)
        && let Ok(state) = serde_json::from_str::<GameState>(text)
    {
        return Ok(Message::State(Box::new(state)));
    }
    serde_json::from_str(text).map_err(|e| format!("the server sent what does not read: {e}"))
}

/// A blocking connection to a server.
pub struct Client {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    /// State pushes received while waiting for a response.
    pub pushes: VecDeque<GameState>,
    /// Errors pushed by the server outside any response.
    pub notices: Vec<String>,
    /// The session token of the last sign-in (to log in again with it).
    pub token: Option<String>,
}

/// How long a blocking call waits for the server.
const WAIT: Duration = Duration::from_secs(30);

impl Client {
    pub fn connect(server: &str) -> Result<Client, String> {
        let url = ws_url(server);
        let (socket, _) = tungstenite::connect(&url).map_err(|e| match e {
            // A refusal's reason is its body.
            tungstenite::Error::Http(response) => format!(
                "cannot connect to {url}: {} {}",
                response.status(),
                String::from_utf8_lossy(response.body().as_deref().unwrap_or_default())
            ),
            // Nothing answers there: say what to check, the cause after.
            e @ (tungstenite::Error::Io(_) | tungstenite::Error::Url(_)) => format!(
                "cannot reach the server at {url}: is `titan serve` running there, \
                 and is the address right? ({e})"
            ),
            e => format!("cannot connect to {url}: {e}"),
        })?;
        if let MaybeTlsStream::Plain(s) = socket.get_ref() {
            let _ = s.set_read_timeout(Some(Duration::from_millis(50)));
            let _ = s.set_nodelay(true);
        }
        Ok(Client {
            socket,
            next_id: 1,
            pushes: VecDeque::new(),
            notices: Vec::new(),
            token: None,
        })
    }

    /// Sends a text frame as it is (for the tests of bad input).
    pub fn send_raw(&mut self, text: &str) -> Result<(), String> {
        self.socket
            .send(WsMessage::Text(text.to_string().into()))
            .map_err(|e| format!("connection lost: {e}"))
    }

    /// The next message from the server, waiting at most `wait`.
    pub fn read(&mut self, wait: Duration) -> Result<Option<Message>, String> {
        let until = Instant::now() + wait;
        loop {
            // The socket waits as long as the caller does (at least a
            // millisecond: none would block for good), rather than waking
            // many times a second to find nothing.
            if let MaybeTlsStream::Plain(s) = self.socket.get_ref() {
                let left = until.saturating_duration_since(Instant::now());
                let _ = s.set_read_timeout(Some(left.max(Duration::from_millis(1))));
            }
            match self.socket.read() {
                Ok(WsMessage::Text(t)) => return parse(t.as_str()).map(Some),
                Ok(WsMessage::Close(frame)) => {
                    let why = frame.map(|f| f.reason.to_string()).unwrap_or_default();
                    return Err(format!("the server closed the connection: {why}"));
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    if Instant::now() >= until {
                        return Ok(None);
                    }
                }
                Err(e) => return Err(format!("connection lost: {e}")),
            }
        }
    }

    /// Sends a request and waits for its response; pushes that arrive
    /// meanwhile are kept in [`Client::pushes`].
    pub fn request(&mut self, request: &Request) -> Result<Value, String> {
        let id = self.next_id;
        self.next_id += 1;
        let mut value = serde_json::to_value(request).map_err(|e| e.to_string())?;
        value["id"] = json!(id);
        self.send_raw(&value.to_string())?;
        let until = Instant::now() + WAIT;
        while Instant::now() < until {
            match self.read(until.saturating_duration_since(Instant::now()))? {
                Some(Message::Ok { id: got, result }) if got == json!(id) => return Ok(result),
                Some(Message::Error { id: got, message }) if got == json!(id) => {
                    return Err(message);
                }
                Some(Message::State(s)) => self.pushes.push_back(*s),
                Some(Message::Error { message, .. }) => self.notices.push(message),
                Some(Message::Ok { .. }) | None => {}
            }
        }
        Err("the server did not answer in time".into())
    }

    /// The next state push, waiting at most `wait`.
    pub fn next_state(&mut self, wait: Duration) -> Result<Option<GameState>, String> {
        if let Some(s) = self.pushes.pop_front() {
            return Ok(Some(s));
        }
        let until = Instant::now() + wait;
        while Instant::now() < until {
            match self.read(until.saturating_duration_since(Instant::now()))? {
                Some(Message::State(s)) => return Ok(Some(*s)),
                Some(Message::Error { message, .. }) => self.notices.push(message),
                _ => {}
            }
        }
        Ok(None)
    }

    /// Signs up `user`, or logs in if the name is taken; returns the token.
    /// While the server is busy with other log-ins, tries again a little
    /// later (about a dozen seconds in all at most).
    pub fn sign_in(&mut self, user: &str, password: &str) -> Result<String, String> {
        let mut wait = Duration::from_millis(50);
        let answer = loop {
            match self.sign_in_once(user, password) {
                Err(e) if e.contains(crate::auth::BUSY) && wait < Duration::from_secs(10) => {
                    std::thread::sleep(wait);
                    wait *= 2;
                }
                answer => break answer?,
            }
        };
        let token = answer["token"]
            .as_str()
            .map(String::from)
            .ok_or_else(|| "the server sent no token".to_string())?;
        self.token = Some(token.clone());
        Ok(token)
    }

    fn sign_in_once(&mut self, user: &str, password: &str) -> Result<Value, String> {
        let creds = (user.to_string(), password.to_string());
        match self.request(&Request::Signup {
            user: creds.0.clone(),
            password: creds.1.clone(),
        }) {
            Ok(v) => Ok(v),
            Err(e) if e.contains("is taken") => self.request(&Request::Login {
                user: creds.0,
                password: creds.1,
            }),
            Err(e) => Err(e),
        }
    }
}

/// What the app's background connection reports.
#[derive(Debug)]
pub enum Report {
    /// The response to the request sent with this tag.
    Answer {
        tag: u64,
        result: Result<Value, String>,
    },
    State(Box<GameState>),
    /// An error the server pushed, or the connection's end.
    Notice(String),
    Closed(String),
}

/// A connection on its own thread: requests go in by [`Background::send`],
/// answers and pushes come out of [`Background::poll`]; nothing blocks.
pub struct Background {
    tx: Sender<(u64, Request)>,
    rx: Receiver<Report>,
    next_tag: u64,
}

impl Background {
    /// Connects on a new thread; the connection's failure arrives as a
    /// [`Report::Closed`].
    pub fn connect(server: &str) -> Background {
        let (tx, requests) = std::sync::mpsc::channel::<(u64, Request)>();
        let (reports, rx) = std::sync::mpsc::channel();
        let server = server.to_string();
        let _ = std::thread::Builder::new()
            .name("titan online".into())
            .spawn(move || background(&server, &requests, &reports));
        Background {
            tx,
            rx,
            next_tag: 1,
        }
    }

    /// Sends a request; its answer comes with the returned tag.
    pub fn send(&mut self, request: Request) -> u64 {
        let tag = self.next_tag;
        self.next_tag += 1;
        let _ = self.tx.send((tag, request));
        tag
    }

    /// What has arrived since the last call.
    pub fn poll(&self) -> Vec<Report> {
        self.rx.try_iter().collect()
    }
}

fn background(server: &str, requests: &Receiver<(u64, Request)>, reports: &Sender<Report>) {
    let mut client = match Client::connect(server) {
        Ok(c) => c,
        Err(e) => {
            let _ = reports.send(Report::Closed(e));
            return;
        }
    };
    // Each request's wire id is its tag, so answers can be matched without
    // blocking on them.
    loop {
        loop {
            match requests.try_recv() {
                Ok((tag, request)) => {
                    let mut value = serde_json::to_value(&request).unwrap_or(Value::Null);
                    value["id"] = json!(tag);
                    if let Err(e) = client.send_raw(&value.to_string()) {
                        let _ = reports.send(Report::Closed(e));
                        return;
                    }
                }
                Err(TryRecvError::Empty) => break,
                // The app dropped its end: close.
                Err(TryRecvError::Disconnected) => return,
            }
        }
        let report = match client.read(Duration::from_millis(30)) {
            Ok(Some(Message::Ok { id, result })) => Report::Answer {
                tag: id.as_u64().unwrap_or(0),
                result: Ok(result),
            },
            Ok(Some(Message::Error { id, message })) if id.is_u64() => Report::Answer {
                tag: id.as_u64().unwrap_or(0),
                result: Err(message),
            },
            Ok(Some(Message::Error { message, .. })) => Report::Notice(message),
            Ok(Some(Message::State(s))) => Report::State(s),
            Ok(None) => continue,
            Err(e) => {
                let _ = reports.send(Report::Closed(e));
                return;
            }
        };
        if reports.send(report).is_err() {
            return;
        }
    }
}
