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


def link_program(tmp_path, name, source, compiler):
    if not shutil.which(compiler):
        pytest.skip("no %s" % compiler)
    suffix = ".cc" if compiler.endswith("++") else ".c"
    (tmp_path / (name + suffix)).write_text(source)
    subprocess.run([compiler, "-o", str(tmp_path / name), str(tmp_path / (name + suffix))], check=True)
    return tmp_path / name


def test_the_release_check_fails_on_a_binary_that_needs_libstdcxx(tmp_path):
    program = link_program(tmp_path, "strings", "#include <string>\nint main(int c, char **v) {"
                           " return (int)std::string(v[0]).size() == 0; }\n", "c++")
    plain = subprocess.run(["bash", str(CHECK), str(program)], capture_output=True, text=True)
    release = subprocess.run(["bash", str(CHECK), "--release", str(program)], capture_output=True, text=True)
    assert plain.returncode == 0, plain.stderr
    assert release.returncode == 1 and "libstdc++" in release.stderr, release.stderr


def test_the_release_check_fails_on_a_binary_that_asks_glibc_for_more_than_2_35(tmp_path):
    # arc4random is glibc 2.36's; on an older build machine the program cannot be linked, and the check has
    # nothing newer to find.
    source = "#include <stdlib.h>\nint main(void) { return (int)(arc4random() & 1); }\n"
    try:
        program = link_program(tmp_path, "random", source, "cc")
    except subprocess.CalledProcessError:
        pytest.skip("this glibc has no arc4random (older than 2.36)")
    release = subprocess.run(["bash", str(CHECK), "--release", str(program)], capture_output=True, text=True)
    assert release.returncode == 1, release.stderr
    assert "GLIBC_2.36" in release.stderr and "manylinux_2_35" in release.stderr, release.stderr


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
    if symbols.exists():
        # The shipped binary (scripts/release-build's): libstdc++ inside, glibc 2.35 enough.
        release = subprocess.run(["bash", str(CHECK), "--release"] + arguments, capture_output=True, text=True)
        assert release.returncode == 0, release.stderr
