"""The MkDocs plugin: ``plugins: [doclens]`` with the settings of ``sphinx_doclens.settings`` under it
(``proxy`` required) puts the doclens loader's tag in the ``<head>`` of every page.
"""

from typing import Any, Optional

from mkdocs.config import config_options
from mkdocs.config.base import ValidationError
from mkdocs.plugins import BasePlugin

from .settings import SETTINGS, Setting, SettingError, attribute_value, loader_attributes, script_tag


class _SettingOption(config_options.BaseConfigOption):
    """One setting, checked with MkDocs' own configuration (a wrong one stops the build before any page)."""

    def __init__(self, setting: Setting) -> None:
        super().__init__()
        self.setting = setting

    def run_validation(self, value: Any) -> Any:
        try:
            attribute_value(self.setting, value, self.setting.name)
        except SettingError as error:
            raise ValidationError(str(error)) from None
        return value


class DoclensPlugin(BasePlugin):
    config_scheme = tuple((setting.name, _SettingOption(setting)) for setting in SETTINGS)

    tag: Optional[str] = None

    def on_config(self, config: Any) -> Any:
        self.tag = script_tag(loader_attributes(dict(self.config)))
        return config

    def on_post_page(self, output: str, **kwargs: Any) -> str:
        return self._with_tag(output)

    def on_post_template(self, output_content: str, template_name: str, **kwargs: Any) -> str:
        # The theme's own pages (404.html) get it too; sitemap.xml and other files do not.
        return self._with_tag(output_content) if template_name.endswith(".html") else output_content

    def _with_tag(self, html: str) -> str:
        head_end = html.find("</head>")
        if head_end < 0:
            return html
        return f"{html[:head_end]}{self.tag}\n{html[head_end:]}"
