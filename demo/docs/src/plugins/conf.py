# Sphinx configuration for Aurora Plugins, a subproject of the Aurora documentation.
project = "Aurora Plugins"
author = "The Aurora developers"
copyright = "2026, The Aurora developers"
release = "1.4.0"
version = "1.4"
extensions = []
exclude_patterns = ["_build"]
html_theme = "furo"
html_title = "Aurora Plugins"
html_show_sourcelink = False
