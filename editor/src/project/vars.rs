//! Edits of the variant's script variables (`variables.ron`) and actions
//! (`actions.ron`), each one undo step; the file is created and named in
//! `variant.ron` on the first edit, as other kinds are.

use titan_core::format::{
    ActionDef, ActionWhen, ActionWho, VarScope, VarType, VarValue, VariableDef, Visibility,
};

use super::{FileKind, FileValue, Project};

/// The value a new variable of a type starts with.
pub fn default_of(kind: VarType) -> VarValue {
    match kind {
        VarType::Int => VarValue::Int(0),
        VarType::Bool => VarValue::Bool(false),
        VarType::Text => VarValue::Text(String::new()),
        VarType::Names => VarValue::Names(Vec::new()),
    }
}

/// A name not yet taken among `taken`, from `stem`.
fn fresh(stem: &str, taken: impl Fn(&str) -> bool) -> String {
    (1..)
        .map(|n| {
            if n == 1 {
                stem.to_string()
            } else {
                format!("{stem}_{n}")
            }
        })
        .find(|n| !taken(n))
        .expect("a free name")
}

impl Project {
    /// The names of the actions the scripts register (`titan.action`),
    /// also while the variant does not pass its check (none when a script
    /// fails to run).
    pub fn script_actions(&self) -> Vec<String> {
        self.script_hooks
            .iter()
            .filter_map(|h| h.strip_prefix("action:")?.strip_suffix(":legal"))
            .map(str::to_string)
            .collect()
    }

    /// Adds an integer player variable with a fresh name; returns the name.
    pub fn add_variable(&mut self) -> String {
        let name = fresh("variable", |n| {
            self.data().variables.iter().any(|v| v.name == n)
        });
        let var = VariableDef {
            name: name.clone(),
            scope: VarScope::Player,
            kind: VarType::Int,
            default: VarValue::Int(0),
            visibility: Visibility::Everyone,
            description: String::new(),
        };
        self.last_key = None;
        self.edit(&format!("add variable {name}"), |p| {
            if let FileValue::Variables(list) = p.own_file(FileKind::Variables, "variables.ron") {
                list.push(var);
            }
        });
        name
    }

    /// Replaces the variable `old`. Refused: an empty or taken new name, a
    /// default not of the variable's type, a variable not in the own file.
    pub fn set_variable(&mut self, old: &str, var: VariableDef) -> Result<(), String> {
        if var.name.trim().is_empty() {
            return Err("a variable needs a name".into());
        }
        if var.name != old && self.data().variables.iter().any(|v| v.name == var.name) {
            return Err(format!("there is already a variable {:?}", var.name));
        }
        if var.default.var_type() != var.kind {
            return Err(format!("the default is not of type {:?}", var.kind));
        }
        if !self.own_variables().iter().any(|v| v.name == old) {
            return Err(format!(
                "no variable {old:?} in this variant's own variables.ron"
            ));
        }
        let old = old.to_string();
        self.edit(&format!("variable {old}"), |p| {
            if let FileValue::Variables(list) = p.own_file(FileKind::Variables, "variables.ron")
                && let Some(slot) = list.iter_mut().find(|v| v.name == old)
            {
                *slot = var;
            }
        });
        Ok(())
    }

    /// Removes a variable of the own file (nothing else).
    pub fn remove_variable(&mut self, name: &str) {
        if !self.own_variables().iter().any(|v| v.name == name) {
            return;
        }
        self.last_key = None;
        self.edit(&format!("remove variable {name}"), |p| {
            if let FileValue::Variables(list) = p.own_file(FileKind::Variables, "variables.ron") {
                list.retain(|v| v.name != name);
            }
        });
    }

    /// Adds a player action in the movement phase with a fresh name;
    /// returns the name.
    pub fn add_action(&mut self) -> String {
        let name = fresh("action", |n| {
            self.data().actions.iter().any(|a| a.name == n)
        });
        let action = ActionDef {
            name: name.clone(),
            label: name.clone(),
            description: String::new(),
            who: ActionWho::Player,
            when: ActionWhen::Move,
            parameters: Vec::new(),
            limit: None,
            cost: None,
            requires: None,
            ai: None,
        };
        self.last_key = None;
        self.edit(&format!("add action {name}"), |p| {
            if let FileValue::Actions(list) = p.own_file(FileKind::Actions, "actions.ron") {
                list.push(action);
            }
        });
        name
    }

    /// Replaces the action `old`. Refused: an empty or taken new name, an
    /// action not in the own file. (The compiler checks the rest and the
    /// problems list shows it.)
    pub fn set_action(&mut self, old: &str, action: ActionDef) -> Result<(), String> {
        if action.name.trim().is_empty() {
            return Err("an action needs a name".into());
        }
        if action.name != old && self.data().actions.iter().any(|a| a.name == action.name) {
            return Err(format!("there is already an action {:?}", action.name));
        }
        if !self.own_actions().iter().any(|a| a.name == old) {
            return Err(format!(
                "no action {old:?} in this variant's own actions.ron"
            ));
        }
        let old = old.to_string();
        self.edit(&format!("action {old}"), |p| {
            if let FileValue::Actions(list) = p.own_file(FileKind::Actions, "actions.ron")
                && let Some(slot) = list.iter_mut().find(|a| a.name == old)
            {
                *slot = action;
            }
        });
        Ok(())
    }

    /// Removes an action of the own file.
    pub fn remove_action(&mut self, name: &str) {
        if !self.own_actions().iter().any(|a| a.name == name) {
            return;
        }
        self.last_key = None;
        self.edit(&format!("remove action {name}"), |p| {
            if let FileValue::Actions(list) = p.own_file(FileKind::Actions, "actions.ron") {
                list.retain(|a| a.name != name);
            }
        });
    }

    /// The variables of the edited variant's own file (a base's are in
    /// `data()` only).
    pub fn own_variables(&self) -> Vec<VariableDef> {
        self.own_files()
            .values()
            .find_map(|v| match v {
                FileValue::Variables(l) => Some(l.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// The actions of the edited variant's own file.
    pub fn own_actions(&self) -> Vec<ActionDef> {
        self.own_files()
            .values()
            .find_map(|v| match v {
                FileValue::Actions(l) => Some(l.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn house_spells() -> Project {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/house-spells");
        Project::open(&dir).unwrap()
    }

    #[test]
    fn variables_and_actions_are_added_set_and_undone() {
        let mut p = house_spells();
        assert_eq!(p.script_actions(), vec!["fireball", "heal", "reroll"]);
        let v = p.add_variable();
        let mut var = p.own_variables().into_iter().find(|x| x.name == v).unwrap();
        var.kind = VarType::Bool;
        // A default of another type is refused and changes nothing.
        assert!(p.set_variable(&v, var.clone()).is_err());
        var.default = default_of(VarType::Bool);
        p.set_variable(&v, var).unwrap();
        assert!(
            p.data()
                .variables
                .iter()
                .any(|x| x.name == v && x.kind == VarType::Bool)
        );
        // A taken name is refused.
        let mut taken = p.own_variables().into_iter().find(|x| x.name == v).unwrap();
        taken.name = "mana".into();
        assert!(p.set_variable(&v, taken).is_err());
        let a = p.add_action();
        assert!(p.data().actions.iter().any(|x| x.name == a));
        // No script registers it: the check says so (scripting, actions).
        assert!(
            p.problems()
                .iter()
                .any(|d| d.message.contains("no script gives it"))
        );
        p.remove_action(&a);
        assert!(!p.data().actions.iter().any(|x| x.name == a));
        p.undo();
        p.undo();
        p.undo();
        p.undo();
        assert!(!p.is_dirty());
    }

    /// Written from scratch, house-spells' files come out as its author
    /// wrote them: a variable per line, an action's field per line.
    #[test]
    fn house_spells_files_render_as_written() {
        let p = house_spells();
        for name in ["variables.ron", "actions.ron"] {
            let original = std::fs::read_to_string(p.dir().join(name)).unwrap();
            let canonical = crate::project::render(&p.own_files()[name], None);
            assert_eq!(canonical, original, "{name}");
        }
    }

    #[test]
    fn the_files_are_created_on_first_edit() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
        let mut p = Project::open(&dir).unwrap();
        let v = p.add_variable();
        assert_eq!(
            p.manifest_value().files.variables.as_deref(),
            Some("variables.ron")
        );
        assert!(p.own_variables().iter().any(|x| x.name == v));
        p.add_action();
        assert_eq!(
            p.manifest_value().files.actions.as_deref(),
            Some("actions.ron")
        );
    }
}
