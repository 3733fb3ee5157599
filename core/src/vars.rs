//! The values of the variables a variant declares (`variables.ron`), kept by
//! the engine in the game state and the battle state.
//!
//! Scripts keep state here, not in Lua globals: these values are cloned with
//! the state (so a refused action puts them back), saved (replayed from the
//! actions), hashed and shown in views as their visibility allows. A value
//! equal to the variable's default is not stored, so a game that never sets
//! a variable saves and hashes exactly as one of a variant without any.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::format::{VarScope, VarValue, VariableDef, Visibility};
use crate::game::{Marker, PlayerId};
use crate::model::{CharacterId, LandId, Variant};

/// What a value belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum VarTarget {
    Game,
    Player(PlayerId),
    Legion(Marker),
    /// The characters of one kind in a legion.
    Character(Marker, CharacterId),
    Land(LandId),
    /// A unit of the battle being fought (its index in the battle).
    Unit(u8),
}

impl VarTarget {
    pub fn scope(&self) -> VarScope {
        match self {
            VarTarget::Game => VarScope::Game,
            VarTarget::Player(_) => VarScope::Player,
            VarTarget::Legion(_) => VarScope::Legion,
            VarTarget::Character(..) => VarScope::Character,
            VarTarget::Land(_) => VarScope::Land,
            VarTarget::Unit(_) => VarScope::Unit,
        }
    }
}

/// One stored value, as saves and views write it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VarEntry {
    pub variable: String,
    pub of: VarTarget,
    pub value: VarValue,
}

/// Values different from their defaults, by variable and target.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Vars(BTreeMap<(String, VarTarget), VarValue>);

impl Serialize for Vars {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.entries())
    }
}

impl<'de> Deserialize<'de> for Vars {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let list = Vec::<VarEntry>::deserialize(d)?;
        Ok(Vars(
            list.into_iter()
                .map(|e| ((e.variable, e.of), e.value))
                .collect(),
        ))
    }
}

/// Why a value cannot be read or set.
pub fn check(
    variant: &Variant,
    name: &str,
    target: VarTarget,
    value: Option<&VarValue>,
) -> Result<(), String> {
    let Some(def) = variant.variable(name) else {
        let known: Vec<&str> = variant.variables.iter().map(|v| v.name.as_str()).collect();
        return Err(format!(
            "no variable {name:?} is declared in variables.ron (declared: {})",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ));
    };
    if def.scope != target.scope() {
        return Err(format!(
            "variable {name:?} belongs to a {:?}, not a {:?}",
            def.scope,
            target.scope()
        ));
    }
    if let Some(v) = value
        && v.var_type() != def.kind
    {
        return Err(format!(
            "variable {name:?} holds {:?} values, not {v:?}",
            def.kind
        ));
    }
    Ok(())
}

impl Vars {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The stored values, sorted by variable and target.
    pub fn entries(&self) -> impl Iterator<Item = VarEntry> + '_ {
        self.0.iter().map(|((variable, of), value)| VarEntry {
            variable: variable.clone(),
            of: *of,
            value: value.clone(),
        })
    }

    /// The value of `def` for `target`: stored or the default.
    pub fn get<'a>(&'a self, def: &'a VariableDef, target: VarTarget) -> &'a VarValue {
        self.0
            .get(&(def.name.clone(), target))
            .unwrap_or(&def.default)
    }

    /// Sets a value (checked by [`check`] first); the default is not stored.
    pub fn set(&mut self, def: &VariableDef, target: VarTarget, value: VarValue) {
        if value == def.default {
            self.0.remove(&(def.name.clone(), target));
        } else {
            self.0.insert((def.name.clone(), target), value);
        }
    }

    /// Keeps the values whose target `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&VarTarget) -> bool) {
        self.0.retain(|(_, t), _| keep(t));
    }

    /// The values `viewer` may see: `owner` says who owns a target (None:
    /// nobody), `viewer` None is a spectator.
    pub fn visible(
        &self,
        variant: &Variant,
        viewer: Option<PlayerId>,
        owner: impl Fn(&VarTarget) -> Option<PlayerId>,
    ) -> Vec<VarEntry> {
        self.entries()
            .filter(|e| {
                match variant
                    .variable(&e.variable)
                    .map_or(Visibility::Nobody, |d| d.visibility)
                {
                    Visibility::Everyone => true,
                    Visibility::Owner => viewer.is_some() && owner(&e.of) == viewer,
                    Visibility::Nobody => false,
                }
            })
            .collect()
    }
}
