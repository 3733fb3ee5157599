//! The terrains and their mustering (`*Ter.xml`): each terrain's chain of
//! recruits, with Colossus's special recruiters (`Anything`, `AnyNonLord`,
//! `Lord`, `DemiLord`), the starting characters, the acquirable characters
//! and the Titan's score thresholds.

use titan_core::format::{MusterRow, MusterTable, Needs};

use crate::Error;
use crate::creatures::Creatures;
use crate::xml::{XmlFile, children, root};

/// One `<recruit>`: a character (or special recruiter) and how many of the
/// entry before it a legion must show (0: anyone; -1: not mustered here,
/// only shown).
#[derive(Debug, Clone)]
pub struct Recruit {
    pub name: String,
    pub number: i32,
}

#[derive(Debug, Clone)]
pub struct Terrain {
    pub name: String,
    pub color: String,
    /// `regular_recruit`: a higher character musters the lower ones (a ladder).
    pub regular: bool,
    pub recruits: Vec<Recruit>,
    pub starting: Vec<(String, u8)>,
    /// For an alias: the name players see.
    pub display_name: Option<String>,
    /// Java recruitment classes it names as `Special:<class>` recruits.
    pub specials: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Acquirable {
    pub name: String,
    pub points: u32,
    pub terrains: Vec<String>,
}

pub struct TerXml {
    pub terrains: Vec<Terrain>,
    pub acquirable: Vec<Acquirable>,
    pub titan_teleport: Option<u32>,
    pub titan_improve: Option<u32>,
    /// Java recruitment classes named as `Special:<class>` recruits.
    pub specials: Vec<String>,
}

/// The special recruiter names and the class whose characters they stand for
/// (`None`: any character).
fn special(name: &str) -> Option<Option<&'static str>> {
    Some(match name {
        "Anything" => None,
        "AnyNonLord" => Some("creature"),
        "Lord" => Some("lord"),
        "DemiLord" => Some("demilord"),
        _ => return None,
    })
}

/// Reads a `*Ter.xml`; a recruit, starting or acquirable character that is
/// neither a creature nor a special recruiter is an error at its line.
pub fn read(file: &XmlFile, creatures: &Creatures) -> Result<TerXml, Error> {
    let doc = file.parse()?;
    let r = root(file, &doc, "terrains")?;
    let known = |n: roxmltree::Node, name: &str, specials: bool| {
        if creatures.has(name) || (specials && special(name).is_some()) {
            Ok(())
        } else {
            Err(file.error(&doc, n, format!("{name:?} is no creature of this variant")))
        }
    };
    let mut terrains = Vec::new();
    let mut specials = Vec::new();
    for t in children(r, "terrain") {
        let mut recruits = Vec::new();
        let mut own = Vec::new();
        for n in children(t, "recruit") {
            let name = file.attr(&doc, n, "name")?.to_string();
            if let Some(class) = name.strip_prefix("Special:") {
                specials.push(class.to_string());
                own.push(class.to_string());
                continue;
            }
            known(n, &name, true)?;
            recruits.push(Recruit {
                number: file.num(&doc, n, "number")?,
                name,
            });
        }
        let mut starting = Vec::new();
        for n in children(t, "starting") {
            let name = file.attr(&doc, n, "name")?.to_string();
            known(n, &name, false)?;
            starting.push((name, file.num(&doc, n, "number")?));
        }
        terrains.push(Terrain {
            name: file.attr(&doc, t, "name")?.to_string(),
            color: t.attribute("color").unwrap_or("grey").to_string(),
            regular: !t
                .attribute("regular_recruit")
                .is_some_and(|v| v.eq_ignore_ascii_case("false")),
            recruits,
            starting,
            display_name: None,
            specials: own,
        });
    }
    // An alias is a terrain of its own (its own battleland) mustering as
    // its source does.
    for a in children(r, "alias") {
        let source = file.attr(&doc, a, "source")?;
        let Some(src) = terrains.iter().find(|t| t.name == source).cloned() else {
            return Err(file.error(
                &doc,
                a,
                format!("alias of {source:?}, which is no terrain here"),
            ));
        };
        terrains.push(Terrain {
            name: file.attr(&doc, a, "name")?.to_string(),
            color: a.attribute("color").unwrap_or(&src.color).to_string(),
            display_name: a.attribute("display_name").map(str::to_string),
            ..src
        });
    }
    let mut acquirable: Vec<Acquirable> = Vec::new();
    for n in children(r, "acquirable") {
        let name = file.attr(&doc, n, "name")?.to_string();
        known(n, &name, false)?;
        let points = file.num(&doc, n, "points")?;
        let terrain = n.attribute("terrain").map(str::to_string);
        match acquirable
            .iter_mut()
            .find(|a| a.name == name && a.points == points)
        {
            Some(a) => a.terrains.extend(terrain),
            None => acquirable.push(Acquirable {
                name,
                points,
                terrains: terrain.into_iter().collect(),
            }),
        }
    }
    let points = |tag: &str| -> Result<Option<u32>, Error> {
        children(r, tag)
            .map(|n| file.num(&doc, n, "points"))
            .last()
            .transpose()
    };
    Ok(TerXml {
        terrains,
        acquirable,
        titan_teleport: points("titan_teleport")?,
        titan_improve: points("titan_improve")?,
        specials,
    })
}

/// The titan mustering table of a terrain. Each recruit with a number of 0
/// or more is a row; what it needs follows from the entry before it: a
/// special recruiter gives identical characters (of a class), a creature
/// of the row just above gives `Previous`, any other creature (one shown
/// only, number -1) gives `Character`. A creature listed twice gets one
/// row with both ways.
pub fn muster_table(t: &Terrain) -> MusterTable {
    let mut rows: Vec<MusterRow> = Vec::new();
    for (i, rec) in t.recruits.iter().enumerate() {
        if rec.number < 0 || special(&rec.name).is_some() {
            continue;
        }
        let n = u8::try_from(rec.number).unwrap_or(u8::MAX);
        let need = match (n, i.checked_sub(1).map(|p| &t.recruits[p])) {
            (0, _) => Some(Needs::Free),
            // The first of a chain: one of itself (`like`).
            (_, None) => None,
            (_, Some(prev)) => Some(match special(&prev.name) {
                Some(class) => Needs::Identical {
                    count: n,
                    class: class.map(str::to_string),
                },
                None if rows.last().is_some_and(|r| r.character == prev.name) => Needs::Previous(n),
                None if prev.name == rec.name => continue,
                None => Needs::Character {
                    name: prev.name.clone(),
                    count: n,
                },
            }),
        };
        match rows.iter_mut().find(|r| r.character == rec.name) {
            Some(row) => {
                // Previous would now point at another row: name it.
                let need = match need {
                    Some(Needs::Previous(c)) => Some(Needs::Character {
                        name: t.recruits[i - 1].name.clone(),
                        count: c,
                    }),
                    other => other,
                };
                row.needs.extend(need.filter(|n| !row.needs.contains(n)));
            }
            None => rows.push(MusterRow {
                character: rec.name.clone(),
                needs: need.into_iter().collect(),
                like: true,
                ladder: true,
            }),
        }
    }
    MusterTable {
        terrain: t.name.clone(),
        ladder: t.regular,
        when_exhausted: Default::default(),
        rows,
    }
}
