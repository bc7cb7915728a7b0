//! Reading catalog files as they were at a git revision, without a checkout and without
//! touching the work tree or the index: `git rev-parse`, `git ls-tree`, `git cat-file`.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Why the old side could not be read from git. `Display` is one line.
#[derive(Debug, Clone, PartialEq)]
pub enum GitError {
    /// `git` could not be started.
    NoGit(String),
    /// git does not take the folder as a work tree; `reason` is git's own line (not a
    /// repository, dubious ownership, a broken config…).
    NotARepository {
        /// The folder git was run in.
        dir: PathBuf,
        /// git's own explanation (one line).
        reason: String,
    },
    /// No commit by that name; `shallow` when the clone is shallow, so it may exist upstream.
    UnknownRevision {
        /// The revision as given.
        rev: String,
        /// The clone is shallow, so the revision may exist upstream.
        shallow: bool,
    },
    /// A path named on the command line does not exist at the revision: nothing there to
    /// compare it with (a path moved or created since then).
    PathMissing {
        /// The revision as given.
        rev: String,
        /// The path as git read it, relative to the current folder.
        path: PathBuf,
    },
    /// A file at the revision is not UTF-8 text.
    NotUtf8 {
        /// The revision read.
        rev: String,
        /// The file's path inside the repository.
        path: PathBuf,
    },
    /// git ran and failed.
    Failed {
        /// The git command line that ran.
        command: String,
        /// What git printed on stderr, trimmed.
        stderr: String,
    },
}

impl fmt::Display for GitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GitError::NoGit(e) => write!(f, "cannot run git: {e}"),
            GitError::NotARepository { dir, reason } => write!(
                f,
                "{}: git cannot use this folder as a repository, so --against cannot name a revision: {reason}",
                dir.display()
            ),
            GitError::UnknownRevision {
                rev,
                shallow: false,
            } => write!(
                f,
                "git revision `{rev}` does not exist (and no file or folder has that name)"
            ),
            GitError::UnknownRevision { rev, shallow: true } => write!(
                f,
                "git revision `{rev}` does not exist in this shallow clone (and no file or folder has that name); fetch it first, e.g. `git fetch --unshallow` or `git fetch origin {rev}` (in CI, check out with full history)"
            ),
            GitError::PathMissing { rev, path } => write!(
                f,
                "`{}` does not exist at `{rev}`, so there is nothing to compare it with; a path moved or created since then cannot be checked against that revision (compare with a folder holding the old catalogs instead)",
                path.display()
            ),
            GitError::NotUtf8 { rev, path } => write!(
                f,
                "{rev}:{}: not UTF-8 text; catalogs must be UTF-8",
                path.display()
            ),
            GitError::Failed { command, stderr } => {
                write!(f, "`{command}` failed: {}", first_line(stderr))
            }
        }
    }
}

impl std::error::Error for GitError {}

/// The first non-empty line of git's stderr: its reason, kept to one line.
fn first_line(stderr: &str) -> &str {
    stderr
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("git gave no reason")
}

/// A git work tree, addressed from a folder inside it; relative paths are relative to that
/// folder, as on git's command line.
#[derive(Debug, Clone)]
pub struct Repo {
    dir: PathBuf,
}

impl Repo {
    /// The repository containing `dir`.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Repo, GitError> {
        let repo = Repo { dir: dir.into() };
        match repo.run(&["rev-parse", "--is-inside-work-tree"]) {
            Ok(out) if out.trim() == "true" => Ok(repo),
            Ok(_) => Err(GitError::NotARepository {
                dir: repo.dir,
                reason: "the folder is inside a .git folder, not a work tree".to_string(),
            }),
            // git's own reason: "not a git repository", but also "detected dubious
            // ownership" or a broken config, which a generic message would hide.
            Err(GitError::Failed { stderr, .. }) => Err(GitError::NotARepository {
                dir: repo.dir,
                reason: first_line(&stderr).to_string(),
            }),
            Err(e) => Err(e),
        }
    }

    fn output(&self, args: &[&str]) -> Result<std::process::Output, GitError> {
        Command::new("git")
            .args(args)
            .current_dir(&self.dir)
            // Never prompt, never page, never read the user's replacement refs.
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_PAGER", "cat")
            .env("GIT_NO_REPLACE_OBJECTS", "1")
            .output()
            .map_err(|e| GitError::NoGit(e.to_string()))
    }

    fn run_bytes(&self, args: &[&str]) -> Result<Vec<u8>, GitError> {
        let out = self.output(args)?;
        if out.status.success() {
            Ok(out.stdout)
        } else {
            Err(GitError::Failed {
                command: format!("git {}", args.join(" ")),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            })
        }
    }

    fn run(&self, args: &[&str]) -> Result<String, GitError> {
        self.run_bytes(args)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    }

    /// The commit a revision names; an unknown revision is [`GitError::UnknownRevision`].
    pub fn resolve(&self, rev: &str) -> Result<String, GitError> {
        // `--end-of-options` keeps a revision starting with `-` from being read as an option.
        let spec = format!("{rev}^{{commit}}");
        match self.run(&[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &spec,
        ]) {
            Ok(out) if !out.trim().is_empty() => Ok(out.trim().to_string()),
            Ok(_) | Err(GitError::Failed { .. }) => Err(GitError::UnknownRevision {
                rev: rev.to_string(),
                shallow: self.is_shallow(),
            }),
            Err(e) => Err(e),
        }
    }

    fn is_shallow(&self) -> bool {
        self.run(&["rev-parse", "--is-shallow-repository"])
            .is_ok_and(|out| out.trim() == "true")
    }

    /// `path` as git's command line reads it in this folder: relative paths as given; an
    /// absolute path made relative to the folder (with `..` where needed), since `REV:PATH`
    /// and pathspecs take it relative to the current folder, never to `/`.
    fn relative(&self, path: &Path) -> PathBuf {
        if !path.is_absolute() {
            return path.to_path_buf();
        }
        let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let (base, target) = (canon(&self.dir), canon(path));
        let (mut b, mut t) = (base.components().peekable(), target.components().peekable());
        while let (Some(x), Some(y)) = (b.peek(), t.peek()) {
            if x != y {
                break;
            }
            b.next();
            t.next();
        }
        let mut out: PathBuf = b.map(|_| std::path::Component::ParentDir).collect();
        out.extend(t);
        if out.as_os_str().is_empty() {
            out.push(".");
        }
        out
    }

    /// `blob`, `tree`, or `None` when the path does not exist at the commit.
    fn object_type(&self, commit: &str, path: &Path) -> Result<Option<String>, GitError> {
        let spec = format!("{commit}:{}", rel(path));
        let out = self.output(&["cat-file", "-t", &spec])?;
        Ok(out
            .status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string()))
    }

    /// The text of a file at a commit.
    pub fn read(&self, commit: &str, path: &Path) -> Result<String, GitError> {
        let spec = format!("{commit}:{}", rel(path));
        let bytes = self.run_bytes(&["cat-file", "blob", &spec])?;
        String::from_utf8(bytes).map_err(|_| GitError::NotUtf8 {
            rev: commit.to_string(),
            path: path.to_path_buf(),
        })
    }

    /// Regular files under `path` at a commit (symlinks and submodules skipped), relative to
    /// the repo's folder, sorted.
    pub fn files_under(&self, commit: &str, path: &Path) -> Result<Vec<PathBuf>, GitError> {
        let p = rel(path);
        let out = self.run_bytes(&["ls-tree", "-r", "-z", commit, "--", &p])?;
        let mut files: Vec<PathBuf> = out
            .split(|&b| b == 0)
            .filter_map(|entry| {
                let entry = std::str::from_utf8(entry).ok()?;
                let (meta, name) = entry.split_once('\t')?;
                let mode = meta.split(' ').next()?;
                matches!(mode, "100644" | "100755").then(|| PathBuf::from(name))
            })
            .collect();
        files.sort();
        Ok(files)
    }

    /// The catalog files named by `paths` at a revision, as `(path, text)`: a folder gives
    /// every `*.kdl` below it except the project file `project_file`. A path that did not
    /// exist then is [`GitError::PathMissing`]: reading it as "no catalogs" would report
    /// every tool of a moved folder as new and pass any change.
    pub fn catalog_files(
        &self,
        rev: &str,
        paths: &[PathBuf],
        project_file: &str,
    ) -> Result<Vec<(PathBuf, String)>, GitError> {
        let commit = self.resolve(rev)?;
        let mut names = Vec::new();
        for p in paths {
            let p = &self.relative(p);
            match self.object_type(&commit, p)?.as_deref() {
                Some("tree") => {
                    names.extend(self.files_under(&commit, p)?.into_iter().filter(|f| {
                        f.extension().is_some_and(|e| e == "kdl")
                            && f.file_name().is_none_or(|n| n != project_file)
                    }))
                }
                Some("blob") => names.push(p.clone()),
                _ => {
                    return Err(GitError::PathMissing {
                        rev: rev.to_string(),
                        path: p.clone(),
                    });
                }
            }
        }
        names.dedup();
        names
            .into_iter()
            .map(|n| self.read(&commit, &n).map(|text| (n, text)))
            .collect()
    }
}

/// A path for `REV:PATH`: `./` makes git read it relative to the current folder.
fn rel(path: &Path) -> String {
    let s = path.to_string_lossy().replace('\\', "/");
    let s = s.trim_start_matches("./");
    if s.is_empty() || s == "." {
        "./".to_string()
    } else {
        format!("./{s}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .args([
                "-c",
                "commit.gpgsign=false",
                "-c",
                "core.hooksPath=/dev/null",
            ])
            .args(args)
            .current_dir(dir)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .status()
            .map(|s| s.success());
        assert_eq!(ok.ok(), Some(true), "git {args:?}");
    }

    #[test]
    fn reads_files_at_a_revision_without_touching_the_work_tree() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        git(d, &["init", "-q"]);
        std::fs::create_dir_all(d.join("catalogs/sub")).unwrap();
        std::fs::write(d.join("catalogs/a.kdl"), "old a").unwrap();
        std::fs::write(d.join("catalogs/sub/b.kdl"), "old b").unwrap();
        std::fs::write(d.join("catalogs/catalogc.kdl"), "config").unwrap();
        std::fs::write(d.join("catalogs/notes.txt"), "x").unwrap();
        git(d, &["add", "."]);
        git(d, &["commit", "-qm", "one"]);
        std::fs::write(d.join("catalogs/a.kdl"), "new a").unwrap();

        let repo = Repo::open(d).unwrap();
        let files = repo
            .catalog_files("HEAD", &[PathBuf::from("catalogs")], "catalogc.kdl")
            .unwrap();
        assert_eq!(
            files,
            vec![
                (PathBuf::from("catalogs/a.kdl"), "old a".to_string()),
                (PathBuf::from("catalogs/sub/b.kdl"), "old b".to_string()),
            ]
        );
        // The work tree keeps its edit.
        assert_eq!(
            std::fs::read_to_string(d.join("catalogs/a.kdl")).unwrap(),
            "new a"
        );
        // From a subfolder, paths are relative to it.
        let sub = Repo::open(d.join("catalogs")).unwrap();
        let files = sub
            .catalog_files("HEAD", &[PathBuf::from("a.kdl")], "catalogc.kdl")
            .unwrap();
        assert_eq!(files, vec![(PathBuf::from("a.kdl"), "old a".to_string())]);
        // A path that did not exist then is an error, never an empty old side.
        let missing = repo
            .catalog_files("HEAD", &[PathBuf::from("elsewhere")], "catalogc.kdl")
            .unwrap_err();
        assert_eq!(
            missing,
            GitError::PathMissing {
                rev: "HEAD".into(),
                path: PathBuf::from("elsewhere")
            }
        );
        assert!(
            missing
                .to_string()
                .contains("`elsewhere` does not exist at `HEAD`")
        );
        let err = repo
            .catalog_files("no-such-rev", &[PathBuf::from("catalogs")], "catalogc.kdl")
            .unwrap_err();
        assert_eq!(
            err,
            GitError::UnknownRevision {
                rev: "no-such-rev".into(),
                shallow: false
            }
        );
        assert!(err.to_string().contains("`no-such-rev` does not exist"));
        assert!(matches!(
            repo.resolve("--output=x"),
            Err(GitError::UnknownRevision { .. })
        ));
        // Absolute paths are read relative to the repository, not as `./abs/...` (which
        // found nothing, so every tool looked new).
        let abs = std::fs::canonicalize(d).unwrap();
        let files = repo
            .catalog_files("HEAD", &[abs.join("catalogs/a.kdl")], "catalogc.kdl")
            .unwrap();
        assert_eq!(
            files,
            vec![(PathBuf::from("catalogs/a.kdl"), "old a".to_string())]
        );
        let files = sub
            .catalog_files("HEAD", &[abs.join("catalogs/sub")], "catalogc.kdl")
            .unwrap();
        assert_eq!(
            files,
            vec![(PathBuf::from("sub/b.kdl"), "old b".to_string())]
        );
        let nested = Repo::open(d.join("catalogs/sub")).unwrap();
        let files = nested
            .catalog_files("HEAD", &[abs.join("catalogs/a.kdl")], "catalogc.kdl")
            .unwrap();
        assert_eq!(
            files,
            vec![(PathBuf::from("../a.kdl"), "old a".to_string())]
        );
    }

    #[test]
    fn a_shallow_clone_says_so() {
        let tmp = tempfile::tempdir().unwrap();
        let origin = tmp.path().join("origin");
        std::fs::create_dir(&origin).unwrap();
        git(&origin, &["init", "-q"]);
        for n in ["one", "two"] {
            std::fs::write(origin.join("a.kdl"), n).unwrap();
            git(&origin, &["add", "."]);
            git(&origin, &["commit", "-qm", n]);
        }
        let url = format!("file://{}", origin.display());
        git(tmp.path(), &["clone", "-q", "--depth", "1", &url, "clone"]);
        let repo = Repo::open(tmp.path().join("clone")).unwrap();
        let err = repo.resolve("HEAD~1").unwrap_err();
        assert!(
            matches!(err, GitError::UnknownRevision { shallow: true, .. }),
            "{err:?}"
        );
        let msg = err.to_string();
        assert!(msg.contains("shallow clone"), "{msg}");
        assert!(msg.contains("git fetch --unshallow"), "{msg}");
        assert!(!msg.contains('\n'));
    }

    #[test]
    fn outside_a_repository_is_a_clear_error() {
        let tmp = tempfile::tempdir().unwrap();
        let err = Repo::open(tmp.path()).unwrap_err();
        assert!(matches!(err, GitError::NotARepository { .. }));
        assert!(err.to_string().contains("not a git repository"), "{err}");
    }

    /// git's own reason is shown (here a broken config; dubious ownership alike), not a
    /// generic "not inside a git repository".
    #[test]
    fn git_s_reason_is_shown_when_it_refuses_the_folder() {
        let tmp = tempfile::tempdir().unwrap();
        git(tmp.path(), &["init", "-q"]);
        std::fs::write(tmp.path().join(".git/config"), "[core\n").unwrap();
        let err = Repo::open(tmp.path()).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("bad config line 1"), "{msg}");
        assert_eq!(msg.lines().count(), 1);
    }
}
