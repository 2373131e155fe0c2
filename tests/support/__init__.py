"""Helpers shared by the tests (not tests themselves): ``harness`` (a hand-built position, one
real action), ``cli_harness`` (the command line in-process and as a real process),
``fuzz_harness`` (the machinery of ``test_fuzz_cli.py``), ``run_table`` (a small run folder as
one table), ``draw_log`` (a hand-built replay log) and ``negative_index_audit`` (whole games as
plain Python on arrays that refuse a negative index).

Tests import them as ``from support.cli_harness import invoke``: pytest puts ``tests/`` on
``sys.path`` (its default "prepend" import mode, ``tests/`` having no ``__init__.py``)."""
