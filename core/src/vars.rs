//! The values of the variables a variant declares (`variables.ron`), kept by
//! the engine in the game state and the battle state.
//!
//! Scripts keep state here, not in Lua globals: these values are cloned with
//! the state (so a refused action puts them back), saved (replayed from the
//! actions), hashed and shown in views as their visibility allows. A value
//! equal to the variable's default is not stored, so a game that never sets
//! a variable saves and hashes exactly as one of a variant without any.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::format::{VarScope, VarValue, VariableDef, Visibility};
use crate::ids::{CharacterId, LandId};
use crate::ids::{Marker, PlayerId};
use crate::model::Variant;

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
///
/// Shared until changed: the state is copied before every action and a
/// script event's ctx takes a copy too, so a copy only counts a reference
/// and the first change after it copies the values ([`Arc::make_mut`]).
/// Looked up by the variable's name without building a key.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Vars(Arc<BTreeMap<String, BTreeMap<VarTarget, VarValue>>>);

impl std::fmt::Debug for Vars {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        struct Flat<'a>(&'a Vars);
        impl std::fmt::Debug for Flat<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_map()
                    .entries(self.0.values().map(|(name, of, v)| ((name, of), v)))
                    .finish()
            }
        }
        f.debug_tuple("Vars").field(&Flat(self)).finish()
    }
}

impl Serialize for Vars {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.entries())
    }
}

impl<'de> Deserialize<'de> for Vars {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let list = Vec::<VarEntry>::deserialize(d)?;
        let mut map: BTreeMap<String, BTreeMap<VarTarget, VarValue>> = BTreeMap::new();
        for e in list {
            map.entry(e.variable).or_default().insert(e.of, e.value);
        }
        Ok(Vars(Arc::new(map)))
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

    /// The stored values, sorted by variable and target, borrowed.
    fn values(&self) -> impl Iterator<Item = (&String, &VarTarget, &VarValue)> {
        self.0
            .iter()
            .flat_map(|(name, by)| by.iter().map(move |(of, v)| (name, of, v)))
    }

    /// The stored values, sorted by variable and target.
    pub fn entries(&self) -> impl Iterator<Item = VarEntry> + '_ {
        self.values().map(|(variable, of, value)| VarEntry {
            variable: variable.clone(),
            of: *of,
            value: value.clone(),
        })
    }

    /// The value of `def` for `target`: stored or the default.
    pub fn get<'a>(&'a self, def: &'a VariableDef, target: VarTarget) -> &'a VarValue {
        self.0
            .get(def.name.as_str())
            .and_then(|by| by.get(&target))
            .unwrap_or(&def.default)
    }

    /// The units whose value of `def` is another than its default, by
    /// index, in order (one look-up of the variable, not one per unit).
    pub fn units_set<'a>(&'a self, def: &'a VariableDef) -> impl Iterator<Item = usize> + 'a {
        self.0
            .get(def.name.as_str())
            .into_iter()
            .flat_map(move |by| {
                by.iter().filter_map(move |(of, v)| match of {
                    VarTarget::Unit(i) if *v != def.default => Some(usize::from(*i)),
                    _ => None,
                })
            })
    }

    /// Sets a value (checked by [`check`] first); the default is not stored.
    pub fn set(&mut self, def: &VariableDef, target: VarTarget, value: VarValue) {
        let stored = self.0.get(def.name.as_str()).and_then(|by| by.get(&target));
        if value == def.default {
            if stored.is_none() {
                return;
            }
            let map = Arc::make_mut(&mut self.0);
            if let Some(by) = map.get_mut(def.name.as_str()) {
                by.remove(&target);
                if by.is_empty() {
                    map.remove(def.name.as_str());
                }
            }
        } else if stored != Some(&value) {
            let map = Arc::make_mut(&mut self.0);
            match map.get_mut(def.name.as_str()) {
                Some(by) => {
                    by.insert(target, value);
                }
                None => {
                    map.insert(def.name.clone(), BTreeMap::from([(target, value)]));
                }
            }
        }
    }

    /// Keeps the values whose target `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&VarTarget) -> bool) {
        if self.values().all(|(_, t, _)| keep(t)) {
            return;
        }
        let map = Arc::make_mut(&mut self.0);
        for by in map.values_mut() {
            by.retain(|t, _| keep(t));
        }
        map.retain(|_, by| !by.is_empty());
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
