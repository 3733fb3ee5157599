//! Writes Colossus-format XML from titan's own variant data (the facts of
//! `variants/titan`, in the layout Colossus's files use), so that the
//! importer can be checked against the bundled variant without any file of
//! Colossus's.

use std::fmt::Write as _;
use std::path::Path;

use titan_core::format::{Needs, Side, Sign, VariantData};

/// The Colossus `(x, y)` of a battleland label: columns A-F are x 0-5, and
/// y counts down from the top of the column.
pub fn xy(label: &str) -> (u32, u32) {
    let col = (label.as_bytes()[0] - b'A') as u32;
    let n: u32 = label[1..].parse().unwrap();
    let top = [5, 5, 6, 6, 6, 5][col as usize];
    (col, top - n)
}

fn hazard_name(h: &str) -> &str {
    if h == "Bramble" { "Brambles" } else { h }
}

fn sign(s: Sign) -> &'static str {
    match s {
        Sign::TripleArrow => "ARROWS",
        Sign::Arrow => "ARROW",
        Sign::Arch => "ARCH",
        Sign::Block => "BLOCK",
        Sign::Gate => panic!("Colossus's boards have no gate"),
    }
}

fn side_code(h: &str) -> &'static str {
    match h {
        "Dune" => "d",
        "Cliff" => "c",
        "Slope" => "s",
        "Wall" => "w",
        "River" => "r",
        other => panic!("no Colossus code for {other}"),
    }
}

pub fn map(data: &VariantData) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?>\n<board width=\"15\" height=\"8\">\n");
    for l in &data.masterboard.lands {
        let _ = writeln!(
            s,
            "  <hex label=\"{}\" terrain=\"{}\" xpos=\"{}\" ypos=\"{}\">",
            l.number, l.terrain, l.position.x, l.position.y
        );
        for e in &l.exits {
            let _ = writeln!(
                s,
                "    <exit type=\"{}\" label=\"{}\" />",
                sign(e.sign),
                e.to
            );
        }
        s += "  </hex>\n";
    }
    s + "</board>\n"
}

pub fn creatures(data: &VariantData) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?>\n<creatures version=\"2\">\n");
    let native = |c: &titan_core::format::CharacterDef, h: &str| c.natives.iter().any(|n| n == h);
    for c in &data.characters {
        let titan = data.rules.titan.as_ref().unwrap().character == c.name;
        let _ = write!(
            s,
            "  <creature name=\"{}\" power=\"{}\" skill=\"{}\" rangestrikes=\"{}\" flies=\"{}\" magic_missile=\"{}\" summonable=\"{}\" lord=\"{}\" demilord=\"{}\" count=\"{}\" plural_name=\"{}\"",
            c.name,
            if titan { -1 } else { i32::from(c.power) },
            c.skill,
            c.rangestrike.is_some(),
            c.flies,
            c.rangestrike.as_ref().is_some_and(|r| r.magic),
            c.summonable,
            c.class == "lord",
            c.class == "demilord",
            c.count,
            c.plural
        );
        for (attr, hazard) in [
            ("Brambles", "Bramble"),
            ("Drift", "Drift"),
            ("Bog", "Bog"),
            ("Sand", "Sand"),
            ("slope", "Slope"),
            ("Volcano", "Volcano"),
            ("river", "River"),
        ] {
            let _ = write!(s, " {attr}=\"{}\"", native(c, hazard));
        }
        s += " />\n";
    }
    s + "</creatures>\n"
}

/// The recruits of a table in Colossus's chain form.
fn chain(rows: &[titan_core::format::MusterRow]) -> Vec<(String, i32)> {
    let mut out = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        match r.needs.first() {
            None if i == 0 => out.push((r.character.clone(), 1)),
            Some(Needs::Previous(n)) => out.push((r.character.clone(), i32::from(*n))),
            Some(Needs::Free) => {
                out.push(("Anything".into(), 0));
                out.push((r.character.clone(), 0));
            }
            Some(Needs::Identical { count, class }) => {
                assert_eq!(class.as_deref(), Some("creature"));
                out.push(("AnyNonLord".into(), 0));
                out.push((r.character.clone(), i32::from(*count)));
            }
            Some(Needs::Character { name, count }) => {
                out.push((name.clone(), -1));
                out.push((r.character.clone(), i32::from(*count)));
            }
            other => panic!("no Colossus form for {other:?}"),
        }
    }
    out
}

pub fn terrains(data: &VariantData) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?>\n<terrains>\n");
    let start = &data.rules.start.as_ref().unwrap().characters;
    for t in &data.mustering {
        let tower = data.terrains.iter().any(|d| d.name == t.terrain && d.tower);
        let _ = writeln!(
            s,
            "  <terrain name=\"{}\" color=\"grey\" regular_recruit=\"{}\">",
            t.terrain,
            if t.ladder { "True" } else { "False" }
        );
        for (name, n) in chain(&t.rows) {
            let _ = writeln!(s, "    <recruit name=\"{name}\" number=\"{n}\" />");
        }
        // The Titan and the first acquirable are Colossus's own.
        for c in start.iter().skip(2).filter(|_| tower) {
            let _ = writeln!(
                s,
                "    <starting name=\"{}\" number=\"{}\" />",
                c.character, c.count
            );
        }
        s += "  </terrain>\n";
    }
    for a in &data.rules.scoring.as_ref().unwrap().acquire {
        let _ = writeln!(
            s,
            "  <acquirable name=\"{}\" points=\"{}\" />",
            a.character, a.every
        );
    }
    s + "</terrains>\n"
}

pub fn battleland(b: &titan_core::format::BattlelandDef) -> String {
    let mut s = format!(
        "<?xml version=\"1.0\"?>\n<battlemap terrain=\"{}\" tower=\"{}\">\n",
        b.terrain,
        if b.attacker_edge.is_some() {
            "True"
        } else {
            "False"
        }
    );
    for (label, h) in &b.hexes {
        if h.hazard == "Plains" && h.elevation == 0 && h.sides.is_empty() {
            continue;
        }
        let (x, y) = xy(label);
        let _ = writeln!(
            s,
            "  <battlehex x=\"{x}\" y=\"{y}\" terrain=\"{}\" elevation=\"{}\">",
            hazard_name(&h.hazard),
            h.elevation
        );
        for (side, hz) in &h.sides {
            let n = Side::ALL.iter().position(|x| x == side).unwrap();
            let _ = writeln!(
                s,
                "    <border number=\"{n}\" type=\"{}\" />",
                side_code(hz)
            );
        }
        s += "  </battlehex>\n";
    }
    if !b.defender_area.is_empty() {
        s += "  <startlist>\n";
        for l in &b.defender_area {
            let _ = writeln!(s, "    <battlehexref label=\"{l}\" />");
        }
        s += "  </startlist>\n";
    }
    s + "</battlemap>\n"
}

/// Writes the whole variant as a Colossus variant folder `dir/<name>`.
pub fn variant(data: &VariantData, dir: &Path, name: &str) {
    let v = dir.join(name);
    std::fs::create_dir_all(v.join("Battlelands")).unwrap();
    let put = |f: &str, text: String| std::fs::write(v.join(f), text).unwrap();
    put(
        &format!("{name}Var.xml"),
        format!(
            "<?xml version=\"1.0\"?>\n<variant name=\"{name}\">\n  <strategic_map filename=\"{name}Map.xml\" />\n  <creatures filename=\"{name}Cre.xml\" />\n  <terrain_recruits filename=\"{name}Ter.xml\" />\n</variant>\n"
        ),
    );
    put(&format!("{name}Map.xml"), map(data));
    put(&format!("{name}Cre.xml"), creatures(data));
    put(&format!("{name}Ter.xml"), terrains(data));
    for b in &data.battlelands {
        put(&format!("Battlelands/{}.xml", b.terrain), battleland(b));
    }
}
