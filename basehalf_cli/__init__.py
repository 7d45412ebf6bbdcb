"""The ``basehalf`` command line: one module per command group, over basehalf_core."""
