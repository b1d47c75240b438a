"""The `tabletop` command line: a thin consumer of the core contract."""
