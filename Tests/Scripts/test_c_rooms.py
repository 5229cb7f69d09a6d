"""C is kept in declared rooms (issues 41 and 43): Jansson's (Sources/CJansson, used through JSONCore), the drawing
libraries' (Sources/CDrawing: their declarations and the loader), SQLite's (Sources/CSQLite, used through the SQLite
module) and libpq's (Sources/CPostgres: its declarations and the loader, used through the Postgres module), two
header shims of glibc functions Swift's Glibc module leaves out (CMalloc: mallopt; CGlibcGNU: memmem, pwritev2,
pthread_getattr_default_np), and the statically linked libstdc++'s arc4random (CGlibcFloor, which Swift never calls).
No Swift file
casts an untyped address to a function
or looks a symbol up itself, so every call into C goes through a declaration the compiler checks."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
ROOMS = {"CJansson", "CDrawing", "CSQLite", "CPostgres"}
FORBIDDEN = re.compile(r"\b(unsafeBitCast|dlsym|dlopen)\s*\(")


def test_no_swift_file_loads_or_casts_c_functions():
    offenders = []
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if FORBIDDEN.search(line.split("//")[0]):
                offenders.append("%s:%d: %s" % (path.relative_to(ROOT), number, line.strip()))
    assert not offenders, "\n".join(offenders)


def test_the_rooms_are_the_c_targets_package_swift_declares():
    manifest = (ROOT / "Package.swift").read_text()
    for room in ROOMS:
        assert '"%s"' % room in manifest and (ROOT / "Sources" / room).is_dir(), room
    c_files = {path.relative_to(ROOT / "Sources").parts[0]
               for path in (ROOT / "Sources").rglob("*") if path.suffix in (".c", ".h")}
    assert c_files <= ROOMS | {"CMalloc", "CGlibcGNU", "CGlibcFloor"}, c_files
