//! Reading and writing files the user did not vet: only regular files, with
//! a size limit; paths confined to the folders they may use; saves written
//! atomically below a saves folder, never over a file that is not a save.
//!
//! A FIFO or a device (`/dev/zero`) is refused before it is opened (opening
//! a FIFO blocks), and a file over its limit before it is read. Variant files
//! must lie inside the folders the variant may read (its own, those of the
//! variants it extends, the shared scripts folder), after symbolic links are
//! resolved. Saves go below a saves folder: no `..` out of it, no symbolic
//! link out of it, and an existing file is replaced only if it is a save.

use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};

/// The largest variant file (RON or Lua) read.
pub const MAX_VARIANT_FILE_BYTES: u64 = 16 << 20;
/// The largest save or position file read.
pub const MAX_SAVE_BYTES: u64 = 64 << 20;

/// The text of the regular file at `path`, if it has at most `limit` bytes.
pub fn read_regular(path: &Path, limit: u64) -> io::Result<String> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let too_large = || {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than the limit of {} MiB", limit >> 20),
        )
    };
    if meta.len() > limit {
        return Err(too_large());
    }
    let file = std::fs::File::open(path)?;
    // The file may have changed since: check the opened one, and read no
    // more than the limit whatever it claims.
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// `path` with `.` and `..` resolved by name (symbolic links are not looked
/// at); None if `..` climbs above the start.
fn lexical(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() || out.as_os_str().is_empty() {
                    return None;
                }
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// Where `path` really is: symbolic links resolved when it exists, else
/// resolved by name below the nearest folder that exists.
fn real(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let absolute = lexical(&absolute).unwrap_or(absolute);
    match (absolute.parent(), absolute.file_name()) {
        (Some(parent), Some(name)) if parent != absolute => real(parent).join(name),
        _ => absolute,
    }
}

/// Whether `path` lies inside one of `roots`, symbolic links resolved.
pub fn inside(path: &Path, roots: &[PathBuf]) -> bool {
    let path = real(path);
    roots.iter().any(|root| path.starts_with(real(root)))
}

/// The user's data folder for titan's saves: `$XDG_DATA_HOME/titan/saves`,
/// `~/.local/share/titan/saves`, or `%APPDATA%\titan\saves`; `saves` in the
/// working folder if none is known.
pub fn default_saves_dir() -> PathBuf {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let data = env("XDG_DATA_HOME")
        .or_else(|| env("HOME").map(|h| h.join(".local/share")))
        .or_else(|| env("APPDATA"));
    match data {
        Some(d) => d.join("titan").join("saves"),
        None => PathBuf::from("saves"),
    }
}

/// Where a save named `path` goes: relative names below `root`, absolute
/// ones only if below it; never through `..` or a symbolic link out of it.
/// Creates the folders on the way.
pub fn save_target(root: &Path, path: &Path) -> io::Result<PathBuf> {
    let refuse = |why: &str| {
        Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{why} (saves are written only below {})", root.display()),
        ))
    };
    let Some(Component::Normal(_)) = path.components().next_back() else {
        return refuse("no file name");
    };
    // Named, or a saves folder that is a file reads "File exists".
    std::fs::create_dir_all(root).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot make the saves folder {}: {e}", root.display()),
        )
    })?;
    let root_abs = std::path::absolute(root)?;
    let joined = root_abs.join(path); // an absolute `path` replaces the root
    let Some(target) = lexical(&joined) else {
        return refuse("the path leaves the saves folder");
    };
    if !target.starts_with(&root_abs) || target == root_abs {
        return refuse("the path leaves the saves folder");
    }
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent)?;
    }
    if !inside(&target, std::slice::from_ref(&root_abs)) {
        return refuse("the path leads out of the saves folder through a symbolic link");
    }
    if let Ok(meta) = std::fs::symlink_metadata(&target) {
        if meta.file_type().is_symlink() {
            return refuse("the file is a symbolic link");
        }
        if !meta.is_file() {
            return refuse("the file is not a regular file");
        }
    }
    Ok(target)
}

/// The temporary file [`write_atomic`] writes before the rename.
fn temp_name(name: &str, pid: u32) -> String {
    format!(".{name}.tmp{pid}")
}

/// Removes what interrupted writes of `path` left behind (`.NAME.tmpPID`).
/// Two processes writing one file at the same moment are not supported.
pub fn clean_leftovers(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!(".{}.tmp", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        let leftover = file
            .strip_prefix(&prefix)
            .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()));
        let regular = entry
            .file_type()
            .is_ok_and(|t| t.is_file() || t.is_symlink());
        if leftover && regular {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Writes `contents` to `path` through a temporary file in the same folder
/// and a rename, so a reader never sees half a file and a failure loses
/// nothing. The temporary file is created new (never through a link left
/// there) and synced before the rename.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_atomic_with(path, contents, |_| Ok(()))
}

/// [`write_atomic`] with a step between the write and the rename, where
/// tests interrupt it.
pub(crate) fn write_atomic_with(
    path: &Path,
    contents: &[u8],
    before_rename: impl FnOnce(&Path) -> io::Result<()>,
) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other("no file name"))?;
    let tmp = dir.join(temp_name(&name.to_string_lossy(), std::process::id()));
    let create = || {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
    };
    let mut file = match create() {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            std::fs::remove_file(&tmp)?;
            create()?
        }
        other => other?,
    };
    let result = file
        .write_all(contents)
        .and_then(|()| file.sync_all())
        .and_then(|()| before_rename(&tmp))
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.ron");
        std::fs::write(&file, "12345").unwrap();
        assert_eq!(read_regular(&file, 5).unwrap(), "12345");
        let e = read_regular(&file, 4).unwrap_err();
        assert!(e.to_string().contains("larger than the limit"), "{e}");
        let e = read_regular(dir.path(), 100).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        #[cfg(unix)]
        {
            let e = read_regular(Path::new("/dev/zero"), 100).unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{e}");
            let fifo = dir.path().join("fifo");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                // Opening a FIFO would block until a writer comes: refused first.
                let e = read_regular(&fifo, 100).unwrap_err();
                assert!(e.to_string().contains("not a regular file"), "{e}");
            }
        }
        std::fs::write(&file, [0xff, 0xfe]).unwrap();
        assert!(read_regular(&file, 100).is_err());
    }

    #[test]
    fn save_targets_stay_below_the_saves_folder() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("saves");
        let ok = save_target(&root, Path::new("game.ron")).unwrap();
        assert_eq!(ok, std::path::absolute(root.join("game.ron")).unwrap());
        assert!(save_target(&root, Path::new("a/b/game.ron")).is_ok());
        assert!(save_target(&root, &root.join("c.ron")).is_ok());
        for bad in ["../x.ron", "a/../../x.ron", "/etc/passwd", "..", "", "a/.."] {
            assert!(save_target(&root, Path::new(bad)).is_err(), "{bad}");
        }
        assert!(!dir.path().join("x.ron").exists());
        // A saves folder that cannot be made is named in the error.
        let file = dir.path().join("a-file");
        std::fs::write(&file, "").unwrap();
        let e = save_target(&file, Path::new("game.ron")).unwrap_err();
        assert!(
            e.to_string().contains("cannot make the saves folder"),
            "{e}"
        );
        assert!(e.to_string().contains("a-file"), "{e}");
        #[cfg(unix)]
        {
            let outside = dir.path().join("outside");
            std::fs::create_dir(&outside).unwrap();
            std::os::unix::fs::symlink(&outside, root.join("link")).unwrap();
            let e = save_target(&root, Path::new("link/x.ron")).unwrap_err();
            assert!(e.to_string().contains("symbolic link"), "{e}");
            std::os::unix::fs::symlink(outside.join("f"), root.join("f.ron")).unwrap();
            assert!(save_target(&root, Path::new("f.ron")).is_err());
        }
    }

    #[test]
    fn atomic_writes_replace_whole_files_and_leftovers_are_cleaned() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.ron");
        write_atomic(&path, b"first").unwrap();
        // Interrupted before the rename: the old file is whole.
        let stop = |_: &Path| Err(io::Error::other("interrupted"));
        assert!(write_atomic_with(&path, b"second", stop).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first");
        // A killed writer leaves its temporary file: cleaned on request.
        std::fs::write(dir.path().join(".a.ron.tmp99999"), "half").unwrap();
        std::fs::write(dir.path().join(".b.ron.tmp99999"), "other").unwrap();
        clean_leftovers(&path);
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(!names.contains(&".a.ron.tmp99999".to_string()), "{names:?}");
        assert!(names.contains(&".b.ron.tmp99999".to_string()), "{names:?}");
        #[cfg(unix)]
        {
            // A link planted where the temporary file goes is not written through.
            let victim = dir.path().join("victim");
            std::fs::write(&victim, "keep").unwrap();
            let tmp = dir.path().join(temp_name("a.ron", std::process::id()));
            std::os::unix::fs::symlink(&victim, &tmp).unwrap();
            write_atomic(&path, b"third").unwrap();
            assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), "third");
        }
    }
}
