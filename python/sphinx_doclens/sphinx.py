"""The Sphinx extension: ``extensions = ["sphinx_doclens"]`` and ``doclens_static = True`` (or
``doclens_proxy = "https://…"``) in ``conf.py`` put the doclens loader's tag on every HTML page; the
static mode runs ``doclens build`` when the build ends. Each setting of ``sphinx_doclens.settings`` is
``doclens_<name>`` here, plus ``doclens_preview_intersphinx``: True adds the hosts of
``intersphinx_mapping`` to the preview domains.
"""

from typing import Any, Dict, List

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError, ExtensionError
from sphinx.util import logging

from . import __version__
from .settings import SETTING_NAMES, SettingError, as_list, hosts_of, loader_attributes
from .static import BuildError, build_static

PREFIX = "doclens_"
INTERSPHINX = "preview_intersphinx"


def _intersphinx_urls(mapping: Any) -> List[str]:
    """The inventories' base URLs, from ``{name: (url, inventory)}`` (or the older ``{url: inventory}``)."""
    urls: List[str] = []
    for key, value in (mapping or {}).items():
        url = value[0] if isinstance(value, (tuple, list)) and value else key
        if isinstance(url, str):
            urls.append(url)
    return urls


def _check(app: Sphinx, config: Config) -> None:
    """Checks the settings before anything is read or written, and adds the loader's tag."""
    known = {PREFIX + name for name in (*SETTING_NAMES, INTERSPHINX)}
    # conf.py's own names: a misspelt doclens_ setting would otherwise be ignored without a word.
    written = getattr(config, "_raw_config", {})
    unknown = sorted(name for name in written if name.startswith(PREFIX) and name not in known)
    if unknown:
        raise ConfigError(f"{unknown[0]} is not a doclens setting (settings: {', '.join(sorted(known))})")
    values: Dict[str, Any] = {name: config[PREFIX + name] for name in SETTING_NAMES}
    with_intersphinx = config[PREFIX + INTERSPHINX]
    if with_intersphinx not in (True, False):
        raise ConfigError(f"{PREFIX}{INTERSPHINX} must be True or False, not {with_intersphinx!r}")
    if with_intersphinx:
        if "sphinx.ext.intersphinx" not in config.extensions:
            raise ConfigError(f"{PREFIX}{INTERSPHINX} needs \"sphinx.ext.intersphinx\" in extensions (with intersphinx_mapping)")
        given = values["preview_domains"]
        domains = [] if given is None else as_list(given)
        # A value that is no list stays as given, for loader_attributes to report.
        if domains is not None:
            intersphinx_hosts = hosts_of(_intersphinx_urls(config["intersphinx_mapping"]))
            values["preview_domains"] = domains + [host for host in intersphinx_hosts if host not in domains]
    try:
        attributes = loader_attributes(values, lambda name: PREFIX + name)
    except SettingError as error:
        raise ConfigError(str(error)) from None
    src = attributes.pop("src")
    # Sphinx writes a path relative to _static/, then relative to each page: the static mode's loader is beside it.
    app.add_js_file(f"../{src}" if config[PREFIX + "static"] is True else src, **attributes)


def _build_static(app: Sphinx, exception: Any) -> None:
    """The static mode: ``doclens build`` on the HTML just written."""
    if exception is not None or app.config[PREFIX + "static"] is not True or app.builder.format != "html":
        return
    try:
        logging.getLogger(__name__).info(build_static(app.outdir))
    except BuildError as error:
        raise ExtensionError(str(error)) from None


def setup(app: Sphinx) -> Dict[str, Any]:
    for name in SETTING_NAMES:
        app.add_config_value(PREFIX + name, None, "html")
    app.add_config_value(PREFIX + INTERSPHINX, False, "html")
    app.connect("config-inited", _check)
    app.connect("build-finished", _build_static)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
