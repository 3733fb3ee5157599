//! Authoring terrains and hazards: adding them (a new terrain with a new
//! battleland, blank or copied), editing every field, renaming where the
//! variant owns the item, and a hazard's natives.

use std::collections::BTreeMap;

use titan_core::battleland::Board;
use titan_core::format::{
    BattlelandDef, HazardDef, HexDef, Movement, MusterTable, Place, Rgb, TerrainDef,
};

use super::{FileKind, FileValue, Project};

/// A file name for an item's own file: lower case, `-` for the rest.
fn stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// How far apart two colours look (the "redmean" weighting of the RGB
/// distance, close enough to the eye's for picking a distinct colour).
fn colour_distance(a: Rgb, b: Rgb) -> f32 {
    let [r1, g1, b1] = a.0.map(f32::from);
    let [r2, g2, b2] = b.0.map(f32::from);
    let rm = (r1 + r2) / 2.0;
    let (dr, dg, db) = (r1 - r2, g1 - g2, b1 - b2);
    ((2.0 + rm / 256.0) * dr * dr + 4.0 * dg * dg + (2.0 + (255.0 - rm) / 256.0) * db * db).sqrt()
}

/// A colour at `hue` (degrees), saturation `s` and value `v` (0 to 1).
fn hsv(hue: f32, s: f32, v: f32) -> Rgb {
    let c = v * s;
    let h = (hue % 360.0) / 60.0;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    let byte = |f: f32| ((f + m) * 255.0).round() as u8;
    Rgb([byte(r), byte(g), byte(b)])
}

/// The colour for a new terrain or hazard farthest from every one of
/// `used` (of hues all round at a few strengths), so that it never looks
/// like one there is on the boards and in the legends.
fn fresh_colour(used: impl Iterator<Item = Rgb>) -> Rgb {
    let used: Vec<Rgb> = used.collect();
    let mut best = (hsv(0.0, 0.6, 0.8), -1.0);
    for hue in (0..36).map(|i| i as f32 * 10.0) {
        for (s, v) in [(0.65, 0.85), (0.45, 0.65), (0.8, 0.55)] {
            let c = hsv(hue, s, v);
            let nearest = used
                .iter()
                .map(|u| colour_distance(c, *u))
                .fold(f32::MAX, f32::min);
            if nearest > best.1 {
                best = (c, nearest);
            }
        }
    }
    best.0
}

impl Project {
    /// Adds a terrain named `name` (in a colour far from every terrain's,
    /// not a tower) and its battleland:
    /// a copy of `copy_of`'s, or a blank board (every hex of the first hex
    /// hazard, level, no hexsides), and an empty mustering table. One undo
    /// step.
    pub fn add_terrain(&mut self, name: &str, copy_of: Option<&str>) -> Result<(), String> {
        let name = name.trim().to_string();
        if name.is_empty() {
            return Err("a terrain needs a name".into());
        }
        if self.data().terrains.iter().any(|t| t.name == name) {
            return Err(format!("there is already a terrain {name:?}"));
        }
        let mut board = match copy_of {
            Some(other) => self
                .battleland(other)
                .cloned()
                .ok_or_else(|| format!("there is no battleland of {other:?} to copy"))?,
            None => {
                let plain = self
                    .data()
                    .hazards
                    .iter()
                    .find(|h| h.place == Place::Hex)
                    .map(|h| h.name.clone())
                    .ok_or("the variant has no hex hazard to fill a blank board with")?;
                BattlelandDef {
                    terrain: String::new(),
                    alternative: 1,
                    hexes: Board::standard()
                        .ids()
                        .map(|h| {
                            let hex = HexDef {
                                hazard: plain.clone(),
                                elevation: 0,
                                sides: BTreeMap::new(),
                            };
                            (Board::standard().label(h).to_string(), hex)
                        })
                        .collect(),
                    board: None,
                    attacker_edge: None,
                    defender_area: Vec::new(),
                }
            }
        };
        board.terrain = name.clone();
        let mut file = format!("battlelands/{}.ron", stem(&name));
        let mut n = 1;
        while self.own.contains_key(&file) || self.dir.join(&file).exists() {
            n += 1;
            file = format!("battlelands/{}-{n}.ron", stem(&name));
        }
        let terrain = TerrainDef {
            name: name.clone(),
            color: fresh_colour(self.data().terrains.iter().map(|t| t.color)),
            tower: false,
            shared: false,
        };
        self.last_key = None;
        self.edit(&format!("add terrain {name}"), |p| {
            if let FileValue::Terrains(list) = p.own_file(FileKind::Terrains, "terrains.ron") {
                list.push(terrain);
            }
            // Every terrain has a table (the validator says so); an empty
            // one musters nothing until rows are added.
            if let Some(tables) = p.own_mustering() {
                tables.push(MusterTable {
                    terrain: name.clone(),
                    ladder: true,
                    when_exhausted: Default::default(),
                    rows: Vec::new(),
                });
            }
            p.manifest_mut().files.battlelands.push(file.clone());
            p.own.insert(file, FileValue::Battleland(board));
        });
        self.last_key = None;
        Ok(())
    }

    /// Whether the terrain is the edited variant's own (not a base's).
    pub fn terrain_is_own(&self, name: &str) -> bool {
        !self.origin_is_base(self.origins().terrains.get(name).copied())
    }

    /// Whether the hazard is the edited variant's own (not a base's).
    pub fn hazard_is_own(&self, name: &str) -> bool {
        !self.origin_is_base(self.origins().hazards.get(name).copied())
    }

    /// Replaces the terrain `old` (colour, tower, name). A new name is
    /// refused when taken, or for a base's terrain (a variant cannot remove
    /// a base's terrain); otherwise the lands, battleland and mustering
    /// table of the terrain follow it. One undo step.
    pub fn set_terrain(&mut self, old: &str, terrain: TerrainDef) -> Result<(), String> {
        let renaming = terrain.name != old;
        if renaming {
            if terrain.name.trim().is_empty() {
                return Err("a terrain needs a name".into());
            }
            if self.data().terrains.iter().any(|t| t.name == terrain.name) {
                return Err(format!("there is already a terrain {:?}", terrain.name));
            }
            if !self.terrain_is_own(old) {
                return Err(format!(
                    "{old} comes from the base variant: it cannot be renamed here"
                ));
            }
        }
        let (old, new) = (old.to_string(), terrain.name.clone());
        let lands: Vec<_> = self
            .data()
            .masterboard
            .lands
            .iter()
            .filter(|l| renaming && l.terrain == old)
            .cloned()
            .collect();
        let key = format!("terrain {old}");
        if renaming {
            self.last_key = None;
        }
        self.edit(&key, |p| {
            if let FileValue::Terrains(list) = p.own_file(FileKind::Terrains, "terrains.ron") {
                match list.iter_mut().find(|t| t.name == old) {
                    Some(slot) => *slot = terrain,
                    None => list.push(terrain),
                }
            }
            if !renaming {
                return;
            }
            for mut land in lands {
                land.terrain = new.clone();
                if let Some(own) = p.own_lands() {
                    match own.iter_mut().find(|l| l.number == land.number) {
                        Some(slot) => *slot = land,
                        None => own.push(land),
                    }
                }
            }
            for value in p.own.values_mut() {
                match value {
                    FileValue::Battleland(b) if b.terrain == old => b.terrain = new.clone(),
                    FileValue::Mustering(tables) => {
                        for t in tables.iter_mut().filter(|t| t.terrain == old) {
                            t.terrain = new.clone();
                        }
                    }
                    _ => {}
                }
            }
        });
        if renaming {
            self.last_key = None;
        }
        Ok(())
    }

    /// Adds a hazard of the place with a name not yet used, a colour no
    /// hazard has, no movement effect and no effects. Returns its name.
    pub fn add_hazard(&mut self, place: Place) -> String {
        let base = match place {
            Place::Hex => "New hazard",
            Place::Hexside => "New hexside",
        };
        let mut name = base.to_string();
        let mut n = 1;
        while self.data().hazards.iter().any(|h| h.name == name) {
            n += 1;
            name = format!("{base} {n}");
        }
        let hazard = HazardDef {
            name: name.clone(),
            place,
            color: fresh_colour(self.data().hazards.iter().map(|h| h.color)),
            movement: Movement::default(),
            effects: Vec::new(),
        };
        self.last_key = None;
        self.edit(&format!("add hazard {name}"), |p| {
            if let FileValue::Hazards(list) = p.own_file(FileKind::Hazards, "hazards.ron") {
                list.push(hazard);
            }
        });
        self.last_key = None;
        name
    }

    /// Replaces the hazard `old`. A new name is refused when taken or for a
    /// base's hazard; otherwise the hexes and hexsides of the variant's
    /// battlelands and the characters native to it follow. Changing the
    /// place is refused while a battleland uses the hazard.
    pub fn set_hazard(&mut self, old: &str, hazard: HazardDef) -> Result<(), String> {
        let renaming = hazard.name != old;
        if renaming {
            if hazard.name.trim().is_empty() {
                return Err("a hazard needs a name".into());
            }
            if self.data().hazards.iter().any(|h| h.name == hazard.name) {
                return Err(format!("there is already a hazard {:?}", hazard.name));
            }
            if !self.hazard_is_own(old) {
                return Err(format!(
                    "{old} comes from the base variant: it cannot be renamed here"
                ));
            }
        }
        let used = self.data().battlelands.iter().any(|b| {
            b.hexes
                .values()
                .any(|h| h.hazard == old || h.sides.values().any(|s| s == old))
        });
        if used
            && self
                .data()
                .hazards
                .iter()
                .any(|h| h.name == old && h.place != hazard.place)
        {
            return Err(format!(
                "{old} is on a battleland: clear it there before changing hex and hexside"
            ));
        }
        let natives: Vec<_> = self
            .data()
            .characters
            .iter()
            .filter(|c| renaming && c.natives.iter().any(|n| n == old))
            .cloned()
            .collect();
        let (old, new) = (old.to_string(), hazard.name.clone());
        if renaming {
            self.last_key = None;
        }
        self.edit(&format!("hazard {old}"), |p| {
            if let FileValue::Hazards(list) = p.own_file(FileKind::Hazards, "hazards.ron") {
                match list.iter_mut().find(|h| h.name == old) {
                    Some(slot) => *slot = hazard,
                    None => list.push(hazard),
                }
            }
            if !renaming {
                return;
            }
            for mut c in natives {
                for n in &mut c.natives {
                    if *n == old {
                        *n = new.clone();
                    }
                }
                if let Some(list) = p.own_characters() {
                    match list.iter_mut().find(|x| x.name == c.name) {
                        Some(slot) => *slot = c,
                        None => list.push(c),
                    }
                }
            }
            for value in p.own.values_mut() {
                if let FileValue::Battleland(b) = value {
                    for hex in b.hexes.values_mut() {
                        if hex.hazard == old {
                            hex.hazard = new.clone();
                        }
                        for side in hex.sides.values_mut() {
                            if *side == old {
                                *side = new.clone();
                            }
                        }
                    }
                }
            }
        });
        if renaming {
            self.last_key = None;
        }
        Ok(())
    }

    /// Makes character `character` native to `hazard` or not (its
    /// `natives`): one undo step.
    pub fn set_native(&mut self, hazard: &str, character: &str, native: bool) {
        let Some(mut c) = self.character(character).cloned() else {
            return;
        };
        c.natives.retain(|n| n != hazard);
        if native {
            c.natives.push(hazard.to_string());
        }
        self.last_key = None;
        self.set_character(character, c);
        self.last_key = None;
    }
}
