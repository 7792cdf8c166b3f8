"""The doclens loader's settings, shared by the Sphinx extension and the MkDocs plugin.

Each setting is checked at build time and becomes one ``data-*`` attribute of the loader's script
tag, the attributes the loader reads from its tag (``widget/loader/doclens.ts`` in the doclens
repository, through ``script.dataset``). A wrong setting raises ``SettingError``, whose message
names the setting and what it accepts, in one line.
"""

import re
from dataclasses import dataclass
from html import escape
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Union
from urllib.parse import urlsplit

from .static import LOADER

FEATURES = ("search", "preview", "versions")


class SettingError(ValueError):
    """A setting the widget cannot use; the message names it and says what it accepts."""


class _Invalid:
    """What a parser returns for a value it does not accept."""


INVALID = _Invalid()
#: A parser's answer: the attribute's value, None to leave the attribute out, or INVALID.
Parsed = Union[str, None, _Invalid]


def as_list(value: Any) -> Optional[List[str]]:
    """A list given as a list (or tuple) of strings, or as one string separated by spaces or commas."""
    if isinstance(value, str):
        return [word for word in re.split(r"[\s,]+", value) if word]
    if isinstance(value, (list, tuple)) and all(isinstance(word, str) for word in value):
        return [word.strip() for word in value if word.strip()]
    return None


def _proxy(value: Any) -> Parsed:
    if not isinstance(value, str):
        return INVALID
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        return INVALID
    return value.strip().rstrip("/")


def _features(value: Any) -> Parsed:
    # An empty list is an empty attribute: no feature at all (the loader's default is every feature).
    words = as_list(value)
    if words is None or any(word not in FEATURES for word in words):
        return INVALID
    return ",".join(words)


_HOST = re.compile(r"^([a-z0-9-]+\.)*[a-z0-9-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$")


def _hosts(value: Any) -> Parsed:
    # The widget matches link hosts exactly: names or IP literals with an optional port, no wildcards.
    words = as_list(value)
    if words is None or any(not _HOST.match(word.lower()) for word in words):
        return INVALID
    return " ".join(word.lower() for word in words) or None


def _selector(value: Any) -> Parsed:
    return value.strip() if isinstance(value, str) and value.strip() else INVALID


def _choice(*choices: str) -> Callable[[Any], Parsed]:
    return lambda value: value if value in choices else INVALID


def _switched_off(value: Any) -> Parsed:
    """A boolean whose default is on: the tag says ``off`` only when it is turned off."""
    return "off" if value is False else None if value is True else INVALID


def _static(value: Any) -> Parsed:
    """On, the attribute is there and empty: the files are beside the loader (see ``static.LOADER``)."""
    return "" if value is True else None if value is False else INVALID


def _pattern(pattern: str) -> Callable[[Any], Parsed]:
    return lambda value: value if isinstance(value, str) and re.fullmatch(pattern, value) else INVALID


@dataclass(frozen=True)
class Setting:
    #: The name under the plugin (MkDocs); Sphinx's is ``doclens_`` + name.
    name: str
    #: The loader's ``data-*`` attribute.
    attribute: str
    #: The value as the attribute carries it.
    parse: Callable[[Any], Parsed]
    #: What it accepts, for the error message.
    accepts: str
    required: bool = False


SETTINGS = (
    Setting("proxy", "data-proxy", _proxy, "the http(s) URL of a doclens proxy, such as https://doclens.example.org", required=True),
    Setting("static", "data-static", _static, "True or False (True: doclens build runs after the site's build, and no proxy is needed)"),
    Setting("features", "data-features", _features, f"a list of {', '.join(FEATURES)} (or an empty list)"),
    Setting("preview_selector", "data-preview-selector", _selector, "a CSS selector of the containers whose links preview"),
    Setting("preview_domains", "data-preview-domains", _hosts, "a list of host names, each optionally with :port"),
    Setting("preview_touch", "data-preview-touch", _switched_off, "True or False (False: a tap follows the link at once)"),
    Setting("doctool", "data-doctool", _choice("sphinx", "none"), "sphinx or none"),
    Setting("search_target", "data-search-target", _selector, "a CSS selector of where the search button goes"),
    Setting("versions_target", "data-versions-target", _selector, "a CSS selector of where the version switcher goes"),
    Setting("notice", "data-notice", _choice("old", "dev", "all", "none"), "old, dev, all or none"),
    Setting("switcher", "data-switcher", _choice("always"), "always (the switcher shows even with one version and one language)"),
    Setting("highlight", "data-highlight", _switched_off, "True or False (False: searched words are not highlighted)"),
    Setting("project", "data-project", _pattern(r"[A-Za-z0-9][A-Za-z0-9._-]*"), "a project slug (letters, digits, '.', '_', '-')"),
    Setting("version", "data-version", _pattern(r"[A-Za-z0-9][A-Za-z0-9._-]*"), "a version slug (letters, digits, '.', '_', '-')"),
    Setting("language", "data-language", _pattern(r"[a-z]{2,3}([_-][a-zA-Z]{2,4})?"), "a language code such as en or pt-br"),
)

SETTING_NAMES = tuple(setting.name for setting in SETTINGS)


def attribute_value(setting: Setting, value: Any, name: str) -> Optional[str]:
    """The attribute's value for a setting's value (None: not set, or no attribute); ``name`` is the
    setting's name as the author writes it (``doclens_proxy`` in Sphinx)."""
    if value is None:
        if setting.required:
            raise SettingError(f"{name} is required: {setting.accepts}")
        return None
    parsed = setting.parse(value)
    if isinstance(parsed, _Invalid):
        raise SettingError(f"{name} must be {setting.accepts}, not {value!r}")
    return parsed


def loader_attributes(values: Mapping[str, Any], name_of: Callable[[str], str] = lambda name: name) -> Dict[str, str]:
    """The loader tag's attributes (``type`` and ``src`` first) from the settings given (None: not set).
    In the static mode ``src`` is the loader's path below the site's root, for each page to make relative."""
    static = values.get("static") is True
    attributes: Dict[str, str] = {}
    for setting in SETTINGS:
        value = values.get(setting.name)
        # The static mode asks no proxy.
        if static and setting.required and value is None:
            continue
        parsed = attribute_value(setting, value, name_of(setting.name))
        if parsed is not None:
            attributes[setting.attribute] = parsed
    src = LOADER if static else f"{attributes['data-proxy']}/doclens.js"
    return {"type": "module", "src": src, **attributes}


def script_tag(attributes: Mapping[str, str]) -> str:
    """The loader's script tag, attributes escaped."""
    rendered = "".join(f' {name}="{escape(value, quote=True)}"' for name, value in attributes.items())
    return f"<script{rendered}></script>"


def hosts_of(urls: Iterable[str]) -> List[str]:
    """The host (with its port, if any) of each http(s) URL, once each, in order."""
    hosts: List[str] = []
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme in ("http", "https") and parts.netloc and parts.netloc.lower() not in hosts:
            hosts.append(parts.netloc.lower())
    return hosts
