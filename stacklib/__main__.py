import sys

from stacklib.cli import main

sys.exit(main())
