"""The recipes the wheel carries (the shell helpers, the yesterday job and its cron, systemd and GitHub Actions
files, the chat bots), in this folder; `python -m boxoffice_worker.recipes` prints where it is. The shell helpers
and the webhook bots are also installed as commands (`boxoffice-backfill`, `boxoffice-dates-to-tsv`,
`boxoffice-yesterday`, `boxoffice-discord`, `boxoffice-slack`, and `boxoffice-bo.sh` to source)."""

import pathlib

FOLDER = pathlib.Path(__file__).resolve().parent


def path(name: str = "") -> pathlib.Path:
    """The recipe `name` (e.g. `bots/telegram-bot/bot.py`), or the folder."""
    return FOLDER / name if name else FOLDER
