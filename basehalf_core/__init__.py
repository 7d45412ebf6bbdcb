"""basehalf core: pure Python, no UI imports, in floors that only import downward.

``errors`` (the one root) < ``folder`` (the folder model and its one write path) < ``documents``
(PDF/EPUB) < ``study`` (grow, practice, grading, review) < ``teaching`` (courses, class grading)
< ``views`` (what the app and the export show). ``tests/test_layers.py`` keeps it so.
"""

__version__ = "0.1.0"
