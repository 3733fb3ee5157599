//! The compiled variant: what the engine plays on.
//!
//! Every name of the files is resolved to a small id once, at load; the engine
//! indexes vectors with these ids and never compares strings. Names are kept
//! only to show them to people.

use std::collections::HashMap;
use std::sync::Arc;

use petgraph::graph::DiGraph;
use petgraph::visit::EdgeRef;

use crate::battleland::Battleland;

pub mod movement;
pub mod muster;
pub mod sight;
pub mod tables;
use crate::format::ScriptSource;
use crate::format::{
    At, Atop, GridPos, Move, Movement, OptionValue, Place, PlayerCount, Rgb, RuleOption, Sight,
    Sign, VariantData, Who,
};

pub use crate::ids::{
    CharacterId, ClassId, HazardId, HazardSet, HookId, LandId, MAX_HAZARDS, TerrainId,
};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terrain {
    pub name: String,
    pub color: Rgb,
    pub tower: bool,
    /// Several players' legions may stand here unengaged ([`crate::format::TerrainDef::shared`]).
    pub shared: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hazard {
    pub name: String,
    pub place: Place,
    pub color: Rgb,
    pub movement: Movement,
    pub effects: Vec<Effect>,
}

/// A hazard effect with its hook resolved (see [`crate::format::Effect`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Strike {
        at: At,
        striker: Who,
        target: Who,
        skill: i8,
        dice: i8,
    },
    Rangestrike {
        at: At,
        striker: Who,
        target: Who,
        skill: i8,
        dice: i8,
    },
    RangestrikeThrough {
        striker: Who,
        skill: i8,
    },
    BlocksSight(Sight),
    SightCrossed {
        atop: Vec<Atop>,
        not_at_foot: bool,
        waived_by: HazardSet,
    },
    NoContact,
    NoContactIn(Who),
    Damage {
        who: Who,
        hits: u8,
    },
    Hook(HookId),
}

impl Hazard {
    /// The movement effect of this hazard on a character.
    pub fn movement_for(&self, flying: bool, native: bool) -> Move {
        let passage = if flying {
            self.movement.flying
        } else {
            self.movement.ground
        };
        if native {
            passage.natives
        } else {
            passage.others
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    pub name: String,
    pub tower_teleport: bool,
    pub rangestrike_immune: bool,
    pub returns_when_slain: bool,
    pub forbids_flight: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Character {
    pub name: String,
    pub plural: String,
    pub power: u8,
    pub skill: u8,
    pub class: ClassId,
    pub flies: bool,
    pub rangestrike: Option<Rangestrike>,
    pub natives: HazardSet,
    pub count: u32,
    pub summonable: bool,
    pub value: u32,
    pub abilities: Vec<HookId>,
    /// Not counted toward `rules.legions.max_size`.
    pub uncounted: bool,
    /// At most this many of it in one legion (its own limit, else its
    /// class's; `None`: no limit).
    pub per_legion: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rangestrike {
    pub magic: bool,
    pub strength: RangeStrength,
    pub strikes: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeStrength {
    HalfPower,
    Power,
    Fixed(u8),
    Hook(HookId),
}

/// Who may take a script action, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionWho {
    Player,
    AnyUnit,
    Class(ClassId),
    Characters(Vec<CharacterId>),
}

/// A script action of `actions.ron`, compiled.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptAction {
    pub def: crate::format::ActionDef,
    pub who: ActionWho,
    /// `def.requires` with its names resolved.
    pub requires: Option<Requires>,
}

/// An action's `requires` (`crate::format::ActionRequires`) with ids.
#[derive(Debug, Clone, PartialEq)]
pub struct Requires {
    pub actor: Option<UnitCheck>,
    pub none: Vec<UnitCheck>,
    /// Masterplay: the actor has a legion on a land of one of these.
    pub legion_on: Vec<TerrainId>,
    /// Masterplay: a legion of the actor's has this `Legion` variable set.
    pub legion_set: Option<crate::format::VariableDef>,
}

/// A `crate::format::UnitCondition` with ids; `status` is the index of
/// its word in `script::STATUS_WORDS`.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitCheck {
    pub characters: Vec<CharacterId>,
    pub classes: Vec<ClassId>,
    /// Of the acting unit's side (true) or the other's (false).
    pub own_side: Option<bool>,
    pub status: Option<u8>,
    pub alive: Option<bool>,
    pub set: Option<crate::format::VariableDef>,
    pub min_skill: Option<u8>,
}

impl ScriptAction {
    /// The hook that lists its possible arguments.
    pub fn legal_hook(&self) -> String {
        format!("action:{}:legal", self.def.name)
    }
    /// The hook that requests its effects.
    pub fn apply_hook(&self) -> String {
        format!("action:{}:apply", self.def.name)
    }
    /// Whether a unit of this character may take it.
    pub fn unit_may(&self, v: &Variant, c: CharacterId) -> bool {
        match &self.who {
            ActionWho::Player => false,
            ActionWho::AnyUnit => true,
            ActionWho::Class(k) => v.character(c).class == *k,
            ActionWho::Characters(list) => list.contains(&c),
        }
    }
}

/// The mustering table of a terrain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MusterTable {
    pub ladder: bool,
    pub when_exhausted: crate::format::WhenExhausted,
    pub rows: Vec<MusterRow>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MusterRow {
    pub character: CharacterId,
    pub needs: Vec<Needs>,
    pub like: bool,
    /// Holders of a higher row's character qualify (in a ladder table).
    pub ladder: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    Previous(u8),
    Free,
    Identical { count: u8, class: Option<ClassId> },
    Character { character: CharacterId, count: u8 },
    Hook(HookId),
}

/// A land of the masterboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Land {
    pub number: u32,
    pub name: String,
    pub terrain: TerrainId,
    pub position: GridPos,
    /// No move ends here; left by its gates only ([`crate::format::LandDef::passage`]).
    pub passage: bool,
}

/// The masterboard: lands as nodes, signs as directed edges from the land
/// that carries the sign to the land it points to.
#[derive(Debug, Clone)]
pub struct Masterboard {
    pub graph: DiGraph<Land, Sign, u32>,
    by_number: HashMap<u32, LandId>,
}

impl Masterboard {
    pub fn new(graph: DiGraph<Land, Sign, u32>) -> Self {
        let by_number = graph.node_indices().map(|i| (graph[i].number, i)).collect();
        Masterboard { graph, by_number }
    }

    /// The land printed with `number`.
    pub fn by_number(&self, number: u32) -> Option<LandId> {
        self.by_number.get(&number).copied()
    }

    pub fn land(&self, id: LandId) -> &Land {
        &self.graph[id]
    }

    pub fn lands(&self) -> impl Iterator<Item = LandId> + '_ {
        self.graph.node_indices()
    }

    pub fn land_count(&self) -> usize {
        self.graph.node_count()
    }

    pub fn exit_count(&self) -> usize {
        self.graph.edge_count()
    }

    /// The signs on a land's borders: (sign, land it points to).
    pub fn exits(&self, id: LandId) -> impl Iterator<Item = (Sign, LandId)> + '_ {
        self.graph.edges(id).map(|e| (*e.weight(), e.target()))
    }

    /// Lands and exits as plain data, ordered, for comparing boards.
    fn shape(&self) -> Vec<(&Land, Vec<(Sign, u32)>)> {
        let mut lands: Vec<_> = self
            .lands()
            .map(|id| {
                let mut exits: Vec<(Sign, u32)> = self
                    .exits(id)
                    .map(|(s, to)| (s, self.land(to).number))
                    .collect();
                exits.sort();
                (self.land(id), exits)
            })
            .collect();
        lands.sort_by_key(|(l, _)| l.number);
        lands
    }
}

impl PartialEq for Masterboard {
    fn eq(&self, other: &Self) -> bool {
        self.shape() == other.shape()
    }
}

/// The rules' numbers, with names resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    pub legions: crate::format::LegionRules,
    pub start: StartRules,
    pub movement: crate::format::MovementRules,
    pub titan: TitanRules,
    pub scoring: ScoringRules,
    pub strike_chart: crate::format::StrikeChart,
    pub battle: crate::format::BattleRules,
    pub scripts: crate::format::ScriptLimits,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartRules {
    pub characters: Vec<(CharacterId, u8)>,
    pub legions: u8,
    pub no_split_first_turn: bool,
    pub mulligan: bool,
    /// Every player starts on the (first) land of this terrain, not his
    /// tower.
    pub land: Option<TerrainId>,
    pub even_classes: bool,
    /// Characters each in a different starting legion.
    pub apart: Vec<CharacterId>,
    /// The tower legion each player starts with on his tower.
    pub stationed: Vec<(CharacterId, u8)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TitanRules {
    pub character: CharacterId,
    pub base_power: u8,
    pub points_per_power: u32,
    /// How many Titans a player may have at once.
    pub per_player: u8,
}

/// A character acquired each time a score passes a multiple of `every`, by
/// a legion in a land of one of `terrains` (empty: any).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Acquirable {
    pub character: CharacterId,
    pub every: u32,
    pub terrains: Vec<TerrainId>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoringRules {
    pub flee_fraction: (u32, u32),
    pub acquire: Vec<Acquirable>,
    pub left_legions: crate::format::LeftLegions,
}

impl crate::format::StrikeChart {
    /// The strike number for a striker of skill `striker` against a target of
    /// skill `target` (skills after hazard changes).
    ///
    /// ```
    /// use titan_core::format::StrikeChart;
    /// let chart = StrikeChart { base: 4, min: 1, max: 6 };
    /// assert_eq!(chart.strike_number(4, 2), 2);
    /// assert_eq!(chart.strike_number(2, 4), 6);
    /// assert_eq!(chart.strike_number(3, 3), 4);
    /// ```
    pub fn strike_number(&self, striker: i32, target: i32) -> u8 {
        let n = i32::from(self.base) + target - striker;
        n.clamp(i32::from(self.min), i32::from(self.max)) as u8
    }
}

/// A loaded, validated variant.
#[derive(Debug, Clone)]
pub struct Variant {
    pub id: String,
    pub title: String,
    pub version: String,
    pub description: String,
    pub players: PlayerCount,
    /// The variants this one extends, nearest first.
    pub extends: Vec<String>,
    pub options: Vec<RuleOption>,
    pub terrains: Vec<Terrain>,
    pub hazards: Vec<Hazard>,
    pub classes: Vec<Class>,
    pub characters: Vec<Character>,
    /// Indexed by [`TerrainId`].
    pub mustering: Vec<MusterTable>,
    pub board: Masterboard,
    /// Indexed by [`TerrainId`]: each terrain's battleland (in a game's
    /// variant, the one the game drew among its [`Variant::alternatives`]).
    pub battlelands: Vec<Battleland>,
    /// The battlelands of terrains that have several, among which each
    /// game draws one (see [`Variant::with_drawn`]).
    pub alternatives: Arc<Alternatives>,
    /// The alternative each terrain's battleland is, by terrain (0: the
    /// first); empty when no terrain has several.
    pub drawn: Vec<u8>,
    pub rules: Rules,
    pub scripts: Vec<ScriptSource>,
    /// The hooks the scripts register, sorted; [`HookId`] indexes this.
    pub hooks: Vec<String>,
    /// The variables the engine keeps for the scripts (`variables.ron`).
    pub variables: Vec<crate::format::VariableDef>,
    /// The actions the scripts define (`actions.ron`).
    pub actions: Vec<ScriptAction>,
    /// The merged files this variant was compiled from (in a game's
    /// variant, the battlelands are the ones it drew, one per terrain).
    pub data: VariantData,
    /// Derived from the above when compiled: the battle's lookup tables.
    pub battle_tables: tables::BattleTables,
    /// The Lua chunks the first VM of this variant compiled (its scripts
    /// and the engine's), for the next VMs: a game, each battle played
    /// alone and each computer player's search start one.
    pub chunks: crate::lua::Chunks,
}

/// The battlelands of the terrains that have several (files with an
/// `alternative` number), compiled with their tables.
#[derive(Clone, Default)]
pub struct Alternatives {
    /// By terrain: its battlelands in order of `alternative`; empty for a
    /// terrain with one.
    pub lands: Vec<Vec<Battleland>>,
    /// The same, as their files say them.
    pub defs: Vec<Vec<crate::format::BattlelandDef>>,
    /// The same, their battle tables.
    pub tables: Vec<Vec<tables::LandTables>>,
}

/// The tables are derived from the battlelands, and too big to print.
impl std::fmt::Debug for Alternatives {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Alternatives")
            .field("lands", &self.lands)
            .finish_non_exhaustive()
    }
}

/// Two variants are equal when they play the same: the files they came from
/// and the names of their scripts' files do not matter, only what they say.
impl PartialEq for Variant {
    fn eq(&self, o: &Self) -> bool {
        let code = |v: &Variant| v.scripts.iter().map(|s| s.code.clone()).collect::<Vec<_>>();
        self.id == o.id
            && self.title == o.title
            && self.version == o.version
            && self.description == o.description
            && self.players == o.players
            && self.options == o.options
            && self.terrains == o.terrains
            && self.hazards == o.hazards
            && self.classes == o.classes
            && self.characters == o.characters
            && self.mustering == o.mustering
            && self.board == o.board
            && self.battlelands == o.battlelands
            && self.alternatives.lands == o.alternatives.lands
            && self.drawn == o.drawn
            && self.rules == o.rules
            && code(self) == code(o)
            && self.hooks == o.hooks
            && self.variables == o.variables
            && self.actions == o.actions
    }
}

impl Variant {
    /// Whether `land` is shared: several players' legions stand in it
    /// unengaged ([`crate::format::TerrainDef::shared`]).
    pub fn is_shared(&self, land: LandId) -> bool {
        self.terrains[self.board.land(land).terrain.index()].shared
    }

    /// Whether no engagement happens on the masterboard in game turn `turn`
    /// (`rules.movement.treaty_turns`).
    pub fn at_peace(&self, turn: u32) -> bool {
        turn <= self.rules.movement.treaty_turns
    }

    /// The name the variant gives a legion marker
    /// (`rules.legions.marker_names`), when it gives one: a label shown
    /// beside the marker's number, which stays its identifier.
    pub fn marker_name(&self, m: crate::ids::Marker) -> Option<&str> {
        let index = usize::from(m.number).checked_sub(1)?;
        self.rules
            .legions
            .marker_names
            .get(usize::from(m.player.0))?
            .get(index)
            .map(String::as_str)
    }

    /// A marker as players read it: its number, and its name beside it when
    /// the variant names it (`P1-03 (Die)`).
    pub fn marker_label(&self, m: crate::ids::Marker) -> String {
        match self.marker_name(m) {
            Some(name) => format!("{m} ({name})"),
            None => m.to_string(),
        }
    }

    pub fn terrain_by_name(&self, name: &str) -> Option<TerrainId> {
        self.terrains
            .iter()
            .position(|t| t.name == name)
            .map(|i| TerrainId(i as u8))
    }

    pub fn character_by_name(&self, name: &str) -> Option<CharacterId> {
        self.characters
            .iter()
            .position(|c| c.name == name)
            .map(|i| CharacterId(i as u16))
    }

    pub fn hazard_by_name(&self, name: &str) -> Option<HazardId> {
        self.hazards
            .iter()
            .position(|h| h.name == name)
            .map(|i| HazardId(i as u8))
    }

    /// A script action, by name.
    pub fn script_action(&self, name: &str) -> Option<&ScriptAction> {
        self.actions.iter().find(|a| a.def.name == name)
    }

    /// A declared variable, by name.
    pub fn variable(&self, name: &str) -> Option<&crate::format::VariableDef> {
        self.variables.iter().find(|v| v.name == name)
    }

    /// The size of a legion of `characters` as `rules.legions.max_size`
    /// counts it: every character but the `uncounted`.
    pub fn legion_size(&self, characters: impl IntoIterator<Item = CharacterId>) -> usize {
        characters
            .into_iter()
            .filter(|&c| !self.character(c).uncounted)
            .count()
    }

    /// May a legion of `characters` take one more `c`: below its
    /// `per_legion` limit, if it has one?
    pub fn room_for(&self, characters: &[CharacterId], c: CharacterId) -> bool {
        self.character(c)
            .per_legion
            .is_none_or(|n| characters.iter().filter(|&&x| x == c).count() < usize::from(n))
    }

    pub fn character(&self, id: CharacterId) -> &Character {
        &self.characters[id.index()]
    }

    pub fn hazard(&self, id: HazardId) -> &Hazard {
        &self.hazards[id.index()]
    }

    pub fn class(&self, id: ClassId) -> &Class {
        &self.classes[id.index()]
    }

    pub fn battleland(&self, terrain: TerrainId) -> &Battleland {
        &self.battlelands[terrain.index()]
    }

    /// Whether some terrain has several battlelands to draw from.
    pub fn has_alternatives(&self) -> bool {
        self.alternatives.lands.iter().any(|l| !l.is_empty())
    }

    /// How many battlelands `terrain` draws among (1 for most).
    pub fn alternative_count(&self, terrain: TerrainId) -> usize {
        self.alternatives
            .lands
            .get(terrain.index())
            .map_or(1, |l| l.len().max(1))
    }

    /// This variant as a game plays it that drew, for each terrain, its
    /// battleland number `drawn[terrain]` (from 0) among its alternatives:
    /// its battlelands, their tables and the battleland files of `data`
    /// are the drawn ones. An empty `drawn` is the first of each. A
    /// variant without alternatives takes only an empty `drawn`, and is
    /// returned as it is, as is a game's variant that holds the draw.
    pub fn with_drawn(self: &Arc<Variant>, drawn: &[u8]) -> Result<Arc<Variant>, String> {
        let alt = &self.alternatives;
        if !self.has_alternatives() {
            return match drawn {
                [] => Ok(Arc::clone(self)),
                _ => Err(format!(
                    "{} has one battleland per terrain, and draws none",
                    self.id
                )),
            };
        }
        let n = self.terrains.len();
        let want: Vec<u8> = if drawn.is_empty() {
            vec![0; n]
        } else {
            drawn.to_vec()
        };
        if want.len() != n {
            return Err(format!(
                "{} has {n} terrains, not {} drawn battlelands",
                self.id,
                want.len()
            ));
        }
        for (t, &k) in want.iter().enumerate() {
            let count = self.alternative_count(TerrainId(t as u8));
            if usize::from(k) >= count {
                return Err(format!(
                    "{} has {count} battlelands of {}, not a number {}",
                    self.id,
                    self.terrains[t].name,
                    u32::from(k) + 1
                ));
            }
        }
        if self.drawn == want {
            return Ok(Arc::clone(self));
        }
        let mut v = (**self).clone();
        v.data.battlelands.clear();
        for (t, &k) in want.iter().enumerate() {
            let k = usize::from(k);
            let name = &self.terrains[t].name;
            match alt.lands.get(t).filter(|l| !l.is_empty()) {
                Some(lands) => {
                    v.battlelands[t] = lands[k].clone();
                    v.battle_tables.set_land(t, alt.tables[t][k].clone());
                    v.data.battlelands.push(alt.defs[t][k].clone());
                }
                None => v.data.battlelands.extend(
                    self.data
                        .battlelands
                        .iter()
                        .filter(|b| b.terrain == *name)
                        .cloned(),
                ),
            }
        }
        v.drawn = want;
        Ok(Arc::new(v))
    }

    /// Is `character` native to `hazard`?
    pub fn is_native(&self, character: CharacterId, hazard: HazardId) -> bool {
        self.characters[character.index()].natives.contains(hazard)
    }

    /// The default value of a rule option, if the variant has it.
    pub fn option(&self, name: &str) -> Option<&OptionValue> {
        self.options
            .iter()
            .find(|o| o.name == name)
            .map(|o| &o.default)
    }

    /// Counts for a summary line.
    pub fn summary(&self) -> Summary {
        Summary::of(&self.data)
    }
}

/// How much a variant holds; what `titan check` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Summary {
    pub lands: usize,
    pub exits: usize,
    pub battlelands: usize,
    pub hexes: usize,
    pub characters: usize,
    pub terrains: usize,
    pub scripts: usize,
}

impl Summary {
    /// Counted from the merged files, so that a variant that fails
    /// validation can still be summarised.
    pub fn of(data: &VariantData) -> Summary {
        Summary {
            lands: data.masterboard.lands.len(),
            exits: data.masterboard.lands.iter().map(|l| l.exits.len()).sum(),
            battlelands: data.battlelands.len(),
            hexes: data.battlelands.iter().map(|b| b.hexes.len()).sum(),
            characters: data.characters.len(),
            terrains: data.terrains.len(),
            scripts: data.scripts.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hazard_sets() {
        let mut s = HazardSet::default();
        s.insert(HazardId(0));
        s.insert(HazardId(63));
        assert!(s.contains(HazardId(0)) && s.contains(HazardId(63)));
        assert!(!s.contains(HazardId(5)));
    }

    #[test]
    fn boards_compare_by_shape_not_node_order() {
        let land = |n| Land {
            number: n,
            name: format!("L{n}"),
            terrain: TerrainId(0),
            position: GridPos { x: 0, y: 0 },
            passage: false,
        };
        let mut a = DiGraph::default();
        let a1 = a.add_node(land(1));
        let a2 = a.add_node(land(2));
        a.add_edge(a1, a2, Sign::Arch);
        let mut b = DiGraph::default();
        let b2 = b.add_node(land(2));
        let b1 = b.add_node(land(1));
        b.add_edge(b1, b2, Sign::Arch);
        assert_eq!(Masterboard::new(a.clone()), Masterboard::new(b));
        let mut c = a;
        c.add_edge(a2, a1, Sign::Block);
        assert_ne!(
            Masterboard::new(c.clone()),
            Masterboard::new(c.filter_map(
                |_, n| Some(n.clone()),
                |_, &e| (e == Sign::Arch).then_some(e)
            ))
        );
    }
}
