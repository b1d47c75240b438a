"""The games, one self-contained folder each."""
