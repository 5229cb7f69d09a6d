"""The test command's temporary-folder check (scripts/lib/leftovers.sh) on fake temporary folders, with no Swift
build: what the toolchain leaves of its own accord (SwiftPM's lock files, the driver's TemporaryDirectory.* folders,
the compiler's swift-generated-sources) passes, and what a test made counts, even under one of those names."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "scripts" / "lib" / "leftovers.sh"

# Names and contents as a Swift 6 build on a fresh machine left them in /tmp (HOME=/root, the clone at /work/main).
MACRO_FILE = "@__swiftmacro_7Logging0017Loggerswift_yEEFcfMX1503_59_9isolationfMf_.swift"
TRUNCATED_LOCK = "x" * 250 + ".lock"  # FileLock keeps the last 255 bytes of a longer name


def bash(script, *arguments):
    return subprocess.run(["bash", "-c", f'source "$0"; {script}', str(LIBRARY), *arguments], capture_output=True,
                          text=True, timeout=60)


def make(folder, name, kind, contents=()):
    """Makes folder/name: kind "file" (contents: its text), "dir" (contents: (name, text) files inside, text None
    for a folder) or "link" (to an empty file beside the folder)."""
    path = folder / name
    if kind == "file":
        path.write_text("".join(contents))
    elif kind == "dir":
        path.mkdir()
        for inner, text in contents:
            if text is None:
                (path / inner).mkdir()
            else:
                (path / inner).write_text(text)
    else:
        target = folder.parent / "link-target"
        target.write_text("")
        path.symlink_to(target)
    return path


TOOLCHAIN = [
    ("_root_.swiftpm.lock", "file", (), "swiftpm-lock"),
    ("_root_.swiftpm_security_fingerprints.lock", "file", (), "swiftpm-lock"),
    ("_root_.cache_org.swift.swiftpm_repositories_swift-nio-a9bb6d62.lock", "file", (), "swiftpm-lock"),
    ("_root_.cache_org.swift.swiftpm_manifests_manifest.db.lock", "file", (), "swiftpm-lock"),
    ("_work_main_.build.lock", "file", (), "swiftpm-lock"),
    ("_work_main_.build_Package.resolved.lock", "file", (), "swiftpm-lock"),
    (TRUNCATED_LOCK, "file", (), "swiftpm-lock"),
    ("TemporaryDirectory.WnYb9k", "dir", [(".keep-directory", "")], "driver-folder"),
    ("TemporaryDirectory.136zUx", "dir", [], "driver-folder"),
    ("swift-generated-sources", "dir", [(MACRO_FILE, "let x = 1\n"),
                                        ("@__swiftmacro_11CoreMetrics0B6SystemO17_taskLocalFactory04TaskE0fMa_.swift",
                                         "")], "macro-expansions"),
    ("swift-generated-sources", "dir", [], "macro-expansions"),
]

A_TESTS = [
    ("pytest-of-root", "dir", [("pytest-0", None)]),
    ("boxoffice-xyz", "dir", []),
    ("boxoffice-cache.sqlite", "file", ["data"]),
    ("tmpk2j3h4", "file", []),
    ("session.lock", "file", []),  # a lock, but not named by a path
    ("_worker.lock", "file", ["4242\n"]),  # a pid file: SwiftPM never writes into its locks
    ("_root_.swiftpm.lock", "dir", []),
    ("_root_.swiftpm.lock", "link", []),
    ("y" * 200 + ".lock", "file", []),  # neither `_` nor cut to 255 bytes
    ("TemporaryDirectory.WnYb9k", "dir", [(".keep-directory", ""), ("answers.json", "{}")]),
    ("TemporaryDirectory.WnYb9k", "dir", [(".keep-directory", "kept by a test")]),
    ("TemporaryDirectory.WnYb9k", "dir", [(".keep-directory", ""), ("sources-1", "a.swift\n")]),
    ("TemporaryDirectory.WnYb9k", "dir", [(".hidden", "")]),
    ("TemporaryDirectory.WnYb9k", "link", []),
    ("TemporaryDirectory.short", "dir", []),
    ("TemporaryDirectory", "dir", []),
    ("swift-generated-sources", "dir", [(MACRO_FILE, ""), ("notes.txt", "")]),
    ("swift-generated-sources", "dir", [("@__swiftmacro_folder.swift", None)]),
    ("swift-generated-sources", "file", []),
]


@pytest.mark.parametrize("name, kind, contents, label", TOOLCHAIN,
                         ids=[f"{n[:40]}-{len(c)}" for n, _, c, _ in TOOLCHAIN])
def test_the_toolchains_own_pass(tmp_path, name, kind, contents, label):
    folder = tmp_path / "tmp"
    folder.mkdir()
    make(folder, name, kind, contents)
    result = bash('toolchain_leftover "$1" "$2"', str(folder), name)
    assert (result.returncode, result.stdout) == (0, label + "\n"), result.stderr


@pytest.mark.parametrize("name, kind, contents", A_TESTS, ids=[f"{n[:40]}-{k}-{len(c)}" for n, k, c in A_TESTS])
def test_what_a_test_made_counts(tmp_path, name, kind, contents):
    folder = tmp_path / "tmp"
    folder.mkdir()
    make(folder, name, kind, contents)
    result = bash('toolchain_leftover "$1" "$2"', str(folder), name)
    assert (result.returncode, result.stdout) == (1, ""), result.stderr


def fresh_machine(tmp_path):
    """A temporary folder as issue 38's fresh clone had it after a run: nothing before (but one old file), then what
    a build and a `swift test` leave."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    (folder / "from-yesterday").write_text("not this run's")
    listing = tmp_path / "listing"
    listing.write_text("from-yesterday\n")
    for name, kind, contents, _ in TOOLCHAIN[:-1]:
        make(folder, name, kind, contents)
    return folder, listing


def test_a_run_that_leaves_only_the_toolchains_files_passes(tmp_path):
    folder, listing = fresh_machine(tmp_path)
    result = bash('temporary_leftovers "$1" "$2"', str(folder), str(listing))
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    # The driver's spent folders go; SwiftPM's locks and the macro expansions stay for the next build.
    assert sorted(os.listdir(folder)) == sorted(
        ["from-yesterday", "swift-generated-sources"] + [n for n, _, _, label in TOOLCHAIN if label == "swiftpm-lock"])


def test_a_run_that_leaves_a_tests_files_fails_naming_only_them(tmp_path):
    folder, listing = fresh_machine(tmp_path)
    make(folder, "pytest-of-root", "dir", [("pytest-0", None)])
    make(folder, "boxoffice-xyz", "file", ["{}"])
    make(folder, "TemporaryDirectory.Qm3aZ0", "dir", [(".keep-directory", ""), ("page.html", "<p>")])
    result = bash('temporary_leftovers "$1/" "$2"', str(folder), str(listing))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"  {folder}/TemporaryDirectory.Qm3aZ0",
        f"  {folder}/boxoffice-xyz",
        f"  {folder}/pytest-of-root",
        "test: the run left these in the temporary folder; the test that made each must remove it",
    ]
    # What counts is left where it is, for whoever reads the failure.
    assert (folder / "TemporaryDirectory.Qm3aZ0" / "page.html").exists() and (folder / "pytest-of-root").is_dir()


def test_a_temporary_folder_reached_through_a_link_is_still_judged(tmp_path):
    # TMPDIR may be a symbolic link (a tmpfs mounted elsewhere): the check reads the folder it leads to, as the
    # listing before the run did (find without -H lists nothing of a linked starting point, and passed every run).
    folder, listing = fresh_machine(tmp_path)
    make(folder, "boxoffice-xyz", "file", ["{}"])
    link = tmp_path / "linked-tmp"
    link.symlink_to(folder)
    result = bash('temporary_leftovers "$1" "$2"', str(link), str(listing))
    assert result.returncode == 1 and f"  {link}/boxoffice-xyz" in result.stderr.splitlines(), result.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (bash scripts/setup "
                    "shellcheck; the test command's set-up installs it)")
def test_the_library_passes_shellcheck():
    check = subprocess.run(["shellcheck", str(LIBRARY)], capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout
