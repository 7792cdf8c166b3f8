# Sphinx configuration for the Aurora demo documentation.
# One source tree builds every version: AURORA_DOCS_VERSION picks which pages and passages go in.
import os

project = "Aurora"
author = "The Aurora developers"
copyright = "2026, The Aurora developers"

docs_version = os.environ.get("AURORA_DOCS_VERSION", "latest")
release = {"latest": "2.1.0.dev0", "2.0": "2.0.3", "1.0": "1.0.9"}[docs_version]
version = release.rsplit(".", 1)[0]
language = os.environ.get("AURORA_DOCS_LANGUAGE", "en")

extensions = [
    "sphinx.ext.intersphinx",
    "sphinx.ext.todo",
]

# Pages that only some versions have.
exclude_patterns = ["_build"]
if docs_version == "1.0":
    exclude_patterns += ["guides/async.rst", "guides/migrating.rst", "api/hooks.rst"]
else:
    exclude_patterns += ["guides/legacy-workers.rst"]
if docs_version != "latest":
    exclude_patterns += ["guides/observability.rst"]

# `.. only:: v1` and friends mark passages that differ between versions.
tags.add("v1" if docs_version == "1.0" else "v2")
if docs_version == "latest":
    tags.add("dev")

# The plugins subproject is served under /projects/plugins/ on the same host; its inventory is built first.
plugins_inventory = os.environ.get("AURORA_PLUGINS_INVENTORY")
intersphinx_mapping = (
    {"plugins": ("/projects/plugins/en/latest/", plugins_inventory)} if plugins_inventory else {}
)
intersphinx_disabled_reftypes = []
suppress_warnings = ["toc.excluded"]

html_theme = "sphinx_rtd_theme"
html_static_path = ["_static"]
html_title = f"Aurora {version} documentation"
html_show_sourcelink = False
html_theme_options = {"navigation_depth": 3}


def setup(app):
    # Configuration values are documented as `confval` objects, as many projects do.
    app.add_object_type(
        "confval",
        "confval",
        objname="configuration value",
        indextemplate="pair: %s; configuration value",
    )
