# Sourced by scripts/test, scripts/serve and scripts/play. A machine may forbid Python's byte-code cache
# (PYTHONDONTWRITEBYTECODE, set in this workplace's shells): then every Python process compiles what it imports from
# source, each time (torch 8.1 s where it takes 3.3 from the cache, the server's modules 5.1 s against 2.5), and a
# test run starts hundreds of them (servers, AI workers, the terminal). The cache is kept then, in .venv/pycache
# only (PYTHONPYCACHEPREFIX): never beside the sources, each module compiled once, by its first importer.
if [ -n "${PYTHONDONTWRITEBYTECODE:-}" ]; then
  unset PYTHONDONTWRITEBYTECODE
  export PYTHONPYCACHEPREFIX="$PWD/.venv/pycache"
fi
