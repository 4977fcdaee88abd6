"""A data folder: a package so that importlib.resources finds its files in editable installs too."""
