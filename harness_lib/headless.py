"""Who presses an approval button when nobody can: the kit's own automated runs, and nothing else.

Why this exists: the lessons are committed executed, and the kit's tests run them again under nbval
(and in CI, and Run All in a headless browser), where no person is there to click Approve or Reject.
So in those runs the widget approver (harness_lib.widget) presses the real button itself, and the
printed output is the same as after a person's click. This module is the one place that decides
which button; a person's run never reaches it (``HARNESS_AUTO_APPROVE`` unset: you click).

- ``HARNESS_AUTO_APPROVE=approve`` or ``reject``: every approval presses that button.
- ``HARNESS_AUTO_APPROVE=notebook`` (the tests' setting): each approval presses the next button of
  the notebook's own list, which the lesson's setup cell gives once,
  ``setup(headless_clicks=["reject", "approve"])`` (harness_lib.notebook calls
  :func:`set_headless_clicks`), so a lesson can show a rejection under nbval too.

NOT handled: one list per kernel (two notebooks in one kernel would share it); the list is not
checked against the number of approvals a notebook makes until one runs out (a ``ValueError``,
which the loop counts as a no, so the run that expected a click fails loudly instead of approving).
"""

from __future__ import annotations

import os

AUTO_CHOICES = ("approve", "reject")
"""The buttons a headless run can press."""

_headless_clicks: list[str] = []  # the buttons a headless run presses, in order (see set_headless_clicks)


def set_headless_clicks(choices) -> None:
    """Say, once per notebook, which button each approval of a *headless* run presses, in order.

    Nobody clicks in the kit's automated runs (nbval, CI: ``HARNESS_AUTO_APPROVE=notebook``), so a
    lesson lists its approvals' buttons in its setup cell -- ``["reject", "approve"]`` -- instead of
    naming one in every lesson cell. A person's run ignores the list: you click. Each approval takes the
    next entry; when the list is used up, the approver raises ``ValueError`` (the loop counts that as a no,
    and the test that expected a click fails loudly).
    An approver made with ``widget_approver(click=...)`` presses its own button and takes nothing from the list.
    """
    choices = list(choices)
    bad = [c for c in choices if c not in AUTO_CHOICES]
    if bad:
        raise ValueError(f"headless clicks must be 'approve' or 'reject', not {bad[0]!r}")
    _headless_clicks[:] = choices


def headless_click() -> str:
    """The button this approval presses by itself: ``"approve"``, ``"reject"``, or ``""`` (a person clicks).

    Read from ``HARNESS_AUTO_APPROVE`` at each call. ``notebook`` takes the next entry of the notebook's
    list (an empty list is a ``ValueError``); any other value that is not empty is a ``ValueError``.
    """
    auto = os.environ.get("HARNESS_AUTO_APPROVE", "").strip().lower()
    if auto == "notebook":
        if not _headless_clicks:
            raise ValueError("HARNESS_AUTO_APPROVE=notebook, but no button is named for this approval: "
                             "list it in the notebook's setup(headless_clicks=[...]) "
                             "or use widget_approver(click='approve' / 'reject')")
        auto = _headless_clicks.pop(0)
    if auto not in ("", *AUTO_CHOICES):
        raise ValueError(f"HARNESS_AUTO_APPROVE must be 'approve', 'reject' or 'notebook', not {auto!r}")
    return auto
