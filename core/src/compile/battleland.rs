//! Battlelands and their boards: the hexes by label, their hazards and
//! hexsides, the board's shape, edges and zones.

use std::collections::HashMap;
use std::sync::Arc;

use crate::battleland::{BattleHex, Battleland, Board, Hexside, MAX_HEXES};
use crate::diag::FileId;
use crate::format::{self, Place};
use crate::model::{Alternatives, Hazard, HazardId, TerrainId};

use super::{Compiler, lookup};

/// How far from the origin a board's coordinates may lie: distances then
/// fit the board's tables.
const MAX_COORD: i32 = 32;

impl Compiler<'_> {
    /// Every terrain's battlelands: its battleland, and those of a terrain
    /// with several (numbered by `alternative`, 1, 2, ... without a gap).
    pub(super) fn battlelands(
        &mut self,
        terrains: &HashMap<&str, TerrainId>,
        hazard_ids: &HashMap<&str, HazardId>,
        hazards: &[Hazard],
    ) -> Option<(Vec<Battleland>, Alternatives)> {
        let data = self.data;
        let n = data.terrains.len();
        // By terrain: each battleland with its alternative number.
        let mut by_terrain: Vec<Vec<(u32, Battleland, &format::BattlelandDef)>> =
            vec![Vec::new(); n];
        for b in &data.battlelands {
            let file = self.origins.battlelands[&(b.terrain.clone(), b.alternative)];
            let Some(terrain) = lookup(terrains, &b.terrain) else {
                self.error(
                    file,
                    &["terrain"],
                    format!(
                        "battleland for {:?}, which is no terrain of this variant",
                        b.terrain
                    ),
                );
                continue;
            };
            if let Some(land) = self.battleland(b, terrain, file, hazard_ids, hazards) {
                by_terrain[terrain.index()].push((b.alternative, land, b));
            }
        }
        if let Some(sd) = data.rules.battle.as_ref().and_then(|r| r.showdown.as_ref())
            && !data.battlelands.iter().any(|b| b.terrain == sd.terrain)
        {
            let file = self.origins.rules_file("battle");
            self.error(
                file,
                &["showdown", "terrain"],
                format!(
                    "rules.battle.showdown: no battleland of terrain {:?} to fight the showdown on",
                    sd.terrain
                ),
            );
        }
        let mut lands = Vec::new();
        let mut alt = Alternatives {
            lands: vec![Vec::new(); n],
            defs: vec![Vec::new(); n],
            tables: Vec::new(),
        };
        for (i, mut list) in by_terrain.into_iter().enumerate() {
            let name = &data.terrains[i].name;
            list.sort_by_key(|(k, _, _)| *k);
            if let Some(pos) = (0..list.len()).find(|&p| list[p].0 != p as u32 + 1) {
                let k = list[pos].0;
                let file = self.origins.battlelands[&(name.clone(), k)];
                self.error(
                    file,
                    &["alternative"],
                    format!(
                        "battleland alternative {k} of {name}: a terrain's battlelands are numbered 1, 2, ... without a gap (this would be number {})",
                        pos + 1
                    ),
                );
                continue;
            }
            match list.first() {
                Some((_, first, _)) => lands.push(first.clone()),
                None => {
                    if !data.battlelands.iter().any(|b| b.terrain == *name) {
                        let file = self.origins.terrains[name];
                        self.error(
                            file,
                            &[&format!("\"{name}\"")],
                            format!(
                                "terrain {name} has no battleland (add one to files.battlelands)"
                            ),
                        );
                    }
                    continue;
                }
            }
            if list.len() > usize::from(u8::MAX) {
                let file = self.origins.terrains[name];
                self.error(
                    file,
                    &[&format!("\"{name}\"")],
                    format!("terrain {name} has {} battlelands: at most 255", list.len()),
                );
            } else if list.len() > 1 {
                alt.defs[i] = list.iter().map(|(_, _, d)| (*d).clone()).collect();
                alt.lands[i] = list.into_iter().map(|(_, l, _)| l).collect();
            }
        }
        (lands.len() == n).then_some((lands, alt))
    }

    /// A battleland's board: the standard one unless it names its own.
    fn board(&mut self, b: &format::BattlelandDef, file: FileId) -> Option<Arc<Board>> {
        let Some(def) = &b.board else {
            return Some(Board::standard());
        };
        let errors_before = self.errors.len();
        if def.hexes.is_empty() {
            self.error(file, &["board", "hexes"], "a board needs at least one hex");
            return None;
        }
        if def.hexes.len() > MAX_HEXES {
            self.error(
                file,
                &["board", "hexes"],
                format!(
                    "a board has at most {MAX_HEXES} hexes; this one has {}",
                    def.hexes.len()
                ),
            );
        }
        let mut at: HashMap<(i32, i32), &str> = HashMap::new();
        for (label, &(q, r)) in &def.hexes {
            let anchor = format!("\"{label}\"");
            if q.abs() > MAX_COORD || r.abs() > MAX_COORD {
                self.error(
                    file,
                    &["board", &anchor],
                    format!("hex {label} lies at ({q}, {r}); coordinates lie within -{MAX_COORD} to {MAX_COORD}"),
                );
            }
            if let Some(other) = at.insert((q, r), label) {
                self.error(
                    file,
                    &["board", &anchor],
                    format!("hex ({q}, {r}) has two labels, {other:?} and {label:?}"),
                );
            }
        }
        let named = |what: &str, labels: &[String], me: &mut Self| {
            for l in labels {
                if !def.hexes.contains_key(l) {
                    me.error(
                        file,
                        &["board", what, &format!("\"{l}\"")],
                        format!("{l:?} is no hex of this battleland's board"),
                    );
                }
            }
        };
        for labels in def.edges.values() {
            named("edges", labels, self);
        }
        for labels in def.zones.values() {
            named("zones", labels, self);
        }
        if self.errors.len() > errors_before {
            return None;
        }
        match Board::of(b) {
            Ok(board) => Some(board),
            Err(e) => {
                self.error(file, &["board"], e);
                None
            }
        }
    }

    /// With placement phases, each side's zone (the board's zone of the
    /// procedure's name, else the hexes along the side's edge) must hold a
    /// hex, and the two zones none in common.
    fn placement_zones(&mut self, b: &format::BattlelandDef, board: &Board, file: FileId) {
        let Some(rules) = &self.data.rules.battle else {
            return;
        };
        let p = &rules.procedure;
        if p.movement != format::Maneuvering::Placement {
            return;
        }
        let edges: Vec<crate::format::Edge> = match b.attacker_edge {
            Some(e) => vec![e],
            None => rules.attacker_edges.clone(),
        };
        for edge in edges {
            let attacker = board
                .zone(&p.attacker_zone)
                .unwrap_or_else(|| board.edge(edge));
            let defender = board
                .zone(&p.defender_zone)
                .unwrap_or_else(|| board.edge(edge.opposite()));
            let problem = if attacker == 0 {
                Some(format!(
                    "the attacker's zone {:?} (or, lacking it, the {edge:?} edge)",
                    p.attacker_zone
                ))
            } else if defender == 0 {
                Some(format!(
                    "the defender's zone {:?} (or, lacking it, the {:?} edge)",
                    p.defender_zone,
                    edge.opposite()
                ))
            } else {
                None
            };
            if let Some(what) = problem {
                self.error(
                    file,
                    &["board"],
                    format!("placement phases (rules.battle.procedure) commit characters to each side's zone; {what} has no hex on this battleland"),
                );
                return;
            }
            if attacker & defender != 0 {
                let both: Vec<&str> = crate::battleland::hexset::hexes(attacker & defender)
                    .map(|h| board.label(h))
                    .collect();
                self.error(
                    file,
                    &["board"],
                    format!("the attacker's and the defender's zones share {}: a hex belongs to one side's zone", both.join(", ")),
                );
                return;
            }
        }
    }

    /// The battleland of a showdown (`rules.battle.showdown`) must number
    /// its zones: the challenger's `attacker-1`, ... and one zone for each
    /// opponent the most players leave (`defender-1` to `defender-(max-1)`),
    /// each with a hex, none sharing one.
    fn showdown_zones(&mut self, b: &format::BattlelandDef, board: &Board, file: FileId) {
        let Some(sd) = self
            .data
            .rules
            .battle
            .as_ref()
            .and_then(|r| r.showdown.as_ref())
        else {
            return;
        };
        if sd.terrain != b.terrain {
            return;
        }
        let max = self.data.manifest.players.map_or(2, |p| p.max).max(2) as usize;
        let mut seen: crate::battleland::hexset::HexSet = 0;
        let mut problems = Vec::new();
        for (prefix, need) in [(&sd.attacker_zones, 1), (&sd.defender_zones, max - 1)] {
            let mut k = 1;
            loop {
                let name = format!("{prefix}-{k}");
                match board.zone(&name) {
                    Some(z) if z != 0 => {
                        if z & seen != 0 {
                            problems.push(format!(
                                "zone {name:?} shares a hex with another numbered zone"
                            ));
                        }
                        seen |= z;
                    }
                    _ if k <= need => {
                        problems.push(format!(
                            "zone {name:?} is missing or empty (a showdown of up to {max} players needs {prefix}-1 to {prefix}-{need})"
                        ));
                        break;
                    }
                    _ => break,
                }
                k += 1;
            }
        }
        for p in problems {
            self.error(
                file,
                &["zones", "board"],
                format!("the showdown's battleland (rules.battle.showdown): {p}"),
            );
        }
    }

    pub(super) fn battleland(
        &mut self,
        b: &format::BattlelandDef,
        terrain: TerrainId,
        file: FileId,
        hazard_ids: &HashMap<&str, HazardId>,
        hazards: &[Hazard],
    ) -> Option<Battleland> {
        let errors_before = self.errors.len();
        let board = self.board(b, file)?;
        let mut hexes: Vec<Option<BattleHex>> = vec![None; board.len()];
        let known = if b.board.is_some() {
            "no hex of its board"
        } else {
            "no hex label (A1-A3, B1-B4, C1-C5, D1-D6, E1-E5, F1-F4)"
        };
        for (label, h) in &b.hexes {
            let q = format!("\"{label}\"");
            let Some(id) = board.hex(label) else {
                self.error(file, &[&q], format!("{label:?} is {known}"));
                continue;
            };
            let hazard = match lookup(hazard_ids, &h.hazard) {
                Some(hz) if hazards[hz.index()].place == Place::Hex => hz,
                Some(_) => {
                    self.error(
                        file,
                        &[&q, &format!("\"{}\"", h.hazard)],
                        format!(
                            "hex {label} has hazard {:?}, which lies on hexsides, not in hexes",
                            h.hazard
                        ),
                    );
                    continue;
                }
                None => {
                    self.error(
                        file,
                        &[&q, &format!("\"{}\"", h.hazard)],
                        format!(
                            "hex {label} has hazard {:?}, which this variant does not define",
                            h.hazard
                        ),
                    );
                    continue;
                }
            };
            hexes[id.0 as usize] = Some(BattleHex {
                hazard,
                elevation: h.elevation,
                sides: [None; 6],
                neighbours: board.neighbours(id),
            });
        }
        let missing: Vec<&str> = board
            .ids()
            .filter(|id| hexes[id.0 as usize].is_none())
            .map(|id| board.label(id))
            .collect();
        if b.hexes.len() != board.len() || !missing.is_empty() {
            self.error(
                file,
                &["hexes"],
                format!(
                    "a battleland has a hex for each of its board's {}; this one lists {}{}",
                    board.len(),
                    b.hexes.len(),
                    if missing.is_empty() {
                        String::new()
                    } else {
                        format!(" and lacks {}", missing.join(", "))
                    }
                ),
            );
        }
        // Hexside hazards, recorded on both of their hexes.
        for (label, h) in &b.hexes {
            let Some(id) = board.hex(label) else {
                continue;
            };
            for (&side, name) in &h.sides {
                let q = format!("\"{label}\"");
                let anchors = [q.as_str(), &format!("{side:?}:")];
                let hazard = match lookup(hazard_ids, name) {
                    Some(hz) if hazards[hz.index()].place == Place::Hexside => hz,
                    Some(_) => {
                        self.error(file, &anchors, format!("{name:?} fills hexes; it cannot lie on the {side:?} side of {label}"));
                        continue;
                    }
                    None => {
                        self.error(file, &anchors, format!("{label} has {name:?} on its {side:?} side, which this variant does not define"));
                        continue;
                    }
                };
                let Some(other) = board.neighbour(id, side) else {
                    self.error(file, &anchors, format!("the {side:?} side of {label} is the battleland's edge; a hexside hazard needs a hex on both sides"));
                    continue;
                };
                let back = side.opposite();
                let other_label = board.label(other);
                if b.hexes
                    .get(other_label)
                    .is_some_and(|o| o.sides.contains_key(&back))
                {
                    self.error(file, &anchors, format!("the side between {label} and {other_label} is given a hazard from both hexes; record it only on its top side"));
                    continue;
                }
                if let Some(hex) = hexes[id.0 as usize].as_mut() {
                    hex.sides[side.index()] = Some(Hexside { hazard, top: true });
                }
                if let Some(hex) = hexes[other.0 as usize].as_mut() {
                    hex.sides[back.index()] = Some(Hexside { hazard, top: false });
                }
            }
        }
        let mut defender_area = Vec::new();
        for label in &b.defender_area {
            match board.hex(label) {
                Some(id) => defender_area.push(id),
                None => self.error(
                    file,
                    &["defender_area", &format!("\"{label}\"")],
                    format!("{label:?} is no hex label"),
                ),
            }
        }
        self.placement_zones(b, &board, file);
        self.showdown_zones(b, &board, file);
        if self.errors.len() > errors_before {
            return None;
        }
        Some(Battleland {
            terrain,
            board,
            hexes: hexes.into_iter().flatten().collect(),
            attacker_edge: b.attacker_edge,
            defender_area,
        })
    }
}
