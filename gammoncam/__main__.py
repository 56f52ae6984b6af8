"""``python -m gammoncam`` runs the command line."""

import sys

from gammoncam.cli import main

sys.exit(main())
