//! `titan import`: variants of other Titan programs turned into variant
//! folders (the work is `titan-import`'s; this prints what it returns).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum Import {
    /// Import Colossus variants: PATH is a Colossus `variants/` folder
    /// (every variant in it is imported) or one variant's folder (the one
    /// holding its `*Var.xml`). Each becomes a titan variant folder with a
    /// README saying what was imported and what was not (docs/import.md).
    /// On any error (a missing file, broken XML, an unknown variant or
    /// creature, an exit to no land) it names the Colossus file and line
    /// and writes nothing.
    Colossus {
        /// A Colossus `variants/` folder, or one variant's folder.
        path: PathBuf,
        /// Where to write: for one variant, its folder; for several, the
        /// folder they are written under (default: the variants/ folder,
        /// as `variants/<name in lower case>`).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Replace destination folders that already exist.
        #[arg(long)]
        force: bool,
    },
}

pub fn run(what: Import) -> ExitCode {
    let Import::Colossus { path, out, force } = what;
    let root = crate::check::variants_root();
    let target = match &out {
        Some(p) => titan_import::Out::Given(p),
        None => titan_import::Out::Under(&root),
    };
    match titan_import::colossus(&path, target, force) {
        Ok(done) => {
            let mut text = String::new();
            for v in &done {
                text += &format!(
                    "imported {} as {} ({}; {} not imported, see its README.md)\n",
                    v.name,
                    v.out.display(),
                    v.id,
                    crate::count(v.not_imported.len() as u64, "thing")
                );
            }
            if crate::write_out(&text) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(errors) => {
            for e in &errors {
                eprintln!("error: {e}");
            }
            eprintln!("nothing written");
            ExitCode::FAILURE
        }
    }
}
