"""harness_ui: where a person meets the book (harness_lib): a lesson's first cell (notebook), the Approve / Reject
buttons (widget) and the browser tab's panel (tab), the terminal agent (terminal), a run drawn (inspector, replay,
charts), and the restart hint. It imports the book and harness_kit; neither imports it (tests/test_structure_lib.py).
"""
