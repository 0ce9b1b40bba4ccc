"""Imported last by the gradebook's warm process (grader/workers.py's PRELOAD), once a class: what each forked
worker would otherwise build for itself. nbformat checks every cell and output it makes (the seals' and the checks'
cells, each output the kernel sends) against the notebook's schema, with a validator it compiles the first time in
a process (fastjsonschema: Python code generated from the schema, ~0.1 CPU-s)."""

import nbformat

nbformat.v4.new_code_cell("")  # compiles nbformat's validator, kept for every cell and output made after it
