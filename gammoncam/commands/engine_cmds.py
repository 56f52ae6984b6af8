"""``gammoncam moves`` and ``gammoncam check`` (placeholder until the engine lands)."""


def register(subparsers):
    pass
