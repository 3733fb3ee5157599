//! The corpus of broken variants under `tests/broken/`: each must fail to load
//! with a clear error at the right file and line, and never panic or hang.
//!
//! Each case folder holds a variant and `expect.ron`: the file the error must
//! name (a suffix of the path), the lines it may be on (empty: any), and a
//! part of the message.

mod common;

use serde::Deserialize;

#[derive(Deserialize)]
struct Expect {
    file: String,
    lines: Vec<usize>,
    message: String,
}

fn check_case(dir: &std::path::Path) -> Result<(), String> {
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(dir.join("expect.ron"))
        .map_err(|e| format!("{name}: no expect.ron: {e}"))?;
    let expect: Expect = ron::from_str(&text).map_err(|e| format!("{name}: expect.ron: {e}"))?;
    let errors = match titan_core::load(dir, &common::options()) {
        Ok(_) => return Err(format!("{name}: loaded without error")),
        Err(errors) => errors,
    };
    let fits = |e: &titan_core::Diagnostic| {
        e.file.replace('\\', "/").ends_with(&expect.file)
            && (expect.lines.is_empty() || expect.lines.contains(&e.line))
            && e.message.contains(&expect.message)
            && !e.message.trim().is_empty()
    };
    if errors.iter().any(fits) {
        Ok(())
    } else {
        let got: Vec<String> = errors.iter().map(ToString::to_string).collect();
        Err(format!(
            "{name}: expected an error in {} at line {:?} containing {:?}; got:\n    {}",
            expect.file,
            expect.lines,
            expect.message,
            got.join("\n    ")
        ))
    }
}

macro_rules! cases {
    ($($test:ident => $dir:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                let dir = common::root().join("tests/broken").join($dir);
                if let Err(e) = check_case(&dir) {
                    panic!("{e}");
                }
            }
        )*
        const CASES: &[&str] = &[$($dir),*];
    };
}

cases! {
    action_bad_table => "action-bad-table",
    action_limit_variable => "action-limit-variable",
    action_no_script => "action-no-script",
    action_undeclared => "action-undeclared",
    action_unknown_parameter => "action-unknown-parameter",
    action_who_when => "action-who-when",
    battleland_redefined => "battleland-redefined",
    battleland_twice => "battleland-twice",
    count_zero => "count-zero",
    cycle_a => "cycle-a",
    cycle_b => "cycle-b",
    dangling_exit => "dangling-exit",
    duplicate_character => "duplicate-character",
    event_filter_key => "event-filter-key",
    event_filter_value => "event-filter-value",
    event_not_function => "event-not-function",
    event_unit_key => "event-unit-key",
    event_unit_name => "event-unit-name",
    event_unknown => "event-unknown",
    extends_missing => "extends-missing",
    hazard_hex_only => "hazard-hex-only",
    hazard_over_stop => "hazard-over-stop",
    hex_count => "hex-count",
    hexside_edge => "hexside-edge",
    hook_missing => "hook-missing",
    lua_bytecode => "lua-bytecode",
    lua_dump => "lua-dump",
    lua_handler => "lua-handler",
    lua_io => "lua-io",
    lua_limits => "lua-limits",
    lua_loop => "lua-loop",
    lua_memory => "lua-memory",
    lua_metamethods => "lua-metamethods",
    lua_os => "lua-os",
    lua_pattern => "lua-pattern",
    lua_require => "lua-require",
    lua_syntax => "lua-syntax",
    lua_tostring => "lua-tostring",
    malformed_ron => "malformed-ron",
    missing_battleland => "missing-battleland",
    muster_unreachable => "muster-unreachable",
    name_side => "name-side",
    path_absolute => "path-absolute",
    path_parent => "path-parent",
    path_shared => "path-shared",
    previous_99 => "previous-99",
    sight_crossed_hex => "sight-crossed-hex",
    sight_crossed_waiver => "sight-crossed-waiver",
    split_size => "split-size",
    titan_power => "titan-power",
    tower_removed => "tower-removed",
    unknown_field => "unknown-field",
    unknown_native => "unknown-native",
    unknown_recruit => "unknown-recruit",
    unknown_terrain => "unknown-terrain",
    unpaired_sign => "unpaired-sign",
    variable_default => "variable-default",
    wrong_type => "wrong-type",
}

/// "compile reports every error it finds, not just the first"
/// (ARCHITECTURE.md): a variant broken in four places in three files is
/// reported in all four.
#[test]
fn compile_reports_every_error() {
    let dir = common::root().join("tests/fixtures/many-errors");
    let errors = titan_core::load(&dir, &common::options()).unwrap_err();
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    let expected = [
        ("variant.ron", "only 5 tower lands"),
        ("rules.ron", "min_split_size 8 is larger than max_size 7"),
        ("mustering.ron", "Warbear needs 99 characters shown"),
        ("mustering.ron", "\"Orc\", which is no character"),
    ];
    for (file, message) in expected {
        assert!(
            errors
                .iter()
                .any(|e| e.file.ends_with(file) && e.message.contains(message)),
            "{file}: {message}\n{text:#?}"
        );
    }
    assert_eq!(errors.len(), expected.len(), "{text:#?}");
}

/// `lua-os` asks the shell for a harmless marker file: a sandbox that let
/// `os.execute` through would create it.
#[test]
fn the_sandbox_runs_no_program() {
    let marker = std::path::Path::new("lua-os-marker.txt");
    let _ = std::fs::remove_file(marker);
    let dir = common::root().join("tests/broken/lua-os");
    assert!(titan_core::load(&dir, &common::options()).is_err());
    assert!(!marker.exists(), "os.execute ran: the sandbox is broken");
    assert!(!common::root().join("lua-os-marker.txt").exists());
}

#[test]
fn every_case_folder_is_listed() {
    let on_disk: Vec<String> = common::variant_dirs(&common::root().join("tests/broken"))
        .iter()
        .map(|d| d.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        on_disk, CASES,
        "list every folder of tests/broken in the cases! macro"
    );
}
