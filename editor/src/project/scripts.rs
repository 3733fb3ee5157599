//! The variant's own Lua scripts as files of the project: edited as text
//! with undo and redo, loaded and run by the same check as `titan check`
//! on each edit (so an error shows at its line at once), saved as written.

use titan_core::diag::Diagnostic;

use super::{FileValue, Project};

impl Project {
    /// The edited variant's own scripts (names relative to its folder), in
    /// the manifest's order.
    pub fn script_names(&self) -> Vec<String> {
        self.manifest()
            .files
            .scripts
            .iter()
            .filter(|n| matches!(self.own.get(*n), Some(FileValue::Script(_))))
            .cloned()
            .collect()
    }

    pub fn script_text(&self, name: &str) -> Option<&str> {
        match self.own.get(name) {
            Some(FileValue::Script(t)) => Some(t),
            _ => None,
        }
    }

    /// Replaces a script's text (typing is one undo step per pause).
    pub fn set_script(&mut self, name: &str, text: String) {
        if self.script_text(name).is_none() {
            return;
        }
        let name = name.to_string();
        self.edit(&format!("script {name}"), |p| {
            p.own.insert(name, FileValue::Script(text));
        });
    }

    /// Adds `scripts/<stem>.lua` (named in the manifest) with a first
    /// comment. Returns its name.
    pub fn add_script(&mut self, stem: &str) -> Result<String, String> {
        let stem = stem.trim().trim_end_matches(".lua");
        if stem.is_empty()
            || !stem
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "{stem:?} cannot name a script: use letters, digits, '-' and '_'"
            ));
        }
        let name = format!("scripts/{stem}.lua");
        if self.own.contains_key(&name) || self.dir.join(&name).exists() {
            return Err(format!("{name} already exists"));
        }
        let text = format!(
            "-- {stem}: hooks of this variant, registered with titan.hook(name, function).\n"
        );
        self.last_key = None;
        self.edit(&format!("add script {name}"), |p| {
            p.manifest_mut().files.scripts.push(name.clone());
            p.own.insert(name.clone(), FileValue::Script(text));
        });
        self.last_key = None;
        Ok(name)
    }

    /// The problems in a script, by line (what running it reported).
    pub fn script_problems(&self, name: &str) -> Vec<Diagnostic> {
        let path = self.dir.join(name).display().to_string();
        self.problems()
            .iter()
            .filter(|d| d.file == path)
            .cloned()
            .collect()
    }
}
