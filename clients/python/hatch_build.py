"""Puts the worker binary into the wheel, the way ruff and uv ship theirs.

scripts/package sets BOXOFFICE_WORKER_BUNDLE to the stripped, statically linked binary and BOXOFFICE_WORKER_PLATFORM
to the platform tag its glibc symbol versions allow (`manylinux_2_35_x86_64`). The binary goes into the wheel's
`.data/scripts/`, which pip and uv install into the environment's `bin/` unchanged (no Python launcher in front of
it: a launcher would cost about 15 ms of every start); `boxoffice_worker.find_binary` finds it there without PATH.
Without the variables the wheel is the pure-Python client, as before.
"""

import os

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class BundledWorker(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version, build_data):
        binary = os.environ.get("BOXOFFICE_WORKER_BUNDLE")
        if self.target_name != "wheel" or not binary:
            return
        platform = os.environ.get("BOXOFFICE_WORKER_PLATFORM")
        if not platform:
            raise RuntimeError("BOXOFFICE_WORKER_BUNDLE needs BOXOFFICE_WORKER_PLATFORM (the wheel's platform tag)")
        if not os.access(binary, os.X_OK):
            raise RuntimeError("BOXOFFICE_WORKER_BUNDLE=%s is not an executable file" % binary)
        build_data["shared_scripts"][binary] = "boxoffice-worker"
        # The recipes installed as commands (scripts/package lists them beside the package: "FILE<TAB>COMMAND",
        # FILE under boxoffice_worker/recipes), and bo.sh to source, as boxoffice-bo.sh beside them.
        root = os.path.dirname(os.path.abspath(__file__))
        commands = os.path.join(root, "recipe-commands")
        if os.path.exists(commands):
            recipes = os.path.join(root, "boxoffice_worker", "recipes")
            with open(commands) as listing:
                for line in filter(None, listing.read().splitlines()):
                    place, command = line.split("\t")
                    build_data["shared_scripts"][os.path.join(recipes, place)] = command
            build_data["shared_scripts"][os.path.join(recipes, "bo.sh")] = "boxoffice-bo.sh"
        build_data["tag"] = "py3-none-%s" % platform
        build_data["pure_python"] = False
