"""Headless Chromium for the HTML pages' tests: Debian's `chromium` driven through Selenium and Debian's
`chromium-driver` (named by path, so Selenium Manager never looks for or downloads a driver).

A `Browser` is one Chromium session. It starts with a fixed device scale factor (1), hidden scrollbars, no GPU and a
profile, a HOME and a TMPDIR of its own in one scratch folder under .build (the test command fails on anything left
in the temporary folder, and Chromium writes there: its shared-memory files, crash reports, the profile it would make
itself); `close()` ends the driver and the browser and removes that folder.

What it offers: `load(path)` a file:// page and wait until it is laid out (fonts and images loaded);
`console()` the console messages since the last call (console.* calls, uncaught script errors, resources that
failed to load, CSS the parser dropped: Chromium reports all of them in the "browser" log); `screenshot(width)` the
whole page at a viewport that wide, as PNG bytes; `element_screenshot(selector)`; `dark(True)` to emulate
`prefers-color-scheme: dark`; `scroll_width(width)` the document's width laid out at that viewport.
"""
import base64
import os
import pathlib
import shutil
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRATCH = ROOT / ".build" / "web-browser"
# The browser itself, not /usr/bin/chromium: that launcher script adds the flags of /etc/chromium.d (extensions,
# API keys, GPU rasterisation) and chooses /dev/shm or the temporary folder by the machine's free memory.
CHROMIUM = "/usr/lib/chromium/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# Every screenshot is of a viewport this tall before the page's own height is taken (then the page's full height).
VIEWPORT_HEIGHT = 800


def available():
    """Why the browser cannot start here, or None (`bash scripts/setup chromium cjkfont` installs what it needs)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            return "%s is missing (bash scripts/setup chromium cjkfont)" % path
    return None


def dejavu_only_fontconfig(folder):
    """Writes a fonts.conf that knows DejaVu and nothing else (no CJK font, no system configuration included) into
    `folder`; returns its path, for FONTCONFIG_FILE."""
    folder = pathlib.Path(folder)
    cache = folder / "fontconfig-cache"
    cache.mkdir(parents=True, exist_ok=True)
    conf = folder / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n<fontconfig>\n'
        "  <dir>/usr/share/fonts/truetype/dejavu</dir>\n"
        "  <cachedir>%s</cachedir>\n"
        "  <alias><family>sans-serif</family><prefer><family>DejaVu Sans</family></prefer></alias>\n"
        "  <alias><family>serif</family><prefer><family>DejaVu Serif</family></prefer></alias>\n"
        "  <alias><family>monospace</family><prefer><family>DejaVu Sans Mono</family></prefer></alias>\n"
        "</fontconfig>\n" % cache)
    return str(conf)


class Browser:
    def __init__(self, environment=None):
        """`environment`: variables added to Chromium's (FONTCONFIG_FILE for a render without the CJK fonts)."""
        SCRATCH.mkdir(parents=True, exist_ok=True)
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="session-", dir=SCRATCH))
        home, temporary, profile = (self.folder / name for name in ("home", "tmp", "profile"))
        for path in (home, temporary, profile):
            path.mkdir()
        env = {key: value for key, value in os.environ.items() if not key.startswith(("XDG_", "FONTCONFIG_"))}
        env.update(HOME=str(home), TMPDIR=str(temporary), XDG_CONFIG_HOME=str(home / ".config"),
                   XDG_CACHE_HOME=str(home / ".cache"), XDG_RUNTIME_DIR=str(temporary))
        env.update(environment or {})
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--disable-gpu", "--force-device-scale-factor=1", "--hide-scrollbars",
                         "--user-data-dir=%s" % profile, "--no-first-run", "--no-default-browser-check",
                         "--disable-extensions", "--disable-background-networking", "--disable-sync",
                         "--disable-component-update", "--disable-dev-shm-usage", "--font-render-hinting=none",
                         "--lang=ko-KR", "--window-size=1280,%d" % VIEWPORT_HEIGHT):
            options.add_argument(argument)
        if os.geteuid() == 0:
            options.add_argument("--no-sandbox")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(executable_path=CHROMEDRIVER, env=env, log_output=str(self.folder / "chromedriver.log"))
        try:
            self.driver = webdriver.Chrome(service=service, options=options)
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise
        self.width = None

    def close(self):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def cdp(self, command, **parameters):
        return self.driver.execute_cdp_cmd(command, parameters)

    def viewport(self, width, height=VIEWPORT_HEIGHT):
        """Lays the page out at exactly `width` x `height` CSS pixels (scale 1, not a phone's touch emulation)."""
        self.cdp("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.width = width

    def dark(self, on=True):
        """Emulates `prefers-color-scheme: dark` (or light) for the pages loaded from now on and the current one."""
        self.cdp("Emulation.setEmulatedMedia",
                 features=[{"name": "prefers-color-scheme", "value": "dark" if on else "light"}])

    def load(self, path, width=1280, dark=False):
        """Opens the file `path` at a viewport `width` wide, in the dark colour scheme or the light one, and waits for
        its fonts and images. Console messages of earlier pages are dropped first."""
        self.console()
        self.viewport(width)
        self.dark(dark)
        self.driver.get(pathlib.Path(path).resolve().as_uri())
        self.settle()

    def settle(self):
        """Waits until the document, its fonts and its images are loaded and a frame was drawn after that."""
        self.driver.set_script_timeout(30)
        self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const loaded = new Promise(resolve => document.readyState === 'complete'
                ? resolve() : addEventListener('load', resolve, {once: true}));
            const images = () => Promise.all([...document.images].map(image => image.decode().catch(() => null)));
            loaded.then(() => document.fonts.ready).then(images)
                .then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));
        """)

    def console(self):
        """The console messages since the last call, each {"level", "message", "source", ...}."""
        return self.driver.get_log("browser")

    def script(self, source, *arguments):
        return self.driver.execute_script(source, *arguments)

    def scroll_width(self, width):
        """The document's scroll width laid out at a viewport `width` wide."""
        self.viewport(width)
        self.settle()
        return self.script("return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")

    def screenshot(self, width):
        """The whole page as PNG bytes, laid out at a viewport `width` wide and as tall as the page is there."""
        self.viewport(width)
        self.settle()
        height = self.script("return Math.ceil(Math.max(document.documentElement.scrollHeight,"
                             " document.body.scrollHeight))")
        self.viewport(width, height)
        self.settle()
        shot = self.cdp("Page.captureScreenshot", format="png", captureBeyondViewport=True, fromSurface=True,
                        clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
        self.viewport(width)
        return _png(shot)

    def element_screenshot(self, selector=None, element=None):
        """The box of the first element matching `selector` (or `element`) as PNG bytes."""
        rectangle = self.script("""
            const element = arguments[1] || document.querySelector(arguments[0]);
            element.scrollIntoView({block: 'center'});
            const box = element.getBoundingClientRect();
            return {x: box.left + scrollX, y: box.top + scrollY, width: box.width, height: box.height};
        """, selector, element)
        assert rectangle["width"] > 0 and rectangle["height"] > 0, "%s has no box" % (selector or element)
        shot = self.cdp("Page.captureScreenshot", format="png", captureBeyondViewport=True, fromSurface=True,
                        clip=dict(rectangle, scale=1))
        return _png(shot)


def _png(shot):
    return base64.b64decode(shot["data"])
