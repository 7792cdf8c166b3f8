# Sphinx configuration for the Spanish translation of the Aurora demo documentation.
project = "Aurora"
author = "Los desarrolladores de Aurora"
copyright = "2026, Los desarrolladores de Aurora"
release = "2.1.0.dev0"
version = "2.1"
language = "es"
extensions = []
exclude_patterns = ["_build"]
html_theme = "sphinx_rtd_theme"
html_title = "Documentación de Aurora 2.1"
html_show_sourcelink = False


def setup(app):
    app.add_object_type("confval", "confval", objname="valor de configuración")
