//! Writing output files atomically: the one writer of every file catalogc writes (lock
//! files, lint baselines, formatted and imported catalogs, generated code and docs).
//!
//! A file is written to a temporary file in the same folder, flushed to disk, then renamed
//! over the target, so a reader (a concurrent `lock --check`, a build) sees the old bytes or
//! the new ones, never a truncated file, and a killed run leaves the old file intact. When
//! the file already holds exactly the new bytes nothing is written: its modification time
//! stays, so build tools do not rebuild, and concurrent writers of the same bytes never race.
//!
//! The writer never reaches further than the target's folder, and never writes what the
//! user could not: a symlink at the target is followed only to a file inside the target's
//! own folder (as the readers follow links only inside the folder they walk), and an
//! existing file the user cannot open for writing is refused, although renaming over it
//! would succeed (the rename needs only the folder's permission). A temporary file that a
//! killed run left behind for the same target is removed once it is [`STALE_TEMP`] old.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How old a temporary file of a target must be before a later write of that target removes
/// it: far longer than any write takes (catalog files are at most a few MiB), so a concurrent
/// writer's temporary file is never taken for a leftover.
pub const STALE_TEMP: Duration = Duration::from_secs(15 * 60);

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
/// A symlink to a file in the same folder is followed: its target is replaced and the link
/// stays (a catalog reached through a link is rewritten where it lives); a symlink that
/// leaves the folder is an error. An existing file keeps its permissions, and one the user
/// cannot write is an error.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<WriteOutcome> {
    if holds(path, bytes)? {
        return Ok(WriteOutcome::Unchanged);
    }
    let resolved;
    let (path, permissions) = match fs::canonicalize(path) {
        Ok(target) => {
            resolved = inside_folder(path, target)?;
            let permissions = fs::metadata(&resolved)?.permissions();
            writable(&resolved)?;
            (resolved.as_path(), Some(permissions))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => (path, None),
        Err(e) => return Err(e),
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    remove_stale_temps(dir, path);
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

/// `target`, the canonical form of `path`, when `path` is no symlink or one whose target
/// stays in `path`'s own folder; otherwise an error naming where the link leads.
fn inside_folder(path: &Path, target: PathBuf) -> io::Result<PathBuf> {
    if !fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Ok(target);
    }
    let folder = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if fs::canonicalize(folder).is_ok_and(|f| target.starts_with(f)) {
        return Ok(target);
    }
    Err(io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!(
            "is a symbolic link to {}, outside its folder; not written through",
            target.display()
        ),
    ))
}

/// Refuses a file this user cannot write. Renaming over it needs only the folder's
/// permission, so without this a read-only file, or another user's, would be replaced. A
/// file with no write permission at all is read-only for everyone, an administrator too;
/// otherwise opening it for writing (without truncating) asks the operating system the real
/// question, with every rule it applies (owner, group, ACLs), and changes nothing.
fn writable(path: &Path) -> io::Result<()> {
    let refused = || {
        io::Error::new(
            io::ErrorKind::PermissionDenied,
            "is not writable by this user; left unchanged",
        )
    };
    if fs::metadata(path)?.permissions().readonly() {
        return Err(refused());
    }
    match OpenOptions::new().write(true).open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => Err(refused()),
        Err(e) => Err(e),
    }
}

/// Removes the temporary files of `target` ([`create_temp`]'s names) that a killed run left
/// in `dir`, once they are [`STALE_TEMP`] old. Best effort: a file that cannot be read or
/// removed stays.
fn remove_stale_temps(dir: &Path, target: &Path) {
    let Some(name) = target.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return;
    };
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix('.'))
            .and_then(|n| n.strip_prefix(name.as_str()))
            .and_then(|n| n.strip_prefix('.'))
            .and_then(|n| n.strip_suffix(".tmp"))
        else {
            continue;
        };
        let ours = rest.split_once('-').is_some_and(|(pid, n)| {
            !pid.is_empty()
                && !n.is_empty()
                && pid.bytes().all(|b| b.is_ascii_digit())
                && n.bytes().all(|b| b.is_ascii_digit())
        });
        let stale = entry
            .metadata()
            .ok()
            .filter(fs::Metadata::is_file)
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= STALE_TEMP);
        if ours && stale {
            let _ = fs::remove_file(entry.path());
        }
    }
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

    #[cfg(unix)]
    #[test]
    fn a_symlink_leaving_the_folder_is_refused_and_its_target_untouched() {
        let d = tempdir();
        let (out, elsewhere) = (d.join("out"), d.join("elsewhere"));
        assert!(fs::create_dir_all(out.join("sub")).is_ok() && fs::create_dir(&elsewhere).is_ok());
        let secret = elsewhere.join("secret");
        assert!(fs::write(&secret, "keep").is_ok());
        let link = out.join("billing.lock");
        assert!(std::os::unix::fs::symlink(&secret, &link).is_ok());
        let err = write_atomic(&link, b"overwritten").map(|_| ()).unwrap_err();
        assert!(err.to_string().contains("outside its folder"), "{err}");
        assert_eq!(fs::read(&secret).ok().as_deref(), Some(&b"keep"[..]));
        assert!(fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()));
        // Relative links that climb out are refused alike; one into a subfolder is followed.
        let climbing = out.join("climbing.md");
        assert!(std::os::unix::fs::symlink("../elsewhere/secret", &climbing).is_ok());
        assert!(write_atomic(&climbing, b"x").is_err());
        assert!(fs::write(out.join("sub/real.md"), "old").is_ok());
        let inside = out.join("inside.md");
        assert!(std::os::unix::fs::symlink("sub/real.md", &inside).is_ok());
        assert!(write_atomic(&inside, b"new").is_ok());
        assert_eq!(
            fs::read(out.join("sub/real.md")).ok().as_deref(),
            Some(&b"new"[..])
        );
        assert_eq!(
            entries(&out),
            ["billing.lock", "climbing.md", "inside.md", "sub"]
        );
        let _ = fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_file_is_refused_not_replaced() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempdir();
        let p = d.join("theirs.kdl");
        assert!(fs::write(&p, "theirs").is_ok());
        assert!(fs::set_permissions(&p, fs::Permissions::from_mode(0o444)).is_ok());
        let err = write_atomic(&p, b"mine").map(|_| ()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
        assert_eq!(fs::read(&p).ok().as_deref(), Some(&b"theirs"[..]));
        assert_eq!(entries(&d), ["theirs.kdl"]);
        let _ = fs::set_permissions(&p, fs::Permissions::from_mode(0o644));
        let _ = fs::remove_dir_all(&d);
    }

    /// A killed run leaves `.NAME.PID-N.tmp`; the next write of NAME removes it once it is
    /// stale, and leaves a fresh one (a concurrent writer's) and other names alone.
    #[test]
    fn stale_temporary_files_of_a_killed_run_are_removed() {
        let d = tempdir();
        let old = std::time::SystemTime::now() - STALE_TEMP - Duration::from_secs(60);
        let make = |name: &str, stale: bool| {
            let p = d.join(name);
            let f = File::create(&p).unwrap_or_else(|e| panic!("{e}"));
            if stale {
                f.set_modified(old).unwrap_or_else(|e| panic!("{e}"));
            }
        };
        make(".a.lock.4242-0.tmp", true);
        make(".a.lock.4243-7.tmp", false);
        make(".b.lock.4242-0.tmp", true);
        make(".a.lock.notes.tmp", true);
        assert!(write_atomic(&d.join("a.lock"), b"x").is_ok());
        assert_eq!(
            entries(&d),
            [
                ".a.lock.4243-7.tmp",
                ".a.lock.notes.tmp",
                ".b.lock.4242-0.tmp",
                "a.lock"
            ]
        );
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
