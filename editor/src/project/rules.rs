//! The rules and rule options of the edited variant: the base's rules (what
//! an extending variant's partial `rules.ron` sections are completed from,
//! and what the forms show beside an override), and edits of sections and
//! options.

use std::path::Path;

use titan_core::format::{Manifest, RuleOption, RulesDef};
use titan_core::load::{LoadOptions, Overlay, load_data_with};

use super::{FileValue, MANIFEST, Project};

/// The folder of the variant `manifest` (in `dir`) extends, found as the
/// loader finds it: beside `dir`, then on the search paths.
pub(super) fn base_dir(
    dir: &Path,
    manifest: &Manifest,
    opts: &LoadOptions,
) -> Option<std::path::PathBuf> {
    let id = manifest.extends.as_ref()?;
    dir.parent()
        .map(|p| p.join(id))
        .into_iter()
        .chain(opts.search_paths.iter().map(|p| p.join(id)))
        .find(|c| c.join(MANIFEST).is_file())
}

/// The merged rules and rule options of the variant `manifest` extends
/// (`None` for a flat variant, or when the base does not load).
pub(super) fn base_rules(
    dir: &Path,
    manifest: &Manifest,
    opts: &LoadOptions,
) -> Option<(RulesDef, Vec<RuleOption>)> {
    let base = base_dir(dir, manifest, opts)?;
    load_data_with(&base, opts, &Overlay::new())
        .ok()
        .map(|l| (l.data.rules, l.data.manifest.options))
}

impl Project {
    /// The base variant's rules (for showing what an override replaces).
    pub fn base_rules(&self) -> Option<&RulesDef> {
        self.base_rules.as_ref()
    }

    /// The base variant's rule option of that name, if it has one.
    pub fn base_option(&self, name: &str) -> Option<&RuleOption> {
        self.base_options.iter().find(|o| o.name == name)
    }

    /// Reads the base's rules again (after its files changed).
    pub(super) fn refresh_base_rules(&mut self) {
        let (rules, options) = base_rules(&self.dir, self.manifest(), &self.opts).unzip();
        self.base_rules = rules;
        self.base_options = options.unwrap_or_default();
    }

    /// Sets the merged rules to `rules`: each section that differs is written
    /// into the own `rules.ron` (created when missing). A value equal to
    /// the merged one changes nothing. Dragging a number is one undo step.
    pub fn set_rules(&mut self, rules: RulesDef) {
        if rules == self.data().rules {
            return;
        }
        self.edit("rules", |p| p.override_rule_sections(&rules));
    }

    /// The rule options of the merged variant (the manifest's `options`,
    /// the edited variant's own over its bases').
    pub fn rule_options(&self) -> &[RuleOption] {
        &self.data().manifest.options
    }

    /// Replaces (or adds) a rule option, keyed by `old_name`, in the edited
    /// variant's manifest.
    pub fn set_rule_option(&mut self, old_name: &str, option: RuleOption) {
        let old = old_name.to_string();
        self.edit(&format!("option {old}"), |p| {
            let options = &mut p.manifest_mut().options;
            match options.iter_mut().find(|o| o.name == old) {
                Some(slot) => *slot = option,
                None => options.push(option),
            }
        });
    }

    /// Removes a rule option of the edited variant's manifest.
    pub fn delete_rule_option(&mut self, name: &str) {
        let name = name.to_string();
        self.last_key = None;
        self.edit(&format!("delete option {name}"), |p| {
            p.manifest_mut().options.retain(|o| o.name != name);
        });
        self.last_key = None;
    }

    /// Whether the own `rules.ron` gives a section (so it overrides the
    /// base's).
    pub fn overrides_rule_section(&self, section: &str) -> bool {
        let Some(FileValue::Rules(own)) = self
            .manifest()
            .files
            .rules
            .as_ref()
            .and_then(|n| self.own.get(n))
        else {
            return false;
        };
        match section {
            "classes" => own.classes.is_some(),
            "legions" => own.legions.is_some(),
            "start" => own.start.is_some(),
            "movement" => own.movement.is_some(),
            "titan" => own.titan.is_some(),
            "scoring" => own.scoring.is_some(),
            "strike_chart" => own.strike_chart.is_some(),
            "battle" => own.battle.is_some(),
            "scripts" => own.scripts.is_some(),
            _ => false,
        }
    }
}
