"""The project's tools, run from the repository root as ``python -m scripts.<package>``.

generation   stacklib -> docs/generated/ (partials, figures, widget data) and the notebook
experiments  the trained toy experiments behind the lecture's empirical claims
delivery     the PDF, the offline zip, versioned deploys, the math font
benchmarks   speed ratios and page-speed scores (measurements, not tests)
toolenv      where every tool keeps its state (.cache/, never $HOME)
site         mkdocs.yml, the nav, building and serving the site
"""
