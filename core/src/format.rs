//! The variant file format: what `variant.ron` and the files it names hold.
//!
//! These are the serde types read from and written to RON. They speak in names
//! (`"Ogre"`, `"Bramble"`, land `42`) exactly as an author writes them; the
//! [`compile`](crate::compile) step resolves every name to an id once, so the
//! engine never compares strings on hot paths. Every struct rejects unknown
//! fields, so a typo in a file is an error rather than a silently ignored line.
//!
//! A variant that `extends` another names only the files it changes; each file
//! is merged over the base by key (see [`crate::load`]).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

mod procedure;
pub use procedure::{Maneuvering, Procedure, Reinforcement, Round, Showdown, TitanDeath};

fn yes() -> bool {
    true
}

fn one() -> u8 {
    1
}

// ---------------------------------------------------------------------------
// The manifest
// ---------------------------------------------------------------------------

/// `variant.ron`: what the variant is and which files hold its data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The id other variants use in `extends` and saves record.
    pub id: String,
    pub title: String,
    /// Saved games record it; a save from another version is refused.
    pub version: String,
    #[serde(default)]
    pub description: String,
    /// How many players; inherited from the base when absent.
    #[serde(default)]
    pub players: Option<PlayerCount>,
    /// The id of the variant this one builds on (a sibling folder).
    #[serde(default)]
    pub extends: Option<String>,
    /// Named house-rule toggles and numbers, with their defaults.
    #[serde(default)]
    pub options: Vec<RuleOption>,
    #[serde(default)]
    pub files: Files,
    /// What this variant takes away from its base.
    #[serde(default)]
    pub remove: Removals,
}

/// The smallest and largest number of players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerCount {
    pub min: u8,
    pub max: u8,
}

/// A named rule option (a house-rule toggle or number) and its default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleOption {
    pub name: String,
    /// What the start screen calls it; absent: the name in words
    /// (`point_limit`: "Point limit").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default)]
    pub description: String,
    pub default: OptionValue,
    /// Bounds of an integer option's value (a game's setting outside them is
    /// refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
}

impl RuleOption {
    /// The option's name as a player reads it: its label, else its name
    /// with spaces for underscores and a capital first letter.
    pub fn title(&self) -> String {
        if let Some(l) = self.label.as_ref().filter(|l| !l.trim().is_empty()) {
            return l.clone();
        }
        let words = self.name.replace('_', " ");
        let mut chars = words.chars();
        match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect(),
            None => words,
        }
    }
}

/// The value of a rule option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Text(String),
}

/// The files of a variant, relative to its folder. Scripts starting with
/// `shared:` come from the repository's shared `scripts/` folder.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Files {
    #[serde(default)]
    pub terrains: Option<String>,
    #[serde(default)]
    pub hazards: Option<String>,
    #[serde(default)]
    pub characters: Option<String>,
    #[serde(default)]
    pub mustering: Option<String>,
    #[serde(default)]
    pub masterboard: Option<String>,
    #[serde(default)]
    pub rules: Option<String>,
    #[serde(default)]
    pub battlelands: Vec<String>,
    #[serde(default)]
    pub scripts: Vec<String>,
    /// Variables the engine keeps for the scripts (`variables.ron`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variables: Option<String>,
    /// Actions the scripts define (`actions.ron`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<String>,
}

/// Things a variant removes from its base.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Removals {
    /// Characters taken out of the game; mustering rows naming them go too.
    #[serde(default)]
    pub characters: Vec<String>,
    /// Lands taken off the masterboard, with the exits that lead to them.
    #[serde(default)]
    pub lands: Vec<u32>,
}

// ---------------------------------------------------------------------------
// Terrains
// ---------------------------------------------------------------------------

/// A masterboard terrain (`terrains.ron` is a list of these).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainDef {
    pub name: String,
    /// The colour lands of this terrain are drawn in.
    pub color: Rgb,
    /// Tower lands: where legions start, and the ends of tower teleports.
    #[serde(default)]
    pub tower: bool,
    /// Shared lands: legions of several players may stand in one, and pass
    /// through it, without an engagement; the mover may challenge one there
    /// instead (Gods of Titan 8.6, 10.2: the City and the Dungeon).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shared: bool,
}

/// A colour, written `"#rrggbb"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub [u8; 3]);

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, g, b] = self.0;
        write!(f, "#{r:02x}{g:02x}{b:02x}")
    }
}

impl std::str::FromStr for Rgb {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let hex = s
            .strip_prefix('#')
            .filter(|h| h.len() == 6 && h.is_ascii())
            .ok_or_else(|| format!("colour {s:?} is not of the form \"#rrggbb\""))?;
        let byte = |i: usize| {
            u8::from_str_radix(&hex[i..i + 2], 16)
                .map_err(|_| format!("colour {s:?} is not of the form \"#rrggbb\""))
        };
        Ok(Rgb([byte(0)?, byte(2)?, byte(4)?]))
    }
}

impl Serialize for Rgb {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Rgb {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

// ---------------------------------------------------------------------------
// Hazards
// ---------------------------------------------------------------------------

/// A battleland hazard: a hex hazard (bramble, bog) or a hexside hazard
/// (slope, wall). `hazards.ron` is a list of these. Its effects are a closed
/// set the engine evaluates; anything else is a named Lua hook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HazardDef {
    pub name: String,
    pub place: Place,
    pub color: Rgb,
    #[serde(default)]
    pub movement: Movement,
    #[serde(default)]
    pub effects: Vec<Effect>,
}

/// Whether a hazard fills a hex or lies along a hexside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Place {
    Hex,
    Hexside,
}

/// How a hazard affects movement, for walkers and flyers, natives and others.
///
/// For a hex hazard it applies when a walker enters the hex, or a flyer lands
/// in it. For a hexside hazard it applies when a walker crosses the hexside in
/// the given `crossing` direction (flyers pass over hexsides).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    #[serde(default)]
    pub ground: Passage,
    #[serde(default)]
    pub flying: Passage,
    #[serde(default)]
    pub crossing: Crossing,
    /// A hex hazard: flying over the hex on the way (not landing in it).
    /// `Slow` counts it as two of the flyer's movement; `Block` forbids
    /// flying over it (and landing in it).
    #[serde(default, skip_serializing_if = "Passage::is_free")]
    pub over: Passage,
    /// A hex hazard: a native standing in one of its hexes may move to
    /// another of its hexes as a flyer would ("dive" between them), landing
    /// by `flying`'s rules.
    #[serde(default, skip_serializing_if = "is_false")]
    pub dive: bool,
}

/// The movement effect on natives and on everybody else.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Passage {
    #[serde(default)]
    pub natives: Move,
    #[serde(default)]
    pub others: Move,
}

impl Passage {
    /// No effect on anyone.
    pub fn is_free(&self) -> bool {
        self.natives == Move::Free && self.others == Move::Free
    }
}

fn first() -> u32 {
    1
}

fn is_first(n: &u32) -> bool {
    *n == 1
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One movement effect.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Move {
    /// No effect.
    #[default]
    Free,
    /// The hex counts as two.
    Slow,
    /// May not enter (a walker) or land (a flyer).
    Block,
    /// Movement ends on entering.
    Stop,
}

/// Which way across a hexside a movement effect applies. A hexside hazard is
/// recorded on the hex at its top side, so `Up` is crossing into that hex.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Crossing {
    #[default]
    Up,
    Down,
    Both,
}

/// Whom an effect concerns, relative to the hazard's natives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Who {
    #[default]
    Anyone,
    Natives,
    Others,
}

impl Who {
    /// Whether an effect for `self` applies to a character native (or not)
    /// to the hazard.
    pub fn applies(self, native: bool) -> bool {
        match self {
            Who::Anyone => true,
            Who::Natives => native,
            Who::Others => !native,
        }
    }
}

/// Where the characters of a strike stand relative to the hazard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum At {
    /// The striker stands in the hazard hex.
    StrikerIn,
    /// The target stands in the hazard hex.
    TargetIn,
    /// The strike crosses the hexside from its top side down.
    StrikingDown,
    /// The strike crosses the hexside from below up.
    StrikingUp,
}

/// When a hazard blocks a rangestrike's line of sight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sight {
    /// Any non-magic rangestrike through the hex or across the hexside.
    Always,
    /// Unless the rangestriker or the target stands on the hexside's top side,
    /// next to it.
    UnlessEndAtop,
    /// Counted over the whole line: crossing one or two such hexsides is clear
    /// when the rangestriker or the target stands atop one of them (or atop
    /// another sight-limiting hexside the line crosses); crossing three, when
    /// both do (Gods of Titan 12.7, hazard chart).
    UnlessEndAtopAny,
    /// Always, but only the rangestrikes of `who`, by the rangestriker's
    /// nativity to this hazard: `For(Others)` blocks non-natives' lines and
    /// lets natives see through (the hex itself may be the target's).
    For(Who),
}

/// Which ends of a line of sight must stand atop (directly on the top side
/// of) the hexsides of one hazard the line crosses ([`Effect::SightCrossed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Atop {
    /// Neither: crossing so many is clear.
    Neither,
    /// The rangestriker or the target stands atop one of them.
    One,
    /// Both stand atop one of them each (an end can stand atop only the
    /// first hexside crossed from it, so: atop the first and the last).
    Both,
}

/// The closed set of hazard effects the engine evaluates in Rust.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// A change to the striker's skill (strike number) or dice in normal strikes.
    Strike {
        at: At,
        #[serde(default)]
        striker: Who,
        #[serde(default)]
        target: Who,
        #[serde(default)]
        skill: i8,
        #[serde(default)]
        dice: i8,
    },
    /// The same for rangestrikes (magic rangestrikes ignore hazards).
    Rangestrike {
        at: At,
        #[serde(default)]
        striker: Who,
        #[serde(default)]
        target: Who,
        #[serde(default)]
        skill: i8,
        #[serde(default)]
        dice: i8,
    },
    /// A change to a rangestriker's skill for each such hex its strike passes
    /// through (not counting its own hex or the target's); for a hexside
    /// hazard, for each such hexside it crosses going up (onto the top side).
    RangestrikeThrough {
        #[serde(default)]
        striker: Who,
        skill: i8,
    },
    /// Blocks the line of sight of non-magic rangestrikes.
    BlocksSight(Sight),
    /// A hexside hazard that limits non-magic lines of sight counted over
    /// the whole line, every `SightCrossed` hazard of the line together:
    /// crossing n of this hazard's hexsides needs `atop[n - 1]` of the ends
    /// (more than listed: blocked). With `not_at_foot`, the end that is not
    /// atop one of them may not stand at its foot either: on the low side of
    /// a hexside of this hazard joined corner to corner with the crossed one.
    /// A line that also crosses a hexside of a `waived_by` hazard is judged by
    /// that hazard's rule alone (this one needs nothing).
    SightCrossed {
        atop: Vec<Atop>,
        #[serde(default)]
        not_at_foot: bool,
        #[serde(default)]
        waived_by: Vec<String>,
    },
    /// Characters on the two sides of this hexside are not in contact.
    NoContact,
    /// A hex hazard: a character of `who` standing in the hex is in contact
    /// with no one (it neither strikes nor is struck in melee, is not held
    /// at the start of its maneuver phase, and may rangestrike).
    NoContactIn(Who),
    /// Damage to a character for each strike phase it spends in the hex.
    Damage {
        #[serde(default)]
        who: Who,
        hits: u8,
    },
    /// Anything the set above cannot say: a Lua hook registered by a script.
    Hook(String),
}

// ---------------------------------------------------------------------------
// Characters
// ---------------------------------------------------------------------------

/// A character of the chart (`characters.ron` is a list of these).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterDef {
    pub name: String,
    pub plural: String,
    /// Dice in a strike. For the character named by `rules.titan`, the power
    /// before points are added.
    pub power: u8,
    pub skill: u8,
    /// A class named in `rules.classes` (lord, demilord, creature, ...).
    pub class: String,
    #[serde(default)]
    pub flies: bool,
    #[serde(default)]
    pub rangestrike: Option<RangestrikeDef>,
    /// Hazards (hex or hexside) this character is native to.
    #[serde(default)]
    pub natives: Vec<String>,
    /// How many counters the caretaker has.
    pub count: u32,
    /// May be summoned into battle from another legion.
    #[serde(default)]
    pub summonable: bool,
    /// Points it is worth; power times skill when absent.
    #[serde(default)]
    pub value: Option<u32>,
    /// Named special abilities, each a Lua hook registered by a script.
    #[serde(default)]
    pub abilities: Vec<String>,
    /// Not counted toward `rules.legions.max_size`: a legion may hold one
    /// more character for each of these.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub uncounted: bool,
    /// At most this many of it in one legion (absent: its class's limit,
    /// else none): Gods of Titan 4.3's two End-Creatures of a type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_legion: Option<u8>,
}

/// How a character rangestrikes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangestrikeDef {
    /// Magic rangestrikes are never blocked, ignore hazards, have no long-range
    /// penalty and may target lords.
    #[serde(default)]
    pub magic: bool,
    pub strength: RangeStrength,
    /// Separate rangestrikes per strike phase (the 1981 Hydra's three heads).
    #[serde(default = "one")]
    pub strikes: u8,
}

/// The number of dice of a rangestrike.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum RangeStrength {
    /// Half the power, rounded down (the 1982 rule).
    HalfPower,
    Power,
    Fixed(u8),
    Hook(String),
}

// ---------------------------------------------------------------------------
// Mustering (the Masterchart)
// ---------------------------------------------------------------------------

/// The mustering table of one terrain (`mustering.ron` is a list of these).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MusterTable {
    pub terrain: String,
    /// A ladder (the Masterchart's normal case): a legion with a character of
    /// a row may muster any character of a lower row. The Tower is no ladder.
    #[serde(default = "yes")]
    pub ladder: bool,
    /// What a legion may do when the caretaker has run out of a row's
    /// character it qualifies for (default `Nothing`).
    #[serde(default, skip_serializing_if = "WhenExhausted::is_nothing")]
    pub when_exhausted: WhenExhausted,
    pub rows: Vec<MusterRow>,
}

/// A mustering table's answer to an exhausted stack.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum WhenExhausted {
    /// Nothing instead (the 1982 game).
    #[default]
    Nothing,
    /// A legion that qualifies for a row whose character has run out may
    /// muster instead the character of any lower row of the table that it
    /// does not already contain, showing what qualified it for the larger
    /// (Law of Titan 1980, 17.E).
    Smaller,
}

impl WhenExhausted {
    fn is_nothing(&self) -> bool {
        *self == WhenExhausted::Nothing
    }
}

/// One character a legion may muster in the terrain, and what it needs.
///
/// A legion may muster it when it already has one (if `like`), when the table
/// is a ladder and it has a character of a higher row, or when any of `needs`
/// holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MusterRow {
    pub character: String,
    #[serde(default)]
    pub needs: Vec<Needs>,
    #[serde(default = "yes")]
    pub like: bool,
    /// Whether, in a ladder table, a legion with a character of a higher row
    /// qualifies (default true). `false` leaves only `like` and `needs`: a
    /// row of Wolves with `ladder: false, like: false, needs:
    /// [Character(name: "Ranger", count: 2)]` is mustered by two Rangers only.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub ladder: bool,
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_zero_i64(n: &i64) -> bool {
    *n == 0
}

/// One way of qualifying to muster a row's character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Needs {
    /// This many of the previous row's character.
    Previous(u8),
    /// Nothing: any legion in the land may muster it.
    Free,
    /// This many identical characters, of a class when given.
    Identical {
        count: u8,
        #[serde(default)]
        class: Option<String>,
    },
    /// This many of a named character.
    Character { name: String, count: u8 },
    /// A Lua hook decides.
    Hook(String),
}

// ---------------------------------------------------------------------------
// The masterboard
// ---------------------------------------------------------------------------

/// `masterboard.ron`: the lands and their signs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MasterboardDef {
    pub lands: Vec<LandDef>,
    /// `true`: a block, arch or arrow need not be answered by a single sign
    /// pointing back, and one that is not leads one way only (boards of
    /// other Titan games, such as Colossus's). Absent or `false`: every one
    /// is answered (Law of Titan 7.D). An extending variant's file may set
    /// it; absent there, the base's stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_way_signs: Option<bool>,
}

/// One land of the masterboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LandDef {
    /// The number printed on the land.
    pub number: u32,
    /// A name to show; "<terrain> <number>" when absent.
    #[serde(default)]
    pub name: Option<String>,
    pub terrain: String,
    /// Place on the drawing grid (see ARCHITECTURE.md, "Masterboard grid").
    pub position: GridPos,
    /// The signs on this land's borders, each pointing to a neighbour.
    pub exits: Vec<ExitDef>,
    /// A passage: no move ends here, and a legion that enters goes on only
    /// by the land's gates (Gods of Titan 9.2: "Sea-Legions, which enter a
    /// Whirl land, are teleported automatically to any other Whirl ... a
    /// Legion may never stand on a Whirl land").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub passage: bool,
}

/// A cell of the masterboard's drawing grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridPos {
    pub x: i32,
    pub y: i32,
}

/// A sign on a land's border, pointing to land `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExitDef {
    pub to: u32,
    pub sign: Sign,
}

/// The kinds of movement sign (Law of Titan 7; reference sheet "Movement Signs").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Sign {
    Block,
    Arch,
    Arrow,
    TripleArrow,
    /// One-way and free: a legion on this land (or passing through it) may
    /// go on to the land the gate leads to without counting it, and moves on
    /// from there as from the start of a move; it never ends a move on the
    /// gate's land by the gate alone (Gods of Titan 8.6: "Moving out of the
    /// City is done with an automatic movement (not counting to the
    /// movement) to any Citytower and from there the actual movement
    /// begins"). A gate into a land held by another player's legion is
    /// closed.
    Gate,
}

impl Sign {
    /// Block, arch and arrow are single symbols, which must be answered by a
    /// single-symbol sign pointing back (Law of Titan 7.D).
    pub fn is_single(self) -> bool {
        !matches!(self, Sign::TripleArrow | Sign::Gate)
    }
}

// ---------------------------------------------------------------------------
// Battlelands
// ---------------------------------------------------------------------------

/// One battleland: one file per terrain, or several numbered by
/// `alternative`, of which each game draws one at its start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattlelandDef {
    pub terrain: String,
    /// Which of its terrain's battlelands this is (1, 2, ...). A terrain
    /// with several draws one of them for each game from the game's seed
    /// (docs/variant-format.md, "Several battlelands of a terrain").
    /// Absent: 1.
    #[serde(default = "first", skip_serializing_if = "is_first")]
    pub alternative: u32,
    /// The board's hexes by label: without `board`, all 27 of Titan's
    /// battleland (A1 ... F4); with it, every hex of that board.
    pub hexes: BTreeMap<String, HexDef>,
    /// The board this battleland stands on; absent: the 27-hex battleland.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardDef>,
    /// Where the attacker always enters, whatever side the legion came from
    /// (the Tower's lower left). Absent: the side matching the masterboard.
    #[serde(default)]
    pub attacker_edge: Option<Edge>,
    /// Where the defender deploys in its first maneuver instead of entering
    /// (the Tower's walled area).
    #[serde(default)]
    pub defender_area: Vec<String>,
}

/// A battle board of any size and shape (docs/variant-format.md, "Boards").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardDef {
    /// Every hex by label, at axial coordinates `(q, r)`: flat-topped
    /// hexes, `q` the column, `r` growing downward along it, so that the
    /// hex above `(q, r)` is `(q, r - 1)` and its upper right neighbour
    /// `(q + 1, r - 1)`. The hexes' ids follow the labels' sorted order.
    pub hexes: BTreeMap<String, (i32, i32)>,
    /// The hexes along each edge, where characters enter by it; an edge
    /// not listed has none (nobody enters by it).
    #[serde(default)]
    pub edges: BTreeMap<Edge, Vec<String>>,
    /// Named sets of hexes a battle procedure refers to (entry sides, the
    /// attacker's and the defender's hexes, numbered hexes).
    #[serde(default)]
    pub zones: BTreeMap<String, Vec<String>>,
}

/// One hex: its hazard, its elevation, and the hexside hazards on its sides
/// for which it is the top side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexDef {
    pub hazard: String,
    #[serde(default)]
    pub elevation: u8,
    #[serde(default)]
    pub sides: BTreeMap<Side, String>,
}

/// The six sides of a battleland hex (hexes are flat-topped, in columns A-F).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    N,
    NE,
    SE,
    S,
    SW,
    NW,
}

impl Side {
    pub const ALL: [Side; 6] = [Side::N, Side::NE, Side::SE, Side::S, Side::SW, Side::NW];

    /// Index 0-5, clockwise from north.
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Side {
        Side::ALL[i % 6]
    }

    pub fn opposite(self) -> Side {
        Side::from_index(self.index() + 3)
    }
}

/// The six edges of a battleland, named from the printed orientation (A on the
/// left, numbers rising upward). The wide (4-hex) edges are NorthWest, East
/// and SouthWest; each faces a narrow (3-hex) one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Edge {
    West,
    NorthWest,
    NorthEast,
    East,
    SouthEast,
    SouthWest,
}

impl Edge {
    pub const ALL: [Edge; 6] = [
        Edge::West,
        Edge::NorthWest,
        Edge::NorthEast,
        Edge::East,
        Edge::SouthEast,
        Edge::SouthWest,
    ];

    pub fn opposite(self) -> Edge {
        match self {
            Edge::West => Edge::East,
            Edge::NorthWest => Edge::SouthEast,
            Edge::NorthEast => Edge::SouthWest,
            Edge::East => Edge::West,
            Edge::SouthEast => Edge::NorthWest,
            Edge::SouthWest => Edge::NorthEast,
        }
    }
}

// ---------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------

/// `rules.ron`: the numbers of the rules. Each section is optional in a file so
/// that a variant extending another can replace one section in a few lines;
/// after merging, every section must be present.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesDef {
    #[serde(default)]
    pub classes: Option<Vec<ClassDef>>,
    #[serde(default)]
    pub legions: Option<LegionRules>,
    #[serde(default)]
    pub start: Option<StartRules>,
    #[serde(default)]
    pub movement: Option<MovementRules>,
    #[serde(default)]
    pub titan: Option<TitanRules>,
    #[serde(default)]
    pub scoring: Option<ScoringRules>,
    #[serde(default)]
    pub strike_chart: Option<StrikeChart>,
    #[serde(default)]
    pub battle: Option<BattleRules>,
    #[serde(default)]
    pub scripts: Option<ScriptLimits>,
}

/// A class of characters and what being of it means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassDef {
    pub name: String,
    /// At most this many of each of its characters in one legion (a
    /// character's own `per_legion` comes first): Gods of Titan 4.3, one of
    /// each character but Creatures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_legion: Option<u8>,
    /// May carry its legion by tower teleport.
    #[serde(default)]
    pub tower_teleport: bool,
    /// Immune to rangestrikes except magic ones.
    #[serde(default)]
    pub rangestrike_immune: bool,
    /// Goes back to the caretaker when slain (else it leaves the game).
    #[serde(default)]
    pub returns_when_slain: bool,
    /// A legion with one of these may not flee.
    #[serde(default)]
    pub forbids_flight: bool,
}

/// Legion sizes and markers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegionRules {
    pub max_size: u8,
    pub markers_per_player: u8,
    /// The fewest characters in each part of a split.
    pub min_split_size: u8,
    /// Into how many legions one may split at once.
    pub max_split_parts: u8,
    /// A legion of `max_size` characters moves and teleports (default
    /// true; false: it stays where it is, as the Law of Titan 1980, 4.E
    /// and 8.D, has it).
    #[serde(default = "yes")]
    pub full_legions_move: bool,
    /// Names of the markers, a list per seat (the first seat's first):
    /// `marker_names[s][n - 1]` labels marker `n` of seat `s`. Optional at
    /// every level: a seat without a list, or a marker past its list's end,
    /// is shown by its number alone. The number stays the marker's
    /// identifier; a name is a label.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marker_names: Vec<Vec<String>>,
    /// Limits on what a player musters in one turn, all his legions
    /// together (Gods of Titan 8.4: "A player may muster only one
    /// End-Creature per Game-Turn"): at most `count` of these characters.
    /// Reinforcements, summons and acquisitions are not musters here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub muster_per_turn: Vec<MusterLimit>,
}

/// How a player starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartRules {
    /// The characters each player starts with, in all.
    pub characters: Vec<Counted>,
    /// Into how many legions they are divided.
    pub legions: u8,
    /// No splitting on a player's first turn.
    pub no_split_first_turn: bool,
    /// The first movement roll may be rolled again once.
    pub mulligan: bool,
    /// The terrain of the land every player starts on, instead of his tower
    /// (Gods of Titan 5.7: "The Titan-Players begin the game in the City");
    /// a shared terrain ([`TerrainDef::shared`]) with one land.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub land: Option<String>,
    /// The starting legions hold as many of each class as each other
    /// (Titan 1982: one lord and three creatures each); `false`: any
    /// division, each legion of at least `legions.min_split_size`.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub even_classes: bool,
    /// Characters that must start in different legions (Gods of Titan 5.7:
    /// "The player's Titan is placed in one Legion and the Elemental is
    /// placed in the other").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apart: Vec<String>,
    /// A tower legion each player starts with on his own tower besides
    /// these, which never moves or splits (Gods of Titan 5.6: "Tower (color
    /// of the Titan-Player): Angel, Gargoyle, Centaur, Ogre ... and
    /// Guardian"; 25.7: "the stationed characters are bound there until
    /// slain").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stationed: Vec<Counted>,
}

/// At most `count` musters of these characters by a player in one turn
/// (`legions.muster_per_turn`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MusterLimit {
    pub characters: Vec<String>,
    pub count: u8,
}

/// A number of one character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counted {
    pub character: String,
    pub count: u8,
}

/// Movement on the masterboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementRules {
    /// Sides of the movement die.
    pub die: u8,
    #[serde(default)]
    pub tower_teleport: Option<TowerTeleport>,
    #[serde(default)]
    pub titan_teleport: Option<TitanTeleport>,
    /// Teleports allowed in one movement phase.
    pub teleports_per_turn: u8,
    /// The mover chooses the distance, 1 to `die`, instead of rolling it
    /// (as in Gods of Titan).
    #[serde(default)]
    pub chosen_distance: bool,
    /// Each legion moves a distance of its own, 1 to `die` (Gods of Titan
    /// 8.4, "Each Legion may move a differently distance"): no roll; every
    /// legion's moves of every distance are listed, and a legion is taken to
    /// have moved a distance in `muster_distances` when one reaches its
    /// land, else the longest that does.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub per_legion: bool,
    /// Every legion that can move must move (Gods of Titan 8.4), but for
    /// those this exempts; without it, one legion must move when any can.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub must_move: Option<MustMove>,
    /// The distances moved after which a legion may muster from its land's
    /// mustering table (Gods of Titan 8.4: "only if it moved either 3, 4 or
    /// 5 lands"); empty: after any move or teleport. A teleported legion has
    /// moved no distance. Other musters (reinforcements, acquiring) are not
    /// affected.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub muster_distances: Vec<u8>,
    /// Through this game turn no engagement happens on the masterboard:
    /// legions pass through other players' legions and may stand with them,
    /// though never with another of their own (Gods of Titan 8.3: "Until
    /// the 10th Game-Turn no Engagement is allowed"; DE: "Bis zum Ende der
    /// 10. Spielrunde"). 0: none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub treaty_turns: u32,
    /// At most this many of a player's legions stand on shared lands, all
    /// together, at the end of his movement (Gods of Titan 8.6: "Players may
    /// never have more than one Legion in City and Dungeon together at the
    /// end of their Movement Phase").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_limit: Option<u8>,
    /// Lands some legions may neither enter nor cross (Gods of Titan 3.10:
    /// the Sea and its creatures).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keep_out: Vec<KeepOut>,
    /// Two legions of different players that each hold a character having
    /// one of these words (its name, class or an ability) never engage:
    /// they pass through each other and may stand together (Gods of Titan
    /// 8.3: "The non-aggression Treaty rule applies to Sea-Legions during
    /// the entire game ... enemy Sea-Legions can't face each other in an
    /// Engagement, but can engage Land-Legions").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub truce: Vec<String>,
}

/// A rule keeping legions out of lands (`rules.movement.keep_out`): the
/// lands of `terrains` (or of every terrain but `except_terrains`) are
/// closed to a legion holding a character that has one of `having`, or
/// one that has none of `lacking`, unless it holds a character that has
/// one of `unless_legion_has`. A character "has" a word that is its name,
/// its class's name, or one of its abilities (`"flag:sea_only"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeepOut {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrains: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except_terrains: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub having: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lacking: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unless_legion_has: Vec<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Which legions need not move where every legion must
/// (`rules.movement.must_move`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MustMove {
    /// A legion on the tower its player started in.
    #[serde(default)]
    pub except_own_tower: bool,
    /// A legion on a land of one of these terrains.
    #[serde(default)]
    pub except_terrains: Vec<String>,
}

impl MustMove {
    /// Whether a legion on a land of `terrain` (on its player's own
    /// starting tower or not) need not move.
    pub fn exempts(&self, terrain: &str, own_tower: bool) -> bool {
        (self.except_own_tower && own_tower) || self.except_terrains.iter().any(|t| t == terrain)
    }
}

impl MovementRules {
    /// Whether a legion that moved `distance` lands (None: teleported) may
    /// muster from its land's table (`muster_distances`).
    pub fn musters_after(&self, distance: Option<u8>) -> bool {
        self.muster_distances.is_empty()
            || distance.is_some_and(|d| self.muster_distances.contains(&d))
    }
}

/// Tower teleport: a legion with a character of a class that may teleport,
/// starting in a tower, on this roll, to any vacant tower or vacant land
/// within `range` lands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TowerTeleport {
    pub roll: u8,
    pub range: u8,
}

/// Titan teleport: from this score, on this roll, onto an enemy legion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TitanTeleport {
    pub roll: u8,
    pub min_score: u32,
}

/// The player's own lord whose death ends the player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TitanRules {
    pub character: String,
    /// Power is base + one per `points_per_power` points scored. The base is
    /// the character's `power` in `characters.ron` (one source of truth);
    /// given here too, it must be the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_power: Option<u8>,
    pub points_per_power: u32,
    /// How many Titans a player may have at once (default 1): what a
    /// script may take from the caretaker (`ctx:add_character`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_player: Option<u8>,
}

/// Scoring and acquiring.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoringRules {
    /// A fleeing legion scores this part of its value (numerator, denominator),
    /// rounded down.
    pub flee_fraction: (u32, u32),
    /// Characters acquired each time the score passes a multiple of `every`;
    /// a larger step replaces a smaller one reached at the same time.
    pub acquire: Vec<Acquire>,
    /// What the legions of a player who leaves the game (a slain Titan, a
    /// concession) score, and to whom (default: the Avalon Hill game of
    /// 1982).
    #[serde(default)]
    pub left_legions: LeftLegions,
}

/// The scoring of a player's legions when he leaves the game. They never
/// earn acquirable characters: they only raise the slayer's score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LeftLegions {
    /// The part of each legion's value scored (numerator, denominator),
    /// rounded down per legion: (1, 2) in the 1982 game (reference sheet,
    /// "Titans"), (1, 1) in the Law of Titan 1980, 18.B.
    pub fraction: (u32, u32),
    /// A legion in an unresolved engagement scores to that engagement's
    /// opponent (true, 1982) or, as the rest, to the slayer (false, 1980:
    /// "all of the eliminated player's other Legions are totaled").
    pub engaged_to_opponent: bool,
    /// A player who concedes the game while his Titan's legion is engaged
    /// (in the engagement being resolved or one waiting on its land) counts
    /// as slain by that legion's opponent, who scores his legions and takes
    /// his markers (Law of Titan 1980, 20). Otherwise a concession has no
    /// slayer.
    pub engaged_concession_is_slain: bool,
}

impl Default for LeftLegions {
    fn default() -> LeftLegions {
        LeftLegions {
            fraction: (1, 2),
            engaged_to_opponent: true,
            engaged_concession_is_slain: false,
        }
    }
}

/// One acquirable character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Acquire {
    pub character: String,
    pub every: u32,
    /// Only a legion in a land of one of these terrains acquires it (none:
    /// any land).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrains: Vec<String>,
}

/// The strike chart: strike number = base + target skill - striker skill,
/// bounded to `min..=max`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrikeChart {
    pub base: i8,
    pub min: u8,
    pub max: u8,
}

/// Battle numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleRules {
    /// The attacker loses by time if the battle lasts into the defender's
    /// maneuver phase after this many.
    pub defender_maneuvers: u8,
    /// The defender's maneuver phase in which it may take a reinforcement.
    pub reinforcement_maneuver: u8,
    /// The longest rangestrike, counting both ends.
    pub max_range: u8,
    /// From this range on, the rangestriker's skill changes by
    /// `long_range_skill` (non-magic rangestrikes).
    pub long_range: u8,
    pub long_range_skill: i8,
    /// The edges on which an attacker may enter; the defender enters on the
    /// opposite edge.
    pub attacker_edges: Vec<Edge>,
    /// The narrow edge that carries the battleland's name, which lies on the
    /// land's numbered corner (Law of the Battlelands 25.A, 25.B); attackers
    /// enter by the edge as far round from it as the border they crossed is
    /// from that corner (default `NorthEast`).
    #[serde(default = "north_east")]
    pub name_side: Edge,
    /// A hex higher than both ends of a rangestrike blocks its line of sight
    /// (default true; the Avalon Hill reading of the hills and mountains).
    #[serde(default = "yes")]
    pub elevation_blocks_sight: bool,
    /// How the battle's rounds go and characters move (default: the Avalon
    /// Hill game of 1982).
    #[serde(default)]
    pub procedure: Procedure,
    /// A battle of one player against all the others, which scripts begin
    /// (`ctx:begin_showdown`); none without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub showdown: Option<Showdown>,
}

fn north_east() -> Edge {
    Edge::NorthEast
}

/// Limits on variant scripts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptLimits {
    pub memory_mib: u32,
    pub instructions_per_call: u64,
}

// ---------------------------------------------------------------------------
// A whole variant, merged
// ---------------------------------------------------------------------------

/// Everything a variant says once its `extends` chain is merged: the input of
/// [`compile`](crate::compile) and what is written back by
/// [`write_flat`](crate::write_flat).
#[derive(Debug, Clone, PartialEq)]
pub struct VariantData {
    pub manifest: Manifest,
    pub terrains: Vec<TerrainDef>,
    pub hazards: Vec<HazardDef>,
    pub characters: Vec<CharacterDef>,
    pub mustering: Vec<MusterTable>,
    pub masterboard: MasterboardDef,
    pub battlelands: Vec<BattlelandDef>,
    pub rules: RulesDef,
    pub scripts: Vec<ScriptSource>,
    pub variables: Vec<VariableDef>,
    pub actions: Vec<ActionDef>,
}

// ---------------------------------------------------------------------------
// Script state and script actions
// ---------------------------------------------------------------------------

/// What a variable belongs to: one value per game, player, legion, character
/// in a legion, land, or character in a battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum VarScope {
    Game,
    Player,
    Legion,
    /// A character of a legion (all of one kind in a legion share it).
    Character,
    Land,
    /// A character in the battle being fought; gone when the battle ends.
    Unit,
}

/// The type of a variable's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum VarType {
    Int,
    Bool,
    Text,
    /// A list of names.
    Names,
}

/// A value of a variable.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum VarValue {
    Int(i64),
    Bool(bool),
    Text(String),
    Names(Vec<String>),
}

impl VarValue {
    pub fn var_type(&self) -> VarType {
        match self {
            VarValue::Int(_) => VarType::Int,
            VarValue::Bool(_) => VarType::Bool,
            VarValue::Text(_) => VarType::Text,
            VarValue::Names(_) => VarType::Names,
        }
    }
}

/// Who sees a variable's values in views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Visibility {
    #[default]
    Everyone,
    /// The player who owns what it belongs to (nobody for the game and lands).
    Owner,
    Nobody,
}

/// One variable of `variables.ron`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariableDef {
    pub name: String,
    pub scope: VarScope,
    #[serde(rename = "type")]
    pub kind: VarType,
    /// The value of everything that has not been given one (not stored).
    pub default: VarValue,
    #[serde(default)]
    pub visibility: Visibility,
    #[serde(default)]
    pub description: String,
}

/// When a script action may be taken: in a masterplay phase by the player
/// whose turn it is, or in a battle phase by the side to act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ActionWhen {
    Split,
    Move,
    Engage,
    Muster,
    Maneuver,
    /// A strike phase, by either side: the side whose maneuver phase
    /// preceded it striking, or the other side striking back.
    Strike,
    /// A strike phase by the side whose maneuver phase preceded it, not by
    /// the side striking back.
    OwnStrike,
    /// A strike phase by the side striking back.
    StrikeBack,
}

impl ActionWhen {
    pub fn in_battle(self) -> bool {
        matches!(
            self,
            ActionWhen::Maneuver
                | ActionWhen::Strike
                | ActionWhen::OwnStrike
                | ActionWhen::StrikeBack
        )
    }

    /// Whether an action declared for `self` may be taken in the battle
    /// phase `now` (`Maneuver` or `Strike`) by a side that is (`moving`)
    /// or is not the side whose maneuver phase preceded it.
    pub fn fits_battle(self, now: ActionWhen, moving: bool) -> bool {
        match self {
            ActionWhen::OwnStrike => now == ActionWhen::Strike && moving,
            ActionWhen::StrikeBack => now == ActionWhen::Strike && !moving,
            when => when == now,
        }
    }
}

/// Who takes a script action: the player (masterplay), or a unit of the
/// side to act (battle) whose character has a class or is one of a list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionWho {
    Player,
    AnyUnit,
    Class(String),
    Characters(Vec<String>),
}

/// The kind of a parameter of a script action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ParamKind {
    Unit,
    Hex,
    Legion,
    Land,
    Character,
    Number,
}

/// One parameter of a script action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamDef {
    pub name: String,
    pub kind: ParamKind,
    #[serde(default)]
    pub label: String,
}

/// How often a script action may be taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum LimitPer {
    /// Per unit and battle (a `Unit` variable).
    Battle,
    /// Per player and turn (a `Player` variable, reset when his turn begins).
    Turn,
    /// Per player and game (a `Player` variable).
    Game,
}

/// A limit, counted in an integer variable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionLimit {
    pub per: LimitPer,
    pub times: u32,
    pub variable: String,
}

/// A cost: `amount` of an integer variable of the acting player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionCost {
    pub variable: String,
    pub amount: i64,
}

/// One action of `actions.ron`; its script registers
/// `titan.action(name, { legal = fn, apply = fn })`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionDef {
    pub name: String,
    pub label: String,
    #[serde(default)]
    pub description: String,
    pub who: ActionWho,
    pub when: ActionWhen,
    #[serde(default)]
    pub parameters: Vec<ParamDef>,
    #[serde(default)]
    pub limit: Option<ActionLimit>,
    #[serde(default)]
    pub cost: Option<ActionCost>,
    /// What must hold before the engine asks the action's `legal` (battle
    /// actions): checked in Rust, so that `legal` is not called when it
    /// could offer nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires: Option<ActionRequires>,
    /// What the computer players make of it (masterplay actions only);
    /// without it they take it only when nothing else is scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai: Option<ActionAi>,
}

/// `requires` of a battle action: the acting unit is as `actor` says, and
/// no unit of the battle is as one of `none` says. When they fail the
/// action is not offered (nor its script asked), and taking it is refused.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRequires {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<UnitCondition>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub none: Vec<UnitCondition>,
    /// Masterplay actions: the acting player has a legion on a land of one
    /// of these terrains.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub legion_on: Vec<String>,
    /// Masterplay actions: a legion of the acting player holds another value
    /// than its default in this `Legion` variable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legion_set: Option<String>,
}

/// A unit as `requires` asks for it: every field given holds (the words
/// of `ctx:units` and of handlers' unit filters).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitCondition {
    /// One of these characters (empty: any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub character: Vec<String>,
    /// Of one of these classes (empty: any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub class: Vec<String>,
    /// "own": of the acting unit's side; "enemy": of the other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Its status word ("waiting", "on_board", "riding", ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alive: Option<bool>,
    /// A `Unit` variable of its that holds another value than its default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<String>,
    /// Its skill (as `ctx:unit_field(id, "skill")` reads it) is at least this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_skill: Option<u8>,
}

/// What a computer player (`simple`, `strong`) makes of a masterplay
/// action of `actions.ron` (docs/scripting.md, "Actions"; docs/ai.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionAi {
    /// Scored this much beside the engine's actions, which score ending a
    /// phase 0 and a muster 1 plus the recruit's worth (power times skill,
    /// a quarter more for a rangestriker, a tenth more for a flier).
    Worth(i64),
    /// It adds the character its `Character` parameter `character` names
    /// to the legion its `Legion` parameter `legion` names (a hire, a
    /// summon from the caretaker): scored as mustering that character into
    /// that legion. When it is offered to legions standing on lands of
    /// `terrains`, moved or not, the masterboard players count such a land
    /// `worth` more to a legion with room, as a muster there (their
    /// estimate of what it would recruit).
    Recruit {
        legion: String,
        character: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        terrains: Vec<String>,
        #[serde(default, skip_serializing_if = "is_zero_i64")]
        worth: i64,
    },
}

/// One Lua file of a variant, named as it should appear in error messages
/// (e.g. "variants/titan/hooks.lua").
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ScriptSource {
    pub name: String,
    pub code: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_option_is_called_by_its_label_else_its_name_in_words() {
        let text = r#"(name: "point_limit", description: "", default: Int(0))"#;
        let mut o: RuleOption = crate::load::ron_options().from_str(text).unwrap();
        assert_eq!(o.label, None);
        assert_eq!(o.title(), "Point limit");
        o.label = Some("Points to win".into());
        assert_eq!(o.title(), "Points to win");
        // Written back without a label when it has none.
        o.label = None;
        assert!(!crate::write::to_ron(&o).unwrap().contains("label"));
    }

    #[test]
    fn a_battle_action_fits_its_phase_and_side() {
        use ActionWhen::*;
        // (declared, phase now, the side to act moved before it, fits)
        for (when, now, moving, fits) in [
            (Strike, Strike, true, true),
            (Strike, Strike, false, true),
            (OwnStrike, Strike, true, true),
            (OwnStrike, Strike, false, false),
            (StrikeBack, Strike, false, true),
            (StrikeBack, Strike, true, false),
            (OwnStrike, Maneuver, true, false),
            (Maneuver, Maneuver, true, true),
            (Maneuver, Strike, true, false),
        ] {
            assert_eq!(
                when.fits_battle(now, moving),
                fits,
                "{when:?} {now:?} {moving}"
            );
        }
        assert!(OwnStrike.in_battle() && StrikeBack.in_battle() && !Muster.in_battle());
    }

    #[test]
    fn colours_round_trip() {
        let c: Rgb = "#0a1B2c".parse().unwrap();
        assert_eq!(c, Rgb([0x0a, 0x1b, 0x2c]));
        assert_eq!(c.to_string(), "#0a1b2c");
        assert!("0a1b2c".parse::<Rgb>().is_err());
        assert!("#0a1b2".parse::<Rgb>().is_err());
        assert!("#zzzzzz".parse::<Rgb>().is_err());
    }

    #[test]
    fn sides_and_edges_oppose() {
        for s in Side::ALL {
            assert_eq!(s.opposite().opposite(), s);
            assert_ne!(s.opposite(), s);
        }
        for e in Edge::ALL {
            assert_eq!(e.opposite().opposite(), e);
        }
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let err = ron::from_str::<ExitDef>("(to: 3, sign: Arch, colour: 1)").unwrap_err();
        assert!(err.to_string().contains("colour"), "{err}");
    }
}
