"""The lean core (issue 43): the worker links FoundationEssentials only. Full Foundation brings CoreFoundation,
FoundationInternationalization and ICU (37 MB of an 86 MB binary) with a static runtime. Checked three ways: no
source imports it, scripts/check-linkage finds it when it is there (a planted symbol) and not when it is not, and
the worker under test (the debug build by default, the release build in --full) passes the check."""
import os
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHECK = ROOT / "scripts" / "check-linkage"
# The build tool that writes the embedded resources runs at build time and never ships.
BUILD_TOOLS = {"embed-resources"}
FULL_IMPORT = re.compile(r"^[ \t]*(?:@\w+[ \t]+)*(?:(?:package|public|internal)[ \t]+)?import[ \t]+Foundation[ \t]*$", re.M)


def test_no_shipped_module_imports_full_foundation():
    offenders = [str(path.relative_to(ROOT)) for path in sorted((ROOT / "Sources").rglob("*.swift"))
                 if path.relative_to(ROOT / "Sources").parts[0] not in BUILD_TOOLS
                 and FULL_IMPORT.search(path.read_text())]
    assert not offenders, "import FoundationEssentials instead:\n" + "\n".join(offenders)


def compile_object(tmp_path, name, source):
    if not shutil.which("cc"):
        pytest.skip("no C compiler")
    (tmp_path / (name + ".c")).write_text(source)
    subprocess.run(["cc", "-c", "-o", str(tmp_path / (name + ".o")), str(tmp_path / (name + ".c"))], check=True)
    return tmp_path / (name + ".o")


@pytest.mark.parametrize("symbol", ["$s10Foundation4DateV", "$s30FoundationInternationalization10_LocaleICUC",
                                    "icudt76_dat"])
def test_the_check_fails_on_a_binary_that_carries_foundation_or_icu(tmp_path, symbol):
    planted = compile_object(tmp_path, "planted", 'int planted __asm__("%s") = 1;\n' % symbol)
    run = subprocess.run(["bash", str(CHECK), str(planted)], capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert symbol in run.stderr and "full Foundation or ICU" in run.stderr


def test_the_check_passes_a_binary_without_them(tmp_path):
    clean = compile_object(tmp_path, "clean", 'int clean __asm__("$s20FoundationEssentials4DateV") = 1;\n')
    run = subprocess.run(["bash", str(CHECK), str(clean)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def worker_under_test():
    given = os.environ.get("BOXOFFICE_WORKER")
    if given:
        return pathlib.Path(given)
    found = sorted(ROOT.glob(".build/*/debug/boxoffice-worker"))
    return found[0] if found else None


def test_the_worker_under_test_links_foundation_essentials_only():
    worker = worker_under_test()
    if worker is None or not worker.exists():
        pytest.skip("no built worker (swift build)")
    # A stripped release binary keeps its symbols in the .debug file beside it (scripts/release-build).
    symbols = worker.with_name(worker.name + ".debug")
    arguments = [str(worker)] + ([str(symbols)] if symbols.exists() else [])
    run = subprocess.run(["bash", str(CHECK)] + arguments, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
