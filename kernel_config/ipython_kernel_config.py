# The agent-harness kit's IPython kernel configuration. `pip install -r requirements.txt` copies this file into the
# venv's etc/ipython/, which IPython reads in every kernel the venv starts (kernel_config/pyproject.toml says why it
# is a package of its own). For a kernel that Jupyter started for a saved notebook (JPY_SESSION_NAME), it loads
# harness_ui.restart_hint: after a restart, a NameError of a name that a cell above defines says in one line to
# run the cells above. Other kernels (nbval, nbclient, the gradebook) load nothing: their output stays as it was.
import os

if os.environ.get("JPY_SESSION_NAME", "").endswith(".ipynb"):
    c.InteractiveShellApp.extra_extensions.append("harness_ui.restart_hint")  # noqa: F821  (c: IPython's config)
