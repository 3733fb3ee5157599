//! Java rule classes of Colossus variants that titan runs as Lua of its
//! own (`import/lua/`, written for titan from what the classes do; no
//! Colossus code). A known class brings a script (and the variables it
//! keeps) into the imported folder and changes the imported data where
//! the class needs it; any other class stays "not imported".

use titan_core::format::{CharacterDef, ClassDef, MusterRow, MusterTable, Needs, VariableDef};

use std::borrow::Cow;

use crate::creatures::Creatures;

/// A script the importer writes into a variant folder: our own text, or
/// one made for the variant (its data written in).
#[derive(Clone)]
pub struct LuaFile {
    /// Its name in the imported folder.
    pub name: Cow<'static, str>,
    pub text: Cow<'static, str>,
    /// The variables it keeps (`variables.ron`, a RON list).
    pub variables: &'static str,
}

const BALROG_LUA: LuaFile = LuaFile {
    name: Cow::Borrowed("balrog.lua"),
    text: Cow::Borrowed(include_str!("../lua/balrog.lua")),
    variables: include_str!("../lua/balrog-variables.ron"),
};

/// A Java class and its script.
pub struct JavaRule {
    /// The class's name without its package.
    pub class: &'static str,
    pub lua: &'static LuaFile,
}

/// The Java classes written in Lua, in the order their changes are made
/// (the Balrog character before its mustering).
pub const RULES: &[JavaRule] = &[
    JavaRule {
        class: "CreatureBalrog",
        lua: &BALROG_LUA,
    },
    JavaRule {
        class: "BalrogRecruitment",
        lua: &BALROG_LUA,
    },
];

/// The rule of a class (`Package.Class` or `Class`), if it is written in Lua.
pub fn rule(class: &str) -> Option<&'static JavaRule> {
    let short = class.rsplit('.').next().unwrap_or(class);
    RULES.iter().find(|r| r.class == short)
}

/// The one Balrog character of the imported variant.
pub const BALROG: &str = "Balrog";
/// The Balrog's mustering hook (`balrog.lua`).
pub const BALROG_HOOK: &str = "balrog_may_muster";
/// The class of the Balrog: a demilord that is not immortal (it does not
/// go back to the caretaker when slain).
pub const MORTAL_DEMILORD: &str = "mortal-demilord";
/// Balrog counters for each of Colossus's Balrog creatures (one a tower):
/// Colossus sets no limit but the players' scores.
pub const BALROGS_PER_TOWER: u32 = 3;

/// What the data of an imported variant holds that the classes change.
pub struct Data<'a> {
    pub creatures: &'a mut Creatures,
    pub mustering: &'a mut [MusterTable],
    /// Each terrain's `Special:` recruitment classes.
    pub specials: &'a [(String, Vec<String>)],
    pub classes: &'a mut Vec<ClassDef>,
}

/// Applies a known class's changes to the data; `false` when the data does
/// not fit the class (its rule is then not imported).
pub fn apply(class: &str, data: &mut Data) -> bool {
    match rule(class).map(|r| r.class) {
        Some("CreatureBalrog") => creature_balrog(class, data),
        Some("BalrogRecruitment") => balrog_recruitment(class, data),
        _ => false,
    }
}

/// Colossus's Balrog100, Balrog200, ... (one a tower, named by its land)
/// become one Balrog: their counts follow the score in Lua instead.
fn creature_balrog(class: &str, data: &mut Data) -> bool {
    let names: Vec<String> = data
        .creatures
        .specials
        .iter()
        .filter(|(_, c)| c == class)
        .map(|(n, _)| n.clone())
        .collect();
    let Some(first) = names.first() else {
        return false;
    };
    let Some(mut balrog) = data
        .creatures
        .defs
        .iter()
        .find(|c| c.name == *first)
        .cloned()
    else {
        return false;
    };
    data.creatures.defs.retain(|c| !names.contains(&c.name));
    data.creatures.specials.retain(|(_, c)| c != class);
    let towers = u32::try_from(names.len()).unwrap_or(u32::MAX);
    balrog = CharacterDef {
        per_legion: None,
        name: BALROG.into(),
        plural: "Balrogs".into(),
        class: MORTAL_DEMILORD.into(),
        count: towers.saturating_mul(BALROGS_PER_TOWER),
        summonable: false,
        ..balrog
    };
    data.creatures.defs.push(balrog);
    if !data.classes.iter().any(|c| c.name == MORTAL_DEMILORD) {
        data.classes.push(ClassDef {
            per_legion: None,
            name: MORTAL_DEMILORD.into(),
            tower_teleport: false,
            rangestrike_immune: false,
            returns_when_slain: false,
            forbids_flight: false,
        });
    }
    true
}

/// Each terrain that names the class as a `Special:` recruit (the Tower)
/// musters a Balrog when `balrog.lua`'s hook says so.
fn balrog_recruitment(class: &str, data: &mut Data) -> bool {
    if !data.creatures.has(BALROG) {
        return false;
    }
    let mut any = false;
    for table in data.mustering.iter_mut() {
        let names = data
            .specials
            .iter()
            .any(|(t, s)| *t == table.terrain && s.iter().any(|c| c == class));
        if names && !table.rows.iter().any(|r| r.character == BALROG) {
            table.rows.push(MusterRow {
                character: BALROG.into(),
                needs: vec![Needs::Hook(BALROG_HOOK.into())],
                like: false,
                ladder: false,
            });
            any = true;
        }
    }
    any
}

/// The variables of the scripts written.
pub fn variables(files: &[LuaFile]) -> Vec<VariableDef> {
    let mut out: Vec<VariableDef> = Vec::new();
    for f in files {
        let vars: Vec<VariableDef> = titan_core::load::ron_options()
            .from_str(f.variables)
            .expect("the importer's variables parse");
        for v in vars {
            if !out.iter().any(|o| o.name == v.name) {
                out.push(v);
            }
        }
    }
    out
}
