//! The masterboard (`*Map.xml`): lands at grid positions, their terrains and
//! exits. Colossus's `xpos`/`ypos` are the triangle grid titan uses, so
//! positions carry over unchanged.

use std::collections::BTreeMap;

use titan_core::format::{ExitDef, GridPos, LandDef, MasterboardDef, Sign};

use crate::Error;
use crate::xml::{XmlFile, children, root};

/// A land as read, with the line of each exit for later errors.
pub struct Board {
    pub lands: Vec<LandDef>,
    /// The line of each land's `<hex>`.
    pub lines: BTreeMap<u32, u32>,
}

fn sign(kind: &str) -> Option<Sign> {
    Some(match kind {
        "ARROWS" => Sign::TripleArrow,
        "ARROW" => Sign::Arrow,
        "ARCH" => Sign::Arch,
        "BLOCK" => Sign::Block,
        _ => return None,
    })
}

/// Reads a `*Map.xml`; a duplicate land, an unknown sign or an exit to no
/// land is an error at its line.
pub fn read(file: &XmlFile) -> Result<Board, Error> {
    let doc = file.parse()?;
    let r = root(file, &doc, "board")?;
    let mut lands: BTreeMap<u32, LandDef> = BTreeMap::new();
    let mut exits = Vec::new();
    let mut lines = BTreeMap::new();
    for hex in children(r, "hex") {
        let number: u32 = file.num(&doc, hex, "label")?;
        let land = LandDef {
            number,
            name: None,
            terrain: file.attr(&doc, hex, "terrain")?.to_string(),
            position: GridPos {
                x: file.num(&doc, hex, "xpos")?,
                y: file.num(&doc, hex, "ypos")?,
            },
            exits: Vec::new(),
            passage: false,
        };
        lines.insert(number, file.line(&doc, hex));
        if lands.insert(number, land).is_some() {
            return Err(file.error(&doc, hex, format!("land {number} is given twice")));
        }
        for exit in children(hex, "exit") {
            let kind = file.attr(&doc, exit, "type")?;
            let sign = sign(kind).ok_or_else(|| {
                file.error(
                    &doc,
                    exit,
                    format!("unknown exit type {kind:?} (ARROWS, ARROW, ARCH or BLOCK)"),
                )
            })?;
            let to: u32 = file.num(&doc, exit, "label")?;
            exits.push((number, to, sign, file.line(&doc, exit)));
        }
    }
    for (from, to, sign, line) in exits {
        if !lands.contains_key(&to) {
            return Err(Error::at(
                &file.path,
                line,
                format!("land {from} has an exit to land {to}, which the board does not have"),
            ));
        }
        if let Some(land) = lands.get_mut(&from) {
            land.exits.push(ExitDef { to, sign });
        }
    }
    Ok(Board {
        lands: lands.into_values().collect(),
        lines,
    })
}

impl Board {
    pub fn line(&self, land: u32) -> u32 {
        self.lines.get(&land).copied().unwrap_or(0)
    }

    pub fn to_def(&self) -> MasterboardDef {
        MasterboardDef {
            lands: self.lands.clone(),
            one_way_signs: None,
        }
    }
}
