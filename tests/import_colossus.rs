//! `titan import colossus`: the importer checked against the bundled
//! `titan` variant (Colossus's Default is the same game), on hand-written
//! Colossus-format fixtures (`tests/fixtures/colossus/`), and on bad input.

#[path = "import_colossus/writer.rs"]
mod writer;

mod common;

use common::{copy_dir, root};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use titan_core::format::VariantData;
use titan_import::{Out, colossus};

fn load(dir: &Path) -> VariantData {
    match titan_core::load_data(dir, &Default::default()) {
        Ok(l) => l.data,
        Err(d) => panic!("{} does not load: {d:?}", dir.display()),
    }
}

/// Imports one Colossus variant folder into `out`, checks it compiles, and
/// returns its data.
fn import(src: &Path, out: &Path) -> VariantData {
    if let Err(e) = colossus(src, Out::Given(out), true) {
        panic!("import of {} failed: {e:?}", src.display());
    }
    let v = titan_core::load(out, &Default::default());
    assert!(
        v.is_ok(),
        "{} does not compile: {:?}",
        out.display(),
        v.err()
    );
    load(out)
}

/// Every land, exit, sign, character, mustering row and battleland hex of
/// `got` is `want`'s.
fn assert_agrees(got: &VariantData, want: &VariantData) {
    let lands = |d: &VariantData| {
        d.masterboard
            .lands
            .iter()
            .map(|l| {
                let mut exits: Vec<_> = l.exits.iter().map(|e| (e.to, e.sign)).collect();
                exits.sort();
                (l.number, l.terrain.clone(), l.position, exits)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(lands(got), lands(want), "lands, exits and signs");
    let chars = |d: &VariantData| {
        let mut v: Vec<_> = d
            .characters
            .iter()
            .map(|c| {
                let natives: BTreeSet<_> = c.natives.iter().cloned().collect();
                let range = c.rangestrike.as_ref().map(|r| (r.magic, r.strikes));
                let what = (c.power, c.skill, c.class.clone(), c.flies, range, c.count);
                (
                    c.name.clone(),
                    c.plural.clone(),
                    what,
                    natives,
                    c.summonable,
                )
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(chars(got), chars(want), "characters");
    let tables = |d: &VariantData| {
        let mut v = d.mustering.clone();
        v.sort_by(|a, b| a.terrain.cmp(&b.terrain));
        v
    };
    assert_eq!(tables(got), tables(want), "mustering");
    let lands_of = |d: &VariantData| {
        let mut v: Vec<_> = d
            .battlelands
            .iter()
            .map(|b| {
                let area: BTreeSet<_> = b.defender_area.iter().cloned().collect();
                (b.terrain.clone(), b.hexes.clone(), b.attacker_edge, area)
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    assert_eq!(lands_of(got), lands_of(want), "battlelands");
    let start = |d: &VariantData| {
        let mut v: Vec<_> = d.rules.start.as_ref().unwrap().characters.clone();
        v.sort_by(|a, b| a.character.cmp(&b.character));
        v
    };
    assert_eq!(start(got), start(want), "starting characters");
    assert_eq!(got.rules.scoring, want.rules.scoring, "acquiring");
    let towers = |d: &VariantData| {
        d.terrains
            .iter()
            .map(|t| (t.name.clone(), t.tower))
            .collect::<BTreeSet<_>>()
    };
    assert_eq!(towers(got), towers(want), "terrains and towers");
}

#[test]
fn titan_written_in_colossus_form_imports_as_titan() {
    let titan = load(&root().join("variants/titan"));
    let tmp = tempfile::tempdir().unwrap();
    writer::variant(&titan, tmp.path(), "Default");
    let got = import(&tmp.path().join("Default"), &tmp.path().join("out"));
    assert_agrees(&got, &titan);
}

#[test]
fn colossus_default_reference_imports_as_titan() {
    let reference = root().join("../shared/reference/colossus-default");
    if !reference.is_dir() {
        println!("skipped: no reference at {}", reference.display());
        return;
    }
    let titan = load(&root().join("variants/titan"));
    let tmp = tempfile::tempdir().unwrap();
    let got = import(&reference, &tmp.path().join("default"));
    assert_agrees(&got, &titan);
}

// ---------------------------------------------------------------------------
// The hand-written fixtures: tests/fixtures/colossus/variants/{Mini,Base}
// ---------------------------------------------------------------------------

fn fixtures() -> PathBuf {
    root().join("tests/fixtures/colossus/variants")
}

/// The fixtures copied to a temporary `variants/` folder, to be spoilt.
fn spoilable() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&fixtures(), &tmp.path().join("variants"));
    tmp
}

fn mini() -> (tempfile::TempDir, VariantData) {
    let tmp = tempfile::tempdir().unwrap();
    let data = import(&fixtures().join("Mini"), &tmp.path().join("mini"));
    (tmp, data)
}

#[test]
fn the_manifest_names_the_files_its_depends_and_its_players() {
    let (tmp, d) = mini();
    assert_eq!(d.manifest.id, "mini");
    assert_eq!(d.manifest.title, "Mini");
    let players = d.manifest.players.unwrap();
    assert_eq!(
        (players.min, players.max),
        (2, 2),
        "<max_players num=\"2\">"
    );
    // Plains's battleland is Base's, by <depend variant="Base">.
    let plains = d
        .battlelands
        .iter()
        .find(|b| b.terrain == "Plains")
        .unwrap();
    assert_eq!(plains.hexes["A1"].hazard, "Bramble");
    // MarkersName, found in Base: the fewest markers of a colour.
    assert_eq!(d.rules.legions.as_ref().unwrap().markers_per_player, 4);
    assert!(tmp.path().join("mini/README.md").is_file());
}

#[test]
fn the_map_gives_lands_terrains_positions_exits_and_signs() {
    use titan_core::format::Sign::*;
    let (_tmp, d) = mini();
    let land = |n: u32| d.masterboard.lands.iter().find(|l| l.number == n).unwrap();
    assert_eq!(land(100).terrain, "Tower");
    assert_eq!((land(1).position.x, land(1).position.y), (1, 0));
    let exits = |n: u32| {
        land(n)
            .exits
            .iter()
            .map(|e| (e.to, e.sign))
            .collect::<Vec<_>>()
    };
    assert_eq!(exits(100), [(1, Arch)]);
    assert_eq!(exits(1), [(100, Arch), (200, Block)]);
    assert_eq!(exits(200), [(1, Arrow)]);
    let towers: Vec<_> = d
        .terrains
        .iter()
        .filter(|t| t.tower)
        .map(|t| &t.name)
        .collect();
    assert_eq!(towers, ["Tower"], "tower=\"True\" in the Tower's battlemap");
}

#[test]
fn creatures_give_every_factor_flag_and_native() {
    let (_tmp, d) = mini();
    let c = |n: &str| d.characters.iter().find(|c| c.name == n).unwrap();
    assert_eq!(
        (c("Titan").power, c("Titan").class.as_str()),
        (6, "lord"),
        "power -1: a Titan's 6"
    );
    assert!(c("Angel").summonable && c("Angel").flies);
    assert_eq!(c("Ogre").natives, ["Bog", "Slope"]);
    assert_eq!(
        c("Griffon").natives,
        ["Bramble", "Sand", "Dune"],
        "Sand makes a Dune native"
    );
    assert_eq!(c("Griffon").plural, "Griffons", "no plural_name: an s");
    let r = c("Ranger").rangestrike.as_ref().unwrap();
    assert!(!r.magic && c("Ranger").natives.contains(&"River".to_string()));
    assert!(c("Warlock").rangestrike.as_ref().unwrap().magic);
    assert_eq!(c("Guardian").class, "demilord");
    assert_eq!(
        (c("Ogre").power, c("Ogre").skill, c("Ogre").count),
        (6, 2, 20)
    );
}

#[test]
fn terrains_give_mustering_starting_acquiring_and_titan_numbers() {
    use titan_core::format::Needs;
    let (_tmp, d) = mini();
    let table = |t: &str| d.mustering.iter().find(|m| m.terrain == t).unwrap();
    let plains = table("Plains");
    assert!(plains.ladder);
    let rows: Vec<_> = plains
        .rows
        .iter()
        .map(|r| (r.character.as_str(), r.needs.clone()))
        .collect();
    let guardian = Needs::Character {
        name: "Guardian".into(),
        count: 1,
    };
    assert_eq!(
        rows,
        [
            ("Ogre", vec![]),
            ("Ranger", vec![Needs::Previous(2)]),
            ("Griffon", vec![guardian])
        ],
        "number -1: shown only, not mustered"
    );
    let tower = table("Tower");
    assert!(!tower.ladder, "regular_recruit=\"False\"");
    let needs: Vec<_> = tower.rows.iter().map(|r| r.needs[0].clone()).collect();
    assert_eq!(
        needs,
        [
            Needs::Free,
            Needs::Identical {
                count: 3,
                class: Some("creature".into())
            },
            Needs::Character {
                name: "Titan".into(),
                count: 1
            },
        ]
    );
    let start = &d.rules.start.as_ref().unwrap().characters;
    let start: Vec<_> = start
        .iter()
        .map(|c| (c.character.as_str(), c.count))
        .collect();
    assert_eq!(start, [("Titan", 1), ("Angel", 1), ("Ogre", 6)]);
    let acquire = &d.rules.scoring.as_ref().unwrap().acquire;
    assert_eq!(
        (acquire[0].character.as_str(), acquire[0].every),
        ("Angel", 100)
    );
    let tt = d
        .rules
        .movement
        .as_ref()
        .unwrap()
        .titan_teleport
        .as_ref()
        .unwrap();
    assert_eq!(tt.min_score, 300);
    assert_eq!(d.rules.titan.as_ref().unwrap().points_per_power, 50);
}

#[test]
fn battlelands_give_hazards_elevations_hexsides_and_start_lists() {
    use titan_core::format::{Edge, Side};
    let (_tmp, d) = mini();
    let land = |t: &str| d.battlelands.iter().find(|b| b.terrain == t).unwrap();
    let tower = land("Tower");
    assert_eq!(tower.hexes.len(), 27, "hexes not listed are plains");
    let d4 = &tower.hexes["D4"];
    assert_eq!((d4.hazard.as_str(), d4.elevation), ("Tower", 2));
    assert_eq!(d4.sides[&Side::N], "Wall");
    assert_eq!(d4.sides[&Side::S], "Wall");
    assert_eq!(tower.attacker_edge, Some(Edge::SouthWest));
    assert_eq!(tower.defender_area, ["D4", "C4"]);
    let plains = land("Plains");
    assert_eq!(plains.attacker_edge, None);
    let b3 = &plains.hexes["B3"];
    assert_eq!(b3.elevation, 1);
    assert_eq!(
        (b3.sides[&Side::NE].as_str(), b3.sides[&Side::SE].as_str()),
        ("Slope", "Cliff")
    );
    assert_eq!(plains.hexes["E2"].hazard, "Lake");
    // F4's SW river and E4's NE river are one hexside: kept once.
    let rivers = usize::from(plains.hexes["F4"].sides.contains_key(&Side::SW))
        + usize::from(plains.hexes["E4"].sides.contains_key(&Side::NE));
    assert_eq!(rivers, 1);
}

#[test]
fn the_readme_names_the_source_the_author_and_what_was_not_imported() {
    let (tmp, _d) = mini();
    let readme = std::fs::read_to_string(tmp.path().join("mini/README.md")).unwrap();
    for want in [
        "Colossus variant **Mini**",
        "Ann Example",
        "not imported: CreatureWarlock",
        "not imported: MiniRecruitment",
        "skipped: `Mini.MiniHint`: an AI hint class",
        "The legion markers' names (`MarkersName`",
    ] {
        assert!(readme.contains(want), "{want:?} missing from\n{readme}");
    }
    assert!(!readme.contains("not imported: MiniHint"), "{readme}");
    assert!(!readme.contains("not imported: marker names"), "{readme}");
}

fn pit() -> (tempfile::TempDir, VariantData) {
    let tmp = tempfile::tempdir().unwrap();
    let data = import(&fixtures().join("Pit"), &tmp.path().join("pit"));
    (tmp, data)
}

/// Colossus's Balrog variant's Java classes (named by the fixture `Pit`,
/// no Java in it) are written in Lua: the importer writes its own
/// `balrog.lua` and the variable it keeps, one Balrog character (a
/// demilord that does not return when slain) and a Tower row the script
/// decides, and the README says so.
#[test]
fn java_classes_written_in_lua_bring_their_script_and_the_readme_says_so() {
    let (tmp, d) = pit();
    let dir = tmp.path().join("pit");
    let lua = std::fs::read_to_string(dir.join("balrog.lua")).unwrap();
    assert!(lua.contains("titan.hook(\"balrog_may_muster\""), "{lua}");
    assert_eq!(d.manifest.files.scripts, ["balrog.lua"]);
    assert_eq!(d.manifest.files.variables.as_deref(), Some("variables.ron"));
    assert_eq!(
        d.variables
            .iter()
            .map(|v| v.name.as_str())
            .collect::<Vec<_>>(),
        ["balrogs_mustered"]
    );
    let balrog = d.characters.iter().find(|c| c.name == "Balrog").unwrap();
    assert_eq!((balrog.power, balrog.skill, balrog.count), (12, 3, 6));
    assert!(balrog.flies && balrog.rangestrike.as_ref().is_some_and(|r| r.magic));
    assert_eq!(balrog.class, "mortal-demilord");
    assert!(!balrog.summonable);
    assert!(!d.characters.iter().any(|c| c.name.starts_with("Balrog1")));
    let class = d.rules.classes.as_ref().unwrap();
    let mortal = class.iter().find(|c| c.name == "mortal-demilord").unwrap();
    assert!(!mortal.returns_when_slain);
    let tower = d.mustering.iter().find(|t| t.terrain == "Tower").unwrap();
    let row = tower.rows.iter().find(|r| r.character == "Balrog").unwrap();
    assert_eq!(
        row.needs,
        [titan_core::format::Needs::Hook("balrog_may_muster".into())]
    );
    assert!(!row.like && !row.ladder);
    let plains = d.mustering.iter().find(|t| t.terrain == "Plains").unwrap();
    assert!(!plains.rows.iter().any(|r| r.character == "Balrog"));
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    for want in [
        "## Written in Lua",
        "written in Lua: BalrogRecruitment (puts a Balrog",
        "in `balrog.lua`",
        "written in Lua: CreatureBalrog (the Balrog",
        "the class of Balrog100, Balrog200",
        // A class titan has no Lua for stays not imported.
        "not imported: CreatureWarlock",
    ] {
        assert!(readme.contains(want), "{want:?} missing from\n{readme}");
    }
    assert!(
        !readme.contains("not imported: BalrogRecruitment"),
        "{readme}"
    );
    assert!(!readme.contains("not imported: CreatureBalrog"), "{readme}");
    // Mini names a recruitment class titan has no Lua for.
    let (tmp, _) = mini();
    let readme = std::fs::read_to_string(tmp.path().join("mini/README.md")).unwrap();
    assert!(!readme.contains("Written in Lua"), "{readme}");
    assert!(!tmp.path().join("mini/balrog.lua").exists());
}

/// Whether each of the position's legions may muster a Balrog, in a game
/// of the imported `Pit`: Red (tower 100) and Blue (tower 200) with these
/// scores, Red to muster with a legion in each tower.
fn balrogs(red: u32, blue: u32) -> (bool, bool, titan_core::game::Game) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("pit");
    import(&fixtures().join("Pit"), &out);
    let v = std::sync::Arc::new(titan_core::load(&out, &Default::default()).unwrap());
    let text = format!(
        r#"(
        seed: 1,
        players: [(name: "Red", tower: 100, score: {red}), (name: "Blue", tower: 200, score: {blue})],
        legions: [
            (marker: "P1-01", land: 100, characters: ["Titan", "Ogre"], moved: true, entered_from: Some(1)),
            (marker: "P1-02", land: 200, characters: ["Angel", "Ogre"], moved: true, entered_from: Some(1)),
            (marker: "P2-01", land: 1, characters: ["Titan", "Ogre"]),
        ],
        active: 0,
        phase: Muster,
        turn: 5,
    )"#
    );
    let pos: titan_core::game::save::Position = ron::from_str(&text).unwrap();
    let g = pos.to_game(v).unwrap();
    let balrog = g.variant.character_by_name("Balrog").unwrap();
    let actions = g.legal_actions(titan_core::game::PlayerId(0));
    let may = |m: &str| {
        let m: titan_core::game::Marker = m.parse().unwrap();
        actions.iter().any(|a| {
            matches!(a, titan_core::game::Action::Muster { legion, recruit, .. }
                if *legion == m && *recruit == balrog)
        })
    };
    (may("P1-01"), may("P1-02"), g)
}

/// BalrogRecruitment as Lua: a tower holds a Balrog for every 300 points
/// of its player, for any legion mustering there; one mustered counts
/// against its tower.
#[test]
fn a_balrog_musters_in_a_tower_whose_player_has_300_points() {
    assert!(!balrogs(299, 0).0, "below 300 points, none");
    assert!(balrogs(300, 0).0, "300 points: one in his own tower");
    // Blue's tower holds none: Red's points count in Red's tower only.
    assert!(!balrogs(900, 0).1);
    // Blue's points put one in Blue's tower, which Red's legion there may
    // take (Colossus: "can be recruited by any one mustering in that Tower").
    let (own, blues, _) = balrogs(0, 300);
    assert!(!own && blues);
    // A Balrog mustered counts against its tower's player.
    let (yes, _, mut g) = balrogs(599, 0);
    assert!(yes);
    let balrog = g.variant.character_by_name("Balrog").unwrap();
    let red = titan_core::game::PlayerId(0);
    g.apply(
        red,
        &titan_core::game::Action::Muster {
            legion: "P1-01".parse().unwrap(),
            recruit: balrog,
            reveal: Vec::new(),
        },
    )
    .unwrap();
    let def = g.variant.variable("balrogs_mustered").unwrap().clone();
    let of_red = titan_core::vars::VarTarget::Player(red);
    assert_eq!(
        g.state.vars.get(&def, of_red),
        &titan_core::format::VarValue::Int(1)
    );
    // With one mustered there, a second needs 600 points.
    for (score, again) in [(599, false), (600, true)] {
        let (_, _, mut g) = balrogs(score, 0);
        g.state
            .vars
            .set(&def, of_red, titan_core::format::VarValue::Int(1));
        let p1: titan_core::game::Marker = "P1-01".parse().unwrap();
        let may = g.legal_actions(red).iter().any(|a| {
            matches!(a, titan_core::game::Action::Muster { legion, recruit, .. }
                if *legion == p1 && *recruit == balrog)
        });
        assert_eq!(may, again, "{score} points, one mustered");
    }
}

/// Imports `variant` of a spoilt copy; the error must name `file` and
/// `line`, say `what`, and nothing may be written.
fn refused(tmp: &tempfile::TempDir, variant: &str, file: &str, line: u32, what: &str) {
    let out = tmp.path().join("out");
    let src = tmp.path().join("variants").join(variant);
    let errors = colossus(&src, Out::Given(&out), false).expect_err("refused");
    let e = &errors[0];
    assert!(e.file.ends_with(file), "{e} names {file}");
    assert_eq!(e.line, line, "{e}");
    assert!(e.to_string().contains(what), "{e} says {what:?}");
    assert!(!out.exists(), "nothing written");
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert_eq!(
        leftovers.len(),
        1,
        "no temporary folder left: {leftovers:?}"
    );
}

fn spoil(tmp: &tempfile::TempDir, file: &str, from: &str, to: &str) {
    let path = tmp.path().join("variants").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{from:?} in {file}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_missing_file_is_named_at_the_manifest_line_naming_it() {
    let tmp = spoilable();
    std::fs::remove_file(tmp.path().join("variants/Mini/MiniCre.xml")).unwrap();
    refused(&tmp, "Mini", "Mini/MiniVar.xml", 5, "\"MiniCre.xml\"");
}

#[test]
fn broken_xml_is_named_at_its_line() {
    let tmp = spoilable();
    spoil(
        &tmp,
        "Mini/MiniMap.xml",
        "<exit type=\"BLOCK\" label=\"200\" />",
        "<exit type=\"BLOCK\" label=\"200\" >",
    );
    refused(&tmp, "Mini", "Mini/MiniMap.xml", 9, "broken XML");
}

#[test]
fn an_unknown_variant_in_depends_is_named_at_its_line() {
    let tmp = spoilable();
    spoil(
        &tmp,
        "Mini/MiniVar.xml",
        "variant=\"Base\"",
        "variant=\"Nowhere\"",
    );
    refused(&tmp, "Mini", "Mini/MiniVar.xml", 8, "\"Nowhere\"");
}

#[test]
fn an_unknown_creature_in_the_terrains_is_named_at_its_line() {
    let tmp = spoilable();
    spoil(
        &tmp,
        "Mini/MiniTer.xml",
        "name=\"Ranger\"",
        "name=\"Rangr\"",
    );
    refused(
        &tmp,
        "Mini",
        "Mini/MiniTer.xml",
        5,
        "\"Rangr\" is no creature",
    );
}

#[test]
fn a_dangling_exit_is_named_at_its_line() {
    let tmp = spoilable();
    spoil(
        &tmp,
        "Mini/MiniMap.xml",
        "label=\"200\" />",
        "label=\"300\" />",
    );
    refused(&tmp, "Mini", "Mini/MiniMap.xml", 8, "land 300");
}

#[test]
fn a_folder_of_variants_is_imported_all_or_nothing() {
    let tmp = spoilable();
    let out = tmp.path().join("out");
    let done = colossus(&tmp.path().join("variants"), Out::Given(&out), false).unwrap();
    let ids: Vec<_> = done.iter().map(|v| v.id.as_str()).collect();
    assert_eq!(ids, ["base", "mini", "pit"]);
    assert!(out.join("base/variant.ron").is_file() && out.join("mini/variant.ron").is_file());
    // An existing folder is kept unless replacing is asked for.
    let base = tmp.path().join("variants/Base");
    let errors = colossus(&base, Out::Given(&out.join("base")), false).expect_err("exists");
    assert!(errors[0].to_string().contains("--force"), "{}", errors[0]);
    colossus(&base, Out::Given(&out.join("base")), true).unwrap();
    // Base broken (an unknown hazard in its own battleland): nothing of
    // Mini either.
    spoil(&tmp, "Base/Battlelands/Plains.xml", "Brambles", "Quicksand");
    let again = tmp.path().join("again");
    let errors = colossus(&tmp.path().join("variants"), Out::Given(&again), false).unwrap_err();
    assert!(
        errors[0].file.ends_with("Base/Battlelands/Plains.xml"),
        "{}",
        errors[0]
    );
    assert_eq!(errors[0].line, 3, "{}", errors[0]);
    assert!(!again.exists());
}

#[test]
fn the_command_imports_and_says_what_it_wrote() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("mini");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_titan"))
            .args(args)
            .output()
            .unwrap()
    };
    let mini = fixtures().join("Mini");
    let o = run(&[
        "import",
        "colossus",
        mini.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.starts_with("imported Mini as "), "{stdout}");
    let check = run(&["check", out.to_str().unwrap()]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let o = run(&[
        "import",
        "colossus",
        mini.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && stderr.contains("nothing written"),
        "{stderr}"
    );
    let help = run(&["import", "colossus", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("--out"));
}

/// A single sign with no single sign pointing back leads one way in
/// Colossus: the board says `one_way_signs: true`, keeps the sign as it is,
/// compiles, and the README lists it.
#[test]
fn an_unanswered_single_sign_leads_one_way() {
    use titan_core::format::Sign::*;
    let tmp = spoilable();
    // Land 200's arrow back to land 1 goes: land 1's block toward 200 is
    // one-way now.
    spoil(
        &tmp,
        "Mini/MiniMap.xml",
        r#"<exit type="ARROW" label="1" />"#,
        "",
    );
    let out = tmp.path().join("out");
    let d = import(&tmp.path().join("variants/Mini"), &out);
    assert_eq!(d.masterboard.one_way_signs, Some(true));
    let one = d.masterboard.lands.iter().find(|l| l.number == 1).unwrap();
    assert!(one.exits.iter().any(|e| e.to == 200 && e.sign == Block));
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(readme.contains("1 one-way single signs"), "{readme}");
    assert!(readme.contains("1->200"), "{readme}");
    // Without the flag the same board is refused (Law of Titan 7.D).
    let board = out.join("masterboard.ron");
    let text = std::fs::read_to_string(&board).unwrap();
    std::fs::write(&board, text.replace("one_way_signs: true,", "")).unwrap();
    let err = titan_core::load(&out, &Default::default()).unwrap_err();
    assert!(format!("{err:?}").contains("is not answered"), "{err:?}");
}

/// A battle position written in RON (`titan_core::battle::Position`).
fn battle_position(text: &str) -> titan_core::battle::Position {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .unwrap()
}

/// The unit on the hex labelled `at`.
fn unit_at(b: &titan_core::battle::Battle, at: &str) -> titan_core::battle::UnitId {
    b.unit_at(titan_core::battleland::HexId::from_label(at).unwrap())
        .unwrap()
}

/// Colossus's Spring heals everybody in it, and its Sand hurts the
/// water-dwellers (natives of Lake) in it, at the end of each strike phase
/// (Colossus's hazard chart): the importer writes both as Lua of its own
/// (`spring.lua`, `sand.lua`, Sand's `Hook`), and a battle of the imported
/// variant does so.
#[test]
fn a_spring_heals_and_sand_dries_water_dwellers() {
    use titan_core::battle::{Action, Battle};
    let tmp = spoilable();
    // The Ogre dwells in water; the Bog becomes a Spring.
    spoil(
        &tmp,
        "Mini/MiniCre.xml",
        r#"Bog="true" slope="true""#,
        r#"Bog="true" slope="true" Lake="true""#,
    );
    spoil(
        &tmp,
        "Base/Battlelands/Plains.xml",
        r#"terrain="Bog""#,
        r#"terrain="Spring""#,
    );
    let out = tmp.path().join("out");
    let d = import(&tmp.path().join("variants/Mini"), &out);
    assert_eq!(d.manifest.files.scripts, ["spring.lua", "sand.lua"]);
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(readme.contains("written in Lua: `spring.lua`"), "{readme}");
    assert!(readme.contains("written in Lua: `sand.lua`"), "{readme}");
    let plains = d
        .battlelands
        .iter()
        .find(|b| b.terrain == "Plains")
        .unwrap();
    let label = |hazard: &str| {
        plains
            .hexes
            .iter()
            .find(|(_, h)| h.hazard == hazard)
            .map(|(l, _)| l.clone())
            .unwrap()
    };
    let (sand, spring) = (label("Sand"), label("Spring"));
    let v = titan_core::load(&out, &Default::default()).unwrap();
    let text = format!(
        r#"(
        battleland: "Plains",
        moving: Attacker,
        phase: Strike,
        attacker: [(character: "Ogre", hex: "{sand}", damage: 1), (character: "Ranger", hex: "{spring}", damage: 2)],
        defender: [(character: "Griffon", hex: "A1"), (character: "Ranger", hex: "A2")],
    )"#
    );
    let pos = battle_position(&text);
    let mut b = Battle::from_position(&v, &pos, titan_core::rng::GameRng::new(1)).unwrap();
    let damage = |b: &Battle, at: &str| b.units()[unit_at(b, at) as usize].damage;
    // The attacker's strikes, then the defender's strikes back: the strike
    // phase ends, and with it the hazards' hits and healing.
    b.apply(Action::EndStrikes).unwrap();
    assert_eq!(damage(&b, &spring), 2);
    b.apply(Action::EndStrikes).unwrap();
    assert_eq!(
        damage(&b, &sand),
        2,
        "the water-dwelling Ogre in Sand takes a hit"
    );
    assert_eq!(damage(&b, &spring), 1, "the Ranger in the Spring heals one");
}

/// Colossus's `poison`: a poisonous character's strike that hits poisons
/// its target, who takes the poison in hits at the beginning of each strike
/// phase. The importer writes it as Lua with the variant's poisonous
/// characters (`poison.lua`, the Unit variable `poisoned`).
#[test]
fn a_poisonous_strike_poisons_its_target() {
    use titan_core::battle::{Action, Battle};
    let tmp = spoilable();
    spoil(
        &tmp,
        "Mini/MiniCre.xml",
        r#"count="3" plural_name="Guardians""#,
        r#"count="3" plural_name="Guardians" poison="2""#,
    );
    let out = tmp.path().join("out");
    let d = import(&tmp.path().join("variants/Mini"), &out);
    assert!(d.manifest.files.scripts.contains(&"poison.lua".to_string()));
    let lua = std::fs::read_to_string(out.join("poison.lua")).unwrap();
    assert!(lua.contains(r#"["Guardian"] = 2,"#), "{lua}");
    let v = titan_core::load(&out, &Default::default()).unwrap();
    let text = r#"(
        battleland: "Tower",
        moving: Attacker,
        phase: Strike,
        attacker: [(character: "Guardian", hex: "C3")],
        defender: [(character: "Angel", hex: "C4")],
    )"#;
    let pos = battle_position(text);
    let mut b = Battle::from_position(&v, &pos, titan_core::rng::GameRng::new(1)).unwrap();
    let (guardian, angel) = (unit_at(&b, "C3"), unit_at(&b, "C4"));
    // Twelve dice, one hit.
    b.fix_dice([6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    b.apply(Action::Strike {
        unit: guardian,
        target: angel,
        strike_number: None,
        forgo_bonus: false,
    })
    .unwrap();
    assert_eq!(b.units()[angel as usize].damage, 1);
    // The Angel's strike phase begins: the poison's two hits.
    b.apply(Action::EndStrikes).unwrap();
    assert_eq!(b.units()[angel as usize].damage, 3);
}

/// Colossus's TarPit: at the beginning of each strike phase a character not
/// native to it standing in one is slowed by one more for the battle
/// (`tarpit.lua`, the Unit variable `slowed` and the unit's movement).
#[test]
fn a_tarpit_slows_for_the_rest_of_the_battle() {
    use titan_core::battle::{Action, Battle};
    use titan_core::format::VarValue;
    let tmp = spoilable();
    spoil(
        &tmp,
        "Base/Battlelands/Plains.xml",
        r#"terrain="Brambles""#,
        r#"terrain="TarPit""#,
    );
    let out = tmp.path().join("out");
    let d = import(&tmp.path().join("variants/Mini"), &out);
    assert!(d.manifest.files.scripts.contains(&"tarpit.lua".to_string()));
    let plains = d
        .battlelands
        .iter()
        .find(|b| b.terrain == "Plains")
        .unwrap();
    let tar = plains
        .hexes
        .iter()
        .find(|(_, h)| h.hazard == "TarPit")
        .map(|(l, _)| l.clone())
        .unwrap();
    let v = titan_core::load(&out, &Default::default()).unwrap();
    let text = format!(
        r#"(
        battleland: "Plains",
        moving: Attacker,
        phase: Strike,
        attacker: [(character: "Ogre", hex: "{tar}")],
        defender: [(character: "Angel", hex: "F1")],
    )"#
    );
    let pos = battle_position(&text);
    let mut b = Battle::from_position(&v, &pos, titan_core::rng::GameRng::new(1)).unwrap();
    let ogre = unit_at(&b, &tar);
    // The attacker's strike phase has begun with the Ogre in the TarPit.
    assert_eq!(b.unit_var("slowed", ogre), Some(&VarValue::Int(1)));
    b.apply(Action::EndStrikes).unwrap();
    assert_eq!(b.unit_var("slowed", ogre), Some(&VarValue::Int(2)));
}

/// A hexside that Colossus gives a different hazard from each of its two
/// hexes (a slope on the higher, a river on the lower) becomes one combined
/// hexside hazard on the higher hex, with the effects of both and the
/// stricter movement of each.
#[test]
fn a_hexside_given_two_hazards_gets_both() {
    use titan_core::format::{Move, Side};
    let tmp = spoilable();
    // B3 (x 1, y 2, elevation 1) has a slope on its north-east side; the
    // hex across it, C3 (x 2, y 2), gives that side a river.
    spoil(
        &tmp,
        "Base/Battlelands/Plains.xml",
        "</battlemap>",
        r#"    <battlehex x="2" y="2" terrain="Plains" elevation="0">
        <border number="4" type="r" />
    </battlehex>
</battlemap>"#,
    );
    let out = tmp.path().join("out");
    let d = import(&tmp.path().join("variants/Mini"), &out);
    let plains = d
        .battlelands
        .iter()
        .find(|b| b.terrain == "Plains")
        .unwrap();
    assert_eq!(
        plains.hexes["B3"].sides.get(&Side::NE).map(String::as_str),
        Some("Slope and River")
    );
    assert!(!plains.hexes["C3"].sides.contains_key(&Side::SW));
    let hazard = |n: &str| d.hazards.iter().find(|h| h.name == n).unwrap().clone();
    let (both, slope, river) = (hazard("Slope and River"), hazard("Slope"), hazard("River"));
    for e in slope.effects.iter().chain(&river.effects) {
        assert!(both.effects.contains(e), "{e:?}");
    }
    assert_eq!(both.movement.ground.others, Move::Slow);
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(readme.contains("one combined hazard"), "{readme}");
}
