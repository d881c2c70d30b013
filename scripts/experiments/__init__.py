"""The trained experiments behind the lecture's claims: ``python -m scripts.experiments``."""
