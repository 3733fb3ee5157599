//! The characters (`*Cre.xml`): power, skill, flags, natives, counts,
//! lords, demilords and summonables.

use titan_core::format::{CharacterDef, RangeStrength, RangestrikeDef};

use crate::Error;
use crate::xml::{XmlFile, children, root};

/// Colossus's nativity attributes and the hazards of titan they make a
/// character native to (a Sand native is a Dune native in Colossus).
const NATIVES: &[(&str, &[&str])] = &[
    ("Brambles", &["Bramble"]),
    ("Drift", &["Drift"]),
    ("Bog", &["Bog"]),
    ("Sand", &["Sand", "Dune"]),
    ("slope", &["Slope"]),
    ("Volcano", &["Volcano"]),
    ("river", &["River"]),
    ("Stone", &["Stone"]),
    ("Tree", &["Tree"]),
    ("Lake", &["Lake"]),
    ("Spring", &["Spring"]),
];

/// A Titan's power in Colossus before points (its `power` is -1 in the files).
pub const TITAN_BASE_POWER: u8 = 6;

/// The characters read, and what of them was not imported.
#[derive(Default)]
pub struct Creatures {
    pub defs: Vec<CharacterDef>,
    /// (character, Java class) of `special=` creatures.
    pub specials: Vec<(String, String)>,
    /// Poisonous characters and their poison (hits a strike phase).
    pub poison: Vec<(String, u8)>,
}

impl Creatures {
    pub fn has(&self, name: &str) -> bool {
        self.defs.iter().any(|c| c.name == name)
    }
}

/// Reads the creature files in order; a later file's creature replaces an
/// earlier one of the same name.
pub fn read(files: &[XmlFile]) -> Result<Creatures, Error> {
    let mut out = Creatures::default();
    for file in files {
        let doc = file.parse()?;
        let r = root(file, &doc, "creatures")?;
        for n in children(r, "creature") {
            let name = file.attr(&doc, n, "name")?.to_string();
            let power: i32 = file.num(&doc, n, "power")?;
            let skill: u8 = file.num(&doc, n, "skill")?;
            let lord = file.flag(&doc, n, "lord")?;
            let mut natives = Vec::new();
            for (attr, hazards) in NATIVES {
                if file.flag(&doc, n, attr)? {
                    natives.extend(hazards.iter().map(|h| h.to_string()));
                }
            }
            let magic = file.flag(&doc, n, "magic_missile")?;
            let rangestrike = file
                .flag(&doc, n, "rangestrikes")?
                .then_some(RangestrikeDef {
                    magic,
                    strength: RangeStrength::HalfPower,
                    strikes: 1,
                });
            let power = match u8::try_from(power) {
                Ok(p) => p,
                // The Titan's -1: its power grows with its score.
                Err(_) if power < 0 => TITAN_BASE_POWER,
                Err(_) => return Err(file.error(&doc, n, format!("power {power} is too large"))),
            };
            let def = CharacterDef {
                per_legion: None,
                plural: n
                    .attribute("plural_name")
                    .map_or_else(|| format!("{name}s"), str::to_string),
                power,
                skill,
                class: if lord {
                    "lord"
                } else if file.flag(&doc, n, "demilord")? {
                    "demilord"
                } else {
                    "creature"
                }
                .to_string(),
                flies: file.flag(&doc, n, "flies")?,
                rangestrike,
                natives,
                count: file.num(&doc, n, "count")?,
                summonable: file.flag(&doc, n, "summonable")?,
                value: None,
                abilities: Vec::new(),
                uncounted: false,
                name: name.clone(),
            };
            if let Some(class) = n.attribute("special") {
                out.specials.retain(|(c, _)| *c != name);
                out.specials.push((name.clone(), class.to_string()));
            }
            // `poison` is a number of hits (or a flag) in Colossus's files.
            let poison = match n.attribute("poison") {
                Some(p) if p.eq_ignore_ascii_case("true") => 1,
                Some(p) => p.trim().parse::<u8>().unwrap_or(0),
                None => 0,
            };
            out.poison.retain(|(c, _)| *c != name);
            if poison > 0 {
                out.poison.push((name.clone(), poison));
            }
            match out.defs.iter_mut().find(|c| c.name == name) {
                Some(old) => *old = def,
                None => out.defs.push(def),
            }
        }
    }
    Ok(out)
}
