"""GNU parallel's --pipe over a year of dates gives what one `pipe` gives: outcomes carry no line number, so a chunk's
process numbering its own lines from 1 cannot show, and --keep-order puts the chunks back in input order."""
import datetime
import shutil
import subprocess

import pytest

from jobs_testing import BINARY, environment, pipe


@pytest.mark.skipif(shutil.which("parallel") is None, reason="GNU parallel is installed by scripts/setup parallel")
def test_parallel_pipe_over_a_year_equals_one_pipe(tmp_path):
    days = [(datetime.date(2023, 1, 1) + datetime.timedelta(days=n)).isoformat() for n in range(365)]
    alone = pipe(["boxoffice.daily", "--offline"], days, environment())
    assert alone.returncode == 2 and alone.stderr == ""
    # parallel's own files (~/.parallel, its buffers) go to the test's folder, not the user's or /tmp.
    env = environment({"HOME": str(tmp_path), "TMPDIR": str(tmp_path)})
    chunked = subprocess.run(["parallel", "--will-cite", "--pipe", "--keep-order", "-N", "30", "-j", "4",
                              BINARY, "pipe", "boxoffice.daily", "--offline"],
                             input="".join(day + "\n" for day in days), capture_output=True, text=True, env=env,
                             timeout=300)
    assert chunked.stdout == alone.stdout
    assert len(chunked.stdout.splitlines()) == 365
    assert chunked.stderr == ""
