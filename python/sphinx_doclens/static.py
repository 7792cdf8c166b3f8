"""The static mode: ``doclens build`` runs on the built site when its build ends, and writes beside it
(in ``_doclens/``) what the widget reads instead of a proxy: search, previews, versions."""

import os
import shlex
import shutil
import subprocess
from typing import List

#: The loader's path below the site's root; each page's tag names it relative to the page.
LOADER = "_doclens/doclens.js"


class BuildError(RuntimeError):
    """``doclens build`` could not run, or failed; the message says why, in its own words."""


def doclens_command() -> List[str]:
    """The ``doclens`` command: ``$DOCLENS_COMMAND`` (a command line), else ``doclens`` on the PATH (npm's)."""
    given = os.environ.get("DOCLENS_COMMAND")
    if given:
        return shlex.split(given)
    found = shutil.which("doclens")
    if found:
        return [found]
    raise BuildError(
        "the static mode runs `doclens build`, and no doclens command was found: install it (npm install -g doclens) "
        "or set DOCLENS_COMMAND"
    )


def build_static(site: str) -> str:
    """Runs ``doclens build --docs site``; gives its summary line."""
    try:
        result = subprocess.run([*doclens_command(), "build", "--docs", site], capture_output=True, text=True, check=False)
    except OSError as error:
        raise BuildError(f"doclens build could not start: {error}") from None
    if result.returncode != 0:
        raise BuildError(result.stderr.strip() or f"doclens build failed with exit code {result.returncode}")
    return result.stdout.strip()
