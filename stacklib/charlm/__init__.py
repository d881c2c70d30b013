"""Character-level language models of real text: the Shakespeare study behind the lecture's
claims about depth (``study`` lists its runs; ``jobs`` trains one; ``analysis`` reads one)."""
