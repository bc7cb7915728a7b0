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
    /// The folder is not inside a git work tree.
    NotARepository(PathBuf),
    /// No commit by that name.
    UnknownRevision(String),
    /// A file at the revision is not UTF-8 text.
    NotUtf8 { rev: String, path: PathBuf },
    /// git ran and failed.
    Failed { command: String, stderr: String },
}

impl fmt::Display for GitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GitError::NoGit(e) => write!(f, "cannot run git: {e}"),
            GitError::NotARepository(p) => write!(
                f,
                "{}: not inside a git repository, so --against cannot name a revision",
                p.display()
            ),
            GitError::UnknownRevision(r) => write!(
                f,
                "git revision `{r}` does not exist (and no file or folder has that name)"
            ),
            GitError::NotUtf8 { rev, path } => write!(
                f,
                "{rev}:{}: not UTF-8 text; catalogs must be UTF-8",
                path.display()
            ),
            GitError::Failed { command, stderr } => {
                write!(
                    f,
                    "`{command}` failed: {}",
                    stderr.lines().next().unwrap_or("").trim()
                )
            }
        }
    }
}

impl std::error::Error for GitError {}

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
            Ok(_) | Err(GitError::Failed { .. }) => Err(GitError::NotARepository(repo.dir)),
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
            Ok(_) | Err(GitError::Failed { .. }) => Err(GitError::UnknownRevision(rev.to_string())),
            Err(e) => Err(e),
        }
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
    /// every `*.kdl` below it except the project file `project_file`; a path that did not
    /// exist then gives nothing (its catalogs are all new).
    pub fn catalog_files(
        &self,
        rev: &str,
        paths: &[PathBuf],
        project_file: &str,
    ) -> Result<Vec<(PathBuf, String)>, GitError> {
        let commit = self.resolve(rev)?;
        let mut names = Vec::new();
        for p in paths {
            match self.object_type(&commit, p)?.as_deref() {
                Some("tree") => {
                    names.extend(self.files_under(&commit, p)?.into_iter().filter(|f| {
                        f.extension().is_some_and(|e| e == "kdl")
                            && f.file_name().is_none_or(|n| n != project_file)
                    }))
                }
                Some("blob") => names.push(p.clone()),
                _ => {}
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
        // A path that did not exist then yields nothing.
        let none = repo
            .catalog_files("HEAD", &[PathBuf::from("elsewhere")], "catalogc.kdl")
            .unwrap();
        assert!(none.is_empty());
        let err = repo
            .catalog_files("no-such-rev", &[PathBuf::from("catalogs")], "catalogc.kdl")
            .unwrap_err();
        assert_eq!(err, GitError::UnknownRevision("no-such-rev".into()));
        assert!(err.to_string().contains("`no-such-rev` does not exist"));
        assert!(matches!(
            repo.resolve("--output=x"),
            Err(GitError::UnknownRevision(_))
        ));
    }

    #[test]
    fn outside_a_repository_is_a_clear_error() {
        let tmp = tempfile::tempdir().unwrap();
        let err = Repo::open(tmp.path()).unwrap_err();
        assert!(matches!(err, GitError::NotARepository(_)));
    }
}
