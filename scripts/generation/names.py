"""What the lecture calls things in its tables and figures (a cell's title is stacklib's:
``stacklib.config.CELLS``)."""

FRAMEWORKS = {"torch": "PyTorch", "keras": "Keras"}
