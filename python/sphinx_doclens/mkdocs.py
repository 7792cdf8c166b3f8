"""The MkDocs plugin: ``plugins: [doclens]`` with the settings of ``sphinx_doclens.settings`` under it
(``static: true``, or ``proxy``) puts the doclens loader's tag in the ``<head>`` of every page; the
static mode runs ``doclens build`` on the site once it is written.
"""

import logging
from typing import Any, Dict, Optional
from urllib.parse import urlsplit

from mkdocs.config import config_options
from mkdocs.config.base import ValidationError
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.utils import get_relative_url

from .settings import SETTINGS, Setting, SettingError, attribute_value, loader_attributes, script_tag
from .static import LOADER, BuildError, build_static

log = logging.getLogger(f"mkdocs.plugins.{__name__}")


class _SettingOption(config_options.BaseConfigOption):
    """One setting, checked with MkDocs' own configuration (a wrong one stops the build before any page)."""

    def __init__(self, setting: Setting) -> None:
        super().__init__()
        self.setting = setting

    def run_validation(self, value: Any) -> Any:
        # A missing one is told in on_config, which knows whether it is needed (the static mode needs no proxy).
        if value is None:
            return value
        try:
            attribute_value(self.setting, value, self.setting.name)
        except SettingError as error:
            raise ValidationError(str(error)) from None
        return value


class DoclensPlugin(BasePlugin):
    config_scheme = tuple((setting.name, _SettingOption(setting)) for setting in SETTINGS)

    attributes: Optional[Dict[str, str]] = None
    #: The site's path below its host, from ``site_url`` (``/`` without one).
    site_path = "/"

    def on_config(self, config: Any) -> Any:
        try:
            self.attributes = loader_attributes(dict(self.config))
        except SettingError as error:
            raise PluginError(str(error)) from None
        self.site_path = urlsplit(config.get("site_url") or "/").path or "/"
        return config

    def on_post_page(self, output: str, page: Any, **kwargs: Any) -> str:
        # The static mode's loader, relative to the page.
        return self._with_tag(output, get_relative_url(LOADER, page.url))

    def on_post_template(self, output_content: str, template_name: str, **kwargs: Any) -> str:
        # The theme's own pages (404.html) get it too; sitemap.xml and other files do not. A 404 page is
        # served at any depth: the static mode's loader by its path below the host.
        if not template_name.endswith(".html"):
            return output_content
        return self._with_tag(output_content, self.site_path.rstrip("/") + "/" + LOADER)

    def on_post_build(self, config: Any) -> None:
        if self.config.get("static") is not True:
            return
        try:
            log.info(build_static(config["site_dir"]))
        except BuildError as error:
            raise PluginError(str(error)) from None

    def _with_tag(self, html: str, static_src: str) -> str:
        head_end = html.find("</head>")
        if head_end < 0 or self.attributes is None:
            return html
        attributes = dict(self.attributes)
        if self.config.get("static") is True:
            attributes["src"] = static_src
        return f"{html[:head_end]}{script_tag(attributes)}\n{html[head_end:]}"
