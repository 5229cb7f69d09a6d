"""`python -m boxoffice_worker.nats`: the same command as `boxoffice-worker-nats`."""
import sys

from .cli import main

sys.exit(main())
