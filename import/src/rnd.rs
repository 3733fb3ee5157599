//! Colossus's battleland randomizer language (`Battlelands/*.rnd`): a
//! program of statements, one a line, that places hazards, elevations and
//! hexside hazards at random on the 27-hex battleland. [`Program::parse`]
//! reads one (an error names the file and line), [`Program::generate`]
//! runs it with a seeded generator: the same seed, the same battleland.
//!
//! The language, as titan reads it (from Colossus's description and
//! grammar; titan's own interpreter):
//!
//! - `AREA <hexes> HAZARDS <hazards>`: each hazard in turn, with its
//!   chance in percent, takes one hex of the list not yet taken at random
//!   (a hex listed twice may be taken twice: the last hazard stays) and
//!   puts it at an elevation drawn by the hazard's elevation chances. After
//!   it, `(usedup)` is the hexes taken and `(leftover)` those left.
//! - A hazard is `Name`, `Name,chance.`, `Name,elevation`,
//!   `Name,chance.,elevation` or `Name[,chance.],e0.,e1.,e2.` (the chances
//!   of elevations 0, 1, 2, in proportion). A chance has a point (`75.`);
//!   an elevation none, and one other than 1 or 2 is 0 (so `Plains,50` is
//!   a Plains at elevation 0, always). `*` for a chance is 0.
//! - `LABEL name = <hexes>`: names the list as it is now (a label defined
//!   again replaces the old, which its new list may use).
//! - Hexes: labels of hexes (`C3`), `(x,y)` in Colossus's coordinates
//!   (columns 0-5, rows from the top; `a-b` ranges, places off the
//!   battleland skipped), `(label)`, `(usedup)`, `(leftover)`,
//!   `SURROUNDINGSOF(<hexes>)` (the neighbours of those hexes, not
//!   themselves), `SOMEOF(n, <hexes>)` (n of them at random),
//!   `SUBSTRACT(<hexes>, <hexes>)`. Predefined labels: `inside` (12
//!   hexes of the middle, as Colossus lists them), `leftdefenseentry`,
//!   `upperdefenseentry`, `lowerdefenseentry` (the three hexes along each
//!   of the defender's edges) and `anywhere` (all 27).
//! - `PAIR (Hazard,e)(Hazard,e) HEXSIDES c,75. s,100.`: at every hexside
//!   from a hex of the first hazard and elevation (`*`: any) to a hex of
//!   the second, the hexside hazards are tried in order, each at its
//!   chance, the first that comes is put on the first hex's side (its top
//!   side). The most precise pair that fits is used (exact, then either
//!   elevation `*`, then both); a pair given again replaces the first.
//!   Letters: `d` dune, `c` cliff, `s` slope, `w` wall, `r` river.
//! - `STARTLIST <hexes>`: where the defender starts; `TOWER`: the terrain
//!   is a tower; `TITLE`, `SUBTITLE` and `#` comments are read and left.
//!
//! Hexside hazards are placed once every hex is; titan reads a hexside
//! given from both hexes as `battlelands` does Colossus's battleland files.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use titan_core::format::{HexDef, Side};
use titan_core::rng::GameRng;

use crate::Error;
use crate::battlelands;

/// A hex by Colossus's `(x, y)`: the column from 0 (A), the row from the top.
type Hex = (i32, i32);

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Eol,
    Word(String),
    Quoted(String),
    Int(i64),
    Float(f64),
    Star,
    Comma,
    Open,
    Close,
    Dash,
    Equal,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Eol => "the end of the line".into(),
            Tok::Word(w) => format!("{w:?}"),
            Tok::Quoted(q) => format!("\"{q}\""),
            Tok::Int(n) => n.to_string(),
            Tok::Float(f) => format!("{f}"),
            Tok::Star => "'*'".into(),
            Tok::Comma => "','".into(),
            Tok::Open => "'('".into(),
            Tok::Close => "')'".into(),
            Tok::Dash => "'-'".into(),
            Tok::Equal => "'='".into(),
        }
    }
}

/// A list of hexes as written.
#[derive(Debug, Clone)]
enum Item {
    Hex(Hex),
    Coords((i32, i32), (i32, i32)),
    Label(String),
    Leftover,
    Usedup,
    Around(Vec<Item>),
    SomeOf(i64, Vec<Item>),
    Subtract(Vec<Item>, Vec<Item>),
}

/// A hazard an `AREA` places: its titan name, chance and the chances of
/// elevations 0, 1 and 2 (in percent, summing to 100).
#[derive(Debug, Clone)]
struct Placed {
    hazard: &'static str,
    chance: f64,
    elevation: [f64; 3],
}

/// One side of a `PAIR`: a hazard at an elevation (`None`: any).
type End = (&'static str, Option<u8>);

/// A `PAIR`'s hexside hazards, each with its chance.
type Hexsides = Vec<(&'static str, f64)>;

#[derive(Debug, Clone)]
enum Stmt {
    Area(Vec<Item>, Vec<Placed>),
    Label(String, Vec<Item>),
    Pair(End, End, Hexsides),
    StartList(Vec<Item>),
    Tower,
}

/// A parsed `.rnd` file.
#[derive(Debug, Clone)]
pub struct Program {
    file: PathBuf,
    /// Each statement with its line.
    stmts: Vec<(u32, Stmt)>,
}

/// A battleland a program gave: titan's hexes (every hexside where the
/// program put it, on the first hex of its pair), the defender's start
/// list and whether the terrain is a tower.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    pub hexes: BTreeMap<String, HexDef>,
    pub start_list: Vec<String>,
    pub tower: bool,
}

const KEYWORDS: &[&str] = &[
    "AREA",
    "HAZARDS",
    "LABEL",
    "SOMEOF",
    "SUBSTRACT",
    "SURROUNDINGSOF",
    "PAIR",
    "HEXSIDES",
    "leftover",
    "usedup",
    "STARTLIST",
    "TOWER",
    "TITLE",
    "SUBTITLE",
];

fn lex(file: &Path, text: &str) -> Result<Vec<(Tok, u32)>, Error> {
    let mut out = Vec::new();
    let mut line = 1u32;
    let mut chars = text.char_indices().peekable();
    let word_start = |c: char| c.is_ascii_alphabetic() || c == '.' || c == '_';
    let word_char = |c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_';
    while let Some((at, c)) = chars.next() {
        let tok = match c {
            ' ' | '\t' | '\r' => continue,
            '\n' => Tok::Eol,
            '#' => {
                while chars.next_if(|&(_, c)| c != '\n').is_some() {}
                continue;
            }
            ',' => Tok::Comma,
            '(' => Tok::Open,
            ')' => Tok::Close,
            '-' => Tok::Dash,
            '=' => Tok::Equal,
            '*' => Tok::Star,
            '"' => {
                let mut s = String::new();
                loop {
                    match chars.next() {
                        Some((_, '"')) => break,
                        Some((_, '\n')) | None => {
                            return Err(Error::at(file, line, "a quoted text is not closed"));
                        }
                        Some((_, c)) => s.push(c),
                    }
                }
                Tok::Quoted(s)
            }
            c if c.is_ascii_digit() => {
                let mut end = at + 1;
                while chars.next_if(|&(_, c)| c.is_ascii_digit()).is_some() {
                    end += 1;
                }
                if chars.next_if(|&(_, c)| c == '.').is_some() {
                    end += 1;
                    while chars.next_if(|&(_, c)| c.is_ascii_digit()).is_some() {
                        end += 1;
                    }
                    let n: f64 = text[at..end].parse().unwrap_or(0.0);
                    Tok::Float(n)
                } else {
                    let n = text[at..end].parse().map_err(|_| {
                        Error::at(file, line, format!("{} is too large", &text[at..end]))
                    })?;
                    Tok::Int(n)
                }
            }
            c if word_start(c) => {
                let mut end = at + c.len_utf8();
                while let Some((_, c)) = chars.next_if(|&(_, c)| word_char(c)) {
                    end += c.len_utf8();
                }
                Tok::Word(text[at..end].to_string())
            }
            c => {
                return Err(Error::at(file, line, format!("unexpected character {c:?}")));
            }
        };
        let eol = tok == Tok::Eol;
        out.push((tok, line));
        if eol {
            line += 1;
        }
    }
    Ok(out)
}

/// The hex of a label such as `C3`, if it is one.
fn hex_label(word: &str) -> Option<Hex> {
    let b = word.as_bytes();
    if b.len() != 2 || !(b'1'..=b'6').contains(&b[1]) {
        return None;
    }
    let x = i32::from(
        b"ABCDEF"
            .iter()
            .position(|&c| c == b[0].to_ascii_uppercase())? as u8,
    );
    let n = i32::from(b[1] - b'0');
    Some((x, 6 - n - ((x - 3) / 2).abs()))
}

fn exists(h: Hex) -> bool {
    battlelands::label(h.0, h.1).is_some()
}

struct Parser<'a> {
    file: &'a Path,
    toks: Vec<(Tok, u32)>,
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        self.toks.get(self.pos).map_or(&Tok::Eol, |t| &t.0)
    }

    fn peek_at(&self, n: usize) -> &Tok {
        self.toks.get(self.pos + n).map_or(&Tok::Eol, |t| &t.0)
    }

    fn line(&self) -> u32 {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map_or(1, |t| t.1)
    }

    fn next(&mut self) -> Tok {
        let t = self.peek().clone();
        self.pos += 1;
        t
    }

    fn error(&self, message: impl Into<String>) -> Error {
        Error::at(self.file, self.line(), message)
    }

    fn expect(&mut self, want: &Tok, what: &str) -> Result<(), Error> {
        if self.peek() == want {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(format!("{what}, not {}", self.peek().describe())))
        }
    }

    fn keyword(&mut self, word: &str) -> bool {
        if matches!(self.peek(), Tok::Word(w) if w == word) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// A whole number, `*` being -1.
    fn int(&mut self, what: &str) -> Result<i64, Error> {
        match self.next() {
            Tok::Int(n) => Ok(n),
            Tok::Star => Ok(-1),
            t => {
                self.pos -= 1;
                Err(self.error(format!("{what} (a whole number), not {}", t.describe())))
            }
        }
    }

    fn label_name(&mut self) -> Result<String, Error> {
        match self.next() {
            Tok::Word(w) if !KEYWORDS.contains(&w.as_str()) && hex_label(&w).is_none() => Ok(w),
            t => {
                self.pos -= 1;
                Err(self.error(format!("a label's name, not {}", t.describe())))
            }
        }
    }

    fn statement(&mut self) -> Result<Option<Stmt>, Error> {
        let Tok::Word(w) = self.next() else {
            self.pos -= 1;
            return Err(self.error(format!(
                "a statement (AREA, LABEL, PAIR, STARTLIST, TOWER, TITLE, SUBTITLE), not {}",
                self.peek().describe()
            )));
        };
        let stmt = match w.as_str() {
            "AREA" => {
                let hexes = self.list()?;
                if !self.keyword("HAZARDS") {
                    return Err(self.error(format!(
                        "HAZARDS after the AREA's hexes, not {}",
                        self.peek().describe()
                    )));
                }
                Stmt::Area(hexes, self.hazards()?)
            }
            "LABEL" => {
                let name = self.label_name()?;
                self.expect(&Tok::Equal, "'=' after the label's name")?;
                Stmt::Label(name, self.list()?)
            }
            "PAIR" => {
                let from = self.end()?;
                let to = self.end()?;
                if !self.keyword("HEXSIDES") {
                    return Err(self.error(format!(
                        "HEXSIDES after the PAIR, not {}",
                        self.peek().describe()
                    )));
                }
                Stmt::Pair(from, to, self.hexsides()?)
            }
            "STARTLIST" => Stmt::StartList(self.list()?),
            "TOWER" => Stmt::Tower,
            "TITLE" | "SUBTITLE" => match self.next() {
                Tok::Word(_) | Tok::Quoted(_) => return Ok(None),
                t => {
                    self.pos -= 1;
                    return Err(self.error(format!("a title, not {}", t.describe())));
                }
            },
            _ => {
                self.pos -= 1;
                return Err(self.error(format!(
                    "a statement (AREA, LABEL, PAIR, STARTLIST, TOWER, TITLE, SUBTITLE), not {w:?}"
                )));
            }
        };
        Ok(Some(stmt))
    }

    /// A list of hexes, up to the first token that cannot continue it.
    fn list(&mut self) -> Result<Vec<Item>, Error> {
        let mut items = Vec::new();
        loop {
            let item = match (self.peek().clone(), self.peek_at(1).clone()) {
                (Tok::Word(w), Tok::Open) if w == "SURROUNDINGSOF" => {
                    self.pos += 2;
                    let inner = self.list()?;
                    self.expect(&Tok::Close, "')' closing SURROUNDINGSOF")?;
                    Item::Around(inner)
                }
                (Tok::Word(w), Tok::Open) if w == "SOMEOF" => {
                    self.pos += 2;
                    let n = self.int("SOMEOF's count")?;
                    self.expect(&Tok::Comma, "',' after SOMEOF's count")?;
                    let inner = self.list()?;
                    self.expect(&Tok::Close, "')' closing SOMEOF")?;
                    Item::SomeOf(n, inner)
                }
                (Tok::Word(w), Tok::Open) if w == "SUBSTRACT" => {
                    self.pos += 2;
                    let from = self.list()?;
                    self.expect(&Tok::Comma, "',' between SUBSTRACT's two lists")?;
                    let less = self.list()?;
                    self.expect(&Tok::Close, "')' closing SUBSTRACT")?;
                    Item::Subtract(from, less)
                }
                (Tok::Word(w), _) if hex_label(&w).is_some() => {
                    let hex = hex_label(&w).unwrap_or_default();
                    if !exists(hex) {
                        return Err(self.error(format!("{w} is no hex of the battleland")));
                    }
                    self.pos += 1;
                    Item::Hex(hex)
                }
                (Tok::Open, Tok::Word(w)) => {
                    self.pos += 2;
                    let item = match w.as_str() {
                        "leftover" => Item::Leftover,
                        "usedup" => Item::Usedup,
                        _ => {
                            self.pos -= 1;
                            Item::Label(self.label_name()?)
                        }
                    };
                    self.expect(&Tok::Close, "')' after a label")?;
                    item
                }
                (Tok::Open, Tok::Int(_) | Tok::Star) => {
                    self.pos += 1;
                    let x = self.span()?;
                    self.expect(&Tok::Comma, "',' between a hex's x and y")?;
                    let y = self.span()?;
                    self.expect(&Tok::Close, "')' after a hex's x and y")?;
                    Item::Coords(x, y)
                }
                _ => return Ok(items),
            };
            items.push(item);
        }
    }

    /// A number or a range `a-b` of a coordinate.
    fn span(&mut self) -> Result<(i32, i32), Error> {
        let clamp = |n: i64| n.clamp(-1, 99) as i32;
        let low = clamp(self.int("a coordinate")?);
        if *self.peek() == Tok::Dash {
            self.pos += 1;
            Ok((low, clamp(self.int("the end of a range")?)))
        } else {
            Ok((low, low))
        }
    }

    /// A chance in percent: a number with a point, `*` being 0.
    fn chance(&mut self) -> Option<f64> {
        match self.peek() {
            Tok::Float(f) => {
                let f = *f;
                self.pos += 1;
                Some(f.clamp(0.0, 100.0))
            }
            Tok::Star => {
                self.pos += 1;
                Some(0.0)
            }
            _ => None,
        }
    }

    fn hazards(&mut self) -> Result<Vec<Placed>, Error> {
        let mut out = Vec::new();
        while let Tok::Word(name) | Tok::Quoted(name) = self.peek().clone() {
            let hazard = hazard(self, &name)?;
            self.pos += 1;
            let mut p = Placed {
                hazard,
                chance: 100.0,
                elevation: [100.0, 0.0, 0.0],
            };
            let three = |s: &Self, from: usize| {
                (0..3).all(|i| {
                    s.peek_at(from + 2 * i) == &Tok::Comma
                        && matches!(s.peek_at(from + 2 * i + 1), Tok::Float(_) | Tok::Star)
                })
            };
            // `,a.,b.,c.` alone are the elevations' chances; a fourth
            // number before them is the hazard's.
            let elevations_only = three(self, 0) && !three(self, 2);
            if *self.peek() == Tok::Comma
                && matches!(self.peek_at(1), Tok::Float(_) | Tok::Star)
                && !elevations_only
            {
                self.pos += 1;
                p.chance = self.chance().unwrap_or(100.0);
            }
            if three(self, 0) {
                let mut e = [0.0; 3];
                for v in &mut e {
                    self.pos += 1;
                    *v = self.chance().unwrap_or(0.0);
                }
                let sum: f64 = e.iter().sum();
                if sum > 0.0 {
                    p.elevation = e.map(|v| v * 100.0 / sum);
                }
            } else if *self.peek() == Tok::Comma && matches!(self.peek_at(1), Tok::Int(_)) {
                self.pos += 1;
                let e = self.int("an elevation")?;
                p.elevation = match e {
                    1 => [0.0, 100.0, 0.0],
                    2 => [0.0, 0.0, 100.0],
                    _ => [100.0, 0.0, 0.0],
                };
            }
            out.push(p);
        }
        Ok(out)
    }

    fn end(&mut self) -> Result<End, Error> {
        self.expect(&Tok::Open, "'(' opening a hazard and its elevation")?;
        let name = match self.next() {
            Tok::Word(w) | Tok::Quoted(w) => w,
            t => {
                self.pos -= 1;
                return Err(self.error(format!("a hazard, not {}", t.describe())));
            }
        };
        self.pos -= 1;
        let hazard = hazard(self, &name)?;
        self.pos += 1;
        self.expect(&Tok::Comma, "',' after the hazard")?;
        let e = self.int("an elevation or '*'")?;
        self.expect(&Tok::Close, "')' after the elevation")?;
        let elevation = match e {
            -1 => None,
            0..=2 => Some(e as u8),
            _ => return Err(self.error(format!("elevation {e}: 0, 1, 2 or '*'"))),
        };
        Ok((hazard, elevation))
    }

    fn hexsides(&mut self) -> Result<Hexsides, Error> {
        let mut out = Vec::new();
        while let Tok::Word(code) = self.peek().clone() {
            let Some(hazard) = battlelands::hexside_hazard(&code) else {
                return Err(self.error(format!(
                    "unknown hexside {code:?}: one of d (dune), c (cliff), s (slope), w (wall), r (river)"
                )));
            };
            self.pos += 1;
            let mut chance = 100.0;
            if *self.peek() == Tok::Comma {
                self.pos += 1;
                chance = self.chance().ok_or_else(|| {
                    self.error(format!(
                        "a hexside's chance, written with a point (75.), not {}",
                        self.peek().describe()
                    ))
                })?;
            }
            out.push((hazard, chance));
        }
        Ok(out)
    }
}

/// Titan's name of a Colossus hex terrain an `.rnd` names.
fn hazard(p: &Parser, name: &str) -> Result<&'static str, Error> {
    battlelands::hex_hazard(name).ok_or_else(|| {
        p.error(format!(
            "unknown hazard {name:?}: one of Plains, Tower, Brambles, Sand, Bog, Drift, Volcano, Tree, Lake, Stone, Spring, TarPit"
        ))
    })
}

impl Program {
    /// Reads the program in `text`, from `file` (for errors).
    pub fn parse(file: &Path, text: &str) -> Result<Program, Error> {
        let mut p = Parser {
            file,
            toks: lex(file, text)?,
            pos: 0,
        };
        let mut stmts = Vec::new();
        while p.pos < p.toks.len() {
            if *p.peek() == Tok::Eol {
                p.pos += 1;
                continue;
            }
            let line = p.line();
            let stmt = p.statement()?;
            if *p.peek() != Tok::Eol {
                return Err(p.error(format!(
                    "unexpected {} (one statement a line)",
                    p.peek().describe()
                )));
            }
            if let Some(s) = stmt {
                stmts.push((line, s));
            }
        }
        Ok(Program {
            file: file.to_path_buf(),
            stmts,
        })
    }

    /// Reads the program in `file`.
    pub fn read(file: &Path) -> Result<Program, Error> {
        let text = titan_core::files::read_regular(file, 1 << 20)
            .map_err(|e| Error::at(file, 0, format!("cannot read it: {e}")))?;
        Program::parse(file, &text)
    }

    /// Runs the program with a generator seeded with `seed`.
    pub fn generate(&self, seed: u64) -> Result<Generated, Error> {
        let mut run = Run::new(seed);
        for (line, stmt) in &self.stmts {
            run.statement(stmt)
                .map_err(|m| Error::at(&self.file, *line, m))?;
        }
        Ok(run.finish())
    }
}

/// A program being run.
struct Run {
    rng: GameRng,
    /// Every hex's hazard and elevation (Plains at 0 until placed).
    hexes: BTreeMap<Hex, (&'static str, u8)>,
    labels: HashMap<String, Vec<Hex>>,
    usedup: Vec<Hex>,
    leftover: Vec<Hex>,
    pairs: HashMap<(End, End), Hexsides>,
    start: Vec<Hex>,
    tower: bool,
}

/// Every hex of the battleland, by column, top first.
fn anywhere() -> Vec<Hex> {
    (0..6)
        .flat_map(|x| (0..6).map(move |y| (x, y)))
        .filter(|&h| exists(h))
        .collect()
}

impl Run {
    fn new(seed: u64) -> Run {
        let mut labels = HashMap::new();
        let mut inside: Vec<Hex> = (1..=4).flat_map(|x| [(x, 2), (x, 3)]).collect();
        inside.push((3, 1));
        inside.extend((2..=4).map(|x| (x, 4)));
        labels.insert("inside".into(), inside);
        labels.insert("leftdefenseentry".into(), vec![(0, 2), (0, 3), (0, 4)]);
        labels.insert("upperdefenseentry".into(), vec![(3, 0), (4, 1), (5, 1)]);
        labels.insert("lowerdefenseentry".into(), vec![(5, 4), (3, 5), (4, 5)]);
        labels.insert("anywhere".into(), anywhere());
        Run {
            rng: GameRng::new(seed),
            hexes: anywhere().into_iter().map(|h| (h, ("Plains", 0))).collect(),
            labels,
            usedup: Vec::new(),
            leftover: Vec::new(),
            pairs: HashMap::new(),
            start: Vec::new(),
            tower: false,
        }
    }

    /// A number in `[0, 100)`.
    fn percent(&mut self) -> f64 {
        self.rng.unit() * 100.0
    }

    fn pick(&mut self, list: &mut Vec<Hex>) -> Hex {
        let i = self.rng.roll(list.len() as u32) as usize - 1;
        list.remove(i)
    }

    fn statement(&mut self, stmt: &Stmt) -> Result<(), String> {
        match stmt {
            Stmt::Area(items, hazards) => {
                let mut list = self.hexes_of(items)?;
                list.sort_unstable();
                self.usedup.clear();
                for h in hazards {
                    if list.is_empty() || self.percent() >= h.chance {
                        continue;
                    }
                    let hex = self.pick(&mut list);
                    let r = self.percent();
                    let [e0, e1, _] = h.elevation;
                    let elevation = u8::from(r > e0) + u8::from(r > e0 + e1);
                    self.hexes.insert(hex, (h.hazard, elevation));
                    self.usedup.push(hex);
                }
                self.leftover = list;
            }
            Stmt::Label(name, items) => {
                let list = self.hexes_of(items)?;
                self.labels.insert(name.clone(), list);
            }
            Stmt::Pair(from, to, sides) => {
                self.pairs.insert((*from, *to), sides.clone());
            }
            Stmt::StartList(items) => self.start = self.hexes_of(items)?,
            Stmt::Tower => self.tower = true,
        }
        Ok(())
    }

    fn hexes_of(&mut self, items: &[Item]) -> Result<Vec<Hex>, String> {
        let mut out = Vec::new();
        for item in items {
            match item {
                Item::Hex(h) => out.push(*h),
                Item::Coords((x0, x1), (y0, y1)) => {
                    for x in *x0..=*x1 {
                        out.extend((*y0..=*y1).map(|y| (x, y)).filter(|&h| exists(h)));
                    }
                }
                Item::Label(name) => match self.labels.get(name) {
                    Some(l) => out.extend(l.iter().copied()),
                    None => return Err(format!("no label {name:?} is defined before this line")),
                },
                Item::Leftover => out.extend(self.leftover.iter().copied()),
                Item::Usedup => out.extend(self.usedup.iter().copied()),
                Item::Around(inner) => {
                    let inner = self.hexes_of(inner)?;
                    let around: BTreeSet<Hex> = inner
                        .iter()
                        .flat_map(|&(x, y)| Side::ALL.map(|s| battlelands::neighbour(x, y, s)))
                        .filter(|&h| exists(h) && !inner.contains(&h))
                        .collect();
                    out.extend(around);
                }
                Item::SomeOf(n, inner) => {
                    let mut inner = self.hexes_of(inner)?;
                    for _ in 0..*n {
                        if inner.is_empty() {
                            break;
                        }
                        let h = self.pick(&mut inner);
                        out.push(h);
                    }
                }
                Item::Subtract(from, less) => {
                    let from = self.hexes_of(from)?;
                    let less = self.hexes_of(less)?;
                    out.extend(from.into_iter().filter(|h| !less.contains(h)));
                }
            }
        }
        Ok(out)
    }

    /// The hexside hazards of the pair that fits best, if any.
    fn pair_for(&self, from: End, to: End) -> Option<&Hexsides> {
        let (a, ea) = from;
        let (b, eb) = to;
        [
            ((a, ea), (b, eb)),
            ((a, ea), (b, None)),
            ((a, None), (b, eb)),
            ((a, None), (b, None)),
        ]
        .iter()
        .find_map(|k| self.pairs.get(k))
    }

    /// The hexside hazards, then the battleland in titan's labels.
    fn finish(mut self) -> Generated {
        let mut sides: BTreeMap<Hex, BTreeMap<Side, String>> = BTreeMap::new();
        let all: Vec<Hex> = self.hexes.keys().copied().collect();
        for &(x, y) in &all {
            for side in Side::ALL {
                let n = battlelands::neighbour(x, y, side);
                let (Some(&(ha, ea)), Some(&(hb, eb))) =
                    (self.hexes.get(&(x, y)), self.hexes.get(&n))
                else {
                    continue;
                };
                let Some(list) = self.pair_for((ha, Some(ea)), (hb, Some(eb))).cloned() else {
                    continue;
                };
                for (hazard, chance) in list {
                    if self.percent() < chance {
                        sides
                            .entry((x, y))
                            .or_default()
                            .insert(side, hazard.to_string());
                        break;
                    }
                }
            }
        }
        let label = |&(x, y): &Hex| battlelands::label(x, y).unwrap_or_default();
        let hexes = self
            .hexes
            .iter()
            .map(|(h, &(hazard, elevation))| {
                let def = HexDef {
                    hazard: hazard.to_string(),
                    elevation,
                    sides: sides.remove(h).unwrap_or_default(),
                };
                (label(h), def)
            })
            .collect();
        let mut start_list: Vec<String> = self.start.iter().map(label).collect();
        start_list.sort();
        start_list.dedup();
        Generated {
            hexes,
            start_list,
            tower: self.tower,
        }
    }
}

/// `count` battlelands of `terrain` drawn by the program in `file`, from
/// fixed seeds (the terrain's name and the battleland's number), numbered
/// as alternatives from 1.
pub fn draw(file: &Path, terrain: &str, count: u32) -> Result<Vec<battlelands::Battleland>, Error> {
    let program = Program::read(file)?;
    let base = terrain.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    (1..=count)
        .map(|n| {
            let g = program.generate(base.wrapping_add(u64::from(n)))?;
            let mut b = battlelands::finish(terrain, g.hexes, g.start_list, g.tower);
            b.def.alternative = n;
            Ok(b)
        })
        .collect()
}
