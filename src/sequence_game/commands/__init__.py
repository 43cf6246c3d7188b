"""Subcommands of the ``sequence`` command, one module each with ``add_parser(subparsers)``."""
