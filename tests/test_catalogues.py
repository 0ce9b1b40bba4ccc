"""One way to translate: every catalogue of the kit, in one shape, complete in every language, and all of it used.

The kit's catalogues are ``{language: {message_id: text}}``, read by one lookup, ``harness_kit.lang.say``:
harness_lib's printed lines (``lang.MESSAGES``), the offline model's sentences (``offline.phrases.SAY``), the
exercises' checks (``checks.kit.MESSAGES``, merged from ``checks/words_*.py``), and the gradebook's feedback
files (``grader.gradebook.FEEDBACK``). For each of them the test lists

(a) every id missing in a language (English is not the reference: an id only Spanish has is listed too),
(b) every id whose {fields} differ between languages (or whose kind, text or tuple, differs),
(c) every id no code uses: the id is searched, as a whole string literal, in the kit's source (harness_lib/,
    exercises/, grader/ and the notebooks' code cells), the catalogues themselves left out. An id the code builds at run
    time (``f"errors.{kind}"``) counts only when it is listed in BUILT_AT_RUN_TIME below, with the reason.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
from pathlib import Path

import pytest

from clean_tree import sources
from harness_kit import lang
from harness_kit.offline import phrases

ROOT = Path(__file__).resolve().parent.parent
KIT = importlib.import_module("exercises.checks.kit")
GRADEBOOK = importlib.import_module("grader.gradebook")

CATALOGUES = {
    "harness_kit.lang.MESSAGES": lang.MESSAGES,
    "harness_kit.offline.phrases.SAY": phrases.SAY,
    "exercises.checks.kit.MESSAGES": KIT.MESSAGES,
    "grader.gradebook.FEEDBACK": GRADEBOOK.FEEDBACK,  # the gradebook's feedback files
}

# The names the catalogues are assigned to: the literals of that assignment are not a use of the catalogue.
CATALOGUE_NAMES = ("MESSAGES", "SAY", "FEEDBACK")

# Ids the code builds at run time, per catalogue: {reason: ids}. Nothing else counts as used without its literal.
BUILT_AT_RUN_TIME: dict[str, dict[str, set[str]]] = {
    "harness_kit.lang.MESSAGES": {  # and inspector._t("key"), which reads "inspector.key": see _run_time_ids
        "__main__: f'cli.how.{approve}', approve an --approve choice":
            {"cli.how.ask", "cli.how.yes", "cli.how.no"},
        "notebook: f'nb.advice.{status}', status one of notebook._ADVICE":
            {"nb.advice.401", "nb.advice.403", "nb.advice.404", "nb.advice.413"},
        "loop: the note (f'stop.{stopped_by}', values) of a stop with a sentence of its own":
            {"stop.max_tokens", "stop.context_window", "stop.no_tool_calls", "stop.unknown_stop", "stop.duplicate_ids"},
        "inspector: the column headings, _t(k) for k in ('request', 'stop', 'calls', 'tokens', 'after')":
            {"inspector.request", "inspector.stop", "inspector.calls", "inspector.tokens", "inspector.after"},
        "inspector: one label per usage counter, _t(name) for name in USAGE_COUNTERS":
            {"inspector.input_tokens", "inspector.output_tokens", "inspector.cache_creation_input_tokens",
             "inspector.cache_read_input_tokens"},
        "inspector: the ending line's _t(f'by.{name}'), name the run's stopped_by":
            {f"inspector.by.{name}" for name in ("max_turns", "token_budget", "no_progress", "end_turn",
                                                 "stop_sequence", "max_tokens", "refusal", "context_window",
                                                 "no_tool_calls", "unknown_stop", "duplicate_ids")},
    },
    "harness_kit.offline.phrases.SAY": {
        "answer.error_words: f'errors.{kind}', a kind of phrases.ERROR_KINDS, or 'other'":
            {f"errors.{kind}" for kind in [*phrases.ERROR_KINDS, "other"]},
        "answer._describe: f'act_{kind}', the action a step's kind names (first_line reads as read)":
            {"act_read", "act_time", "act_write", "act_delete", "act_injected", "act_email", "act_list_files"},
        "answer._describe: f'blocked_{why}', why a step was blocked (declined or refused earlier)":
            {"blocked_declined", "blocked_refused"},
        "answer._describe: f'{kind}_declined' and f'{kind}_failed' for a write or a delete":
            {"write_declined", "write_failed", "delete_declined", "delete_failed"},
    },
    "exercises.checks.kit.MESSAGES": {},
    "grader.gradebook.FEEDBACK": {},
}

# (b)'s one exception, with its reason: the offline model's Spanish says what kind of error a tool returned instead
# of quoting the tool's English text ({error}); only an error of no known kind ("other") is quoted in Spanish too.
FIELDS_MAY_DIFFER = {"harness_kit.offline.phrases.SAY": {f"errors.{kind}" for kind in phrases.ERROR_KINDS}}


class _Literals(ast.NodeVisitor):
    """The string constants of some code, leaving out a catalogue's own assignment (MESSAGES = ..., SAY = ...)."""

    def __init__(self):
        self.found: set[str] = set()
        self.inspector_keys: set[str] = set()

    def visit_Assign(self, node):
        if not any(isinstance(t, ast.Name) and t.id in CATALOGUE_NAMES for t in node.targets):
            self.generic_visit(node)

    def visit_AnnAssign(self, node):
        if not (isinstance(node.target, ast.Name) and node.target.id in CATALOGUE_NAMES):
            self.generic_visit(node)

    def visit_Constant(self, node):
        if isinstance(node.value, str):
            self.found.add(node.value)


def _kit_sources() -> dict[str, str]:
    """path -> Python source: harness_lib/, harness_kit/, harness_ui/, exercises/, grader/ (.py, the catalogue modules words_*.py left out) and the
    code cells of every notebook (lessons, exercises, solutions; both editions)."""
    found = {}
    for folder in ("harness_lib", "harness_kit", "harness_ui", "exercises", "grader"):
        for path in sources(ROOT / folder, ".py"):
            if not path.name.startswith("words_"):
                found[path.relative_to(ROOT).as_posix()] = path.read_text(encoding="utf-8")
    for path in sorted([*sources(ROOT / "notebooks", ".ipynb"), *sources(ROOT / "exercises", ".ipynb")]):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        lines = [line for c in cells if c["cell_type"] == "code" for line in "".join(c["source"]).splitlines()]
        found[path.relative_to(ROOT).as_posix()] = "\n".join(
            line for line in lines if not line.lstrip().startswith(("%", "!")))
    return found


@pytest.fixture(scope="module")
def literals() -> _Literals:
    seen = _Literals()
    for path, source in _kit_sources().items():
        tree = ast.parse(source, filename=path)
        seen.visit(tree)
        if path == "harness_ui/inspector.py":
            seen.inspector_keys |= {node.args[0].value for node in ast.walk(tree)
                                    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_t"
                                    and node.args and isinstance(node.args[0], ast.Constant)}
    return seen


def _run_time_ids(name: str, seen: _Literals) -> set[str]:
    """The ids of BUILT_AT_RUN_TIME, and for lang.MESSAGES the inspector's literal ones: inspector._t("key") reads
    lang.text(f"inspector.{key}"), so "inspector." + the literal key of an _t() call in inspector.py is a use."""
    built = set().union(*BUILT_AT_RUN_TIME.get(name, {}).values())
    if name == "harness_kit.lang.MESSAGES":
        built |= {f"inspector.{key}" for key in seen.inspector_keys}
    return built


# A {field} str.format fills: {name}, {name!r}, {name:>4}. Braces around words and spaces are text ("{missing guard:
# runaway}" in a check that passes no values, printed as written).
FIELD = re.compile(r"\{(\w+)(?:![rsa])?(?::[^{}]*)?\}")


def _fields(text) -> set[str]:
    texts = text if isinstance(text, tuple) else (text,)
    return {name for t in texts for name in FIELD.findall(t)}


def problems(name: str, catalogue: dict, seen: _Literals) -> list[str]:
    """Every problem of one catalogue, one line each (empty when it is complete, consistent and used)."""
    found = []
    languages = sorted(catalogue)
    if languages != sorted(lang.LANGUAGES):
        found.append(f"{name}: languages {languages}, not {sorted(lang.LANGUAGES)}")
    ids = set().union(*(catalogue[language] for language in languages))
    for language in languages:  # (a)
        found += [f"{name}: {key!r} has no {language} text" for key in sorted(ids - set(catalogue[language]))]
    may_differ = FIELDS_MAY_DIFFER.get(name, set())
    for key in sorted(ids):  # (b)
        texts = {language: catalogue[language][key] for language in languages if key in catalogue[language]}
        kinds = {type(text).__name__ for text in texts.values()}
        if len(kinds) > 1:
            found.append(f"{name}: {key!r} is {' in one language and '.join(sorted(kinds))} in another")
        fields = {language: sorted(_fields(text)) for language, text in texts.items()}
        if key not in may_differ and len({tuple(f) for f in fields.values()}) > 1:
            found.append(f"{name}: {key!r} has different fields: {fields}")
    built = _run_time_ids(name, seen)
    found += [f"{name}: {key!r} is used by no code" for key in sorted(ids - seen.found - built)]  # (c)
    return found


@pytest.mark.parametrize("name", CATALOGUES)
def test_every_catalogue_is_complete_consistent_and_used(name, literals):
    found = problems(name, CATALOGUES[name], literals)
    assert not found, "\n" + "\n".join(found)


def test_the_ids_built_at_run_time_exist():
    """An id listed as built at run time is one the catalogue holds (a stale list would hide an unused one)."""
    for name, reasons in BUILT_AT_RUN_TIME.items():
        for reason, ids in reasons.items():
            assert ids <= set(CATALOGUES[name]["en"]), (name, reason, sorted(ids - set(CATALOGUES[name]["en"])))


def test_every_check_id_is_in_one_catalogue_module_and_named_for_it():
    """The checks' catalogue is merged from one words_*.py per module of checks: an id is in one of them only (a
    second one would silently replace the first), it starts with its module's name (words_kit: "kit.", words_ex02:
    "ex02.", words_ex03_budget: "ex03.budget."), and kit.py merges every one of them."""
    modules = sorted(p.stem for p in (ROOT / "exercises" / "checks").glob("words_*.py"))
    prefixes = {module: module.removeprefix("words_").replace("_", ".") + "." for module in modules}
    assert len(modules) >= 6, modules
    owner: dict[str, str] = {}
    for module in modules:
        words = importlib.import_module(f"exercises.checks.{module}").MESSAGES
        assert sorted(words) == sorted(lang.LANGUAGES), module
        for key in words["en"]:
            assert key not in owner, f"{key!r} is in {owner.get(key)} and {module}"
            assert key.startswith(prefixes[module]), f"{module}: {key!r} does not start with {prefixes[module]!r}"
            owner[key] = module
    assert set(owner) == set(KIT.MESSAGES["en"])


def test_the_checks_use_only_ids_their_catalogue_holds():
    """Every _t("...") in the checks names an id of the checks' catalogue (an English sentence is not an id)."""
    asked = {}
    for path in sorted((ROOT / "exercises" / "checks").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_t":
                assert node.args and isinstance(node.args[0], ast.Constant), f"{path.name}:{node.lineno}"
                asked.setdefault(node.args[0].value, f"{path.name}:{node.lineno}")
    unknown = {key: where for key, where in asked.items() if key not in KIT.MESSAGES["en"]}
    assert len(asked) > 300 and not unknown, unknown


def test_the_catalogue_test_can_fail(literals):
    """Not vacuous: a Spanish entry taken out, a field renamed and an entry no code uses are each listed."""
    name = "exercises.checks.kit.MESSAGES"
    en, es = dict(KIT.MESSAGES["en"]), dict(KIT.MESSAGES["es"])
    del es["ex02.turn_cap.one_turn_short"]
    es["kit.checks.not_met_summary"] = "{cell_id}: {count} criterio(s) sin cumplir"
    en["ex04.gate.nobody_says_this"] = es["ex04.gate.nobody_says_this"] = "x"
    assert problems(name, {"en": en, "es": es}, literals) == [
        f"{name}: 'ex02.turn_cap.one_turn_short' has no es text",
        f"{name}: 'kit.checks.not_met_summary' has different fields: "
        "{'en': ['cell_id', 'n'], 'es': ['cell_id', 'count']}",
        f"{name}: 'ex04.gate.nobody_says_this' is used by no code",
    ]


def test_one_lookup_serves_every_catalogue(monkeypatch):
    monkeypatch.setenv("HARNESS_LANG", "es")
    assert lang.say(lang.MESSAGES, "turn") == ("turno", "turnos")
    assert lang.say(phrases.SAY, "errors.not_found", error="x") == "el archivo no existe"
    assert lang.say(phrases.SAY, "errors.not_found", "en", error="x") == '"x"'
    assert lang.say(KIT.MESSAGES, "kit.checks.hint") == "pista"
    assert lang.text("transcript.tool_call", turn=2, call="x") == lang.say(lang.MESSAGES, "transcript.tool_call", turn=2, call="x")
    with pytest.raises(KeyError):
        lang.say(KIT.MESSAGES, "hint")
