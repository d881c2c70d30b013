import sys

from stacklib.cli import main

if __name__ == "__main__":  # imported by pytest's doctest collection: run only as a program
    sys.exit(main())
