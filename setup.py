"""The one thing pyproject.toml cannot say in stable terms: the optional C extension of the compiled observation
encoders (docs/rl.md "The compiled path"). Optional: without a C compiler the install goes on and
tabletop.rl.encode uses its pure-Python encoders, which give the same observations."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("tabletop.rl._fastenc", ["src/tabletop/rl/_fastenc.c"], optional=True)])
