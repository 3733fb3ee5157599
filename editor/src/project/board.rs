//! The edited variant's masterboard, battlelands, characters and mustering:
//! reading the merged view and the edits that change it.

use super::*;

impl Project {
    // -----------------------------------------------------------------------
    // Reading the merged view
    // -----------------------------------------------------------------------

    pub fn land(&self, number: u32) -> Option<&LandDef> {
        self.data()
            .masterboard
            .lands
            .iter()
            .find(|l| l.number == number)
    }

    pub fn land_at(&self, pos: GridPos) -> Option<&LandDef> {
        self.data()
            .masterboard
            .lands
            .iter()
            .find(|l| l.position == pos)
    }

    /// The battleland of a terrain (of one with several, the first).
    pub fn battleland(&self, terrain: &str) -> Option<&BattlelandDef> {
        self.data()
            .battlelands
            .iter()
            .filter(|b| b.terrain == terrain)
            .min_by_key(|b| b.alternative)
    }

    pub fn character(&self, name: &str) -> Option<&CharacterDef> {
        self.data().characters.iter().find(|c| c.name == name)
    }

    pub fn muster_table(&self, terrain: &str) -> Option<&MusterTable> {
        self.data().mustering.iter().find(|m| m.terrain == terrain)
    }

    /// The lands where a legion alone on the board, on land `from`, may end
    /// its move with `roll`, following the signs (the masterplay engine's
    /// movement, Law of Titan 7; teleports not included). `None` while the
    /// variant does not validate.
    ///
    /// ```
    /// use titan_editor::project::Project;
    /// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    /// let project = Project::open(&dir).unwrap();
    /// let ends = project.moves_from(1, 2).unwrap();
    /// assert!(!ends.is_empty());
    /// ```
    pub fn moves_from(&self, from: u32, roll: u8) -> Option<Vec<u32>> {
        use titan_core::game::{Exits, Occupancy};
        let variant = self.compiled.as_ref()?;
        let start = variant.board.by_number(from)?;
        let empty = vec![Occupancy::Empty; variant.board.land_count()];
        let mut ends: Vec<u32> = Exits::new(variant)
            .moves(start, roll, &empty)
            .into_iter()
            .map(|t| variant.board.land(t.land).number)
            .collect();
        ends.sort_unstable();
        ends.dedup();
        Some(ends)
    }

    /// The line of sight between two hexes of a terrain's battleland, with
    /// no character on it, as the battle engine draws it: each reading of
    /// the centre-to-centre line (two where it runs along a hexside; the
    /// rangestriker picks, reference sheet "Rangestriking") with the hexes
    /// it crosses and what blocks it, if anything (a non-magic rangestrike;
    /// magic ones are never blocked). `None` while the variant does not
    /// validate or the labels are wrong.
    ///
    /// ```
    /// use titan_editor::project::Project;
    /// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    /// let project = Project::open(&dir).unwrap();
    /// let lines = project.line_of_sight("Plains", "A1", "A3").unwrap();
    /// assert_eq!(lines[0].hexes, ["A1", "A2", "A3"]);
    /// assert_eq!(lines[0].blocked, None);
    /// ```
    pub fn line_of_sight(&self, terrain: &str, from: &str, to: &str) -> Option<Vec<SightLine>> {
        use titan_core::battle::geometry::blocked;
        let variant = self.compiled.as_ref()?;
        let land = variant.battleland(variant.terrain_by_name(terrain)?);
        let board = &land.board;
        let (a, b) = (board.hex(from)?, board.hex(to)?);
        let (first, second) = board.lines_between(a, b);
        Some(
            std::iter::once(first)
                .chain(second)
                .map(|path| SightLine {
                    blocked: if path.len() > 2 {
                        blocked(variant, land, path, &|_| None)
                    } else {
                        None
                    },
                    hexes: path.iter().map(|&h| board.label(h).to_string()).collect(),
                })
                .collect(),
        )
    }

    /// Whether an item of the merged view comes from a base variant rather
    /// than the edited one (an edit of it becomes an override).
    pub fn land_is_inherited(&self, number: u32) -> bool {
        self.origin_is_base(self.origins().lands.get(&number).copied())
    }

    pub(super) fn origin_is_base(&self, file: Option<titan_core::diag::FileId>) -> bool {
        file.is_some_and(|f| {
            let path = &self.loaded.sources.get(f).path;
            !path.starts_with(&self.dir)
        })
    }

    // -----------------------------------------------------------------------
    // Edits
    // -----------------------------------------------------------------------

    /// Replaces (or adds) a land, keyed by its number.
    pub fn set_land(&mut self, land: LandDef) {
        let key = format!("land {}", land.number);
        self.edit(&key, |p| {
            if let Some(lands) = p.own_lands() {
                match lands.iter_mut().find(|l| l.number == land.number) {
                    Some(slot) => *slot = land,
                    None => lands.push(land),
                }
            }
        });
    }

    /// Adds a land at a free grid cell, of the first terrain, with the
    /// next free number. Returns its number.
    pub fn add_land(&mut self, position: GridPos) -> Option<u32> {
        if self.land_at(position).is_some() {
            return None;
        }
        let number = self
            .data()
            .masterboard
            .lands
            .iter()
            .map(|l| l.number)
            .filter(|n| *n < 1000)
            .max()
            .unwrap_or(0)
            + 1;
        let terrain = self.data().terrains.first()?.name.clone();
        self.last_key = None;
        self.set_land(LandDef {
            number,
            name: None,
            terrain,
            position,
            exits: Vec::new(),
            passage: false,
        });
        self.last_key = None;
        Some(number)
    }

    /// Deletes a land and the signs leading to it. A land a base variant
    /// has is removed through the manifest's `remove.lands`.
    pub fn delete_land(&mut self, number: u32) {
        if self.land(number).is_none() {
            return;
        }
        let in_base = self.base_has_land(number);
        let pointing: Vec<LandDef> = self
            .data()
            .masterboard
            .lands
            .iter()
            .filter(|l| l.number != number && l.exits.iter().any(|e| e.to == number))
            .cloned()
            .collect();
        self.last_key = None;
        self.edit(&format!("delete land {number}"), |p| {
            if let Some(FileValue::Masterboard(b)) = p
                .manifest()
                .files
                .masterboard
                .clone()
                .and_then(|n| p.own.get_mut(&n))
            {
                b.lands.retain(|l| l.number != number);
            }
            if in_base && !p.manifest().remove.lands.contains(&number) {
                p.manifest_mut().remove.lands.push(number);
            }
            if !in_base {
                for mut land in pointing {
                    land.exits.retain(|e| e.to != number);
                    if let Some(lands) = p.own_lands() {
                        match lands.iter_mut().find(|l| l.number == land.number) {
                            Some(slot) => *slot = land,
                            None => lands.push(land),
                        }
                    }
                }
            }
        });
        self.last_key = None;
    }

    /// Gives land `old` the number `new` (if free), and points the signs
    /// leading to it at the new number.
    pub fn renumber_land(&mut self, old: u32, new: u32) {
        if self.land(new).is_some() {
            return;
        }
        let Some(mut land) = self.land(old).cloned() else {
            return;
        };
        land.number = new;
        let in_base = self.base_has_land(old);
        let pointing: Vec<LandDef> = self
            .data()
            .masterboard
            .lands
            .iter()
            .filter(|l| l.number != old && l.exits.iter().any(|e| e.to == old))
            .cloned()
            .collect();
        self.last_key = None;
        self.edit(&format!("renumber land {old}"), |p| {
            let Some(lands) = p.own_lands() else {
                return;
            };
            lands.retain(|l| l.number != old);
            lands.push(land);
            for mut l in pointing {
                for e in &mut l.exits {
                    if e.to == old {
                        e.to = new;
                    }
                }
                match lands.iter_mut().find(|x| x.number == l.number) {
                    Some(slot) => *slot = l,
                    None => lands.push(l),
                }
            }
            if in_base && !p.manifest().remove.lands.contains(&old) {
                p.manifest_mut().remove.lands.push(old);
            }
        });
        self.last_key = None;
    }

    /// Whether the base variant (merged) has land `number`.
    fn base_has_land(&self, number: u32) -> bool {
        if self.manifest().extends.is_none() {
            return false;
        }
        let Some(base_dir) = self.watched_dirs().get(1).cloned() else {
            return false;
        };
        load_data_with(&base_dir, &self.opts, &Overlay::new())
            .is_ok_and(|b| b.data.masterboard.lands.iter().any(|l| l.number == number))
    }

    /// Sets or clears the sign on `from`'s border towards `to`.
    pub fn set_sign(&mut self, from: u32, to: u32, sign: Option<Sign>) {
        let Some(mut land) = self.land(from).cloned() else {
            return;
        };
        land.exits.retain(|e| e.to != to);
        if let Some(sign) = sign {
            // Keep the printed order: by the neighbour's number.
            land.exits.push(ExitDef { to, sign });
        }
        self.last_key = None;
        self.set_land(land);
        self.last_key = None;
    }

    /// Sets a hex's hazard and elevation.
    pub fn set_hex(&mut self, terrain: &str, label: &str, hazard: &str, elevation: u8) {
        let key = format!("hex {terrain} {label}");
        let (terrain, label, hazard) = (terrain.to_string(), label.to_string(), hazard.to_string());
        self.edit(&key, |p| {
            if let Some(b) = p.own_battleland(&terrain) {
                let hex = b.hexes.entry(label).or_insert_with(|| HexDef {
                    hazard: hazard.clone(),
                    elevation: 0,
                    sides: BTreeMap::new(),
                });
                hex.hazard = hazard;
                hex.elevation = elevation;
            }
        });
    }

    /// Sets or clears the hexside hazard on `side` of hex `label`, which
    /// becomes its top side; one on the same hexside written on the
    /// neighbour is cleared.
    pub fn set_hexside(&mut self, terrain: &str, label: &str, side: Side, hazard: Option<&str>) {
        let neighbour = self
            .battleland(terrain)
            .and_then(|def| Board::of(def).ok())
            .and_then(|board| {
                let n = board.neighbour(board.hex(label)?, side)?;
                Some(board.label(n).to_string())
            });
        let (terrain, label) = (terrain.to_string(), label.to_string());
        let hazard = hazard.map(str::to_string);
        self.last_key = None;
        self.edit(&format!("hexside {terrain} {label} {side:?}"), |p| {
            if let Some(b) = p.own_battleland(&terrain) {
                if let Some(n) = neighbour.and_then(|n| b.hexes.get_mut(&n)) {
                    n.sides.remove(&side.opposite());
                }
                if let Some(hex) = b.hexes.get_mut(&label) {
                    match hazard {
                        Some(h) => {
                            hex.sides.insert(side, h);
                        }
                        None => {
                            hex.sides.remove(&side);
                        }
                    }
                }
            }
        });
        self.last_key = None;
    }

    /// Replaces (or adds) a character, keyed by `old_name` (so renaming
    /// works).
    pub fn set_character(&mut self, old_name: &str, character: CharacterDef) {
        let key = format!("character {old_name}");
        let old = old_name.to_string();
        self.edit(&key, |p| {
            if let Some(list) = p.own_characters() {
                match list.iter_mut().find(|c| c.name == old) {
                    Some(slot) => *slot = character,
                    None => list.push(character),
                }
            }
        });
    }

    /// Replaces (or adds) a terrain's mustering table as an undo step of its
    /// own (adding a row or a need, choosing from a menu), unlike
    /// [`Project::set_muster_table`], which merges with a moment-ago edit
    /// of the same table (dragging a number).
    pub fn set_muster_table_step(&mut self, table: MusterTable) {
        self.last_key = None;
        self.set_muster_table(table);
        self.last_key = None;
    }

    /// Replaces (or adds) a terrain's mustering table.
    pub fn set_muster_table(&mut self, table: MusterTable) {
        let key = format!("mustering {}", table.terrain);
        self.edit(&key, |p| {
            if let Some(list) = p.own_mustering() {
                match list.iter_mut().find(|t| t.terrain == table.terrain) {
                    Some(slot) => *slot = table,
                    None => list.push(table),
                }
            }
        });
    }
}

/// Reshaping a battleland's board: hexes added and removed, zones named
/// (docs/variant-format.md, "Boards"; docs/editor.md).
impl Project {
    /// Gives the battleland of `terrain` a board of its own, a copy of the
    /// one it stands on (the 27-hex board's labels, places and edges), so
    /// that hexes can be added and removed.
    pub fn own_board(&mut self, terrain: &str) {
        let Some(board) = self.battleland(terrain).and_then(|d| Board::of(d).ok()) else {
            return;
        };
        if self.battleland(terrain).is_some_and(|d| d.board.is_some()) {
            return;
        }
        let def = board_def(&board);
        let terrain = terrain.to_string();
        self.last_key = None;
        self.edit(&format!("board {terrain}"), |p| {
            if let Some(b) = p.own_battleland(&terrain) {
                b.board = Some(def);
            }
        });
        self.last_key = None;
    }

    /// Adds a hex at axial `(q, r)` to the board of `terrain` (its own
    /// board), with the variant's first hex hazard; its label, returned,
    /// is the first free of `H1`, `H2`, ...
    pub fn add_board_hex(&mut self, terrain: &str, at: (i32, i32)) -> Option<String> {
        let def = self.battleland(terrain)?;
        let board = def.board.as_ref()?;
        if board.hexes.values().any(|&c| c == at)
            || board.hexes.len() >= titan_core::battleland::MAX_HEXES
        {
            return None;
        }
        let label = (1..)
            .map(|n| format!("H{n}"))
            .find(|l| !board.hexes.contains_key(l))?;
        let hazard = self
            .data()
            .hazards
            .iter()
            .find(|h| h.place == titan_core::format::Place::Hex)
            .map(|h| h.name.clone())
            .unwrap_or_default();
        let (terrain, l) = (terrain.to_string(), label.clone());
        self.last_key = None;
        self.edit(&format!("add hex {terrain} {l}"), |p| {
            if let Some(b) = p.own_battleland(&terrain)
                && let Some(board) = &mut b.board
            {
                board.hexes.insert(l.clone(), at);
                b.hexes.insert(
                    l,
                    HexDef {
                        hazard,
                        elevation: 0,
                        sides: BTreeMap::new(),
                    },
                );
            }
        });
        self.last_key = None;
        Some(label)
    }

    /// Removes hex `label` from the board of `terrain` (its own board), with
    /// its place in edges, zones and the Tower's area, and the hexside
    /// hazards its neighbours had toward it.
    pub fn remove_board_hex(&mut self, terrain: &str, label: &str) {
        let Some(def) = self.battleland(terrain) else {
            return;
        };
        if def.board.is_none() || def.hexes.len() <= 1 {
            return;
        }
        // The neighbours' sides that face the hex.
        let facing: Vec<(String, Side)> = Board::of(def)
            .ok()
            .and_then(|board| {
                let h = board.hex(label)?;
                Some(
                    Side::ALL
                        .into_iter()
                        .filter_map(|s| {
                            let n = board.neighbour(h, s)?;
                            Some((board.label(n).to_string(), s.opposite()))
                        })
                        .collect(),
                )
            })
            .unwrap_or_default();
        let (terrain, label) = (terrain.to_string(), label.to_string());
        self.last_key = None;
        self.edit(&format!("remove hex {terrain} {label}"), |p| {
            if let Some(b) = p.own_battleland(&terrain) {
                b.hexes.remove(&label);
                b.defender_area.retain(|l| *l != label);
                for (n, side) in &facing {
                    if let Some(hex) = b.hexes.get_mut(n) {
                        hex.sides.remove(side);
                    }
                }
                if let Some(board) = &mut b.board {
                    board.hexes.remove(&label);
                    for list in board.edges.values_mut().chain(board.zones.values_mut()) {
                        list.retain(|l| *l != label);
                    }
                    board.edges.retain(|_, l| !l.is_empty());
                    board.zones.retain(|_, l| !l.is_empty());
                }
            }
        });
        self.last_key = None;
    }

    /// Puts hex `label` in zone `zone` of the board of `terrain`, or takes
    /// it out (a zone left empty is gone).
    pub fn set_zone(&mut self, terrain: &str, zone: &str, label: &str, member: bool) {
        if zone.trim().is_empty() {
            return;
        }
        let (terrain, zone, label) = (
            terrain.to_string(),
            zone.trim().to_string(),
            label.to_string(),
        );
        self.last_key = None;
        self.edit(&format!("zone {terrain} {zone} {label}"), |p| {
            if let Some(b) = p.own_battleland(&terrain)
                && let Some(board) = &mut b.board
            {
                let list = board.zones.entry(zone.clone()).or_default();
                list.retain(|l| *l != label);
                if member {
                    list.push(label);
                    list.sort();
                }
                board.zones.retain(|_, l| !l.is_empty());
            }
        });
        self.last_key = None;
    }
}

/// A board's definition as a battleland file writes it.
fn board_def(board: &Board) -> titan_core::format::BoardDef {
    let label = |h| board.label(h).to_string();
    titan_core::format::BoardDef {
        hexes: board
            .ids()
            .map(|h| {
                let c = board.coord(h);
                (label(h), (c.x, c.y))
            })
            .collect(),
        edges: titan_core::format::Edge::ALL
            .into_iter()
            .filter_map(|e| {
                let hexes: Vec<String> = board.edge_hexes(e).map(label).collect();
                (!hexes.is_empty()).then_some((e, hexes))
            })
            .collect(),
        zones: board
            .zones()
            .iter()
            .map(|(n, set)| {
                (
                    n.clone(),
                    titan_core::battleland::hexset::hexes(*set)
                        .map(label)
                        .collect(),
                )
            })
            .collect(),
    }
}
