//! One Colossus variant turned into titan's variant data.

use std::collections::BTreeMap;

use titan_core::format::{
    Acquire, BattlelandDef, Counted, Files, Manifest, MasterboardDef, MusterTable, PlayerCount,
    RulesDef, TerrainDef, VariantData,
};

use crate::java::{self, LuaFile};
use crate::manifest::Source;
use crate::readme::Notes;
use crate::terrains::TerXml;
use crate::{Error, battlelands, colors, creatures, hazards, map, markers, rnd, terrains};

/// The bundled rules, the base of every import's numbers.
const TITAN_RULES: &str = include_str!("../../variants/titan/rules.ron");

/// Everything an imported variant folder holds: its data as titan-core
/// reads it (the scripts apart), the scripts the importer writes and the
/// README's notes.
pub struct Converted {
    pub id: String,
    pub data: VariantData,
    /// Scripts written for the Java classes and hazards titan runs in Lua.
    pub scripts: Vec<LuaFile>,
    pub notes: Notes,
}

/// The id of an imported variant: its Colossus name in lower case.
pub fn id_of(name: &str) -> String {
    name.to_lowercase()
}

pub fn convert(src: &Source) -> Result<Converted, Error> {
    let mut notes = Notes::new(src);
    let cre = creatures::read(&src.creature_files()?)?;
    let ter_file = src.file_of(|v| v.terrains.clone(), "terrain_recruits")?;
    let ter = terrains::read(&ter_file, &cre)?;
    let map_file = src.file_of(|v| v.map.clone(), "strategic_map")?;
    let board = map::read(&map_file)?;
    every_terrain_defined(&board, &ter, &map_file.path, &ter_file.path)?;
    let (lands, battlelands, towers) =
        read_battlelands(src, &ter, &board, &map_file.path, &mut notes)?;
    let mut masterboard = board.to_def();
    for land in &mut masterboard.lands {
        if let Some(t) = lands.iter().find(|t| t.name == land.terrain)
            && let Some(shown) = &t.display_name
        {
            land.name = Some(format!("{shown} {}", land.number));
        }
    }
    let terrain_defs: Vec<TerrainDef> = lands
        .iter()
        .map(|t| TerrainDef {
            name: t.name.clone(),
            color: colors::rgb(&t.color),
            tower: towers.contains(&t.name),
            shared: false,
        })
        .collect();
    let mut mustering: Vec<MusterTable> = lands.iter().map(terrains::muster_table).collect();
    let tower_lands = masterboard
        .lands
        .iter()
        .filter(|l| towers.contains(&l.terrain))
        .count();
    let wanted = src.var.max_players.unwrap_or(6);
    let max = wanted.min(u8::try_from(tower_lands).unwrap_or(u8::MAX));
    if max < 2 {
        return Err(Error::at(
            &map_file.path,
            1,
            format!("the board has {tower_lands} tower lands: too few for two players"),
        ));
    }
    if max < wanted {
        notes.not(format!(
            "{wanted} players: the board has {tower_lands} towers, so {max} play here"
        ));
    }
    let mut rules = rules(src, &cre, &ter, &lands, &towers)?;
    if let (Some(markers), Some(legions)) = (markers::read(src)?, rules.legions.as_mut())
        && let Some(line) = markers.apply(legions, max)
    {
        notes.imported(line);
    }
    let mut cre = cre;
    let mut scripts = java_rules(
        &mut notes,
        &ter,
        &lands,
        &mut cre,
        &mut mustering,
        &mut rules,
    );
    drop_uncounted(&mut cre, &mustering, &rules, &mut notes);
    one_way_signs(&mut masterboard, &mut notes);
    let mut hazards = hazards::chart();
    hazards::add_combined(&mut hazards, &battlelands);
    effects(&mut notes, &battlelands, &cre, &mut hazards, &mut scripts);
    let variables = java::variables(&scripts);
    let id = id_of(&src.var.name);
    notes.counts(
        masterboard.lands.len(),
        terrain_defs.len(),
        battlelands.len(),
        cre.defs.len(),
        max,
    );
    let mut manifest = manifest(src, &id, max, &masterboard, &battlelands, cre.defs.len());
    manifest.files.scripts = scripts.iter().map(|f| f.name.to_string()).collect();
    if !variables.is_empty() {
        manifest.files.variables = Some("variables.ron".into());
    }
    Ok(Converted {
        id,
        data: VariantData {
            manifest,
            terrains: terrain_defs,
            hazards,
            characters: cre.defs,
            mustering,
            masterboard,
            battlelands,
            rules,
            scripts: Vec::new(),
            variables,
            actions: Vec::new(),
        },
        scripts,
        notes,
    })
}

/// Every land's terrain has a mustering table.
fn every_terrain_defined(
    board: &map::Board,
    ter: &TerXml,
    map_path: &std::path::Path,
    ter_path: &std::path::Path,
) -> Result<(), Error> {
    for land in &board.lands {
        if !ter.terrains.iter().any(|t| t.name == land.terrain) {
            return Err(Error::at(
                map_path,
                board.line(land.number),
                format!(
                    "land {} is {:?}, which {} does not define",
                    land.number,
                    land.terrain,
                    ter_path.display()
                ),
            ));
        }
    }
    Ok(())
}

/// The Java rule classes the variant names (`Special:` recruits, creatures'
/// `special`): those written in Lua change the data and bring their
/// scripts (in `java::RULES`' order), the others are README lines.
fn java_rules(
    notes: &mut Notes,
    ter: &TerXml,
    lands: &[terrains::Terrain],
    cre: &mut creatures::Creatures,
    mustering: &mut [MusterTable],
    rules: &mut RulesDef,
) -> Vec<LuaFile> {
    let mut by_class: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (c, class) in &cre.specials {
        by_class.entry(class.clone()).or_default().push(c.clone());
    }
    let mut classes: Vec<String> = ter.specials.clone();
    classes.extend(by_class.keys().cloned());
    let mut seen = Vec::new();
    classes.retain(|c| {
        let new = !seen.contains(c);
        seen.push(c.clone());
        new
    });
    let specials: Vec<(String, Vec<String>)> = lands
        .iter()
        .map(|t| (t.name.clone(), t.specials.clone()))
        .collect();
    let mut scripts: Vec<LuaFile> = Vec::new();
    let mut done: Vec<&str> = Vec::new();
    for r in java::RULES {
        let Some(class) = classes
            .iter()
            .find(|c| java::rule(c).is_some_and(|k| k.class == r.class))
        else {
            continue;
        };
        done.push(class.as_str());
        let chars = by_class.get(class).map(|c| c.join(", "));
        let mut classes_def = rules.classes.take().unwrap_or_default();
        let applied = java::apply(
            class,
            &mut java::Data {
                creatures: &mut *cre,
                mustering: &mut *mustering,
                specials: &specials,
                classes: &mut classes_def,
            },
        );
        rules.classes = Some(classes_def);
        if applied {
            notes.java_in_lua(class, chars.as_deref(), &r.lua.name);
            if !scripts.iter().any(|f| f.name == r.lua.name) {
                scripts.push(r.lua.clone());
            }
        } else {
            notes.java(class, chars.as_deref());
        }
    }
    for class in &classes {
        if !done.contains(&class.as_str()) {
            let chars = by_class.get(class).map(|c| c.join(", "));
            notes.java(class, chars.as_deref());
        }
    }
    scripts
}

/// The README lines of hazards' effects titan lacks and of poison.
fn effects(
    notes: &mut Notes,
    battlelands: &[BattlelandDef],
    cre: &creatures::Creatures,
    chart: &mut [titan_core::format::HazardDef],
    scripts: &mut Vec<LuaFile>,
) {
    let used = |h: &str| {
        battlelands
            .iter()
            .any(|b| b.hexes.values().any(|x| x.hazard == h))
    };
    if used("TarPit") {
        scripts.push(hazards::TARPIT_LUA);
        notes.imported(
            "a TarPit's lasting slowing (a non-native in one loses a movement point for the battle at the beginning of each strike phase; a Spring gives one back), written in Lua: `tarpit.lua`".into(),
        );
    }
    if used("Spring") {
        if let Some(spring) = chart.iter_mut().find(|h| h.name == "Spring") {
            spring.effects.push(titan_core::format::Effect::Hook(
                hazards::SPRING_HOOK.into(),
            ));
        }
        scripts.push(hazards::SPRING_LUA);
        notes.imported(
            "a Spring's healing (every character in it heals a hit each strike phase), written in Lua: `spring.lua`".into(),
        );
    }
    // Sand dries only water-dwellers (Colossus: the natives of Lake).
    let dwellers = cre
        .defs
        .iter()
        .any(|c| c.natives.iter().any(|n| n == "Lake"));
    if used("Sand") && dwellers {
        if let Some(sand) = chart.iter_mut().find(|h| h.name == "Sand") {
            sand.effects
                .push(titan_core::format::Effect::Hook(hazards::SAND_HOOK.into()));
        }
        scripts.push(hazards::SAND_LUA);
        notes.imported(
            "Sand's drying of water-dwellers (a native of Lake in Sand takes a hit each strike phase), written in Lua: `sand.lua`".into(),
        );
    }
    if !cre.poison.is_empty() {
        let names: Vec<&str> = cre.poison.iter().map(|(c, _)| c.as_str()).collect();
        scripts.push(hazards::poison_lua(&cre.poison));
        notes.imported(format!(
            "the poison of {} (a strike that hits poisons its target, who takes the poison in hits at the beginning of each strike phase), written in Lua: `poison.lua`",
            names.join(", ")
        ));
    }
}

fn manifest(
    src: &Source,
    id: &str,
    max: u8,
    masterboard: &MasterboardDef,
    battlelands: &[BattlelandDef],
    characters: usize,
) -> Manifest {
    Manifest {
        id: id.to_string(),
        title: src.var.name.clone(),
        version: "1.0.0".into(),
        description: format!(
            "Imported from the Colossus variant {}: {} lands, {} battlelands, {} characters.",
            src.var.name,
            masterboard.lands.len(),
            battlelands.len(),
            characters
        ),
        players: Some(PlayerCount { min: 2, max }),
        extends: None,
        options: Vec::new(),
        files: Files {
            terrains: Some("terrains.ron".into()),
            hazards: Some("hazards.ron".into()),
            characters: Some("characters.ron".into()),
            mustering: Some("mustering.ron".into()),
            masterboard: Some("masterboard.ron".into()),
            rules: Some("rules.ron".into()),
            battlelands: battlelands
                .iter()
                .map(|b| titan_core::write::alternative_file(&b.terrain, b.alternative))
                .collect(),
            ..Files::default()
        },
        remove: Default::default(),
    }
}

/// Characters of count 0 are put into play by Java rules only; titan wants
/// counters for every character. Unused ones are left out, used ones get
/// one counter.
fn drop_uncounted(
    cre: &mut creatures::Creatures,
    mustering: &[MusterTable],
    rules: &RulesDef,
    notes: &mut Notes,
) {
    let used = |name: &str| {
        mustering.iter().any(|t| {
            t.rows.iter().any(|r| {
                r.character == name
                    || r.needs.iter().any(|n| matches!(n, titan_core::format::Needs::Character { name: c, .. } if c == name))
            })
        }) || rules.start.as_ref().is_some_and(|s| s.characters.iter().any(|c| c.character == name))
            || rules.scoring.as_ref().is_some_and(|s| s.acquire.iter().any(|a| a.character == name))
    };
    let mut dropped = Vec::new();
    cre.defs.retain_mut(|c| {
        if c.count > 0 {
            return true;
        }
        if used(&c.name) {
            c.count = 1;
            notes.not(format!(
                "{}'s count of 0 (titan needs a counter: it has one)",
                c.name
            ));
            return true;
        }
        dropped.push(c.name.clone());
        false
    });
    if !dropped.is_empty() {
        notes.not(format!(
            "characters with no counters, which only Java rules bring into play: {}",
            dropped.join(", ")
        ));
    }
}

/// A Colossus single sign with no answer leads one way: the board says
/// `one_way_signs: true` (titan otherwise answers every block, arch and
/// arrow with a single sign pointing back), and the README lists them.
fn one_way_signs(board: &mut MasterboardDef, notes: &mut Notes) {
    let answered: std::collections::HashSet<(u32, u32)> = board
        .lands
        .iter()
        .flat_map(|l| {
            l.exits
                .iter()
                .filter(|e| e.sign.is_single())
                .map(move |e| (e.to, l.number))
        })
        .collect();
    let mut one_way = Vec::new();
    for l in &board.lands {
        for e in &l.exits {
            if e.sign.is_single() && !answered.contains(&(l.number, e.to)) {
                one_way.push(format!("{}->{}", l.number, e.to));
            }
        }
    }
    if !one_way.is_empty() {
        board.one_way_signs = Some(true);
        notes.imported(format!(
            "{} one-way single signs (`one_way_signs: true` in masterboard.ron): {}",
            one_way.len(),
            one_way.join(", ")
        ));
    }
}

type Lands = (Vec<terrains::Terrain>, Vec<BattlelandDef>, Vec<String>);

/// The battleland of every terrain: a terrain on the board without one is
/// an error; one only in the mustering file is left out.
fn read_battlelands(
    src: &Source,
    ter: &TerXml,
    board: &map::Board,
    map_path: &std::path::Path,
    notes: &mut Notes,
) -> Result<Lands, Error> {
    let mut kept = Vec::new();
    let mut lands = Vec::new();
    let mut towers = Vec::new();
    let mut random = Vec::new();
    for t in &ter.terrains {
        let on_board = board.lands.iter().find(|l| l.terrain == t.name);
        let name = format!("Battlelands/{}.xml", t.name);
        if let Some(rnd) = random_battleland(src, &t.name) {
            let drawn = rnd::draw(&rnd, &t.name, RANDOM_BATTLELANDS)?;
            if drawn.iter().any(|b| b.tower) {
                towers.push(t.name.clone());
            }
            let clashed = drawn.iter().filter(|b| !b.clashes.is_empty()).count();
            if clashed > 0 {
                notes.imported(format!(
                    "in {clashed} of {}'s random battlelands, hexsides given a different hazard from each of their two hexes, as one combined hazard (`hazards.ron`)",
                    t.name
                ));
            }
            random.push(t.name.clone());
            lands.extend(drawn.into_iter().map(|b| b.def));
            kept.push(t.clone());
            continue;
        }
        let Some(path) = src.find(&name) else {
            if let Some(land) = on_board {
                return Err(Error::at(
                    map_path,
                    board.line(land.number),
                    format!(
                        "land {} is {}, and no variant it reads has {name}",
                        land.number, t.name
                    ),
                ));
            }
            notes.not(format!(
                "terrain {} (no land of the board, no battleland)",
                t.name
            ));
            continue;
        };
        let file = crate::xml::XmlFile::read(&path, None)?;
        let b = battlelands::read(&file, &t.name)?;
        if b.tower {
            towers.push(t.name.clone());
        }
        if !b.clashes.is_empty() {
            notes.imported(format!(
                "in {}'s battleland, hexsides given a different hazard from each of their two hexes, as one combined hazard (`hazards.ron`: the effects of both; crossing it costs what the stricter of the two costs, either way when they differ): {}",
                t.name,
                b.clashes.join(", ")
            ));
        }
        lands.push(b.def);
        kept.push(t.clone());
    }
    random_notes(src, ter, &random, notes);
    Ok((kept, lands, towers))
}

/// How many battlelands a terrain with a random one (`.rnd`) gets: each
/// game draws one of them.
pub const RANDOM_BATTLELANDS: u32 = 12;

/// The `Battlelands/<terrain>.rnd` of the first folder the variant reads
/// that has the terrain's battleland, as `.rnd` or `.xml`.
fn random_battleland(src: &Source, terrain: &str) -> Option<std::path::PathBuf> {
    src.search.iter().find_map(|d| {
        let rnd = d.join(format!("Battlelands/{terrain}.rnd"));
        let xml = d.join(format!("Battlelands/{terrain}.xml"));
        match (rnd.is_file(), xml.is_file()) {
            (true, _) => Some(Some(rnd)),
            (false, true) => Some(None),
            _ => None,
        }
    })?
}

/// What the README says of the random battlelands: those imported, and
/// `.rnd` files of the variant's own no terrain has.
fn random_notes(src: &Source, ter: &TerXml, random: &[String], notes: &mut Notes) {
    if !random.is_empty() {
        notes.imported(format!(
            "Random battlelands (`Battlelands/*.rnd`, Colossus's battleland randomizer language) of {}: titan's reading of the language drew {RANDOM_BATTLELANDS} battlelands of each from fixed seeds (so every import writes the same), `alternative` 1 to {RANDOM_BATTLELANDS} in `battlelands/`, and each game draws one of them per terrain at its start; Colossus drew a new one from the file each time it loaded the variant",
            random.join(", ")
        ));
    }
    let Ok(dir) = std::fs::read_dir(src.dir.join("Battlelands")) else {
        return;
    };
    let mut unused: Vec<String> = dir
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rnd"))
        .filter_map(|p| Some(p.file_stem()?.to_string_lossy().into_owned()))
        .filter(|stem| !ter.terrains.iter().any(|t| t.name == *stem))
        .collect();
    unused.sort();
    for stem in unused {
        notes.not(format!(
            "`Battlelands/{stem}.rnd`: a random battleland of {stem}, which is no terrain of the variant"
        ));
    }
}

fn rules(
    src: &Source,
    cre: &creatures::Creatures,
    ter: &TerXml,
    lands: &[terrains::Terrain],
    towers: &[String],
) -> Result<RulesDef, Error> {
    let mut rules: RulesDef = titan_core::load::ron_options()
        .from_str(TITAN_RULES)
        .expect("the bundled rules parse");
    if !cre.has("Titan") {
        return Err(Error::at(&src.var.path, 1, "its creatures have no Titan"));
    }
    let mut acquire: Vec<&terrains::Acquirable> = ter.acquirable.iter().collect();
    acquire.sort_by_key(|a| a.points);
    let mut start = vec![Counted {
        character: "Titan".into(),
        count: 1,
    }];
    if let Some(first) = acquire.first() {
        start.push(Counted {
            character: first.name.clone(),
            count: 1,
        });
    }
    let tower = lands
        .iter()
        .find(|t| towers.contains(&t.name) && !t.starting.is_empty());
    for (name, count) in tower.map(|t| t.starting.as_slice()).unwrap_or_default() {
        start.push(Counted {
            character: name.clone(),
            count: *count,
        });
    }
    if let Some(s) = rules.start.as_mut() {
        s.characters = start;
    }
    // One acquirable per character and step: the terrains of its entries
    // together, or any land when one entry names none.
    let mut merged: Vec<Acquire> = Vec::new();
    for a in &acquire {
        match merged
            .iter_mut()
            .find(|m| m.character == a.name && m.every == a.points)
        {
            Some(m) if m.terrains.is_empty() => {}
            Some(m) if a.terrains.is_empty() => m.terrains.clear(),
            Some(m) => {
                for t in &a.terrains {
                    if !m.terrains.contains(t) {
                        m.terrains.push(t.clone());
                    }
                }
            }
            None => merged.push(Acquire {
                character: a.name.clone(),
                every: a.points,
                terrains: a.terrains.clone(),
            }),
        }
    }
    if let Some(s) = rules.scoring.as_mut() {
        s.acquire = merged;
    }
    if let Some(m) = rules.movement.as_mut()
        && let (Some(tt), Some(p)) = (m.titan_teleport.as_mut(), ter.titan_teleport)
    {
        tt.min_score = p;
    }
    if let (Some(t), Some(p)) = (rules.titan.as_mut(), ter.titan_improve) {
        t.points_per_power = p;
    }
    Ok(rules)
}
