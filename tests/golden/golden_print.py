# The lines the golden scripts print that the C++ tests read back (tests/golden_file.hpp):
# "=== input NAME" sections, and arrays as "shape : values".
import numpy as np


def print_inputs(inputs):
    """Each input as `=== input NAME`, its shape, then its values as Python floats."""
    for name, v in inputs.items():
        print(f"=== input {name}")
        print(" ".join(str(d) for d in v.shape))
        print(" ".join(str(float(x)) for x in v.ravel()))


def shape_and_values(a, as_value=float):
    """`d0 d1 : v0 v1 ...`, the values as `as_value` gives them (float, or int for indices)."""
    a = np.asarray(a)
    return " ".join(str(d) for d in a.shape) + " : " + " ".join(
        str(as_value(x)) for x in a.ravel())
