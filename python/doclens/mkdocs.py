"""The MkDocs plugin: ``plugins: [doclens]`` with the settings of ``doclens.settings`` under it
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
        head_end = output.find("</head>")
        if head_end < 0:
            return output
        return f"{output[:head_end]}{self.tag}\n{output[head_end:]}"
