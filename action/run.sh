#!/usr/bin/env bash
# The logic of the catalogc GitHub Action (action.yml), in one script so that the test
# (tests/action.rs) runs exactly what a workflow runs.
#
#   run.sh key       print the cache key of the catalogc this action builds (to GITHUB_OUTPUT)
#   run.sh install   cargo install catalogc from the action's own sources into CATALOGC_ROOT,
#                    unless that version is already there (restored from the cache)
#   run.sh check     run the checks on the catalogs of the current folder
#
# `check` reads its inputs from CATALOGC_* variables (action.yml maps the action's inputs
# onto them) and the event from the GITHUB_* variables a workflow run sets. Every selected
# check runs even after one fails, so one push shows every problem; the exit status is the
# worst of them: 0 all passed or were skipped, 1 a check found a problem, 2 a check could
# not run (bad input, missing base commit, unreadable catalogs).
set -euo pipefail

action_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

die() {
    echo "::error title=catalogc action::$*"
    exit 2
}

# Workflow-command escaping: the message of a `::error::` line must stay one line.
gh_escape() {
    local s=${1//'%'/%25}
    s=${s//$'\r'/%0D}
    printf '%s' "${s//$'\n'/%0A}"
}

set_output() {
    if [[ -n ${GITHUB_OUTPUT:-} ]]; then
        printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
    fi
}

crate_version() {
    sed -n 's/^version = "\(.*\)"$/\1/p' "$action_dir/Cargo.toml" | head -n 1
}

# The crate version plus a digest of everything the binary is built from: a branch ref
# like `main` then never reuses a binary built from older sources of the same version.
sha256() {
    if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi
}

cmd_key() {
    local digest
    digest=$(cd "$action_dir" &&
        find Cargo.toml Cargo.lock src templates -type f -print0 | LC_ALL=C sort -z |
        while IFS= read -r -d '' f; do sha256 "$f"; done | sha256 | cut -c1-16)
    local key
    key="$(crate_version)-$digest"
    echo "$key"
    set_output key "$key"
}

cmd_install() {
    local root=${CATALOGC_ROOT:?CATALOGC_ROOT names the folder to install into}
    local want
    want=$(crate_version)
    if [[ -x $root/bin/catalogc ]] && [[ $("$root/bin/catalogc" --version) == "catalogc $want" ]]; then
        echo "catalogc $want already installed in $root"
    else
        cargo install --locked --path "$action_dir" --root "$root" --bin catalogc
    fi
    if [[ -n ${GITHUB_PATH:-} ]]; then
        echo "$root/bin" >>"$GITHUB_PATH"
    fi
}

# ---------------------------------------------------------------------------------- check

paths=()
deny=()
policy=()
selected=" "  # the chosen checks, space-separated (macOS's bash 3 has no associative arrays)
results=()   # "check|result" rows of the summary table
# Possibly empty arrays expand as ${a[@]+"${a[@]}"}: bash before 4.4 (macOS) calls an empty
# array unbound under `set -u`.
worst=0
breaking_md=""
changelog_md=""
tmp=""

note_result() {
    local check=$1 code=$2 detail=${3:-}
    case $code in
    0) results+=("$check|✅ passed${detail:+: $detail}") ;;
    1) results+=("$check|❌ failed${detail:+: $detail}") ;;
    skip) results+=("$check|⏭️ skipped: $detail") ;;
    *) results+=("$check|⚠️ could not run: $detail") ;;
    esac
    if [[ $code =~ ^[0-9]+$ ]] && ((code > worst)); then
        worst=$code
    fi
}

# Runs catalogc, stdout to the log; an exit status 2 turns its one-line stderr reason into
# an error annotation. Sets `rc` and `reason`.
run_catalogc() {
    local title=$1
    shift
    rc=0
    catalogc "$@" 2>"$tmp/stderr" || rc=$?
    reason=$(sed -e 's/^catalogc: //' "$tmp/stderr" | head -n 1)
    if ((rc >= 2)); then
        # fd 3 is the log even while stdout goes to a file.
        echo "::error title=$title::$(gh_escape "${reason:-catalogc exited with status $rc}")" >&3
    elif [[ -s $tmp/stderr ]]; then
        cat "$tmp/stderr" >&2
    fi
}

has_subcommand() {
    catalogc "$1" --help >/dev/null 2>&1
}

read_inputs() {
    # Whitespace-separated, without glob expansion.
    read -r -d '' -a paths <<<"${CATALOGC_PATHS:-catalogs}" || true
    ((${#paths[@]})) || paths=(catalogs)
    local list c checks
    list=${CATALOGC_CHECKS:-lint,breaking,lock,gen}
    read -r -d '' -a checks <<<"${list//,/ }" || true
    for c in "${checks[@]}"; do
        case $c in
        lint | breaking | lock | gen) selected+="$c " ;;
        *) die "checks: unknown check \`$c\`; choose from lint, breaking, lock, gen" ;;
        esac
    done
    case ${CATALOGC_POLICY:-} in
    "" | semver) ;;
    no-major) policy=(--policy no-major) ;;
    *) die "policy: \`$CATALOGC_POLICY\` is not a policy; use \`no-major\` or leave it empty" ;;
    esac
    case ${CATALOGC_CHANGELOG:-true} in
    true | false | "") ;;
    *) die "changelog: expected true or false, found \`$CATALOGC_CHANGELOG\`" ;;
    esac
    case ${CATALOGC_DENY_WARNINGS:-false} in
    true) deny=(--deny warnings) ;;
    false | "") ;;
    *) die "deny-warnings: expected true or false, found \`$CATALOGC_DENY_WARNINGS\`" ;;
    esac
    command -v catalogc >/dev/null || die "catalogc is not on PATH"
}

check_lint() {
    local sarif=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/catalogc-lint.sarif
    echo "::group::catalogc lint ${paths[*]}"
    # Twice: SARIF for code scanning, then annotations (the status) for the log and the diff.
    run_catalogc "catalogc lint" lint "${paths[@]}" ${deny[@]+"${deny[@]}"} --format sarif >"$sarif"
    if ((rc < 2)); then
        set_output sarif-file "$sarif"
        run_catalogc "catalogc lint" lint "${paths[@]}" ${deny[@]+"${deny[@]}"} --format github
    else
        rm -f "$sarif"
    fi
    echo "::endgroup::"
    note_result lint "$rc" "${reason:-}"
}

# Reads a field of the event payload: jq where present (every GitHub-hosted runner has it),
# else Python.
event_field() {
    [[ -n ${GITHUB_EVENT_PATH:-} && -f $GITHUB_EVENT_PATH ]] || return 0
    if command -v jq >/dev/null; then
        jq -r "$1 // empty" "$GITHUB_EVENT_PATH"
    elif command -v python3 >/dev/null; then
        python3 - "$GITHUB_EVENT_PATH" "$1" <<'EOF'
import json, sys
v = json.load(open(sys.argv[1], encoding="utf-8"))
for k in sys.argv[2].strip(".").split("."):
    v = v.get(k) if isinstance(v, dict) else None
print("" if v is None else v)
EOF
    fi
}

# The revision `breaking` compares with: the `against` input, else the base of the pull
# request (or merge queue entry), else the commit before a push. Sets `against` or `skip`.
resolve_base() {
    against=${CATALOGC_AGAINST:-}
    skip=""
    [[ -n $against ]] && return 0
    case ${GITHUB_EVENT_NAME:-} in
    pull_request | pull_request_target) against=$(event_field .pull_request.base.sha) ;;
    merge_group) against=$(event_field .merge_group.base_sha) ;;
    push) against=$(event_field .before) ;;
    esac
    if [[ -z $against || $against =~ ^0+$ ]]; then
        against=""
        skip="no base commit for a \`${GITHUB_EVENT_NAME:-local}\` event; set the \`against\` input"
    fi
}

# A shallow checkout (actions/checkout's default depth 1) lacks the base commit: fetch just
# that commit, or failing that the tip of the base branch.
ensure_commit() {
    [[ $against =~ ^[0-9a-f]{7,64}$ ]] || return 0
    git cat-file -e "$against^{commit}" 2>/dev/null && return 0
    echo "base commit $against is not in the checkout; fetching it"
    if git fetch --quiet --no-tags --depth=1 origin "$against" 2>"$tmp/fetch"; then
        return 0
    fi
    if [[ -n ${GITHUB_BASE_REF:-} ]] &&
        git fetch --quiet --no-tags --depth=1 origin "refs/heads/$GITHUB_BASE_REF" 2>>"$tmp/fetch"; then
        local tip
        tip=$(git rev-parse FETCH_HEAD)
        echo "::warning title=catalogc breaking::$(gh_escape "cannot fetch $against; comparing with the tip of $GITHUB_BASE_REF ($tip) instead")"
        against=$tip
        return 0
    fi
    echo "::error title=catalogc breaking::$(gh_escape "cannot fetch base commit $against: $(head -n 1 "$tmp/fetch")")"
    return 1
}

check_breaking() {
    resolve_base
    if [[ -n $skip ]]; then
        note_result breaking skip "$skip"
        return
    fi
    echo "::group::catalogc breaking --against $against"
    if ! ensure_commit; then
        echo "::endgroup::"
        note_result breaking 2 "base commit $against cannot be fetched"
        return
    fi
    # A base commit from the event is passed as `SHA^{commit}`, which names a revision only:
    # a folder the pull request adds under the base commit's name cannot stand in for it.
    local rev=$against
    [[ -z ${CATALOGC_AGAINST:-} ]] && rev="$against^{commit}"
    run_catalogc "catalogc breaking" breaking --against "$rev" "${paths[@]}" ${policy[@]+"${policy[@]}"} --format github
    local status=$rc why=${reason:-}
    if ((status < 2)); then
        breaking_md=$(catalogc breaking --against "$rev" "${paths[@]}" ${policy[@]+"${policy[@]}"} --format markdown 2>/dev/null || true)
        # Every change, not only the breaking ones, for the run summary.
        if [[ ${CATALOGC_CHANGELOG:-true} == true ]] && has_subcommand changelog; then
            changelog_md=$(catalogc changelog --against "$rev" "${paths[@]}" --format markdown 2>/dev/null || true)
        fi
    fi
    echo "::endgroup::"
    note_result breaking "$status" "${why:-against \`${against:0:12}\`}"
}

# Lock files live beside their catalogs; a repository without any does not use locks.
lock_files_exist() {
    local p
    for p in "${paths[@]}"; do
        if [[ -d $p ]]; then
            [[ -n $(find "$p" -name '*.lock' -type f -print -quit) ]] && return 0
        elif [[ -n $(find "$(dirname "$p")" -maxdepth 1 -name '*.lock' -type f -print -quit) ]]; then
            return 0
        fi
    done
    return 1
}

check_lock() {
    if ! lock_files_exist; then
        note_result lock skip "no \`*.lock\` files beside the catalogs"
        return
    fi
    echo "::group::catalogc lock --check"
    run_catalogc "catalogc lock" lock --check "${paths[@]}" >"$tmp/lock"
    cat "$tmp/lock"
    # `error: FILE: message` lines become annotations on the lock file.
    local file msg
    while IFS= read -r line; do
        [[ $line == "error: "* ]] || continue
        line=${line#error: }
        file=${line%%: *}
        msg=${line#*: }
        echo "::error file=$file,title=catalogc lock::$(gh_escape "$msg")"
    done <"$tmp/lock"
    echo "::endgroup::"
    note_result lock "$rc" "${reason:-}"
}

check_gen() {
    local out=${CATALOGC_GEN_OUT:-generated}
    if ! has_subcommand gen; then
        note_result gen skip "this catalogc has no \`gen\` command"
        return
    fi
    if [[ ! -d $out ]]; then
        note_result gen skip "no \`$out/\` folder"
        return
    fi
    echo "::group::catalogc gen --check --out $out"
    run_catalogc "catalogc gen" gen "${paths[@]}" --out "$out" --check
    echo "::endgroup::"
    if ((rc == 1)); then
        echo "::error title=catalogc gen::$(gh_escape "files in $out/ are stale: run \`catalogc gen --out $out\` and commit")"
    fi
    note_result gen "$rc" "${reason:-}"
}

write_summary() {
    {
        echo "## catalogc"
        echo
        echo "| check | result |"
        echo "|---|---|"
        local row
        for row in ${results[@]+"${results[@]}"}; do
            echo "| ${row%%|*} | ${row#*|} |"
        done
        if [[ -n $breaking_md ]]; then
            echo
            echo "$breaking_md"
        fi
        if [[ -n $changelog_md ]]; then
            echo
            echo "$changelog_md"
        fi
    } >"$tmp/summary.md"
    if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
        cat "$tmp/summary.md" >>"$GITHUB_STEP_SUMMARY"
    else
        cat "$tmp/summary.md"
    fi
}

cmd_check() {
    exec 3>&1
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    read_inputs
    local c
    for c in lint breaking lock gen; do
        if [[ $selected == *" $c "* ]]; then
            "check_$c"
        fi
    done
    write_summary
    exit "$worst"
}

case ${1:-} in
key) cmd_key ;;
install) cmd_install ;;
check) cmd_check ;;
*)
    echo "usage: $0 key|install|check" >&2
    exit 2
    ;;
esac
