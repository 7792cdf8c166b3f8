"""doclens for documentation authors: the Sphinx extension ``sphinx_doclens`` and the MkDocs plugin
``doclens`` put the doclens loader's script tag on every page.

Sphinx is imported only when Sphinx loads the extension, so that the MkDocs plugin works where Sphinx
is not installed.
"""

from typing import Any, Dict

#: The release, the same as the npm package's (``doclens --version``).
__version__ = "0.1.0"


def setup(app: Any) -> Dict[str, Any]:
    """Sphinx's entry point for ``extensions = ["sphinx_doclens"]``."""
    from .sphinx import setup as setup_extension

    return setup_extension(app)
