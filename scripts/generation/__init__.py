"""stacklib -> docs/generated/ and docs/code_lab.ipynb: ``python -m scripts.generation``.

One module per generator, named for what it writes; scripts/README.md lists them.
"""
