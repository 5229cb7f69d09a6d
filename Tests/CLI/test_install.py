"""scripts/install into a temporary prefix: the binary runs from there and says its version; the completion scripts
and the man pages exist and load."""
import re
import shutil
import subprocess
import tempfile

from cli_testing import ROOT


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
        removed = subprocess.run(["bash", "scripts/install", "--uninstall", prefix], cwd=ROOT, capture_output=True, text=True)
        assert removed.returncode == 0
        assert not __import__("os").path.exists(binary)
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
