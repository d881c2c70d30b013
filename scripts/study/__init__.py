"""The Shakespeare study: which character models it trains and why (``plan``, ``tuned``), and
what their records say (``summary``, ``probes``, ``verdict``). The models, the training loop and
the analyses are stacklib's; this package decides what runs and what the pages report."""
