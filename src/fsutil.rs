//! Writing output files atomically: lock files, lint baselines and generated code.
//!
//! A file is written to a temporary file in the same folder, flushed to disk, then renamed
//! over the target, so a reader (a concurrent `lock --check`, a build) sees the old bytes or
//! the new ones, never a truncated file, and a killed run leaves the old file intact. When
//! the file already holds exactly the new bytes nothing is written: its modification time
//! stays, so build tools do not rebuild, and concurrent writers of the same bytes never race.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// What [`write_atomic`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteOutcome {
    /// The file did not exist or held other bytes; it now holds the new ones.
    Written,
    /// The file already held exactly these bytes; it was left untouched.
    Unchanged,
}

impl WriteOutcome {
    /// The file's bytes were replaced (it was [`WriteOutcome::Written`]).
    pub fn wrote(self) -> bool {
        self == WriteOutcome::Written
    }
}

/// Makes `path` hold exactly `bytes`, atomically (see the module documentation). The folder
/// must exist. An existing target that is not a regular file (a folder, a FIFO) is an error,
/// never replaced.
///
/// A symlink is followed: its target is replaced and the link stays (a catalog reached
/// through a link is rewritten where it lives). An existing file keeps its permissions.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<WriteOutcome> {
    if holds(path, bytes)? {
        return Ok(WriteOutcome::Unchanged);
    }
    let resolved;
    let (path, permissions) = match fs::canonicalize(path) {
        Ok(target) => {
            resolved = target;
            let permissions = fs::metadata(&resolved)?.permissions();
            (resolved.as_path(), Some(permissions))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => (path, None),
        Err(e) => return Err(e),
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let (tmp, mut file) = create_temp(dir, path)?;
    let result = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| match permissions {
            Some(p) => fs::set_permissions(&tmp, p),
            None => Ok(()),
        })
        .and_then(|()| {
            drop(file);
            fs::rename(&tmp, path)
        });
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    sync_dir(dir);
    Ok(WriteOutcome::Written)
}

/// Whether `path` is a regular file holding exactly `bytes`; reads at most `bytes.len() + 1`.
fn holds(path: &Path, bytes: &[u8]) -> io::Result<bool> {
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    if !meta.is_file() {
        return Err(io::Error::other("exists and is not a regular file"));
    }
    if meta.len() != bytes.len() as u64 {
        return Ok(false);
    }
    let mut old = Vec::with_capacity(bytes.len());
    File::open(path)?
        .take(bytes.len() as u64 + 1)
        .read_to_end(&mut old)?;
    Ok(old == bytes)
}

/// A new file `.NAME.PID-N.tmp` beside the target: same folder, so the rename never crosses a
/// file system; created exclusively, so concurrent runs never share one.
fn create_temp(dir: &Path, target: &Path) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            // A leftover of a killed run with the same pid: take the next number.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Makes the rename itself durable. Best effort: not every platform can sync a folder.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tempdir() -> PathBuf {
        static N: AtomicU64 = AtomicU64::new(0);
        let d = std::env::temp_dir().join(format!(
            "catalogc-fsutil-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap_or_else(|e| panic!("mkdir: {e}"));
        d
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<_> = fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{e}"))
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn writes_then_skips_identical_bytes_then_replaces() {
        let d = tempdir();
        let p = d.join("a.lock");
        assert_eq!(write_atomic(&p, b"one").ok(), Some(WriteOutcome::Written));
        assert_eq!(write_atomic(&p, b"one").ok(), Some(WriteOutcome::Unchanged));
        assert_eq!(write_atomic(&p, b"two!").ok(), Some(WriteOutcome::Written));
        assert_eq!(fs::read(&p).ok().as_deref(), Some(&b"two!"[..]));
        // Same length, other bytes.
        assert_eq!(write_atomic(&p, b"tw0!").ok(), Some(WriteOutcome::Written));
        assert_eq!(fs::read(&p).ok().as_deref(), Some(&b"tw0!"[..]));
        // No temporary file is left behind.
        assert_eq!(entries(&d), ["a.lock"]);
        let _ = fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_followed_and_permissions_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempdir();
        let real = d.join("real.kdl");
        let link = d.join("link.kdl");
        assert!(fs::write(&real, "old").is_ok());
        assert!(fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).is_ok());
        assert!(std::os::unix::fs::symlink(&real, &link).is_ok());
        assert_eq!(
            write_atomic(&link, b"new").ok(),
            Some(WriteOutcome::Written)
        );
        assert!(fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()));
        assert_eq!(fs::read(&real).ok().as_deref(), Some(&b"new"[..]));
        let mode = fs::metadata(&real)
            .map(|m| m.permissions().mode() & 0o777)
            .ok();
        assert_eq!(mode, Some(0o640));
        assert_eq!(entries(&d), ["link.kdl", "real.kdl"]);
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn a_folder_in_the_way_is_an_error_and_stays() {
        let d = tempdir();
        let p = d.join("x");
        fs::create_dir(&p).unwrap_or_else(|e| panic!("{e}"));
        assert!(write_atomic(&p, b"x").is_err());
        assert!(p.is_dir());
        assert_eq!(entries(&d), ["x"]);
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn a_missing_folder_is_an_error() {
        let d = tempdir();
        assert!(write_atomic(&d.join("no/such/file"), b"x").is_err());
        let _ = fs::remove_dir_all(&d);
    }

    /// Readers racing writers of two different contents only ever see one of them whole.
    #[test]
    fn readers_never_see_a_partial_file() {
        let d = tempdir();
        let p = d.join("race.lock");
        let a = vec![b'a'; 64 * 1024];
        let b = vec![b'b'; 32 * 1024];
        assert!(write_atomic(&p, &a).is_ok());
        std::thread::scope(|s| {
            for w in 0..2 {
                let (p, a, b) = (&p, &a, &b);
                s.spawn(move || {
                    for i in 0..100 {
                        let bytes = if (i + w) % 2 == 0 { a } else { b };
                        assert!(write_atomic(p, bytes).is_ok());
                    }
                });
            }
            for _ in 0..2 {
                let (p, a, b) = (&p, &a, &b);
                s.spawn(move || {
                    for _ in 0..300 {
                        let got = fs::read(p).unwrap_or_default();
                        assert!(got == *a || got == *b, "read {} bytes", got.len());
                    }
                });
            }
        });
        assert_eq!(entries(&d), ["race.lock"]);
        let _ = fs::remove_dir_all(&d);
    }
}
