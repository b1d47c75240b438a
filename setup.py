"""The one thing pyproject.toml cannot say in stable terms: the optional C extensions (docs/rl.md "The compiled
path"). Each game folder with a `_fastenc.c` gets its compiled observation encoder, `tabletop.games.<game>._fastenc`
(found here by file, so this lists no game), built with the shared helpers of src/tabletop/spaces/fastenc.h; the
action spaces' mask is `tabletop.spaces._fastmask`. Optional: without a C compiler the install goes on and the
pure-Python encoders and masks give the same observations."""

from pathlib import Path

from setuptools import Extension, setup

SPACES = "src/tabletop/spaces"
HEADER = f"{SPACES}/fastenc.h"
encoders = [
    Extension(f"tabletop.games.{c.parent.name}._fastenc", [c.as_posix()], include_dirs=[SPACES], depends=[HEADER],
              optional=True)
    for c in sorted(Path("src/tabletop/games").glob("*/_fastenc.c"))
]
setup(ext_modules=[*encoders, Extension("tabletop.spaces._fastmask", [f"{SPACES}/_fastmask.c"], optional=True)])
