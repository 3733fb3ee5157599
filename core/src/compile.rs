//! Validation and compilation: from merged files to a [`Variant`].
//!
//! Every check a variant must pass lives here, and every name is resolved to
//! an id here, once. A failed check is a [`Diagnostic`] that names the file,
//! line and column of what is wrong; compilation reports all it finds rather
//! than stopping at the first.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet, VecDeque};
use std::rc::Rc;

use petgraph::graph::DiGraph;

use crate::diag::{Diagnostic, FileId, Sources};
use crate::format::{self, At, Place};
use crate::load::{Loaded, Origins};
use crate::lua::{LuaHost, LuaLimits, ScriptError};
use crate::model::*;
use crate::rng::GameRng;

mod actions;
mod battleland;
mod markers;
mod movement;

/// Validates merged variant data and builds the engine's model of it.
pub fn compile(loaded: &Loaded) -> Result<Variant, Vec<Diagnostic>> {
    let mut c = Compiler {
        data: &loaded.data,
        sources: &loaded.sources,
        origins: &loaded.origins,
        errors: Vec::new(),
        hooks: Vec::new(),
        unit_filters: Vec::new(),
        scripts_ran: false,
    };
    let variant = c.run();
    match variant {
        Some(v) if c.errors.is_empty() => Ok(v),
        _ => Err(c.errors),
    }
}

pub use crate::lua::script_limits;

/// Runs a variant's scripts in a fresh sandbox, as a game would.
pub fn run_scripts(data: &format::VariantData, seed: u64) -> Result<LuaHost, ScriptError> {
    let rng = Rc::new(RefCell::new(GameRng::new(seed)));
    let mut host = LuaHost::with_events(
        script_limits(&data.rules),
        rng,
        &crate::script::EVENT_CATALOG,
    )?;
    for script in &data.scripts {
        host.load_script(script)?;
    }
    Ok(host)
}

struct Compiler<'a> {
    data: &'a format::VariantData,
    sources: &'a Sources,
    origins: &'a Origins,
    errors: Vec<Diagnostic>,
    hooks: Vec<String>,
    /// The handlers' unit filters, by script and line (names checked once
    /// the characters and classes are known).
    unit_filters: Vec<(String, Option<u32>, String, crate::script::Condition)>,
    /// The scripts ran (so a missing function is worth an error).
    scripts_ran: bool,
}

/// Looks a name up in a name -> id table.
fn lookup<T: Copy>(table: &HashMap<&str, T>, name: &str) -> Option<T> {
    table.get(name).copied()
}

impl<'a> Compiler<'a> {
    fn error(&mut self, file: FileId, anchors: &[&str], message: impl Into<String>) {
        let d = self.sources.at(file, anchors, message);
        self.errors.push(d);
    }

    fn manifest(&self) -> FileId {
        self.origins.manifest
    }

    fn run(&mut self) -> Option<Variant> {
        let data = self.data;
        let players = self.players();
        self.scripts();
        let hazards = self.hazards();
        let hazard_ids: HashMap<&str, HazardId> = data
            .hazards
            .iter()
            .enumerate()
            .map(|(i, h)| (h.name.as_str(), HazardId(i as u8)))
            .collect();
        let terrains = self.terrains();
        let terrain_ids: HashMap<&str, TerrainId> = data
            .terrains
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.as_str(), TerrainId(i as u8)))
            .collect();
        let classes = self.classes();
        let class_ids: HashMap<&str, ClassId> = classes
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.as_str(), ClassId(i as u8)))
            .collect();
        let characters = self.characters(&hazard_ids, &class_ids);
        let character_ids: HashMap<&str, CharacterId> = data
            .characters
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.as_str(), CharacterId(i as u16)))
            .collect();
        self.check_unit_filters(&class_ids, &character_ids, &hazard_ids);
        let mustering = self.mustering(&terrain_ids, &character_ids, &class_ids);
        let board = self.masterboard(&terrain_ids);
        self.towers_for_players(&board);
        let battlelands = self.battlelands(&terrain_ids, &hazard_ids, &hazards);
        let rules = self.rules(&character_ids, &terrain_ids);
        self.variables();
        let actions = self.actions(&class_ids, &character_ids);
        let (battlelands, mut alternatives) = battlelands?;

        let mut variant = Variant {
            id: data.manifest.id.clone(),
            title: data.manifest.title.clone(),
            version: data.manifest.version.clone(),
            description: data.manifest.description.clone(),
            players: players?,
            extends: data.manifest.extends.iter().cloned().collect(),
            options: data.manifest.options.clone(),
            terrains,
            hazards,
            classes,
            characters,
            mustering: mustering?,
            board,
            battlelands,
            alternatives: Default::default(),
            drawn: Vec::new(),
            rules: rules?,
            scripts: data.scripts.clone(),
            hooks: self.hooks.clone(),
            variables: data.variables.clone(),
            actions,
            data: data.clone(),
            battle_tables: Default::default(),
            chunks: Default::default(),
        };
        variant.battle_tables = crate::model::tables::BattleTables::new(&variant);
        if alternatives.lands.iter().any(|l| !l.is_empty()) {
            alternatives.tables = alternatives
                .lands
                .iter()
                .map(|ls| {
                    ls.iter()
                        .map(|l| variant.battle_tables.for_land(&variant, l))
                        .collect()
                })
                .collect();
            variant.alternatives = std::sync::Arc::new(alternatives);
        }
        Some(variant)
    }

    /// `variables.ron`: names scripts can use, defaults of the declared type.
    fn variables(&mut self) {
        for v in &self.data.variables {
            let file = self
                .origins
                .variables
                .get(&v.name)
                .copied()
                .unwrap_or(self.manifest());
            let q = format!("\"{}\"", v.name);
            let valid_name = !v.name.is_empty()
                && v.name.len() <= 64
                && v.name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
            if !valid_name {
                self.error(
                    file,
                    &[&q],
                    format!(
                        "variable {:?}: a name is 1 to 64 letters, digits, '_' or '-'",
                        v.name
                    ),
                );
            }
            if v.default.var_type() != v.kind {
                self.error(
                    file,
                    &[&q, "default"],
                    format!(
                        "variable {:?} is of type {:?}, but its default {:?} is not",
                        v.name, v.kind, v.default
                    ),
                );
            }
        }
    }

    fn players(&mut self) -> Option<format::PlayerCount> {
        let m = &self.data.manifest;
        if m.id.trim().is_empty() {
            self.error(self.manifest(), &["id"], "the variant's id is empty");
        }
        let Some(p) = m.players else {
            self.error(
                self.manifest(),
                &["("],
                "`players` is missing (say how many may play, e.g. `players: (min: 2, max: 6)`)",
            );
            return None;
        };
        if p.min == 0 || p.min > p.max {
            self.error(
                self.manifest(),
                &["players"],
                format!(
                    "players (min: {}, max: {}) is no range of player counts",
                    p.min, p.max
                ),
            );
        }
        let mut seen = HashSet::new();
        for o in &m.options {
            if !seen.insert(o.name.as_str()) {
                let q = format!("\"{}\"", o.name);
                self.error(
                    self.manifest(),
                    &[&q, &q],
                    format!("option {:?} is declared twice", o.name),
                );
            }
            // Bounds are for integer options, and hold their default.
            let out_of_bounds = match o.default {
                format::OptionValue::Int(d) => {
                    o.min.is_some_and(|m| d < m) || o.max.is_some_and(|m| d > m)
                }
                _ => o.min.is_some() || o.max.is_some(),
            };
            if out_of_bounds {
                let q = format!("\"{}\"", o.name);
                self.error(
                    self.manifest(),
                    &[&q],
                    format!(
                        "option {:?}: min and max bound an integer option, and its default must lie within them",
                        o.name
                    ),
                );
            }
        }
        Some(p)
    }

    /// Runs every script once in the sandbox, which compiles it and registers
    /// its hooks.
    fn scripts(&mut self) {
        match run_scripts(self.data, 0) {
            Ok(host) => {
                self.hooks = host.hook_names();
                self.unit_filters = host
                    .conditional_filters()
                    .into_iter()
                    .filter_map(|(script, line, event, f)| {
                        let unit = f.condition::<crate::script::Condition>()?.clone();
                        Some((script, line, event, unit))
                    })
                    .collect();
                self.scripts_ran = true;
            }
            Err(e) => self.errors.push(Diagnostic {
                file: e.script.clone(),
                line: e.line.map_or(0, |l| l as usize),
                column: 0,
                message: e.message.clone(),
            }),
        }
    }

    /// A unit filter naming a character or class the variant does not
    /// have would never pass: an error at its script's line.
    fn check_unit_filters(
        &mut self,
        classes: &HashMap<&str, ClassId>,
        characters: &HashMap<&str, CharacterId>,
        hazards: &HashMap<&str, HazardId>,
    ) {
        for (script, line, event, filters) in std::mem::take(&mut self.unit_filters) {
            let mut bad = Vec::new();
            for h in filters
                .hazards
                .iter()
                .filter(|h| !hazards.contains_key(h.as_str()))
            {
                bad.push(format!("the hazard {h:?}"));
            }
            for f in &filters.units {
                for c in f
                    .character
                    .iter()
                    .filter(|c| !characters.contains_key(c.as_str()))
                {
                    bad.push(format!("the character {c:?}"));
                }
                for c in f.class.iter().filter(|c| !classes.contains_key(c.as_str())) {
                    bad.push(format!("the class {c:?}"));
                }
                if let Some(name) = &f.set {
                    match self.data.variables.iter().find(|v| v.name == *name) {
                        None => bad.push(format!("the variable {name:?}")),
                        Some(v) if v.scope != crate::format::VarScope::Unit => {
                            self.errors.push(Diagnostic {
                                file: script.clone(),
                                line: line.map_or(0, |l| l as usize),
                                column: 0,
                                message: format!(
                                    "titan.on: the filter of {event:?} asks whether the variable {name:?} is set for a unit, but it belongs to a {:?}",
                                    v.scope
                                ),
                            });
                        }
                        Some(_) => {}
                    }
                }
            }
            if !bad.is_empty() {
                self.errors.push(Diagnostic {
                    file: script,
                    line: line.map_or(0, |l| l as usize),
                    column: 0,
                    message: format!(
                        "titan.on: the filter of {event:?} names {}, which this variant does not have",
                        bad.join(" and ")
                    ),
                });
            }
        }
    }

    fn hook(&mut self, file: FileId, anchors: &[&str], name: &str) -> HookId {
        match self.hooks.iter().position(|h| h == name) {
            Some(i) => HookId(i as u16),
            None => {
                self.error(
                    file,
                    anchors,
                    format!("hook {name:?} is registered by no script (titan.hook({name:?}, ...))"),
                );
                HookId(u16::MAX)
            }
        }
    }

    fn hazards(&mut self) -> Vec<Hazard> {
        let data = self.data;
        if data.hazards.len() > MAX_HAZARDS {
            self.error(
                self.manifest(),
                &["hazards"],
                format!(
                    "{} hazards; a variant may have at most {MAX_HAZARDS}",
                    data.hazards.len()
                ),
            );
        }
        let mut out = Vec::new();
        for h in &data.hazards {
            let file = self.origins.hazards[&h.name];
            let q = format!("\"{}\"", h.name);
            let mut effects = Vec::new();
            for e in &h.effects {
                let at_fits = |at: At| match h.place {
                    Place::Hex => matches!(at, At::StrikerIn | At::TargetIn),
                    Place::Hexside => matches!(at, At::StrikingDown | At::StrikingUp),
                };
                let effect = match e {
                    format::Effect::Strike {
                        at,
                        striker,
                        target,
                        skill,
                        dice,
                    }
                    | format::Effect::Rangestrike {
                        at,
                        striker,
                        target,
                        skill,
                        dice,
                    } => {
                        if !at_fits(*at) {
                            self.error(
                                file,
                                &[&q, &format!("{at:?}")],
                                format!(
                                    "hazard {:?} lies on a {:?}, where {at:?} means nothing (hexes take StrikerIn or TargetIn, hexsides StrikingDown or StrikingUp)",
                                    h.name, h.place
                                ),
                            );
                        }
                        let (at, striker, target, skill, dice) =
                            (*at, *striker, *target, *skill, *dice);
                        if matches!(e, format::Effect::Strike { .. }) {
                            Effect::Strike {
                                at,
                                striker,
                                target,
                                skill,
                                dice,
                            }
                        } else {
                            Effect::Rangestrike {
                                at,
                                striker,
                                target,
                                skill,
                                dice,
                            }
                        }
                    }
                    format::Effect::RangestrikeThrough { striker, skill } => {
                        Effect::RangestrikeThrough {
                            striker: *striker,
                            skill: *skill,
                        }
                    }
                    format::Effect::BlocksSight(s) => Effect::BlocksSight(*s),
                    format::Effect::SightCrossed {
                        atop,
                        not_at_foot,
                        waived_by,
                    } => {
                        if h.place != Place::Hexside {
                            self.error(
                                file,
                                &[&q, "SightCrossed"],
                                format!(
                                    "SightCrossed is for hexsides, but {:?} fills a hex",
                                    h.name
                                ),
                            );
                        }
                        if atop.is_empty() {
                            self.error(
                                file,
                                &[&q, "SightCrossed"],
                                format!(
                                    "{:?}: SightCrossed needs at least one entry in atop (what crossing one needs)",
                                    h.name
                                ),
                            );
                        }
                        let mut waivers = HazardSet::default();
                        for name in waived_by {
                            match data.hazards.iter().position(|o| &o.name == name) {
                                Some(i) => waivers.insert(HazardId(i as u8)),
                                None => self.error(
                                    file,
                                    &[&q, &format!("\"{name}\"")],
                                    format!("{:?}: waived_by names no hazard {name:?}", h.name),
                                ),
                            }
                        }
                        Effect::SightCrossed {
                            atop: atop.clone(),
                            not_at_foot: *not_at_foot,
                            waived_by: waivers,
                        }
                    }
                    format::Effect::NoContact => {
                        if h.place != Place::Hexside {
                            self.error(
                                file,
                                &[&q, "NoContact"],
                                format!("NoContact is for hexsides, but {:?} fills a hex", h.name),
                            );
                        }
                        Effect::NoContact
                    }
                    format::Effect::NoContactIn(who) => {
                        if h.place != Place::Hex {
                            self.error(
                                file,
                                &[&q, "NoContactIn"],
                                format!(
                                    "NoContactIn is for hex hazards, but {:?} lies on hexsides",
                                    h.name
                                ),
                            );
                        }
                        Effect::NoContactIn(*who)
                    }
                    format::Effect::Damage { who, hits } => Effect::Damage {
                        who: *who,
                        hits: *hits,
                    },
                    format::Effect::Hook(name) => {
                        Effect::Hook(self.hook(file, &[&q, &format!("\"{name}\"")], name))
                    }
                };
                effects.push(effect);
            }
            let over = [h.movement.over.natives, h.movement.over.others];
            if over.contains(&format::Move::Stop) {
                self.error(
                    file,
                    &[&q, "movement", "over"],
                    format!("{:?}: flying over a hex is Free, Slow or Block", h.name),
                );
            }
            if h.place == Place::Hexside && (h.movement.dive || !h.movement.over.is_free()) {
                self.error(
                    file,
                    &[&q, "movement"],
                    format!(
                        "movement over and dive are for hex hazards, but {:?} lies on hexsides",
                        h.name
                    ),
                );
            }
            out.push(Hazard {
                name: h.name.clone(),
                place: h.place,
                color: h.color,
                movement: h.movement,
                effects,
            });
        }
        out
    }

    fn terrains(&mut self) -> Vec<Terrain> {
        if self.data.terrains.is_empty() {
            self.error(
                self.manifest(),
                &["files"],
                "the variant has no terrains (files.terrains)",
            );
        }
        if self.data.terrains.len() > usize::from(u8::MAX) {
            self.error(
                self.manifest(),
                &["terrains"],
                "a variant may have at most 255 terrains",
            );
        }
        self.data
            .terrains
            .iter()
            .map(|t| Terrain {
                name: t.name.clone(),
                color: t.color,
                tower: t.tower,
                shared: t.shared,
            })
            .collect()
    }

    fn classes(&mut self) -> Vec<Class> {
        let Some(classes) = &self.data.rules.classes else {
            self.error(
                self.origins.rules_file("classes"),
                &["("],
                "rules.classes is missing (lord, creature, ...)",
            );
            return Vec::new();
        };
        let file = self.origins.rules_file("classes");
        let mut seen = HashSet::new();
        for c in classes {
            if !seen.insert(c.name.as_str()) {
                let q = format!("\"{}\"", c.name);
                self.error(
                    file,
                    &[&q, &q],
                    format!("class {:?} is defined twice", c.name),
                );
            }
        }
        classes
            .iter()
            .map(|c| Class {
                name: c.name.clone(),
                tower_teleport: c.tower_teleport,
                rangestrike_immune: c.rangestrike_immune,
                returns_when_slain: c.returns_when_slain,
                forbids_flight: c.forbids_flight,
            })
            .collect()
    }

    fn characters(
        &mut self,
        hazards: &HashMap<&str, HazardId>,
        classes: &HashMap<&str, ClassId>,
    ) -> Vec<Character> {
        let data = self.data;
        if data.characters.is_empty() {
            self.error(
                self.manifest(),
                &["files"],
                "the variant has no characters (files.characters)",
            );
        }
        let mut out = Vec::new();
        for c in &data.characters {
            let file = self.origins.characters[&c.name];
            let q = format!("\"{}\"", c.name);
            let class = lookup(classes, &c.class).unwrap_or_else(|| {
                if self.data.rules.classes.is_some() {
                    self.error(
                        file,
                        &[&q, "class", &format!("\"{}\"", c.class)],
                        format!(
                            "{} is of class {:?}, which rules.classes does not define",
                            c.name, c.class
                        ),
                    );
                }
                ClassId(0)
            });
            if c.per_legion == Some(0) {
                self.error(
                    file,
                    &[&q, "per_legion"],
                    format!(
                        "{}: per_legion 0 would keep it out of every legion (leave it out for no limit)",
                        c.name
                    ),
                );
            }
            let mut natives = HazardSet::default();
            for n in &c.natives {
                match lookup(hazards, n) {
                    Some(h) => natives.insert(h),
                    None => self.error(
                        file,
                        &[&q, "natives", &format!("\"{n}\"")],
                        format!(
                            "{} is native to {n:?}, which is no hazard of this variant",
                            c.name
                        ),
                    ),
                }
            }
            if c.count == 0 {
                self.error(
                    file,
                    &[&q, "count"],
                    format!("{} has count 0; counts must be positive", c.name),
                );
            }
            if c.power == 0 || c.skill == 0 {
                self.error(
                    file,
                    &[&q, "power"],
                    format!("{} needs a power and a skill of at least 1", c.name),
                );
            }
            let rangestrike = c.rangestrike.as_ref().map(|r| {
                if r.strikes == 0 {
                    self.error(
                        file,
                        &[&q, "strikes"],
                        format!("{} rangestrikes 0 times; strikes must be positive", c.name),
                    );
                }
                let strength = match &r.strength {
                    format::RangeStrength::HalfPower => RangeStrength::HalfPower,
                    format::RangeStrength::Power => RangeStrength::Power,
                    format::RangeStrength::Fixed(0) => {
                        self.error(
                            file,
                            &[&q, "Fixed"],
                            format!("{} has a rangestrike of strength 0", c.name),
                        );
                        RangeStrength::Fixed(0)
                    }
                    format::RangeStrength::Fixed(n) => RangeStrength::Fixed(*n),
                    format::RangeStrength::Hook(name) => {
                        RangeStrength::Hook(self.hook(file, &[&q, &format!("\"{name}\"")], name))
                    }
                };
                Rangestrike {
                    magic: r.magic,
                    strength,
                    strikes: r.strikes,
                }
            });
            let abilities = c
                .abilities
                .iter()
                .map(|a| self.hook(file, &[&q, &format!("\"{a}\"")], a))
                .collect();
            out.push(Character {
                name: c.name.clone(),
                plural: c.plural.clone(),
                power: c.power,
                skill: c.skill,
                class,
                flies: c.flies,
                rangestrike,
                natives,
                count: c.count,
                summonable: c.summonable,
                value: c.value.unwrap_or(u32::from(c.power) * u32::from(c.skill)),
                abilities,
                uncounted: c.uncounted,
                per_legion: c.per_legion.or_else(|| {
                    data.rules
                        .classes
                        .iter()
                        .flatten()
                        .find(|k| k.name == c.class)
                        .and_then(|k| k.per_legion)
                }),
            });
        }
        out
    }

    fn mustering(
        &mut self,
        terrains: &HashMap<&str, TerrainId>,
        characters: &HashMap<&str, CharacterId>,
        classes: &HashMap<&str, ClassId>,
    ) -> Option<Vec<MusterTable>> {
        let data = self.data;
        let mut tables: Vec<Option<MusterTable>> = vec![None; data.terrains.len()];
        for t in &data.mustering {
            let file = self.origins.mustering[&t.terrain];
            let q = format!("\"{}\"", t.terrain);
            let Some(terrain) = lookup(terrains, &t.terrain) else {
                self.error(
                    file,
                    &[&q],
                    format!(
                        "mustering table for {:?}, which is no terrain of this variant",
                        t.terrain
                    ),
                );
                continue;
            };
            let mut rows = Vec::new();
            for (i, r) in t.rows.iter().enumerate() {
                let rq = format!("\"{}\"", r.character);
                let anchors = [q.as_str(), rq.as_str()];
                let Some(character) = lookup(characters, &r.character) else {
                    self.error(
                        file,
                        &anchors,
                        format!(
                            "{} musters {:?}, which is no character of this variant",
                            t.terrain, r.character
                        ),
                    );
                    continue;
                };
                let mut needs = Vec::new();
                for n in &r.needs {
                    needs.push(match n {
                        format::Needs::Previous(count) => {
                            if i == 0 {
                                self.error(file, &[&q, &rq, "Previous"], format!("{} in {} is the first row: there is no previous character to show", r.character, t.terrain));
                            }
                            if *count == 0 {
                                self.error(file, &[&q, &rq, "Previous"], "Previous(0): counts must be positive");
                            }
                            self.fits_a_legion(file, &[&q, &rq, "Previous"], &r.character, *count);
                            Needs::Previous(*count)
                        }
                        format::Needs::Free => Needs::Free,
                        format::Needs::Identical { count, class } => {
                            if *count == 0 {
                                self.error(file, &[&q, &rq, "Identical"], "Identical(count: 0): counts must be positive");
                            }
                            self.fits_a_legion(file, &[&q, &rq, "Identical"], &r.character, *count);
                            let class = class.as_ref().and_then(|cl| {
                                let found = lookup(classes, cl);
                                if found.is_none() {
                                    self.error(file, &[&q, &rq, &format!("\"{cl}\"")], format!("class {cl:?} is not defined in rules.classes"));
                                }
                                found
                            });
                            Needs::Identical { count: *count, class }
                        }
                        format::Needs::Character { name, count } => {
                            if *count == 0 {
                                self.error(file, &[&q, &rq, "Character"], "Character(count: 0): counts must be positive");
                            }
                            let Some(other) = lookup(characters, name) else {
                                self.error(file, &[&q, &rq, &format!("\"{name}\"")], format!("{name:?} is no character of this variant"));
                                continue;
                            };
                            Needs::Character { character: other, count: *count }
                        }
                        format::Needs::Hook(name) => Needs::Hook(self.hook(file, &[&q, &format!("\"{name}\"")], name)),
                    });
                }
                if !r.like && (!r.ladder || !t.ladder) && r.needs.is_empty() {
                    self.error(
                        file,
                        &anchors,
                        format!(
                            "{} in {} can never be mustered: the row has no needs, `like` is off and the ladder does not reach it",
                            r.character, t.terrain
                        ),
                    );
                }
                rows.push(MusterRow {
                    character,
                    needs,
                    like: r.like,
                    ladder: r.ladder,
                });
            }
            tables[terrain.index()] = Some(MusterTable {
                ladder: t.ladder,
                when_exhausted: t.when_exhausted,
                rows,
            });
        }
        let mut out = Vec::new();
        // A terrain on no land (a battleland fought on apart, as a
        // showdown's) musters nothing and needs no table.
        let on_board = |name: &str| data.masterboard.lands.iter().any(|l| l.terrain == name);
        for (i, table) in tables.into_iter().enumerate() {
            let name = &data.terrains[i].name;
            match table {
                Some(t) if !t.rows.is_empty() => out.push(t),
                _ if !on_board(name) => out.push(MusterTable {
                    ladder: false,
                    when_exhausted: Default::default(),
                    rows: Vec::new(),
                }),
                Some(_) => self.error(
                    self.origins.mustering[name],
                    &[&format!("\"{name}\"")],
                    format!("the mustering table of {name} has no rows"),
                ),
                None => {
                    let file = self.origins.terrains[name];
                    self.error(
                        file,
                        &[&format!("\"{name}\"")],
                        format!("terrain {name} has no mustering table"),
                    );
                }
            }
        }
        (out.len() == data.terrains.len()).then_some(out)
    }

    fn masterboard(&mut self, terrains: &HashMap<&str, TerrainId>) -> Masterboard {
        let data = self.data;
        let lands = &data.masterboard.lands;
        let one_way = data.masterboard.one_way_signs == Some(true);
        if lands.is_empty() {
            self.error(
                self.manifest(),
                &["files"],
                "the variant has no masterboard lands (files.masterboard)",
            );
        }
        let mut graph: DiGraph<Land, format::Sign, u32> =
            DiGraph::with_capacity(lands.len(), lands.len() * 3);
        let mut ids = HashMap::new();
        for l in lands {
            let file = self.origins.lands[&l.number];
            let anchor = format!("number: {}", l.number);
            let terrain = lookup(terrains, &l.terrain).unwrap_or_else(|| {
                self.error(
                    file,
                    &[&anchor, &format!("\"{}\"", l.terrain)],
                    format!(
                        "land {} is of terrain {:?}, which this variant does not define",
                        l.number, l.terrain
                    ),
                );
                TerrainId(0)
            });
            let name = l
                .name
                .clone()
                .unwrap_or_else(|| format!("{} {}", l.terrain, l.number));
            ids.insert(
                l.number,
                graph.add_node(Land {
                    number: l.number,
                    name,
                    terrain,
                    position: l.position,
                    passage: l.passage,
                }),
            );
        }
        let mut positions: HashMap<format::GridPos, u32> = HashMap::new();
        for l in lands {
            if let Some(other) = positions.insert(l.position, l.number) {
                let file = self.origins.lands[&l.number];
                self.error(
                    file,
                    &[&format!("number: {}", l.number), "position"],
                    format!(
                        "lands {other} and {} are drawn at the same position",
                        l.number
                    ),
                );
            }
        }
        for l in lands {
            let file = self.origins.lands[&l.number];
            let anchor = format!("number: {}", l.number);
            let mut targets = HashSet::new();
            for e in &l.exits {
                let to_anchor = format!("to: {}", e.to);
                let Some(&to) = ids.get(&e.to) else {
                    self.error(
                        file,
                        &[&anchor, &to_anchor],
                        format!(
                            "land {} has a sign pointing to land {}, which does not exist",
                            l.number, e.to
                        ),
                    );
                    continue;
                };
                if e.to == l.number {
                    self.error(
                        file,
                        &[&anchor, &to_anchor],
                        format!("land {} has a sign pointing to itself", l.number),
                    );
                    continue;
                }
                if !targets.insert(e.to) {
                    self.error(
                        file,
                        &[&anchor, &to_anchor, &to_anchor],
                        format!("land {} has two signs pointing to land {}", l.number, e.to),
                    );
                    continue;
                }
                graph.add_edge(ids[&l.number], to, e.sign);
                // Law of Titan 7.D: a single-symbol sign is answered by one pointing back.
                if e.sign.is_single() && !one_way {
                    let back = lands
                        .iter()
                        .find(|o| o.number == e.to)
                        .and_then(|o| o.exits.iter().find(|b| b.to == l.number));
                    if !back.is_some_and(|b| b.sign.is_single()) {
                        let found = match back {
                            Some(b) => format!("a {:?}", b.sign),
                            None => "no sign".to_string(),
                        };
                        self.error(file, &[&anchor, &to_anchor], format!(
                            "land {}'s {:?} toward land {} is not answered: land {} has {found} pointing back, and a block, arch or arrow must be answered by a block, arch or arrow (Law of Titan 7.D)",
                            l.number, e.sign, e.to, e.to
                        ));
                    }
                }
            }
        }
        let board = Masterboard::new(graph);
        self.reachability(&board);
        board
    }

    /// A mustering need of `count` characters is met only if a legion can
    /// hold them (`rules.legions.max_size`); otherwise the row is dead.
    fn fits_a_legion(&mut self, file: FileId, anchors: &[&str], recruit: &str, count: u8) {
        let Some(max) = self.data.rules.legions.as_ref().map(|l| l.max_size) else {
            return;
        };
        if count > max {
            self.error(
                file,
                anchors,
                format!(
                    "{recruit} needs {count} characters shown, more than a legion holds (rules.legions.max_size: {max}): it could never be mustered"
                ),
            );
        }
    }

    /// Each player starts in a tower of his own: the board needs as many
    /// tower lands as the variant allows players.
    fn towers_for_players(&mut self, board: &Masterboard) {
        let Some(players) = self.data.manifest.players else {
            return;
        };
        if board.land_count() == 0 {
            return;
        }
        let towers = board
            .lands()
            .filter(|&l| {
                self.data
                    .terrains
                    .get(board.land(l).terrain.index())
                    .is_some_and(|t| t.tower)
            })
            .count();
        if towers < usize::from(players.max) {
            self.error(
                self.manifest(),
                &["players", "max"],
                format!(
                    "players: up to {} may play, but the masterboard has only {towers} tower lands (one per player)",
                    players.max
                ),
            );
        }
    }

    /// Every land must be reachable by moving from where legions start.
    fn reachability(&mut self, board: &Masterboard) {
        if board.land_count() == 0 {
            return;
        }
        let mut starts: Vec<LandId> = board
            .lands()
            .filter(|&l| {
                self.data
                    .terrains
                    .get(board.land(l).terrain.index())
                    .is_some_and(|t| t.tower)
            })
            .collect();
        if starts.is_empty() {
            starts = board.lands().take(1).collect();
        }
        let mut seen: HashSet<LandId> = starts.iter().copied().collect();
        let mut queue: VecDeque<LandId> = starts.into_iter().collect();
        while let Some(l) = queue.pop_front() {
            for (_, to) in board.exits(l) {
                if seen.insert(to) {
                    queue.push_back(to);
                }
            }
        }
        let mut unreachable: Vec<u32> = board
            .lands()
            .filter(|l| !seen.contains(l))
            .map(|l| board.land(l).number)
            .collect();
        unreachable.sort();
        for n in unreachable {
            let file = self.origins.lands[&n];
            self.error(
                file,
                &[&format!("number: {n}")],
                format!("land {n} cannot be reached from any tower by following the signs"),
            );
        }
    }

    fn rules(
        &mut self,
        characters: &HashMap<&str, CharacterId>,
        terrain_ids: &HashMap<&str, TerrainId>,
    ) -> Option<Rules> {
        let r = &self.data.rules;
        macro_rules! section {
            ($field:ident) => {
                match &r.$field {
                    Some(s) => Some(s.clone()),
                    None => {
                        let file = self.origins.rules_file(stringify!($field));
                        self.error(
                            file,
                            &["("],
                            concat!("rules.", stringify!($field), " is missing"),
                        );
                        None
                    }
                }
            };
        }
        let legions = section!(legions);
        let start = section!(start);
        let movement = section!(movement);
        let titan = section!(titan);
        let scoring = section!(scoring);
        let strike_chart = section!(strike_chart);
        let battle = section!(battle);
        let scripts = r.scripts.clone().unwrap_or(format::ScriptLimits {
            memory_mib: (LuaLimits::default().memory_bytes >> 20) as u32,
            instructions_per_call: LuaLimits::default().instructions_per_call,
        });
        let character = |c: &mut Self, section: &str, name: &str| {
            let found = lookup(characters, name);
            if found.is_none() {
                let file = c.origins.rules_file(section);
                c.error(
                    file,
                    &[section, &format!("\"{name}\"")],
                    format!(
                        "rules.{section} names {name:?}, which is no character of this variant"
                    ),
                );
            }
            found
        };

        if let Some(l) = &legions {
            let file = self.origins.rules_file("legions");
            if l.max_size == 0
                || l.markers_per_player == 0
                || l.min_split_size == 0
                || l.max_split_parts < 2
            {
                self.error(file, &["legions"], "rules.legions: sizes and markers must be positive, and a split makes at least 2 parts");
            }
            if l.min_split_size > l.max_size {
                self.error(
                    file,
                    &["legions", "min_split_size"],
                    format!(
                        "rules.legions: min_split_size {} is larger than max_size {}: no legion could ever split",
                        l.min_split_size, l.max_size
                    ),
                );
            }
            self.marker_names(l);
            for limit in &l.muster_per_turn {
                if limit.count == 0 {
                    self.error(
                        self.origins.rules_file("legions"),
                        &["muster_per_turn", "count"],
                        "rules.legions.muster_per_turn: a count of 0 would forbid mustering these characters; leave them out of the mustering tables instead",
                    );
                }
                for name in &limit.characters {
                    if !self.data.characters.iter().any(|c| &c.name == name) {
                        self.error(
                            self.origins.rules_file("legions"),
                            &["muster_per_turn", "characters"],
                            format!(
                                "rules.legions.muster_per_turn: no character is named {name:?}"
                            ),
                        );
                    }
                }
            }
        }
        let start = start.map(|s| {
            let file = self.origins.rules_file("start");
            if s.legions == 0 || s.characters.is_empty() {
                self.error(
                    file,
                    &["start"],
                    "rules.start: a player starts with at least one legion of characters",
                );
            }
            let mut list = Vec::new();
            for c in &s.characters {
                if c.count == 0 {
                    self.error(
                        file,
                        &["start", &format!("\"{}\"", c.character)],
                        "rules.start: counts must be positive",
                    );
                }
                if let Some(id) = character(self, "start", &c.character) {
                    list.push((id, c.count));
                }
            }
            let land = s.land.as_ref().and_then(|name| {
                let found = self.data.terrains.iter().find(|t| &t.name == name);
                let lands = self
                    .data
                    .masterboard
                    .lands
                    .iter()
                    .filter(|l| &l.terrain == name)
                    .count();
                let why = match found {
                    None => Some(format!("no terrain is named {name:?}")),
                    Some(t) if !t.shared => Some(format!(
                        "{name} is not a shared terrain (terrains.ron: shared: true), so the players would start engaged"
                    )),
                    Some(_) if lands != 1 => Some(format!(
                        "the board has {lands} lands of {name}; the players start on one"
                    )),
                    Some(_) => None,
                };
                if let Some(why) = why {
                    self.error(file, &["land"], format!("rules.start.land: {why}"));
                }
                terrain_ids.get(name.as_str()).copied()
            });
            let apart = s
                .apart
                .iter()
                .filter_map(|name| character(self, "start", name))
                .collect();
            let stationed = s
                .stationed
                .iter()
                .filter_map(|c| character(self, "start", &c.character).map(|id| (id, c.count)))
                .collect();
            StartRules {
                characters: list,
                legions: s.legions,
                no_split_first_turn: s.no_split_first_turn,
                mulligan: s.mulligan,
                land,
                even_classes: s.even_classes,
                apart,
                stationed,
            }
        });
        if let Some(m) = &movement {
            self.movement_rules(m);
        }
        let titan = titan.and_then(|t| {
            let id = character(self, "titan", &t.character)?;
            if t.points_per_power == 0 {
                self.error(
                    self.origins.rules_file("titan"),
                    &["points_per_power"],
                    "rules.titan: points_per_power must be positive",
                );
            }
            let power = self
                .data
                .characters
                .iter()
                .find(|c| c.name == t.character)
                .map_or(0, |c| c.power);
            if let Some(base) = t.base_power
                && base != power
            {
                self.error(
                    self.origins.rules_file("titan"),
                    &["base_power"],
                    format!(
                        "rules.titan: base_power {base} differs from the {}'s power {power} in the characters file; the characters file gives it, so leave base_power out",
                        t.character
                    ),
                );
            }
            Some(TitanRules {
                character: id,
                base_power: power,
                points_per_power: t.points_per_power,
                per_player: t.per_player.unwrap_or(1),
            })
        });
        let scoring = scoring.map(|s| {
            let file = self.origins.rules_file("scoring");
            if s.flee_fraction.1 == 0 {
                self.error(
                    file,
                    &["flee_fraction"],
                    "rules.scoring: the flee fraction's denominator must be positive",
                );
            }
            let mut acquire = Vec::new();
            for a in &s.acquire {
                if a.every == 0 {
                    self.error(
                        file,
                        &[&format!("\"{}\"", a.character), "every"],
                        "rules.scoring: `every` must be positive",
                    );
                }
                let mut terrains = Vec::new();
                for t in &a.terrains {
                    match self.data.terrains.iter().position(|x| x.name == *t) {
                        Some(i) => terrains.push(TerrainId(i as u8)),
                        None => self.error(
                            file,
                            &[&format!("\"{}\"", a.character), &format!("\"{t}\"")],
                            format!("rules.scoring: {t:?} is no terrain of this variant"),
                        ),
                    }
                }
                if let Some(id) = character(self, "scoring", &a.character) {
                    acquire.push(Acquirable {
                        character: id,
                        every: a.every,
                        terrains,
                    });
                }
            }
            if s.left_legions.fraction.1 == 0 {
                self.error(
                    file,
                    &["left_legions", "fraction"],
                    "rules.scoring: the left legions' fraction's denominator must be positive",
                );
            }
            ScoringRules {
                flee_fraction: s.flee_fraction,
                acquire,
                left_legions: s.left_legions.clone(),
            }
        });
        if let Some(s) = &strike_chart
            && (s.min > s.max || s.min == 0)
        {
            self.error(
                self.origins.rules_file("strike_chart"),
                &["strike_chart"],
                "rules.strike_chart: min must be at least 1 and at most max",
            );
        }
        if let Some(b) = &battle
            && b.attacker_edges.is_empty()
        {
            self.error(
                self.origins.rules_file("battle"),
                &["attacker_edges"],
                "rules.battle: the attacker needs at least one edge to enter by",
            );
        }
        if let Some(b) = &battle {
            // Entry edges are the name-side turned by 1, 3 or 5 edges
            // (ARCHITECTURE.md, "Entry sides"): all must be attacker edges.
            let at = format::Edge::ALL.iter().position(|&e| e == b.name_side);
            let bad = at.is_some_and(|i| {
                [1, 3, 5]
                    .iter()
                    .any(|k| !b.attacker_edges.contains(&format::Edge::ALL[(i + k) % 6]))
            });
            if bad {
                self.error(
                    self.origins.rules_file("battle"),
                    &["name_side"],
                    format!(
                        "rules.battle: name_side {:?} puts entries on edges that are not attacker_edges {:?} (the name-side is a narrow edge; the three edges one, three and five edges round from it are the attacker's)",
                        b.name_side, b.attacker_edges
                    ),
                );
            }
        }
        if scripts.memory_mib == 0 || scripts.instructions_per_call == 0 {
            self.error(
                self.origins.rules_file("scripts"),
                &["scripts"],
                "rules.scripts: limits must be positive",
            );
        }
        if scripts.memory_mib > crate::lua::MAX_MEMORY_MIB
            || scripts.instructions_per_call > crate::lua::MAX_INSTRUCTIONS_PER_CALL
        {
            self.error(
                self.origins.rules_file("scripts"),
                &["scripts"],
                format!(
                    "rules.scripts: limits may be at most memory_mib: {}, instructions_per_call: {}",
                    crate::lua::MAX_MEMORY_MIB,
                    crate::lua::MAX_INSTRUCTIONS_PER_CALL
                ),
            );
        }
        Some(Rules {
            legions: legions?,
            start: start?,
            movement: movement?,
            titan: titan?,
            scoring: scoring?,
            strike_chart: strike_chart?,
            battle: battle?,
            scripts,
        })
    }
}
