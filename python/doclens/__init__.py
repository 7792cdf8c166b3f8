"""doclens for documentation authors: the Sphinx extension ``doclens.sphinx`` and the MkDocs plugin
``doclens`` put the doclens loader's script tag on every page."""

__version__ = "0.1.0"
