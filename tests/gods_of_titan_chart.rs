//! Gods of Titan's tables as the rulebook prints them: the Character Chart
//! (16.6: class group, Power- and Skill-factor, counters and their pools,
//! the flight and rangestrike symbols as the variant's README reads them),
//! the natives of each hazard (12.7, Hazard Chart) and the columns of the
//! Mustering Table (22.3). Each row below is the rulebook's, so a changed
//! `characters.ron` or `mustering.ron` that leaves the rulebook fails here.

mod common;

use titan_core::Variant;

fn variant() -> Variant {
    titan_core::load(
        &common::root().join("variants/gods-of-titan"),
        &common::options(),
    )
    .unwrap_or_else(|e| panic!("{e:?}"))
}

/// 16.6 Character Chart, German text (DE 2158-2285; the English rows are
/// shifted, see the variant's README): name, power, skill ("?" and "0" as
/// the README reads them: Chimera 3, God 1), counters ("Anz") and start
/// pool. Grouped by the chart's headings, which are the classes (3.1-3.7).
/// A chart row: name, power, skill, counters, start pool.
type Row = (&'static str, u8, u8, u32, char);

const CHART: &[(&str, &[Row])] = &[
    (
        "master",
        &[
            ("Dark-Titan", 6, 4, 1, 'D'),
            ("God", 100, 1, 1, 'X'),
            ("Phantom", 6, 2, 1, 'A'),
            ("Titan", 6, 4, 1, 'T'),
        ],
    ),
    (
        "lord",
        &[
            ("Angel", 6, 4, 4, 'A'),
            ("Archangel", 9, 4, 2, 'A'),
            ("Necromancer", 6, 5, 1, 'A'),
        ],
    ),
    (
        "elemental",
        &[
            ("Asher", 8, 3, 1, 'X'),
            ("Golem", 13, 2, 1, 'X'),
            ("Zephyra", 9, 3, 1, 'X'),
        ],
    ),
    (
        "demilord",
        &[
            ("Chimera", 10, 3, 3, 'X'),
            ("Executer", 8, 5, 1, 'A'),
            ("Guardian", 10, 2, 6, 'X'),
            ("Immortal", 9, 4, 3, 'X'),
            ("Jabberwok", 4, 4, 1, 'D'),
            ("Locker", 12, 4, 3, 'X'),
            ("Pegasus", 4, 4, 6, 'X'),
            ("Siren", 7, 4, 3, 'X'),
            ("Sunray", 7, 3, 12, 'X'),
            ("Warlock", 6, 4, 6, 'X'),
        ],
    ),
    (
        "human",
        &[
            ("Amazon", 8, 3, 2, 'A'),
            ("Aquarian", 5, 4, 2, 'A'),
            ("Knight", 6, 4, 2, 'A'),
            ("Novice", 8, 2, 3, 'A'),
            ("Pixie", 5, 4, 2, 'A'),
            ("Priest", 7, 4, 2, 'A'),
            ("Priestess", 8, 3, 2, 'A'),
            ("Warlord", 6, 5, 2, 'A'),
        ],
    ),
    (
        "creature",
        &[
            ("Basilisk", 10, 3, 5, 'T'),
            ("Behemoth", 7, 3, 8, 'T'),
            ("Centaur", 3, 4, 8, 'T'),
            ("Colossus", 10, 4, 5, 'T'),
            ("Cyclops", 8, 2, 8, 'T'),
            ("Dragon", 9, 3, 5, 'T'),
            ("Gargoyle", 4, 3, 8, 'T'),
            ("Giant", 7, 4, 5, 'T'),
            ("Gorgon", 8, 3, 8, 'T'),
            ("Griffon", 5, 4, 8, 'T'),
            ("Hydra", 10, 3, 5, 'T'),
            ("Lion", 5, 3, 8, 'T'),
            ("Minotaur", 4, 4, 8, 'T'),
            ("Ogre", 6, 2, 8, 'T'),
            ("Phoenix", 9, 3, 5, 'T'),
            ("Ranger", 4, 4, 8, 'T'),
            ("Serpent", 16, 2, 5, 'T'),
            ("Troll", 8, 2, 8, 'T'),
            ("Unicorn", 4, 4, 8, 'T'),
            ("Warbear", 6, 3, 8, 'T'),
            ("Wyvern", 7, 3, 8, 'T'),
        ],
    ),
    (
        "sea_creature",
        &[
            ("Dolphin", 4, 3, 8, 'A'),
            ("Manta", 9, 3, 8, 'A'),
            ("Octopus", 15, 2, 8, 'A'),
            ("Seaserpent", 15, 3, 5, 'A'),
            ("Whale", 7, 3, 8, 'A'),
        ],
    ),
    (
        "dark_creature",
        &[
            ("Balrog", 8, 4, 10, 'D'),
            ("Cerberus", 8, 3, 12, 'D'),
            ("Deathbringer", 12, 3, 10, 'D'),
            ("Demon", 9, 3, 10, 'D'),
            ("Headcracker", 6, 2, 12, 'D'),
            ("Helldancer", 5, 4, 18, 'D'),
            ("Lich", 5, 3, 18, 'D'),
            ("Nightmare", 9, 3, 12, 'D'),
            ("Plaque", 5, 2, 12, 'D'),
            ("Shadow", 6, 3, 12, 'D'),
            ("Tombdigger", 7, 2, 12, 'D'),
            ("Wraith", 10, 2, 18, 'D'),
        ],
    ),
];

/// The star (flies, 3.10, 12.6) of 16.6's symbol column, as the README's
/// "Symbols" table reads the scan.
const FLYERS: &[&str] = &[
    "Phantom",
    "Angel",
    "Archangel",
    "Zephyra",
    "Chimera",
    "Guardian",
    "Locker",
    "Pegasus",
    "Sunray",
    "Gargoyle",
    "Griffon",
    "Phoenix",
    "Ranger",
    "Wyvern",
    "Helldancer",
    "Nightmare",
    "Shadow",
    "Dragon",
    "Gorgon",
];

/// The bolt (rangestrikes at half power, 14.1); the two with bolt and
/// Ying-Yang rangestrike by magic (14.5: "The characters Warlock and
/// Priestess").
const RANGESTRIKERS: &[&str] = &[
    "Asher",
    "Immortal",
    "Locker",
    "Sunray",
    "Warlock",
    "Priestess",
    "Warlord",
    "Dragon",
    "Giant",
    "Gorgon",
    "Hydra",
    "Minotaur",
    "Ranger",
    "Demon",
    "Headcracker",
    "Lich",
    "Nightmare",
    "Plaque",
];
const MAGIC: &[&str] = &["Warlock", "Priestess"];

/// 16.6 (EN 1062-1105, DE 2158-2285): every character of the chart with its
/// class, factors and counters (T: each of the three Titan-players, A: each
/// of the four players, D: the Darklord, X: one, the key EN 1102-1105), and
/// nobody else.
#[test]
fn the_character_chart_is_the_rulebooks() {
    let v = variant();
    let mut names = 0;
    for (class, rows) in CHART {
        for &(name, power, skill, anz, start) in *rows {
            names += 1;
            let id = v
                .character_by_name(name)
                .unwrap_or_else(|| panic!("16.6: no {name}"));
            let c = v.character(id);
            let times = match start {
                'T' => 3,
                'A' => 4,
                _ => 1,
            };
            assert_eq!(
                (v.class(c.class).name.as_str(), c.power, c.skill, c.count),
                (*class, power, skill, anz * times),
                "16.6 {name}: class, power, skill, counters"
            );
            assert_eq!(c.flies, FLYERS.contains(&name), "16.6 {name}: the star");
            assert_eq!(
                c.rangestrike.is_some(),
                RANGESTRIKERS.contains(&name),
                "16.6 {name}: the bolt"
            );
            if let Some(rs) = &c.rangestrike {
                assert_eq!(rs.magic, MAGIC.contains(&name), "14.5 {name}: magic");
                assert_eq!(
                    rs.strength,
                    titan_core::model::RangeStrength::HalfPower,
                    "14.1 {name}: half its power"
                );
            }
            // 20.3: a character's value is power x skill; the God's "-".
            let value = if name == "God" {
                0
            } else if name == "Chimera" {
                30
            } else {
                u32::from(power) * u32::from(skill)
            };
            assert_eq!(c.value, value, "16.6 {name}: value");
        }
    }
    assert_eq!(v.characters.len(), names, "16.6 lists every character");
}

/// 12.7 Hazard Chart (EN 741-921, DE 2030-2150): the natives of each
/// hazard, with the German Octopus for the English "Newt" (EN 839, 851). The
/// Darkness's natives are "all characters moved by the Darklord-Player and
/// the Pixie", the Cloud's everyone else's and the Pixie (EN 861, 873): read
/// by pool until natives follow the owner (README, "Natives"). Cliff and Wall
/// have no natives.
#[test]
fn the_natives_are_the_hazard_charts() {
    let v = variant();
    let darklords: Vec<&str> = CHART
        .iter()
        .flat_map(|(_, rows)| rows.iter())
        .filter(|r| r.4 == 'D')
        .map(|r| r.0)
        .collect();
    let everyone_else: Vec<&str> = CHART
        .iter()
        .flat_map(|(_, rows)| rows.iter())
        .filter(|r| r.4 != 'D')
        .map(|r| r.0)
        .collect();
    let mut darkness = darklords.clone();
    darkness.push("Pixie");
    let chart = [
        ("Tree", vec!["Pixie"]),
        (
            "Sand",
            vec!["Centaur", "Lion", "Warbear", "Griffon", "Hydra", "Pixie"],
        ),
        (
            "Bog",
            vec!["Ogre", "Troll", "Warbear", "Wyvern", "Basilisk", "Pixie"],
        ),
        (
            "Bramble",
            vec![
                "Gargoyle", "Cyclops", "Warbear", "Behemoth", "Serpent", "Pixie",
            ],
        ),
        ("Fog", vec!["Gargoyle", "Unicorn", "Gorgon", "Pixie"]),
        (
            "Hedge",
            vec![
                "Gargoyle", "Troll", "Unicorn", "Gorgon", "Phoenix", "Colossus", "Pixie",
            ],
        ),
        (
            "Drift",
            vec!["Cyclops", "Ranger", "Giant", "Colossus", "Pixie"],
        ),
        ("Volcano", vec!["Dragon"]),
        (
            "Beach",
            vec!["Dolphin", "Whale", "Octopus", "Aquarian", "Siren", "Pixie"],
        ),
        (
            "Water",
            vec![
                "Dolphin",
                "Whale",
                "Manta",
                "Octopus",
                "Seaserpent",
                "Aquarian",
                "Siren",
                "Pixie",
            ],
        ),
        ("Darkness", darkness),
        ("Cloud", everyone_else),
        ("Dune", vec!["Lion", "Griffon", "Hydra", "Pixie"]),
        (
            "Slope",
            vec![
                "Ogre", "Lion", "Minotaur", "Gorgon", "Dragon", "Colossus", "Pixie",
            ],
        ),
        ("Cliff", vec![]),
        ("Wall", vec![]),
    ];
    for (hazard, natives) in &chart {
        let h = v
            .hazard_by_name(hazard)
            .unwrap_or_else(|| panic!("12.7: no {hazard}"));
        let mut got: Vec<&str> = v
            .characters
            .iter()
            .filter(|c| c.natives.contains(h))
            .map(|c| c.name.as_str())
            .collect();
        let mut want = natives.clone();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "12.7 {hazard}: natives");
    }
}

/// 22.3 Mustering Table (EN 1109-1126): each terrain's column, weakest
/// first, as the README's "Mustering table" reads the scan (the numbers
/// there are readings; the names and their order are the scan's).
#[test]
fn the_mustering_columns_are_the_tables() {
    let v = variant();
    let table: &[(&str, &[&str])] = &[
        ("Brush", &["Gargoyle", "Cyclops", "Warbear"]),
        ("Plains", &["Centaur", "Lion", "Warbear"]),
        ("Marsh", &["Ogre", "Troll", "Warbear"]),
        ("Valley", &["Gargoyle", "Unicorn", "Gorgon"]),
        ("Woods", &["Centaur", "Ranger", "Gorgon"]),
        ("Hills", &["Ogre", "Minotaur", "Gorgon"]),
        ("Jungle", &["Gargoyle", "Behemoth", "Serpent"]),
        ("Desert", &["Lion", "Griffon", "Hydra"]),
        ("Swamp", &["Troll", "Wyvern", "Basilisk"]),
        ("Highlands", &["Troll", "Unicorn", "Phoenix", "Colossus"]),
        ("Tundra", &["Cyclops", "Ranger", "Giant", "Colossus"]),
        ("Mountains", &["Lion", "Minotaur", "Dragon", "Colossus"]),
    ];
    for (terrain, column) in table {
        let t = v
            .terrain_by_name(terrain)
            .unwrap_or_else(|| panic!("22.3: no {terrain}"));
        let rows: Vec<&str> = v.mustering[t.index()]
            .rows
            .iter()
            .map(|r| v.character(r.character).name.as_str())
            .collect();
        assert_eq!(rows, *column, "22.3 {terrain}");
    }
}
