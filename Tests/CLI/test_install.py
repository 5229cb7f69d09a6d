"""scripts/install into a temporary prefix: the binary runs from there and says its version; the completion scripts
and the man pages exist and load."""
import pathlib
import re
import shutil
import subprocess
import tempfile

from cli_testing import ROOT


def check_manual_pages(folder):
    """Every page keeps its non-ASCII text (generate-manual drops it: scripts/lib/manual_text.py puts it back), has
    a NAME section whatis reads (lexgrog, man-db's parser for it), and the exit codes include 70."""
    pages = sorted(folder.glob("*.1"))
    assert len(pages) >= 11, pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "QZU" not in text, page
        name = page.name[:-len(".1")]
        assert ".Nm %s\n.Nd " % name in text, page
        if shutil.which("lexgrog"):
            read = subprocess.run(["lexgrog", str(page)], capture_output=True, text=True)
            assert read.returncode == 0 and '"%s - ' % name in read.stdout, read.stdout + read.stderr
    daily = (folder / "boxoffice-worker.daily.1").read_text(encoding="utf-8")
    assert "(1–10)" in daily and "0105001, 서울, Seoul" in daily
    assert "\n.Nm boxoffice-worker daily\n" in daily  # the synopsis names the command as it is typed
    assert "70 if the worker" in (folder / "boxoffice-worker.1").read_text(encoding="utf-8")


def test_install_into_a_prefix():
    prefix = tempfile.mkdtemp(prefix="boxoffice-prefix-")
    try:
        installed = subprocess.run(["bash", "scripts/install", prefix], cwd=ROOT, capture_output=True, text=True,
                                   timeout=3000)
        assert installed.returncode == 0, installed.stderr[-3000:]
        binary = prefix + "/bin/boxoffice-worker"
        version = subprocess.run([binary, "--version"], capture_output=True, text=True)
        written = (ROOT / "VERSION").read_text().strip()
        assert re.fullmatch(r"boxoffice-worker %s \(([0-9a-f]{12}|unknown)\)" % re.escape(written),
                            version.stdout.strip()), version.stdout
        ping = subprocess.run([binary], input='{"jsonrpc":"2.0","id":1,"method":"ping"}\n', capture_output=True,
                              text=True, timeout=30)
        assert ping.stdout.strip() == '{"jsonrpc":"2.0","id":1,"result":{}}'
        bash_completion = prefix + "/share/bash-completion/completions/boxoffice-worker"
        assert subprocess.run(["bash", "-n", bash_completion]).returncode == 0
        loaded = subprocess.run(["bash", "-c", "source '%s' && complete -p boxoffice-worker" % bash_completion],
                                capture_output=True, text=True)
        assert loaded.returncode == 0 and "boxoffice-worker" in loaded.stdout
        assert "_boxoffice-worker" in open(prefix + "/share/zsh/site-functions/_boxoffice-worker").read()
        assert "complete -c 'boxoffice-worker'" in open(prefix + "/share/fish/vendor_completions.d/boxoffice-worker.fish").read()
        manual = prefix + "/share/man/man1/boxoffice-worker.1"
        pages = {path.name for path in __import__("pathlib").Path(prefix + "/share/man/man1").iterdir()}
        assert {"boxoffice-worker.1", "boxoffice-worker.daily.1", "boxoffice-worker.mcp.1"} <= pages
        if shutil.which("man"):
            rendered = subprocess.run(["man", "-l", manual], capture_output=True, text=True, env={"MANPAGER": "cat", "PAGER": "cat", "PATH": "/usr/bin:/bin", "MANWIDTH": "100"})
            assert rendered.returncode == 0 and "boxoffice-worker" in rendered.stdout
        check_manual_pages(pathlib.Path(prefix + "/share/man/man1"))
        removed = subprocess.run(["bash", "scripts/install", "--uninstall", prefix], cwd=ROOT, capture_output=True, text=True)
        assert removed.returncode == 0
        assert not __import__("os").path.exists(binary)
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
