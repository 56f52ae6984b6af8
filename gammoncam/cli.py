"""The ``gammoncam`` command line.

Each sub-command lives in its own module under :mod:`gammoncam.commands` and exposes
``register(subparsers)``, which adds its parser and sets ``func`` to a callable taking the
parsed arguments and returning the exit status. Bad input ends with a one-line message on
stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# One entry per sub-command module, in the order ``gammoncam --help`` lists them.
COMMAND_MODULES = (
    "gammoncam.commands.engine_cmds",
    "gammoncam.commands.synth_cmds",
    "gammoncam.commands.device_cmds",
    "gammoncam.commands.vision_cmds",
    "gammoncam.commands.replay_cmds",
    "gammoncam.commands.serve_cmds",
    "gammoncam.commands.watch_cmds",
    "gammoncam.commands.export_cmds",
)


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """Argument errors as one line and exit status 2, like every other bad input."""

    def error(self, message):
        print(f"{self.prog}: {message} (see --help)", file=sys.stderr)
        sys.exit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="gammoncam",
        description="A camera referee for physical backgammon and long nardy boards.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UsageError as exc:
        print(f"gammoncam {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
