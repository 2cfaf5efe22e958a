# Sourced by every script: installs what a fresh machine lacks, and runs the toolchain without litter.
# Needs: a Swift 6 toolchain on PATH; Debian/Ubuntu apt for the C libraries.

importbench_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

importbench_require_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
            [ -x "$candidate/swift" ] && PATH="$candidate:$PATH" && export PATH && return 0
        done
        echo "error: swift not found; install a Swift 6 toolchain (https://www.swift.org/install/) and retry" >&2
        exit 1
    fi
}

# The system SQLite, jemalloc and zlib, with pkg-config to find them; the sqlite3 shell and python3;
# and any package a script names for itself (scripts/decode-vs-simdjson: libsimdjson-dev).
importbench_install_packages() {
    local missing=()
    # The sqlite3 shell and python3 run the command examples (Examples/Commands) in the tests.
    for package in libsqlite3-dev libjemalloc-dev zlib1g-dev pkg-config sqlite3 "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    command -v python3 >/dev/null 2>&1 || missing+=(python3)
    [ ${#missing[@]} -eq 0 ] && return 0
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: missing ${missing[*]} and no apt-get here; install SQLite and jemalloc development files by hand" >&2
        exit 1
    fi
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "installing ${missing[*]} ..." >&2
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
}

# swift build and swift test leave directories named TemporaryDirectory.* in $TMPDIR on every run on
# Linux (swift-driver issues 1613 and 2049), and the tests' macro expansions in
# $TMPDIR/swift-generated-sources; thousands pile up. They run with a TMPDIR of their own, removed
# when they end, however they end.
importbench_swift() {
    local scratch
    scratch="$(mktemp -d "${TMPDIR:-/tmp}/importbench-swift-tmp.XXXXXX")" || return
    ( trap 'rm -rf "$scratch"' EXIT; TMPDIR="$scratch" swift "$@" )
}

importbench_require_swift
importbench_install_packages
