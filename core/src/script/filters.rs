//! Handlers' filters, checked in Rust before an event crosses into Lua:
//! the words of the event's fields, a unit the battle must hold
//! (`unit = { ... }`) and a hazard its battleland must have
//! (`hazard = ...`); read from a script's `titan.on` and resolved once per
//! dispatcher.

use super::*;
/// `unit = { ... }` in a battle event's filter: the handler is called
/// only when some unit of the battle is as it says (the fields of
/// `ctx:units{...}`, a list of names where `ctx:units` takes one, and
/// `damaged` and `set`). `unit = { {...}, {...} }`: when some unit is as
/// one of them says. Names are kept as written: `titan check` tells a name
/// the variant does not have.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct UnitFilter {
    /// Any of these characters (empty: any character).
    pub(crate) character: Vec<String>,
    /// Any of these classes (empty: any class).
    pub(crate) class: Vec<String>,
    /// "attacker", "defender", or "event": the side the event names (its
    /// `side` field).
    pub(crate) side: Option<&'static str>,
    pub(crate) status: Option<&'static str>,
    pub(crate) alive: Option<bool>,
    /// Has taken at least one hit.
    pub(crate) damaged: Option<bool>,
    /// A `Unit` variable that holds another value than its default.
    pub(crate) set: Option<String>,
}

/// A battle handler's condition beyond its words: some unit passes one
/// of `units` (none: no unit asked for), and the battleland has one of
/// `hazards` on a hex or hexside (none: any battleland).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Condition {
    pub(crate) units: Vec<UnitFilter>,
    pub(crate) hazards: Vec<String>,
}

impl Condition {
    pub(super) fn resolve(&self, v: &Variant) -> Tests {
        let hazards: Vec<HazardId> = self
            .hazards
            .iter()
            .filter_map(|n| v.hazards.iter().position(|h| h.name == *n))
            .map(|i| HazardId(i as u8))
            .collect();
        Tests {
            units: self.units.iter().map(|f| f.resolve(v)).collect(),
            // A name the variant does not have (`titan check` says so)
            // never matches.
            any_hazard: self.hazards.is_empty(),
            hazards,
        }
    }
}

/// A [`Condition`] with its names resolved.
#[derive(Debug, Clone)]
pub(crate) struct Tests {
    units: Vec<UnitTest>,
    any_hazard: bool,
    hazards: Vec<HazardId>,
}

impl Tests {
    fn passes(&self, v: &Variant, scene: Scene<'_>, event_side: Option<&str>) -> bool {
        (self.units.is_empty() || self.units.iter().any(|t| t.passes(v, scene, event_side)))
            && (self.any_hazard
                || scene.land.hexes.iter().any(|h| {
                    self.hazards.contains(&h.hazard)
                        || h.sides
                            .iter()
                            .flatten()
                            .any(|s| self.hazards.contains(&s.hazard))
                }))
    }
}

/// What a battle event's filters look at: the battle's units, its
/// variables and its battleland as it is now.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scene<'a> {
    pub(crate) units: &'a [Unit],
    pub(crate) vars: &'a crate::vars::Vars,
    pub(crate) land: &'a crate::battleland::Battleland,
}

/// The words of a unit's `status` (as `ctx:units` gives them).
pub(crate) const STATUS_WORDS: &[&str] = &[
    "waiting",
    "on_board",
    "slain",
    "not_entered",
    "removed",
    "riding",
    "withdrawn",
];

impl UnitFilter {
    /// The filter with its names as ids of `v` (once per dispatcher).
    pub(crate) fn resolve(&self, v: &Variant) -> UnitTest {
        let characters: Vec<_> = self
            .character
            .iter()
            .filter_map(|n| v.character_by_name(n))
            .collect();
        let classes: Vec<_> = self
            .class
            .iter()
            .filter_map(|n| {
                v.classes
                    .iter()
                    .position(|c| c.name == *n)
                    .map(|i| crate::model::ClassId(i as u8))
            })
            .collect();
        let set = self.set.as_deref().map(|n| v.variable(n).cloned());
        UnitTest {
            // Only names the variant does not have (`titan check` says
            // so): no unit passes.
            unknown: (!self.character.is_empty() && characters.is_empty())
                || (!self.class.is_empty() && classes.is_empty())
                || matches!(set, Some(None)),
            any_character: self.character.is_empty(),
            characters,
            any_class: self.class.is_empty(),
            classes,
            side: self.side,
            status: self
                .status
                .and_then(|w| STATUS_WORDS.iter().position(|x| *x == w))
                .map(|i| i as i64),
            alive: self.alive,
            damaged: self.damaged,
            set: set.flatten(),
        }
    }
}

/// A [`UnitFilter`] with its names resolved.
#[derive(Debug, Clone)]
pub(crate) struct UnitTest {
    any_character: bool,
    characters: Vec<crate::model::CharacterId>,
    any_class: bool,
    classes: Vec<crate::model::ClassId>,
    side: Option<&'static str>,
    status: Option<i64>,
    alive: Option<bool>,
    damaged: Option<bool>,
    set: Option<crate::format::VariableDef>,
    unknown: bool,
}

impl UnitTest {
    /// Whether some unit of `scene` passes, `event_side` being the side
    /// the event names (for `side = "event"`).
    fn passes(&self, v: &Variant, scene: Scene<'_>, event_side: Option<&str>) -> bool {
        let side = match self.side {
            Some("event") => match event_side {
                Some(s) => Some(s),
                None => return false,
            },
            s => s,
        };
        if self.unknown {
            return false;
        }
        let defender = side.map(|s| s == side_name(BattleSide::Defender));
        let passes = |u: &Unit| {
            defender.is_none_or(|d| d == (u.side == BattleSide::Defender))
                && (self.any_character || self.characters.contains(&u.character))
                && (self.any_class || self.classes.contains(&v.character(u.character).class))
                && self
                    .status
                    .is_none_or(|w| w == query::status_code(u.status))
                && self.alive.is_none_or(|a| a == query::alive(u))
                && self.damaged.is_none_or(|d| d == (u.damage > 0))
        };
        match &self.set {
            // Only the units the variable is set for (often none).
            Some(def) => scene
                .vars
                .units_set(def)
                .any(|i| scene.units.get(i).is_some_and(passes)),
            None => scene.units.iter().any(passes),
        }
    }
}

const SIDES: &[&str] = &["attacker", "defender"];
/// The words of a field of true or false.
const BOOLS: &[&str] = &["false", "true"];
const BATTLE_PHASES: &[&str] = &["maneuver", "strike"];
const GAME_PHASES: &[&str] = &["initial_split", "split", "move", "engage", "muster", "over"];
/// The battle's events: the last of [`EVENTS`], from its first battle
/// event on.
pub(super) const BATTLE_EVENTS: &[&str] = EVENTS.split_at(FIRST_BATTLE_EVENT).1;
pub(super) const FIRST_BATTLE_EVENT: usize = EVENTS.len() - 10;

/// The fields a handler may filter on (`titan.on(event, filter, fn)`): the
/// word-valued fields the engine gives the event, with their words.
fn filter_fields(event: &str) -> Vec<(&'static str, &'static [&'static str])> {
    let mut f: Vec<(&'static str, &'static [&'static str])> = Vec::new();
    if BATTLE_EVENTS.contains(&event) {
        f.push(("moving", SIDES));
    } else {
        // Every masterplay event carries the game's phase.
        f.push(("phase", GAME_PHASES));
    }
    match event {
        "battle_phase_start" | "battle_phase_end" | "may_end_battle_phase" => {
            f.push(("phase", BATTLE_PHASES));
            f.push(("side", SIDES));
        }
        "unit_entered" | "unit_moved" | "unit_slain" => f.push(("side", SIDES)),
        "before_damage" => f.push(("source", &["strike", "rangestrike", "carry_over", "hazard"])),
        "before_strike" | "after_strike" => f.push(("ranged", BOOLS)),
        "may_target" => {
            f.push(("rangestrike", BOOLS));
            f.push(("carry", BOOLS));
        }
        "battle_end" => f.push(("winner", &["attacker", "defender", "neither"])),
        "character_slain" => f.push(("fate", &["slain", "fled", "conceded", "removed"])),
        "engagement_end" => f.push(("winner", &["attacker", "defender", "neither", "both"])),
        _ => {}
    }
    f.sort_by_key(|(k, _)| *k);
    f
}

/// Reads a handler's filter table for `event`: each key a field the event
/// carries, each value one of its words. The error says what is wrong.
pub(super) fn event_filter(event: &str, t: &Table) -> Result<Filter, String> {
    let fields = filter_fields(event);
    let names = || {
        fields
            .iter()
            .map(|(k, _)| *k)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut filter = Filter::default();
    let mut condition: Option<Condition> = None;
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair.map_err(|e| e.to_string())?;
        let key = match &k {
            Value::String(k) => k.to_string_lossy(),
            other => {
                return Err(format!(
                    "a filter of {event:?} has field names as keys, not a {}",
                    other.type_name()
                ));
            }
        };
        if (key == "unit" || key == "hazard") && BATTLE_EVENTS.contains(&event) {
            let mut c = condition.take().unwrap_or_default();
            if key == "unit" {
                let has_side = fields.iter().any(|(f, _)| *f == "side");
                c.units = unit_filters(event, &v, has_side)?;
            } else {
                c.hazards = hazard_names(event, &v)?;
            }
            condition = Some(c);
            continue;
        }
        let Some(&(key, words)) = fields.iter().find(|(f, _)| *f == key) else {
            let unit = if BATTLE_EVENTS.contains(&event) {
                ", unit, hazard"
            } else {
                ""
            };
            return Err(format!(
                "{event:?} has no filter field {key:?} (its fields: {}{unit})",
                names()
            ));
        };
        let word = match &v {
            Value::String(w) => w.to_string_lossy(),
            // A field of true or false takes those as its words.
            Value::Boolean(b) if words == BOOLS => b.to_string(),
            other => other.type_name().to_string(),
        };
        let Some(&word) = words.iter().find(|w| **w == word) else {
            let quoted = words.iter().map(|w| format!("{w:?}")).collect::<Vec<_>>();
            return Err(format!(
                "filter {key} of {event:?} is one of {}, not {}",
                quoted.join(", "),
                match &v {
                    Value::String(_) => format!("{word:?}"),
                    _ => format!("a {word}"),
                }
            ));
        };
        filter.fields.push((key, word));
    }
    filter.fields.sort();
    filter.condition = condition.map(|c| Rc::new(c) as Rc<dyn std::any::Any>);
    Ok(filter)
}

/// Reads `unit = { ... }` of a battle event's filter, or a list of such
/// tables (`has_side`: the event names a side, which `side = "event"`
/// means).
fn unit_filters(event: &str, v: &Value, has_side: bool) -> Result<Vec<UnitFilter>, String> {
    if let Value::Table(t) = v
        && t.raw_len() > 0
    {
        let mut out = Vec::new();
        for item in t.clone().sequence_values::<Value>() {
            let item = item.map_err(|e| e.to_string())?;
            out.push(unit_filter(event, &item, has_side)?);
        }
        if t.pairs::<Value, Value>().count() != out.len() {
            return Err(format!(
                "filter unit of {event:?} is one table of fields or a list of such tables, not both"
            ));
        }
        return Ok(out);
    }
    Ok(vec![unit_filter(event, v, has_side)?])
}

/// Reads `hazard = "Name"` (or a list of names) of a battle event's
/// filter: the battleland must have one of them on a hex or hexside.
fn hazard_names(event: &str, v: &Value) -> Result<Vec<String>, String> {
    name_list(v, &|what| {
        format!(
            "filter hazard of {event:?} is a hazard's name or a list of names, not {}",
            a_type(what)
        )
    })
}

/// One name, or a non-empty list of names; `wrong` says what else it got.
fn name_list(v: &Value, wrong: &dyn Fn(&Value) -> String) -> Result<Vec<String>, String> {
    match v {
        Value::String(w) => Ok(vec![w.to_string_lossy()]),
        Value::Table(list) => {
            let mut out = Vec::new();
            for n in list.clone().sequence_values::<Value>() {
                match n.map_err(|e| e.to_string())? {
                    Value::String(w) => out.push(w.to_string_lossy()),
                    other => return Err(wrong(&other)),
                }
            }
            if out.is_empty() || list.pairs::<Value, Value>().count() != out.len() {
                return Err(wrong(v));
            }
            Ok(out)
        }
        other => Err(wrong(other)),
    }
}

/// Reads one table of `unit = ...` in a battle event's filter.
fn unit_filter(event: &str, v: &Value, has_side: bool) -> Result<UnitFilter, String> {
    const KEYS: &str = "character, class, side, status, alive, damaged, set";
    let Value::Table(t) = v else {
        return Err(format!(
            "filter unit of {event:?} is a table such as {{ side = \"event\", damaged = true }}, not {}",
            a_type(v)
        ));
    };
    let mut f = UnitFilter::default();
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair.map_err(|e| e.to_string())?;
        let Value::String(key) = &k else {
            return Err(format!(
                "filter unit of {event:?} has field names as keys, not {}",
                a_type(&k)
            ));
        };
        let key = key.to_string_lossy();
        let text = || match &v {
            Value::String(w) => Ok(w.to_string_lossy()),
            other => Err(format!(
                "filter unit.{key} of {event:?} is a name, not {}",
                a_type(other)
            )),
        };
        let names = || {
            name_list(&v, &|what| {
                format!(
                    "filter unit.{key} of {event:?} is a name or a list of names, not {}",
                    a_type(what)
                )
            })
        };
        let flag = || match v {
            Value::Boolean(b) => Ok(b),
            ref other => Err(format!(
                "filter unit.{key} of {event:?} is true or false, not {}",
                a_type(other)
            )),
        };
        let word = |words: &[&'static str]| -> Result<&'static str, String> {
            let w = text()?;
            words.iter().copied().find(|x| *x == w).ok_or_else(|| {
                let quoted: Vec<String> = words.iter().map(|w| format!("{w:?}")).collect();
                format!(
                    "filter unit.{key} of {event:?} is one of {}, not {w:?}",
                    quoted.join(", ")
                )
            })
        };
        match key.as_str() {
            "character" => f.character = names()?,
            "class" => f.class = names()?,
            "side" if has_side => f.side = Some(word(&["attacker", "defender", "event"])?),
            "side" => f.side = Some(word(SIDES)?),
            "status" => f.status = Some(word(STATUS_WORDS)?),
            "alive" => f.alive = Some(flag()?),
            "damaged" => f.damaged = Some(flag()?),
            "set" => f.set = Some(text()?),
            other => {
                return Err(format!(
                    "filter unit of {event:?} has no field {other:?} (its fields: {KEYS})"
                ));
            }
        }
    }
    Ok(f)
}

/// "a string", "an integer": a value's type for a message.
fn a_type(v: &Value) -> String {
    let t = v.type_name();
    let article = if t.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {t}")
}

/// Whether an event with these fields passes `filter` (a key given twice
/// holds its last value, as in the ctx); its unit filter, resolved as
/// `unit`, is checked against `units`, the battle's (none outside a
/// battle: it fails).
pub(super) fn passes(
    filter: &Filter,
    unit: Option<&Tests>,
    base: &[(&'static str, F)],
    fields: &[(&'static str, F)],
    scene: Option<(&Variant, Scene<'_>)>,
) -> bool {
    let word = |key: &str| match base.iter().chain(fields).rfind(|(k, _)| *k == key) {
        Some((_, F::W(w))) => Some(*w),
        Some((_, F::B(b))) => Some(BOOLS[usize::from(*b)]),
        _ => None,
    };
    filter.fields.iter().all(|&(key, w)| word(key) == Some(w))
        && unit.is_none_or(|f| scene.is_some_and(|(v, scene)| f.passes(v, scene, word("side"))))
}
