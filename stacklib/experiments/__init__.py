"""Small, real CPU experiments behind the lecture's empirical claims.

Each experiment is a function taking a frozen config dataclass (with a ``tiny()`` classmethod
for tests) and returning a plain dict: the measurements plus ``name``, ``config``, ``seed``,
``versions`` and ``duration_s``. The JSON schema of each result is documented at the top of
its module. ``python -m scripts.experiments`` writes them to ``docs/generated/experiments/``.
"""

# name -> (module, function, config class); JSON file = docs/generated/experiments/<name>.json
REGISTRY: dict[str, tuple[str, str, str]] = {
    "stacks": ("stacklib.experiments.stacks", "trained_stacks", "StacksConfig"),
    "probes": ("stacklib.experiments.probes", "layer_probes", "ProbesConfig"),
    "depth_width": ("stacklib.experiments.depth_width", "depth_vs_width", "DepthWidthConfig"),
    "latency": ("stacklib.experiments.latency", "latency", "LatencyConfig"),
    "depth_data": ("stacklib.experiments.depth_data", "depth_data", "DepthDataConfig"),
    "gradient_flow": ("stacklib.experiments.gradient_flow", "gradient_flow",
                      "GradientFlowConfig"),
}


def config_of(name: str, tiny: bool = False):
    """The default (or tiny) config of a registered experiment."""
    import importlib

    module, _, cls = REGISTRY[name]
    klass = getattr(importlib.import_module(module), cls)
    return klass.tiny() if tiny else klass()


def run_experiment(name: str, tiny: bool = False) -> dict:
    """Run a registered experiment with its default (or tiny) config (picklable for pools)."""
    import importlib

    module, fn, _ = REGISTRY[name]
    return getattr(importlib.import_module(module), fn)(config_of(name, tiny))
