//! Every change kind's old/new fixture pair (tests/fixtures/compat/<kind>/), the symmetry
//! contract (reverse edits and the input/output mirror), equivalent rewrites, and
//! self-comparison of every fixture.

use catalogc::compat::{self, Kind, Mirror, Side};
use catalogc::model::{Catalog, Object};
use catalogc::testing::load_clean_catalog;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compat")
}

fn pair(dir: &str) -> (Catalog, Catalog) {
    let d = fixtures_dir().join(dir);
    (
        load_clean_catalog(&d.join("old.kdl")),
        load_clean_catalog(&d.join("new.kdl")),
    )
}

fn kinds(old: &Catalog, new: &Catalog) -> BTreeSet<Kind> {
    let report = compat::compare(
        std::slice::from_ref(old),
        std::slice::from_ref(new),
        |_, _| (),
    );
    report.changes().map(|(_, _, ch)| ch.kind).collect()
}

fn fixture_dirs() -> Vec<String> {
    let mut dirs: Vec<String> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn every_kind_has_a_fixture_pair_that_finds_exactly_it() {
    let dirs = fixture_dirs();
    for &kind in Kind::ALL {
        let dir = kind.id().trim_start_matches("compat/");
        assert!(dirs.iter().any(|d| d == dir), "no fixture for {kind}");
        let (old, new) = pair(dir);
        assert_eq!(kinds(&old, &new), BTreeSet::from([kind]), "fixture {dir}");
    }
    // No stray fixture folders for kinds that do not exist.
    for d in &dirs {
        if !d.starts_with('_') {
            assert!(
                Kind::from_id(&format!("compat/{d}")).is_some(),
                "stray fixture {d}"
            );
        }
    }
}

#[test]
fn reverse_edits_have_their_declared_verdict() {
    for &kind in Kind::ALL {
        let (old, new) = pair(kind.id().trim_start_matches("compat/"));
        let back = kinds(&new, &old);
        assert!(!back.is_empty(), "{kind}: reverse edit has no verdict");
        for k in &back {
            assert!(
                kind.reverse().contains(k),
                "{kind}: reverse found {k}, declared {:?}",
                kind.reverse()
            );
        }
    }
}

/// Moves the input object to the output and back: the same edit on the other side.
fn swap_sides(mut cat: Catalog) -> Catalog {
    for t in &mut cat.tools {
        let input = std::mem::take(&mut t.input);
        t.input = t.output.take().unwrap_or_else(Object::default);
        t.output = Some(input);
    }
    cat
}

#[test]
fn the_same_edit_on_the_other_side_is_the_mirror_kind() {
    for &kind in Kind::ALL {
        let Some(side) = kind.side() else { continue };
        let (old, new) = pair(kind.id().trim_start_matches("compat/"));
        let mirrored = kinds(&swap_sides(old), &swap_sides(new));
        match kind.mirror() {
            Mirror::Other(m) => assert_eq!(mirrored, BTreeSet::from([m]), "{kind}"),
            Mirror::OneSided(_) => match side {
                // Output defaults are documentation only.
                Side::Input => assert!(mirrored.is_empty(), "{kind}: {mirrored:?}"),
                // An input enum addition is minor whether or not it is extensible.
                Side::Output if kind == Kind::OutputEnumValueAddedExtensible => {
                    assert_eq!(
                        mirrored,
                        BTreeSet::from([Kind::InputEnumValueAdded]),
                        "{kind}"
                    )
                }
                // On input `extensible` changes no class, so it alone is no change.
                Side::Output => assert!(mirrored.is_empty(), "{kind}: {mirrored:?}"),
            },
            Mirror::ToolLevel => unreachable!("{kind} has a side"),
        }
    }
}

#[test]
fn comparing_any_fixture_with_itself_finds_nothing() {
    for dir in fixture_dirs() {
        for file in ["old.kdl", "new.kdl"] {
            let c = load_clean_catalog(&fixtures_dir().join(&dir).join(file));
            let report = compat::compare(
                std::slice::from_ref(&c),
                std::slice::from_ref(&c),
                catalogc::testing::order_insensitive_hashes,
            );
            assert_eq!(report.changes().count(), 0, "{dir}/{file}");
            assert!(report.versions_ok(), "{dir}/{file}");
        }
    }
}

#[test]
fn equivalent_rewrites_are_not_changes() {
    let (old, new) = pair("_equivalent-rewrites");
    let report = compat::compare(
        std::slice::from_ref(&old),
        std::slice::from_ref(&new),
        catalogc::testing::order_insensitive_hashes,
    );
    let found: Vec<_> = report
        .changes()
        .map(|(_, _, c)| c.message.clone())
        .collect();
    assert!(found.is_empty(), "{found:?}");
    assert!(
        report.catalogs[0]
            .tools
            .iter()
            .all(|t| t.status == compat::Status::Unchanged)
    );
    assert_eq!(report.exit_code(compat::Policy::NoMajor), 0);
}

#[test]
fn changes_at_any_depth_carry_their_path_and_both_locations() {
    let (old, new) = pair("_deep");
    let tool = (&old.tools[0], &new.tools[0]);
    let changes = compat::compare_tools(&old, tool.0, &new, tool.1);
    let got: Vec<_> = changes.iter().map(|c| (c.kind, c.path.as_str())).collect();
    assert_eq!(
        got,
        [
            (Kind::InputBoundTightened, "input.filter.rows[].min.min"),
            (Kind::OutputBoundLoosened, "output.rows[][].cell.value.max"),
        ]
    );
    assert!(changes.iter().all(|c| c.old.is_some() && c.new.is_some()));
    // The reverse edit classifies as its mirror image.
    let back: Vec<_> = compat::compare_tools(&new, tool.1, &old, tool.0)
        .into_iter()
        .map(|c| c.kind)
        .collect();
    assert_eq!(back, [Kind::InputBoundLoosened, Kind::OutputBoundTightened]);
}

/// docs/compatibility.md lists exactly the kinds and version checks of `compat/kinds.rs`,
/// with their classes.
#[test]
fn compatibility_md_lists_every_kind() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/compatibility.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let (start, end) = ("<!-- kinds:start -->\n", "<!-- kinds:end -->");
    let (Some(a), Some(b)) = (text.find(start), text.find(end)) else {
        panic!("docs/compatibility.md lacks the {start:?} … {end:?} markers");
    };
    let want = compat::kinds::markdown_table();
    let got = &text[a + start.len()..b];
    if got != want && std::env::var_os("UPDATE_DOCS").is_some() {
        let updated = format!("{}{want}{}", &text[..a + start.len()], &text[b..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    assert_eq!(
        got, want,
        "docs/compatibility.md is out of date with src/compat/kinds.rs; regenerate it with `UPDATE_DOCS=1 cargo test --test compat_fixtures`"
    );
}

/// `nullable=#true` on `items` (`_items-nullable`), `values` and `extra`
/// (`_values-nullable`) is classified as a nullable field is, at the element's path: added
/// in input then output at `paths`, removed when the pair is read backwards.
fn nullable_elements(dir: &str, paths: [&str; 2]) {
    let (old, new) = pair(dir);
    let tool = (&old.tools[0], &new.tools[0]);
    let changes = compat::compare_tools(&old, tool.0, &new, tool.1);
    let got: Vec<_> = changes.iter().map(|c| (c.kind, c.path.as_str())).collect();
    assert_eq!(
        got,
        [
            (Kind::InputNullableAdded, paths[0]),
            (Kind::OutputNullableAdded, paths[1]),
        ]
    );
    let back: Vec<_> = compat::compare_tools(&new, tool.1, &old, tool.0)
        .into_iter()
        .map(|c| c.kind)
        .collect();
    assert_eq!(
        back,
        [Kind::InputNullableRemoved, Kind::OutputNullableRemoved]
    );
}

#[test]
fn nullable_items_are_classified_as_nullable_fields_at_the_items() {
    nullable_elements(
        "_items-nullable",
        ["input.cells[].nullable", "output.rows[][].nullable"],
    );
}

#[test]
fn nullable_map_values_and_extras_are_classified_as_nullable_fields_at_the_values() {
    nullable_elements(
        "_values-nullable",
        ["input.labels{}.nullable", "output.pools{}.nullable"],
    );
}

/// A detail's fields are read by clients: each edit is the output kind, at its detail path.
#[test]
fn edits_of_an_error_detail_are_output_changes_at_its_path() {
    let (old, new) = pair("_error-detail");
    let report = compat::compare(
        std::slice::from_ref(&old),
        std::slice::from_ref(&new),
        |_, _| (),
    );
    let found: Vec<(Kind, &str)> = report
        .changes()
        .map(|(_, _, ch)| (ch.kind, ch.path.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (
                Kind::OutputBoundLoosened,
                "error.THING_LOCKED.detail.holder.max-length"
            ),
            (
                Kind::OutputFieldOptionalAdded,
                "error.THING_LOCKED.detail.reason"
            ),
            (Kind::OutputFieldRemoved, "error.THING_LOCKED.detail.until"),
        ]
    );
}
