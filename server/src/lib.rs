//! The Titan game server (`titan serve`): accounts, a lobby and games played
//! over one WebSocket per client, stored in SQLite or PostgreSQL as their
//! start and action log. See docs/online.md.
//!
//! Layout: [`db`] stores, [`actor`] runs each live game on its own thread
//! (the engine's `Game` is not `Send`), [`ws`] serves one client's
//! connection, [`protocol`] is the messages, [`client`] and [`bot`] are the
//! other end.

pub mod actor;
pub mod auth;
pub mod bot;
pub mod client;
pub mod computer;
pub mod db;
mod listen;
pub mod logs;
pub mod protocol;
mod ws;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use titan_core::LoadOptions;
use titan_core::model::Variant;
use tokio::runtime::Handle;
use tokio::sync::watch;

use crate::actor::Cmd;
use crate::db::Db;

/// How a server is set up.
#[derive(Debug, Clone)]
pub struct Config {
    pub listen: SocketAddr,
    /// A database URL: `sqlite:///PATH` (a new file is made:
    /// [`db::database_url`]), a SQLite file's path, or `postgres://...`.
    pub database: String,
    /// The installed variants: folders holding a variant.ron.
    pub variants: PathBuf,
    pub load: LoadOptions,
    /// How often a live game looks for actions stored by other instances.
    pub poll: Duration,
    /// How long a game's lease lasts unless renewed.
    pub lease: Duration,
    /// Computer actions a game plays between two looks at its requests.
    pub computer_actions_per_tick: usize,
    /// Requests per second a connection may send (and twice that in a burst).
    pub rate_per_connection: u32,
    /// Requests per second all of an account's connections may send.
    pub rate_per_account: u32,
    /// The seed of every new game, for tests (None: a random one each).
    pub seed: Option<u64>,
    /// How long a game nobody watches on this instance, and that needs no
    /// computer player, stays live.
    pub idle: Duration,
    /// Wrong passwords in a row for one user name before its log-ins wait.
    pub login_failures: u32,
    /// How long they wait then; doubled at each further wrong password, at
    /// most an hour.
    pub login_wait: Duration,
    /// The clock those waits are measured by (tests move it on by hand).
    pub clock: Clock,

    // Accounts: what log-ins and sign-ups may cost, and sessions.
    /// Password hashes computed at once, each on its own thread holding
    /// argon2's 19 MiB for good (default: half the cores, 1 to 4).
    pub hash_workers: usize,
    /// Log-ins and sign-ups waiting for a hasher at most; past it they are
    /// refused: "the server is busy with other log-ins: retry in a few
    /// seconds" (default 32).
    pub hash_queue: usize,
    /// Log-in and sign-up attempts (those that hash a password) allowed per
    /// user name, whatever its case, in [`Config::login_attempt_window`];
    /// refilled evenly over the window (default 10; 0: no limit).
    pub login_attempts_per_name: u32,
    /// The same per client address (IPv6: per /64 network) (default 30;
    /// 0: no limit).
    pub login_attempts_per_address: u32,
    /// The window of those two limits (default a minute).
    pub login_attempt_window: Duration,
    /// How long a session token logs in after it was made (default 30
    /// days); `sign_out_everywhere` revokes an account's tokens sooner.
    pub token_lifetime: Duration,
    /// What one client, one account and everybody together may hold on
    /// this server (docs/online.md, "Limits").
    pub limits: Limits,
    /// Computer moves computed at once from all games, each at a lower
    /// priority than the people's games (default: half the cores, at least
    /// 1), so that computers never take every core ([`computer::Pool`]).
    pub computer_threads: usize,
}

/// The bounds on what clients may hold or do (docs/online.md, "Limits"),
/// each with its default in [`Limits::default`].
#[derive(Debug, Clone)]
pub struct Limits {
    /// Open connections (HTTP and WebSocket) at once, from everybody.
    pub connections: usize,
    /// Open connections at once from one IP address.
    pub connections_per_address: usize,
    /// How long a connection may take to send its HTTP request (a
    /// half-sent header, or none at all, is closed after it).
    pub header_timeout: Duration,
    /// How long a WebSocket may stay without logging in.
    pub login_timeout: Duration,
    /// How long a WebSocket may stay without sending anything (the server
    /// pings it meanwhile: a live client's pongs count).
    pub idle_timeout: Duration,
    /// Open games (waiting for players) one account may have created.
    pub open_games_per_account: usize,
    /// Open games on the server, from everybody.
    pub open_games: usize,
    /// Games not over (open, running or suspended) one account may have
    /// created or hold a seat in.
    pub games_per_account: usize,
    /// Computer seats in the games not over that one account created.
    pub computer_seats_per_account: usize,
    /// Chat lines one account may send a minute (and at once).
    pub chat_per_minute_per_account: u32,
    /// Chat lines one game may take a minute (and at once), from everybody.
    pub chat_per_minute_per_game: u32,
    /// The chat lines of a game kept and sent to a new watcher: the last ones.
    pub chat_history: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections: 2000,
            connections_per_address: 50,
            header_timeout: Duration::from_secs(10),
            login_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(300),
            open_games_per_account: 3,
            open_games: 500,
            games_per_account: 20,
            computer_seats_per_account: 10,
            chat_per_minute_per_account: 20,
            chat_per_minute_per_game: 60,
            chat_history: 100,
        }
    }
}

/// The clock of the waits the server decides by time (log-in waits): the
/// system's monotonic clock, plus what [`Clock::advance`] added to a
/// clock made by [`Clock::manual`], so that a test checks a wait's end
/// without sleeping through it.
#[derive(Debug, Clone, Default)]
pub struct Clock {
    /// Nanoseconds added to the system's clock (None: the system's alone).
    ahead: Option<Arc<std::sync::atomic::AtomicU64>>,
}

impl Clock {
    /// A clock that [`Clock::advance`] moves on (its copies with it).
    pub fn manual() -> Clock {
        Clock {
            ahead: Some(Arc::new(std::sync::atomic::AtomicU64::new(0))),
        }
    }

    pub fn now(&self) -> std::time::Instant {
        let ahead = self.ahead.as_ref().map_or(0, |a| a.load(Ordering::SeqCst));
        std::time::Instant::now() + Duration::from_nanos(ahead)
    }

    /// Milliseconds since the Unix epoch by this clock (what stored times,
    /// such as a session token's, are compared with).
    pub fn unix_ms(&self) -> i64 {
        let ahead = self.ahead.as_ref().map_or(0, |a| a.load(Ordering::SeqCst));
        db::now_ms().saturating_add(i64::try_from(ahead / 1_000_000).unwrap_or(i64::MAX))
    }

    /// Moves a manual clock on by `by` (the system's clock: nothing).
    pub fn advance(&self, by: Duration) {
        if let Some(a) = &self.ahead {
            let nanos = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
            a.fetch_add(nanos, Ordering::SeqCst);
        }
    }
}

impl Config {
    /// The defaults for a server listening on `listen` with `database`,
    /// variants under `variants`.
    pub fn new(listen: SocketAddr, database: String, variants: PathBuf) -> Config {
        let shared = variants.parent().map(|p| p.join("scripts"));
        Config {
            listen,
            database,
            load: LoadOptions {
                search_paths: vec![variants.clone()],
                shared_scripts: shared,
            },
            variants,
            poll: Duration::from_millis(250),
            lease: Duration::from_secs(15),
            computer_actions_per_tick: 20,
            rate_per_connection: 100,
            rate_per_account: 200,
            seed: None,
            idle: Duration::from_secs(60),
            login_failures: 5,
            login_wait: Duration::from_secs(30),
            clock: Clock::default(),
            hash_workers: std::thread::available_parallelism()
                .map_or(1, |n| n.get() / 2)
                .clamp(1, 4),
            hash_queue: 32,
            login_attempts_per_name: 10,
            login_attempts_per_address: 30,
            login_attempt_window: Duration::from_secs(60),
            token_lifetime: Duration::from_secs(30 * 24 * 3600),
            limits: Limits::default(),
            computer_threads: std::thread::available_parallelism()
                .map_or(1, |n| n.get() / 2)
                .max(1),
        }
    }
}

/// The default database: a SQLite file in the user's data folder, beside
/// the saves (`~/.local/share/titan/server.sqlite`).
pub fn default_database() -> String {
    let saves = titan_core::files::default_saves_dir();
    let dir = saves.parent().map(PathBuf::from).unwrap_or_default();
    let _ = std::fs::create_dir_all(&dir);
    format!("sqlite://{}?mode=rwc", dir.join("server.sqlite").display())
}

/// A live game's handle: its actor's channel and its change counter.
#[derive(Clone)]
pub struct GameHandle {
    pub tx: std::sync::mpsc::Sender<Cmd>,
    pub changed: watch::Receiver<Arc<actor::Published>>,
}

/// What every connection and actor of one instance shares.
pub struct Shared {
    pub config: Config,
    pub db: Db,
    pub rt: Handle,
    /// This instance's name in leases.
    pub instance: String,
    variants: Mutex<HashMap<String, Arc<Variant>>>,
    games: Mutex<HashMap<String, GameHandle>>,
    /// The actions and chat lines each live game has (see [`poll`]).
    known: Mutex<HashMap<String, (usize, usize)>>,
    /// Connections watching each (game, seat) on this instance.
    presence: Mutex<HashMap<(String, u8), usize>>,
    pub(crate) limits: Mutex<HashMap<String, ws::Bucket>>,
    /// Password hashers and the limits on log-in attempts.
    pub accounts: auth::Accounts,
    /// The threads computer players think on.
    pub computers: computer::Pool,
    /// Chat lines allowed by account and by game (see
    /// [`Limits::chat_per_minute_per_account`]).
    pub(crate) chat_rates: (ws::Rates, ws::Rates),
    /// The states of games over last watched, by game and seat (None: a
    /// spectator).
    pub(crate) finished: Mutex<HashMap<(String, Option<u8>), protocol::GameState>>,
    /// Games over read and replayed at once, at most.
    pub(crate) finished_reads: tokio::sync::Semaphore,
    /// The open connections (see [`listen`]).
    connections: Arc<Mutex<listen::Counts>>,
    /// Creates and joins, one at a time, so that the game limits hold.
    pub(crate) create_lock: tokio::sync::Mutex<()>,
    stopping: AtomicBool,
    /// Set when the server stops: every WebSocket says goodbye ("server
    /// restarting") and closes.
    pub(crate) stop_signal: watch::Sender<bool>,
    /// Stopped as by a kill: leases are not given up.
    killed: AtomicBool,
}

impl Shared {
    /// An installed variant by folder name (loaded once).
    pub fn variant(&self, name: &str) -> Result<Arc<Variant>, String> {
        if let Some(v) = self
            .variants
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
        {
            return Ok(v.clone());
        }
        if !installed(&self.config.variants).iter().any(|v| v == name) {
            return Err(format!(
                "no variant {name:?} is installed on this server (installed: {})",
                installed(&self.config.variants).join(", ")
            ));
        }
        let dir = self.config.variants.join(name);
        let v = titan_core::load(&dir, &self.config.load).map_err(|errors| {
            format!(
                "variant {name} does not load: {}",
                errors.first().map(|e| e.to_string()).unwrap_or_default()
            )
        })?;
        let v = Arc::new(v);
        self.variants
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name.to_string(), v.clone());
        Ok(v)
    }

    /// The live game `id`, starting its actor if needed.
    pub fn game(self: &Arc<Self>, id: &str) -> GameHandle {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(h) = games.get(id) {
            return h.clone();
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let (changed_tx, changed) = watch::channel(Arc::default());
        let handle = GameHandle { tx, changed };
        games.insert(id.to_string(), handle.clone());
        let shared = self.clone();
        let id = id.to_string();
        let id_for_log = id.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("game {id}"))
            .spawn(move || actor::run(shared, id, rx, changed_tx));
        if let Err(e) = spawned {
            tracing::error!(game = %id_for_log, error = %e, "cannot start a game thread");
        }
        handle
    }

    /// Whether game `id` is live on this instance.
    pub fn is_live(&self, id: &str) -> bool {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(id)
    }

    pub(crate) fn forget(&self, id: &str) {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        self.known
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
    }

    /// Records the actions and chat lines a live game has.
    pub(crate) fn set_known(&self, id: &str, actions: usize, chat: usize) {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        match known.get_mut(id) {
            Some(k) => *k = (actions, chat),
            None => {
                known.insert(id.to_string(), (actions, chat));
            }
        }
    }

    pub(crate) fn present(&self, game: &str, seat: u8) -> bool {
        self.presence
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(game.to_string(), seat))
            .is_some_and(|n| *n > 0)
    }

    pub(crate) fn set_present(&self, game: &str, seat: u8, here: bool) {
        let mut p = self.presence.lock().unwrap_or_else(|e| e.into_inner());
        let n = p.entry((game.to_string(), seat)).or_insert(0);
        if here {
            *n += 1;
        } else {
            *n = n.saturating_sub(1);
        }
    }

    /// The connections open now (HTTP and WebSocket): a gauge.
    pub fn connections(&self) -> usize {
        listen::open(&self.connections)
    }

    /// The games live on this instance (each an actor thread): a gauge.
    pub fn live_games(&self) -> usize {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::Relaxed)
    }

    pub(crate) fn killed(&self) -> bool {
        self.killed.load(Ordering::Relaxed)
    }
}

/// The variants installed under `root`: folder names, sorted.
pub fn installed(root: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.path().join("variant.ron").is_file())
                .filter_map(|e| e.file_name().to_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// A running server.
pub struct Server {
    /// Where it listens (the port chosen when 0 was asked).
    pub addr: SocketAddr,
    pub shared: Arc<Shared>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Stops accepting, gives up this instance's leases and waits for the
    /// games to stop.
    pub async fn stop(mut self) {
        tracing::info!(
            connections = self.shared.connections(),
            live_games = self.shared.live_games(),
            "stopping"
        );
        self.shared.stopping.store(true, Ordering::Relaxed);
        self.shared.stop_signal.send_replace(true);
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = self.task.await;
        // Every WebSocket sends its close frame and closes (a client that
        // does not read is not waited for long).
        for _ in 0..250 {
            if self.shared.connections() == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // Actors stop within one poll.
        for _ in 0..100 {
            if self
                .shared
                .games
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_empty()
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tracing::info!(live_games = self.shared.live_games(), "stopped");
    }

    /// Stops dead, as a killed process would: nothing is released, leases
    /// are left to expire (for the take-over tests).
    pub fn kill(self) {
        self.task.abort();
        // The actors still must stop (they are threads of this process);
        // they do without releasing their leases.
        self.shared.killed.store(true, Ordering::Relaxed);
        self.shared.stopping.store(true, Ordering::Relaxed);
        let mut games = self.shared.games.lock().unwrap_or_else(|e| e.into_inner());
        games.clear();
    }
}

/// Starts a server on the current tokio runtime (multi-threaded).
pub async fn start(config: Config) -> Result<Server, String> {
    // Said first: what an operator needs to know it runs the right thing,
    // even when the start then fails.
    let variants = installed(&config.variants);
    tracing::info!(
        database = %logs::without_password(&config.database),
        variants_folder = %config.variants.display(),
        variants = variants.len(),
        names = %variants.join(","),
        "starting"
    );
    let db = Db::connect(&config.database)
        .await
        .map_err(|e| format!("cannot open the database: {e}"))?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let accounts = auth::Accounts::new(&config)?;
    let computers = computer::Pool::new(config.computer_threads);

    let instance = auth::random_hex(8);
    tracing::info!(
        address = %addr,
        instance = %instance,
        lease_ms = config.lease.as_millis() as u64,
        "listening"
    );
    let shared = Arc::new(Shared {
        config,
        db,
        rt: Handle::current(),
        instance,
        variants: Mutex::new(HashMap::new()),
        games: Mutex::new(HashMap::new()),
        known: Mutex::new(HashMap::new()),
        presence: Mutex::new(HashMap::new()),
        limits: Mutex::new(HashMap::new()),
        accounts,
        computers,
        chat_rates: Default::default(),
        finished: Mutex::new(HashMap::new()),
        finished_reads: tokio::sync::Semaphore::new(2),
        connections: Arc::new(Mutex::new(listen::Counts::default())),
        create_lock: tokio::sync::Mutex::new(()),
        stopping: AtomicBool::new(false),
        stop_signal: watch::channel(false).0,
        killed: AtomicBool::new(false),
    });
    let app = Router::new()
        .route("/health", get(health))
        .route("/ws", get(ws::upgrade))
        .with_state(shared.clone());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let shared_for_task = shared.clone();
    let sweeper = tokio::spawn(sweep(shared.clone()));
    let trimmer = tokio::spawn(give_back_memory(shared.clone()));
    let poller = tokio::spawn(poll(shared.clone()));
    let task = tokio::spawn(async move {
        let shared = shared_for_task;
        let listener = listen::Limited::new(
            listener,
            shared.connections.clone(),
            shared.config.limits.clone(),
        );
        let app = app.into_make_service_with_connect_info::<listen::ConnInfo>();
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await;
        sweeper.abort();
        trimmer.abort();
        poller.abort();
    });
    Ok(Server {
        addr,
        shared,
        stop: Some(stop),
        task,
    })
}

/// Takes over the running games whose lease is free or expired (a server
/// that stopped or died), so their computer seats and timeouts go on.
async fn sweep(shared: Arc<Shared>) {
    let every = shared.config.lease / 3;
    loop {
        if shared.stopping() {
            return;
        }
        match shared.db.games_to_drive(&shared.instance).await {
            Ok(ids) => {
                for id in ids {
                    if !shared.is_live(&id) {
                        shared.game(&id);
                    }
                }
            }
            Err(e) => logs::database_error(
                "sweep: cannot list the games to drive",
                None,
                &e.to_string(),
            ),
        }
        tokio::time::sleep(every).await;
    }
}

/// Connections closed since the last trim (from the most open since)
/// after which freed memory is given back to the OS.
const TRIM_AFTER_CLOSED: usize = 32;

/// Gives freed memory back to the OS after many connections closed (a
/// flood of connections or log-ins over): glibc's allocator keeps the
/// peak otherwise, and a server that held 1 GB for a minute would go on
/// holding it. Looked at twice a second; a trim costs a few milliseconds.
async fn give_back_memory(shared: Arc<Shared>) {
    let mut most = 0;
    loop {
        tokio::time::sleep(Duration::from_millis(500)).await;
        if shared.stopping() {
            return;
        }
        let open = shared.connections();
        most = most.max(open);
        if most - open >= TRIM_AFTER_CLOSED {
            most = open;
            let _ = tokio::task::spawn_blocking(trim).await;
        }
    }
}

/// Looks every `poll` for the actions and chat lines other instances stored
/// in this instance's live games, in one query for all of them, and tells
/// the games that have some ([`Cmd::News`]).
async fn poll(shared: Arc<Shared>) {
    loop {
        tokio::time::sleep(shared.config.poll).await;
        if shared.stopping() {
            return;
        }
        let known: Vec<(String, usize, usize)> = shared
            .known
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(id, (a, c))| (id.clone(), *a, *c))
            .collect();
        let news = match shared.db.games_with_news(&known).await {
            Ok(news) => news,
            Err(e) => {
                logs::database_error("poll: cannot look for news", None, &e.to_string());
                continue;
            }
        };
        let games = shared.games.lock().unwrap_or_else(|e| e.into_inner());
        for id in news {
            if let Some(game) = games.get(&id) {
                let _ = game.tx.send(Cmd::News);
            }
        }
    }
}

/// Returns the allocator's free memory to the OS, where it can.
pub fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free pages of the allocator's
    // heaps; it takes their locks itself.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Ctrl-C and, on Unix, SIGTERM (what `kill` and service managers send to
/// stop a program): either stops the server cleanly. Listened for before
/// the server says it is listening, so that a signal sent as soon as that
/// line is read stops it cleanly rather than killing it.
struct StopSignals {
    #[cfg(unix)]
    term: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    interrupt: Option<tokio::signal::unix::Signal>,
}

impl StopSignals {
    fn listen() -> StopSignals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            StopSignals {
                term: signal(SignalKind::terminate()).ok(),
                interrupt: signal(SignalKind::interrupt()).ok(),
            }
        }
        #[cfg(not(unix))]
        StopSignals {}
    }

    /// Waits for one of them.
    async fn wait(self) {
        #[cfg(unix)]
        if let (Some(mut term), Some(mut interrupt)) = (self.term, self.interrupt) {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = term.recv() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// `titan serve`: runs until interrupted (Ctrl-C or SIGTERM), then stops
/// cleanly.
pub fn run_blocking(config: Config) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async {
        let server = start(config).await?;
        let stop = StopSignals::listen();
        println!(
            "titan serve: listening on http://{} (WebSocket at /ws)",
            server.addr
        );
        stop.wait().await;
        server.stop().await;
        Ok(())
    })
}

/// `GET /health`: 200 `ok` when the server and its database answer; 503
/// with the reason when the database does not (a load balancer then sends
/// players elsewhere, and an operator sees why).
async fn health(
    axum::extract::State(shared): axum::extract::State<Arc<Shared>>,
) -> (axum::http::StatusCode, String) {
    match shared.db.ping(std::time::Duration::from_secs(2)).await {
        Ok(()) => (axum::http::StatusCode::OK, "ok".to_string()),
        Err(e) => {
            logs::database_error("health: the database is unreachable", None, &e);
            (
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                format!("database unreachable: {e}"),
            )
        }
    }
}
