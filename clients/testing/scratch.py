"""Temporary directories a test makes and pytest removes after it: `scripts/test` compares the temporary folder
before and after the run and fails on anything left behind."""
import shutil
import tempfile

import pytest


@pytest.fixture()
def scratch():
    """`scratch(prefix)` makes a new directory under the temporary folder; all are removed after the test."""
    made = []

    def make(prefix):
        path = tempfile.mkdtemp(prefix=prefix)
        made.append(path)
        return path

    yield make
    for path in made:
        shutil.rmtree(path, ignore_errors=True)
