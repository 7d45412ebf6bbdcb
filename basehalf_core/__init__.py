"""basehalf core: the folder model, its one write path, documents, grading. No UI imports."""

__version__ = "0.1.0"
