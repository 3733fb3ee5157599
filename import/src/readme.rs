//! The imported variant's README: its source, its author where the
//! Colossus README gives one, what was imported and what was not, and why.

use std::path::Path;

use crate::manifest::Source;

/// What the Java classes Colossus ships with its variants do, for the
/// README's "written in Lua" and "not imported" lines.
const JAVA: &[(&str, &str)] = &[
    (
        "BalrogRecruitment",
        "puts a Balrog in a player's home Tower for every 300 points the player scores, for any legion mustering there to take",
    ),
    (
        "CreatureBalrog",
        "the Balrog, a demilord that is not immortal (slain, it leaves the game), one creature a tower (Balrog100, Balrog200, ...) whose counters appear as that tower's player scores",
    ),
];

/// Notes gathered while importing one variant.
pub struct Notes {
    pub name: String,
    pub source_dir: String,
    pub author: Option<String>,
    pub not_imported: Vec<String>,
    /// Java classes written in Lua (`crate::java`).
    pub lua: Vec<String>,
    pub skipped: Vec<String>,
    pub counts: String,
    /// What was imported beyond the usual list, a line each.
    pub also_imported: Vec<String>,
}

impl Notes {
    pub fn new(src: &Source) -> Notes {
        let mut notes = Notes {
            name: src.var.name.clone(),
            source_dir: src.dir.display().to_string(),
            author: author(&src.dir),
            not_imported: Vec::new(),
            lua: Vec::new(),
            skipped: Vec::new(),
            counts: String::new(),
            also_imported: Vec::new(),
        };
        for h in &src.var.hints {
            notes.skipped.push(format!(
                "`{h}`: an AI hint class (advice to Colossus's computer players on what to muster), not a rule"
            ));
        }
        for class in java_classes(&src.dir) {
            let short = class.rsplit('.').next().unwrap_or(&class).to_string();
            // A class written in Lua is noted where the variant uses it.
            if !short.ends_with("Hint")
                && !short.starts_with("Creature")
                && crate::java::rule(&class).is_none()
            {
                notes.java(&class, None);
            }
        }
        notes.not("images and counters' colours: titan draws its own".into());
        notes
    }

    /// A line for the README's "Imported".
    pub fn imported(&mut self, what: String) {
        self.also_imported.push(what);
    }

    pub fn not(&mut self, what: String) {
        if !self.not_imported.contains(&what) {
            self.not_imported.push(what);
        }
    }

    /// A Java rule class, with what it does (and the characters it is for).
    pub fn java(&mut self, class: &str, character: Option<&str>) {
        let line = java_line(class, character, None);
        self.not(line);
    }

    /// A Java rule class written in Lua, in the script `script`.
    pub fn java_in_lua(&mut self, class: &str, character: Option<&str>, script: &str) {
        let line = java_line(class, character, Some(script));
        if !self.lua.contains(&line) {
            self.lua.push(line);
        }
    }

    pub fn counts(
        &mut self,
        lands: usize,
        terrains: usize,
        battlelands: usize,
        characters: usize,
        players: u8,
    ) {
        self.counts = format!(
            "{lands} lands of {terrains} terrains, {battlelands} battlelands, {characters} characters, 2 to {players} players"
        );
    }

    pub fn render(&self) -> String {
        let mut s = format!("# {}\n\n", self.name);
        s += &format!(
            "Imported by `titan import colossus` from the Colossus variant **{}** (`{}`).\n",
            self.name, self.source_dir
        );
        match &self.author {
            Some(a) => s += &format!("Its author, as its Colossus README names them: {a}.\n"),
            None => s += "Its Colossus README names no author.\n",
        }
        s += "Colossus is GPL; this folder holds facts of the variant in titan's own format, none of Colossus's files.\n\n";
        s += "## Imported\n\n";
        s += &format!("- {}.\n", self.counts);
        s += "- The masterboard (`*Map.xml`): lands, terrains, grid positions, exits and their signs.\n";
        s += "- The characters (`*Cre.xml`): power, skill, flight, rangestrikes (magic ones too), natives, counts, lords, demilords, summonables.\n";
        s += "- The mustering (`*Ter.xml`): every terrain's recruits with `Anything`, `AnyNonLord`, `Lord`, `DemiLord` and shown-only characters, the Tower's starting characters, acquirable characters and the Titan's teleport and power thresholds.\n";
        s += "- The battlelands (`Battlelands/*.xml`): hexes, hazards, elevations, hexsides, the tower's start list; files taken from the variants it depends on as Colossus takes them.\n";
        s += "- The hazard chart: the Avalon Hill hazards as the bundled `titan` variant reads them; Lake, Stone, Spring and TarPit with their movement and strike effects from Colossus's hazard table.\n";
        s += "- The other rule numbers (legion size, strike chart, battle length, teleports) are the bundled `titan` variant's, as in Colossus.\n";
        for n in &self.also_imported {
            s += &format!("- {n}\n");
        }
        s += "\n";
        if !self.lua.is_empty() {
            s += "## Written in Lua\n\n";
            s += "Java rule classes of the Colossus variant that titan runs as Lua of its own (written for titan from what the classes do, not Colossus's code):\n\n";
            for n in &self.lua {
                s += &format!("- written in Lua: {n}\n");
            }
            s += "\n";
        }
        s += "## Not imported\n\n";
        for n in &self.not_imported {
            s += &format!("- not imported: {n}\n");
        }
        if !self.skipped.is_empty() {
            s += "\n## Skipped\n\n";
            for n in &self.skipped {
                s += &format!("- skipped: {n}\n");
            }
        }
        s
    }
}

/// A README line of a Java class: what it does, the characters it is for,
/// the script it is written in.
fn java_line(class: &str, character: Option<&str>, script: Option<&str>) -> String {
    let short = class.rsplit('.').next().unwrap_or(class);
    let does = JAVA.iter().find(|(c, _)| *c == short).map_or(
        "rules written in Java, which titan does not run",
        |(_, d)| d,
    );
    let mut what = does.to_string();
    if let Some(c) = character {
        what += &format!("; the class of {c}");
    }
    if let Some(f) = script {
        what += &format!("; in `{f}`");
    }
    format!("{short} ({what})")
}

/// The Java classes in a variant's folder, as `Folder.Class`.
fn java_classes(dir: &Path) -> Vec<String> {
    let folder = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".java").map(|c| format!("{folder}.{c}"))
        })
        .collect();
    out.sort();
    out
}

/// The author a Colossus README names: an `Author:` line, else the words
/// after the first " by ".
fn author(dir: &Path) -> Option<String> {
    let text = ["README.html", "README", "README.txt"]
        .iter()
        .find_map(|n| std::fs::read_to_string(dir.join(n)).ok())?;
    let plain = strip_tags(&text);
    let lines = plain.lines().map(str::trim).filter(|l| !l.is_empty());
    for l in lines.clone() {
        if let Some(rest) = l
            .strip_prefix("Author:")
            .or_else(|| l.strip_prefix("Authors:"))
        {
            return Some(rest.trim().to_string()).filter(|a| !a.is_empty());
        }
    }
    for l in lines {
        let lower = l.to_lowercase();
        if let Some(i) = lower.find(" by ") {
            let rest = &l[i + 4..];
            let end = rest.find(['.', ',', '(', ';', ':']).unwrap_or(rest.len());
            let who = rest[..end].trim();
            if who.starts_with(|c: char| c.is_uppercase()) {
                return Some(who.to_string());
            }
        }
    }
    None
}

fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&nbsp;", " ").replace("&amp;", "&")
}
