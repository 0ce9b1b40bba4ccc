"""Each notebook is written once: every generated notebook is what `python -m editions` makes of its sources.

The English lessons and the English solutions are written by hand; the starters and the Spanish edition are built
from them with editions/'s tables (docs/development.md, "One source per notebook"). The check compares cells, ids,
tags, sources and metadata, not outputs: those are the notebooks' own runs, which nbval re-runs elsewhere in the
suite. Then the build's rules, on small cells: a missing or stale translation is an error naming the cell.
"""

import nbformat
import pytest

from editions.__main__ import check
from editions.notebooks import ROOT, adopt, generate, targets
from editions.source import EditionError, pairs_between, texts_of, translate_code, translate_markdown

FOLDERS = ["notebooks", "notebooks/es", "exercises", "exercises/es", "exercises/solutions", "exercises/es/solutions"]


def test_every_generated_notebook_is_what_its_sources_make():
    problems = check()
    assert not problems, ("edit the English source or the table, then run `python -m editions`:\n"
                          + "\n".join(problems))


def test_every_notebook_is_written_by_hand_once_or_generated():
    generated = {t.path for t in targets()}
    sources = {t.source for t in targets()}
    found = {p.relative_to(ROOT).as_posix() for folder in FOLDERS for p in (ROOT / folder).glob("*.ipynb")}
    assert found == generated | sources, f"neither a source nor built from one: {sorted(found - generated - sources)}"
    assert not generated & sources


def test_adopting_the_committed_notebooks_gives_the_committed_tables():
    """The tables and the notebooks say the same: adopting changes no table (a translator's edit round-trips)."""
    for source in sorted({t.source for t in targets()}):
        for path, text in adopt([t for t in targets() if t.source == source]).items():
            assert (ROOT / path).read_text(encoding="utf-8") == text, f"{path} is not what {source}'s notebooks say"


CODE = '''setup(lang="en")  # says who answers
TASK = "Read the first line of README.md"
print(f"{TASK!r} took {n} turns", "read_file")
'''
PAIRS = [{"en": '"en"', "es": '"es"'}, {"en": "# says who answers", "es": "# dice quién responde"},
         {"en": '"Read the first line of README.md"', "es": '"Lee la primera línea de README.md"'},
         {"en": 'f"{TASK!r} took {n} turns"', "es": 'f"{TASK!r} tardó {n} turnos"'}]


def test_only_strings_and_comments_change_and_code_is_kept():
    spanish = translate_code(CODE, PAIRS, "cell 'x'")
    assert spanish == ('setup(lang="es")  # dice quién responde\nTASK = "Lee la primera línea de README.md"\n'
                       'print(f"{TASK!r} tardó {n} turnos", "read_file")\n')
    assert pairs_between(CODE, spanish, "cell 'x'") == PAIRS  # and back: the table read off the two cells


def test_a_new_english_sentence_without_translation_names_the_cell():
    with pytest.raises(EditionError, match=r"cell 'x': no translation of '# one more comment'"):
        translate_code(CODE + "# one more comment\n", PAIRS, "cell 'x'")
    # a one-word string is a name: it needs no entry
    assert translate_code(CODE + 'name = "get_time"\n', PAIRS, "cell 'x'").endswith('name = "get_time"\n')


def test_a_translation_of_english_that_is_gone_is_stale():
    with pytest.raises(EditionError, match=r"cell 'x': the table translates '# says who answers'.*stale"):
        translate_code(CODE.replace("# says who answers", "# who answers"), PAIRS + [
            {"en": "# who answers", "es": "# quién responde"}], "cell 'x'")


def test_a_markdown_cell_changed_since_its_translation_is_stale_and_a_new_one_is_missing():
    entry = {"en": "## Two valves\n\nText.", "es": "## Dos válvulas\n\nTexto."}
    assert translate_markdown("## Two valves\n\nText.", entry, "cell 'm'") == entry["es"]
    with pytest.raises(EditionError, match=r"cell 'm': the English changed since it was translated \(stale\)"):
        translate_markdown("## Three valves\n\nText.", entry, "cell 'm'")
    with pytest.raises(EditionError, match=r"cell 'm': no translation of this markdown cell"):
        translate_markdown("## New", None, "cell 'm'")


def test_code_that_differs_outside_strings_cannot_be_adopted():
    with pytest.raises(EditionError, match="differ in more than strings and comments"):
        pairs_between(CODE, CODE.replace("print(", "log("), "cell 'x'")


def test_an_f_string_is_one_text():
    assert [text for _, _, text in texts_of('x = f"a {b!r:>{w}} c"  # note\n')] == ['f"a {b!r:>{w}} c"', "# note"]


def test_a_starter_cell_of_the_table_replaces_the_solutions_and_its_spanish_is_translated():
    target = next(t for t in targets() if t.path == "exercises/es/01_tiered_policy.ipynb")
    built = {cell.id: cell for cell in generate(target).cells}
    committed = {cell.id: cell for cell in nbformat.read(ROOT / target.path, as_version=4).cells}
    assert built["policy"].source == committed["policy"].source
    assert "✏️" in built["policy"].source and built["policy"].source != {
        c.id: c for c in nbformat.read(ROOT / "exercises/es/solutions/01_tiered_policy.ipynb", as_version=4).cells
    }["policy"].source
    assert generate(target).metadata["edition"]["built_from"] == "exercises/solutions/01_tiered_policy.ipynb"
