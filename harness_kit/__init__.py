"""The kit under the book: what harness_lib stands on, and what the grader imports too. It imports neither
harness_lib nor harness_ui, and nothing at import time (no SDK, no widgets), so a tool can import one of its
modules for the price of that module alone. docs/architecture.md lists its modules:

    shown        the one rule for every text a person reads
    lang, words  the kit's own lines in English and Spanish
    console, env reading a line without stopping the event loop; the .env key; a browser tab stays offline
    mailbox      exercise 5's tool set
    offline/     the offline Messages API, behind the SDK's HTTP transport
    grader_cell  the exercises' 🔒 cell: their grading module, found wherever the notebook is saved
"""
