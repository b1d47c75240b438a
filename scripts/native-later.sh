# sourced by scripts/serve and scripts/play: when the compiled engine (src/tabletop/native.py) is not current, build
# it in the background a few seconds after the program starts, at low priority, so the start waits for nothing and
# the next run is compiled; its output goes to .venv/native-build.log. Nothing when it is current, when
# TABLETOP_PURE is set, or without mypyc or a C compiler (native_build.py says so in the log).
if [ -z "${TABLETOP_PURE:-}" ] && ! .venv/bin/python scripts/native_build.py --check 2>/dev/null; then
  (sleep "${TABLETOP_NATIVE_DELAY:-5}"; exec nice -n 10 .venv/bin/python scripts/native_build.py) \
    > .venv/native-build.log 2>&1 < /dev/null &
  disown 2>/dev/null || true
fi
