"""The kit's notebooks written once: each generated notebook (a starter, the Spanish edition) built from its source.

Kit plumbing for whoever edits the course, not for learners: `python -m editions` (see __main__.py and
docs/development.md, "One source per notebook").
"""
