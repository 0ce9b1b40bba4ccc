"""The course as a JupyterLite site (a teacher's tool, not a learner's file): `python -m lite.build`."""
