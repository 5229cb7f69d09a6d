"""`python -m boxoffice_worker.recipes [NAME]`: prints where the recipes are (or the recipe NAME), and with no
argument lists them."""

import sys

from . import FOLDER, path

if len(sys.argv) > 1:
    found = path(sys.argv[1])
    if not found.exists():
        sys.exit("no recipe %s in %s" % (sys.argv[1], FOLDER))
    print(found)
else:
    print(FOLDER)
    for item in sorted(FOLDER.rglob("*")):
        if item.is_file() and item.suffix != ".pyc" and not item.name.startswith("__"):
            print("  " + str(item.relative_to(FOLDER)))
