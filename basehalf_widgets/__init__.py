"""anywidgets for the basehalf workbench; each widget's JS and CSS live in ``static/``."""
