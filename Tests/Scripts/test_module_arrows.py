"""The modules above the domain point one way (issue 41): the methods know no view and no face, the views know no
method and no face, and only the app (BoxOfficeWorker) and the executable see both. The compiler enforces what
Package.swift declares; this holds Package.swift and the sources' imports to the design, so an arrow added back by
a dependency line fails here, and keeps any one module from growing past a third of Sources."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCES = ROOT / "Sources"
# What each module must never import (and Package.swift must never give it).
FORBIDDEN = {
    "BoxOfficeMethods": {"BoxOfficeViews", "BoxOfficeWorker", "MCP", "CDrawing", "ArgumentParser"},
    "BoxOfficeViews": {"BoxOfficeMethods", "BoxOfficeWorker", "MCP", "JSONRPC", "ArgumentParser"},
    "BoxOfficeCore": {"BoxOfficeMethods", "BoxOfficeViews", "BoxOfficeWorker", "MCP", "JSONRPC"},
}
IMPORT = re.compile(r"^[ \t]*(?:@\w+[ \t]+)*(?:(?:package|public|internal)[ \t]+)?import[ \t]+(?:(?:struct|class|enum|func|var|let|protocol|typealias)[ \t]+)?(\w+)", re.M)


def imports(module):
    found = {}
    for path in sorted((SOURCES / module).rglob("*.swift")):
        for name in IMPORT.findall(path.read_text()):
            found.setdefault(name, []).append(str(path.relative_to(ROOT)))
    return found


def target_dependencies(module):
    manifest = (ROOT / "Package.swift").read_text()
    match = re.search(r'name:\s*"%s",\s*dependencies:\s*\[(.*?)\]\s*,\s*(?:path|swiftSettings)' % module, manifest,
                      re.S)
    assert match, "Package.swift declares no target %s with dependencies" % module
    return set(re.findall(r'"([\w-]+)"', match.group(1)))


def test_no_module_imports_across_the_arrows():
    offenders = []
    for module, forbidden in FORBIDDEN.items():
        for name, files in imports(module).items():
            if name in forbidden:
                offenders += ["%s imports %s" % (file, name) for file in files]
    assert not offenders, "\n".join(offenders)


def test_package_swift_gives_no_module_what_it_must_not_see():
    for module, forbidden in FORBIDDEN.items():
        assert not target_dependencies(module) & forbidden, module


def test_the_checks_see_the_imports_they_judge():
    # A check that found no imports at all would pass on anything.
    assert "BoxOfficeCore" in imports("BoxOfficeMethods")
    assert "BoxOfficeCore" in imports("BoxOfficeViews")
    assert {"BoxOfficeMethods", "BoxOfficeViews"} <= set(imports("BoxOfficeWorker"))
    assert "JSONRPC" in target_dependencies("BoxOfficeMethods")


def test_no_module_above_the_domain_holds_more_than_a_third_of_sources():
    def lines(folder):
        return sum(len(path.read_text().splitlines()) for path in folder.rglob("*")
                   if path.suffix in (".swift", ".c", ".h"))
    total = lines(SOURCES)
    for module in ("BoxOfficeMethods", "BoxOfficeViews", "BoxOfficeWorker"):
        assert lines(SOURCES / module) * 3 <= total, module
