"""basehalf core: pure Python, no UI imports, in floors that only import downward.

``errors`` (the one root) < ``folder`` (the folder model and its one write path) < ``documents``
(PDF/EPUB) < ``study`` (grow, practice, grading, review) < ``teaching`` (courses, class grading)
< ``views`` (what the app and the export show). ``tests/test_layers.py`` keeps it so.

A floor's ``__all__`` names its modules; they are imported by name
(``from basehalf_core.folder import operations``), never by importing the floor, so the command
line loads only what a command uses.
"""

__version__ = "0.1.0"
