# tests/fixtures/ holds notebooks the browser tests open in JupyterLab; they are not lessons for nbval
# (the approval probe would wait for a click that never comes).
collect_ignore = ["fixtures"]
