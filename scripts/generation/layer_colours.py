"""The layer colour ramp, for the widgets: generated/data/layer_colours.json.

{"ramps": {"L": [[lamp, t], ...]}} for stacks of 1 to MAX_LAYERS layers, bottom to top:
figures.layer_ramp, the one ramp the static figures are drawn with. A widget mixes the page's
lamps with it (runtime.js: StackWidgets.layerColour), so its colours follow the colour scheme.
"""

from __future__ import annotations

from scripts.generation.figures import layer_ramp
from scripts.generation.write import Output
from stacklib.lecture import GRADIENT_FLOW, GRADIENT_MODEL

# The deepest stack a widget colours: §09's depth slider and measured stacks.
MAX_LAYERS = max(GRADIENT_MODEL["max_layers"], *GRADIENT_FLOW["depths"])


def run(out: Output) -> None:
    out.json("generated/data/layer_colours.json",
             {"ramps": {str(n): [list(step) for step in layer_ramp(n)]
                        for n in range(1, MAX_LAYERS + 1)}})
