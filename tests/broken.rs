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
    count_zero => "count-zero",
    cycle_a => "cycle-a",
    cycle_b => "cycle-b",
    dangling_exit => "dangling-exit",
    duplicate_character => "duplicate-character",
    extends_missing => "extends-missing",
    hex_count => "hex-count",
    hexside_edge => "hexside-edge",
    hook_missing => "hook-missing",
    lua_bytecode => "lua-bytecode",
    lua_dump => "lua-dump",
    lua_io => "lua-io",
    lua_loop => "lua-loop",
    lua_memory => "lua-memory",
    lua_os => "lua-os",
    lua_require => "lua-require",
    lua_syntax => "lua-syntax",
    malformed_ron => "malformed-ron",
    missing_battleland => "missing-battleland",
    muster_unreachable => "muster-unreachable",
    name_side => "name-side",
    titan_power => "titan-power",
    unknown_field => "unknown-field",
    unknown_native => "unknown-native",
    unknown_recruit => "unknown-recruit",
    unknown_terrain => "unknown-terrain",
    unpaired_sign => "unpaired-sign",
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
