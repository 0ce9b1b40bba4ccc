"""The language setting (harness_kit.lang): English by default and unchanged, Spanish with HARNESS_LANG=es,
setup(lang="es") or --lang es, and a wrong value never breaks a run.

All in this process: the real approvers, the real loop on the offline model (through the SDK), and the
terminal agent's main() reading the command line a learner types from sys.argv (tests/test_cli.py starts
real processes of it).
"""

import ast
import asyncio
import builtins
import io
import json
import os
import re
import string
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from harness_kit import lang
from harness_lib.__main__ import LESSON_TASK, lang_option, main, parse_args, tools_line
from harness_lib.approval import describe, terminal_approver
from harness_lib.client import make_client
from harness_lib.loop import model_stop, run_agent
from harness_lib.tools import DEFAULT_ROOT, TOOLS, make_tool_impls
from harness_lib.trace import Transcript, stop_text, summary
from harness_ui.notebook import describe_api_error, mode_line, scripted_model, setup
from harness_ui.widget import widget_approver
from offline_support import offline_client
from test_approval import on_kernel

ACTION = ("write_file", {"path": "scratch/a.txt", "content": "hola"})
SHOWN = describe(*ACTION)
TAREA = "Lee la primera línea de README.md y luego dime qué hora es"


@pytest.fixture(autouse=True)
def clean(monkeypatch):
    """Offline, no key, no switches from this machine; HARNESS_LANG unset unless a test sets it."""
    for name in list(os.environ):
        if name.startswith(("ANTHROPIC_", "HARNESS_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HARNESS_OFFLINE", "1")


@pytest.fixture
def es(monkeypatch):
    monkeypatch.setenv("HARNESS_LANG", "es")


# ---- the setting ---------------------------------------------------------------------------------------


def test_english_is_the_default():
    assert lang.current() == "en"
    assert summary(2, 3) == "That took 2 tool-calling turns across 3 model requests."
    assert lang.text("approve.prompt", action=SHOWN) == f"[approve] about to run high-impact action {SHOWN} — allow it? [y/N] "


@pytest.mark.parametrize("value, expected", [
    ("es", "es"), ("ES", "es"), (" es ", "es"), ("es_MX", "es"), ("es-ES", "es"), ("es_ES.UTF-8", "es"),
    ("en", "en"), ("en_GB", "en"),
    ("fr", "en"), ("", "en"), ("español", "en"), ("e", "en"), ("xx_ES", "en"),  # no language of ours: English
])
def test_harness_lang_is_read_at_every_call_and_a_wrong_value_means_english(monkeypatch, value, expected):
    monkeypatch.setenv("HARNESS_LANG", value)
    assert lang.current() == expected
    monkeypatch.setenv("HARNESS_LANG", "es")  # no caching: the next call sees the change
    assert lang.current() == "es"


def test_the_locale_is_not_consulted(monkeypatch):
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    monkeypatch.setenv("LC_ALL", "es_ES.UTF-8")
    assert lang.current() == "en"


def test_use_sets_harness_lang_and_refuses_a_language_it_does_not_have(monkeypatch):
    monkeypatch.setenv("HARNESS_LANG", "en")
    assert lang.use("es") == "es" and os.environ["HARNESS_LANG"] == "es"
    for bad in ("fr", "", None, 1):
        with pytest.raises(ValueError, match="language must be one of en, es"):
            lang.use(bad)
    assert lang.current() == "es"  # a refused value changes nothing


def test_using_is_for_one_block_and_restores_what_was_there(monkeypatch):
    with lang.using("es"):
        assert lang.current() == "es"
    assert "HARNESS_LANG" not in os.environ
    monkeypatch.setenv("HARNESS_LANG", "es")
    with lang.using("en"):
        assert lang.current() == "en"
    assert os.environ["HARNESS_LANG"] == "es"
    with lang.using(None):  # nothing asked: nothing changed
        assert lang.current() == "es"
    with pytest.raises(RuntimeError), lang.using("en"):
        raise RuntimeError("the block failed")
    assert os.environ["HARNESS_LANG"] == "es"


def fields(template) -> set:
    texts = template if isinstance(template, tuple) else (template,)
    return {name for t in texts for _, name, _, _ in string.Formatter().parse(t) if name}


def test_both_languages_have_the_same_messages_with_the_same_fields():
    en, es = lang.MESSAGES["en"], lang.MESSAGES["es"]
    assert set(en) == set(es)
    for key in en:
        assert type(en[key]) is type(es[key]), key
        assert fields(en[key]) == fields(es[key]), key
    assert en["cli.lesson_task"] == LESSON_TASK


# ---- the approver ---------------------------------------------------------------------------------------


class Terminal(io.StringIO):
    def isatty(self):
        return True


def answer(monkeypatch, line):
    """input() answers `line`, as a person at a terminal; returns the prompts it showed."""
    monkeypatch.setattr("sys.stdin", Terminal())
    prompts = []
    monkeypatch.setattr(builtins, "input", lambda prompt="": (prompts.append(prompt), line)[1])
    return prompts


@pytest.mark.parametrize("line", ["s", "S", "sí", "SÍ", "si", "Si", " sí ", "si\u0301", "y", "yes"])
def test_spanish_terminal_prompt_approves_s_si_and_yes(monkeypatch, capsys, es, line):
    prompts = answer(monkeypatch, line)
    assert asyncio.run(terminal_approver(*ACTION)) is True
    assert prompts == [f"[approve] a punto de ejecutar la acción de alto impacto {SHOWN} — ¿la permites? [s/N] "]
    assert capsys.readouterr().out == f"[approve] {SHOWN} → aprobada\n"


@pytest.mark.parametrize("line, shown", [
    ("", "rechazada"), ("n", "rechazada"), ("no", "rechazada"), ("No", "rechazada"),
    ("vale", "rechazada ('vale' no es s ni sí)"), ("sip", "rechazada ('sip' no es s ni sí)"),
    ("s í", "rechazada ('s í' no es s ni sí)"),
])
def test_spanish_terminal_prompt_fails_closed(monkeypatch, capsys, es, line, shown):
    answer(monkeypatch, line)
    assert asyncio.run(terminal_approver(*ACTION)) is False
    assert capsys.readouterr().out == f"[approve] {SHOWN} → {shown}\n"


def test_english_terminal_prompt_does_not_take_spanish_yes(monkeypatch, capsys):
    prompts = answer(monkeypatch, "sí")
    assert asyncio.run(terminal_approver(*ACTION)) is False
    assert prompts[0].endswith("— allow it? [y/N] ")
    assert capsys.readouterr().out == f"[approve] {SHOWN} → rejected ('sí' is not y or yes)\n"


def test_spanish_end_of_input_rejects(monkeypatch, capsys, es):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # the real input() meets end of file
    assert asyncio.run(terminal_approver(*ACTION)) is False  # nobody answered: "no aprobada", never "rechazada"
    assert capsys.readouterr().out.endswith(f"\n[approve] {SHOWN} → no aprobada (sin respuesta: la entrada terminó)\n")


@pytest.fixture
def shown(monkeypatch):
    displayed = []
    monkeypatch.setattr("IPython.display.display", lambda *objs, **kw: displayed.extend(objs))
    return displayed


def label_text(label) -> str:
    return re.sub(r"<[^>]*>", "", label.value).replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&")


@pytest.mark.parametrize("switch, expected, word", [("approve", True, "aprobada"), ("reject", False, "rechazada")])
def test_spanish_buttons_and_decision_lines(monkeypatch, capsys, shown, es, switch, expected, word):
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", switch)  # clicks the real button, as a person would
    pending = []
    monkeypatch.setattr("IPython.display.display",
                        lambda box: (shown.append(box), pending.append(label_text(box.children[0]))))
    assert asyncio.run(widget_approver()(*ACTION)) is expected
    label, row = shown[0].children
    approve_button, reject_button = row.children
    assert (approve_button.description, reject_button.description) == ("Aprobar", "Rechazar")
    assert pending == [f"[approve] a punto de ejecutar la acción de alto impacto {SHOWN}\n"
                       "Haz clic en Aprobar para ejecutarla, o en Rechazar. Si nadie responde, no se aprueba en 120 s."]
    nobody = " (lo pulsó HARNESS_AUTO_APPROVE, no una persona: nadie hizo clic)"  # the switch, not a person
    assert label_text(label) == f"[approve] {SHOWN} → {word}{nobody}"
    assert capsys.readouterr().out == f"[approve] {SHOWN} → {word}{nobody}\n"


def test_spanish_timeout_is_a_rejection(capsys, shown, es):
    assert asyncio.run(widget_approver(timeout=0.05)(*ACTION)) is False
    assert capsys.readouterr().out == f"[approve] {SHOWN} → no aprobada (nadie respondió en 0.05 s)\n"


def test_spanish_demo_click_says_the_code_clicked(capsys, shown, es):
    assert asyncio.run(widget_approver(click="reject")(*ACTION)) is False
    assert capsys.readouterr().out == f"[approve] {SHOWN} → rechazada (el clic lo hizo el código, no una persona)\n"


def test_english_buttons_are_unchanged(monkeypatch, shown):
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "reject")
    asyncio.run(widget_approver()(*ACTION))
    approve_button, reject_button = shown[0].children[1].children
    assert (approve_button.description, reject_button.description) == ("Approve", "Reject")


def test_old_kernel_text_box_in_spanish(monkeypatch, capsys, es):
    prompts = answer(monkeypatch, "sí")
    assert asyncio.run(on_kernel(monkeypatch, (6, 31))(*ACTION)) is True
    out = capsys.readouterr().out
    assert out.startswith("[approve] este kernel (ipykernel 6.31) no recibe el clic de un botón")
    assert prompts[0].endswith("¿la permites? [s/N] ") and out.endswith(f"[approve] {SHOWN} → aprobada\n")


# ---- the transcript -------------------------------------------------------------------------------------


def test_spanish_transcript_lines_and_plurals(es):
    lines = []
    t = Transcript(out=lines.append)
    t({"event": "tool_call", "turn": 1, "id": "t1", "name": "read_file", "input": {"path": "README.md"}})
    t({"event": "tool_result", "turn": 1, "id": "t1", "name": "read_file", "content": "# T\nx", "is_error": False})
    t({"event": "tool_result", "turn": 2, "id": "t2", "name": "read_file", "content": "file not found: x",
       "is_error": True})
    t({"event": "end", "turn": 3, "stop_reason": "end_turn", "stopped_by": "end_turn", "text": "Hecho.",
       "turns": 2, "requests": 3, "tokens_used": 10})
    t({"event": "end", "turn": 2, "stop_reason": None, "stopped_by": "max_turns", "text": "Parado.",
       "turns": 1, "requests": 1, "tokens_used": 10})
    assert lines == [
        '[turn 1] el modelo pide la herramienta: read_file({"path":"README.md"})',
        '[turn 1] la herramienta devolvió: "# T\\n..."',
        '[turn 2] la herramienta falló: "file not found: x"',  # what the model got stays as it was
        "[turn 3] el modelo termina su turno (end_turn)", "", "Hecho.",
        "Hicieron falta 2 turnos con llamadas a herramientas y 3 peticiones al modelo.",
        "[turn 2] el arnés se detiene (max_turns)", "", "Parado.",
        "Hicieron falta 1 turno con llamadas a herramientas y 1 petición al modelo.",
    ]
    assert summary(0, 1) == "Hicieron falta 0 turnos con llamadas a herramientas y 1 petición al modelo."


# Every way loop.py stops with a sentence of its own, run for real on the offline model (through the SDK).
RUNS = {
    "never-ends": ("max_turns", dict(max_turns=2), "El arnés se detuvo: llegó al tope de turnos de 2 "),
    "token-hog": ("token_budget", dict(token_budget=3000), "El arnés se detuvo: ya se gastaron "),
    "stuck": ("no_progress", {}, "El arnés se detuvo: el modelo volvió a pedir las mismas llamadas"),
    "ping-pong": ("no_progress", {}, "El arnés se detuvo: el modelo volvió a recorrer un ciclo de 2 turnos"),
    "max-tokens": ("max_tokens", {}, "Detenido: la respuesta llegó a max_tokens."),
    "refusal": ("refusal", {}, "El modelo rechazó esta petición."),
    "context-window": ("context_window", {}, "Detenido: al modelo se le acabó la ventana de contexto"),
}


@pytest.mark.parametrize("scenario", list(RUNS))
def test_the_loops_stop_sentences_are_printed_in_spanish(monkeypatch, scenario):
    stopped_by, limits, spanish = RUNS[scenario]
    result = asyncio.run(run_agent(make_client(scenario=scenario), "Read the first line of README.md",
                                   TOOLS, make_tool_impls(DEFAULT_ROOT), **limits))
    assert result.stopped_by == stopped_by
    assert stop_text(result) == result.text  # English: exactly what loop.py wrote
    key, values = result.note  # the sentence loop.py wrote is lang's English message, filled with the note's values
    assert lang.english(key, **values) in result.text
    monkeypatch.setenv("HARNESS_LANG", "es")
    shown = stop_text(result)
    assert spanish in shown and "Stopped" not in shown and "declined" not in shown
    assert lang.text(key, **values) in shown
    lines, events = [], []
    transcript = Transcript(out=lines.append)
    asyncio.run(run_agent(make_client(scenario=scenario), "Read the first line of README.md", TOOLS,
                          make_tool_impls(DEFAULT_ROOT), on_event=lambda e: (events.append(e), transcript(e)),
                          **limits))
    assert shown in lines  # the transcript prints it so
    end = json.loads(json.dumps(events[-1]))  # as a JSONL transcript keeps it: the note a list, not a tuple
    assert end["note"] == [key, values] and stop_text(end) == shown


def response(stop_reason, *texts):
    return SimpleNamespace(stop_reason=stop_reason, content=[SimpleNamespace(type="text", text=t) for t in texts])


def test_the_rarer_stop_sentences_too(es):
    for stop_reason, spanish in [("tool_use", 'Detenido: la respuesta decía stop_reason "tool_use" pero no'),
                                 ("weird\nreason", 'Detenido: la respuesta terminó con stop_reason "weird\\nreason"'),
                                 (None, "Detenido: la respuesta terminó con stop_reason null, que este arnés")]:
        stopped_by, text, note = model_stop(response(stop_reason, "Half an answer"))
        shown = stop_text({"text": text, "note": note})
        assert shown.startswith("Half an answer\n" + spanish), shown


def end(text, note=None, **more):
    return {"event": "end", "text": text, "note": note, **more}


def test_stop_text_never_changes_the_models_own_words(es):
    said = ("Stopped by the harness: reached the turn cap of 8 "
            "(the task may be too hard, or the model may be stuck).")
    assert stop_text(end(said)) == said  # no note: the model wrote it (or a loop that records none), left alone
    assert stop_text(end(said, ("stop.max_turns", {"cap": 8}))).startswith("El arnés se detuvo: llegó al tope de turnos de 8 ")
    assert stop_text(end(said, ("stop.max_turns", {"cap": 9}))) == said  # the note names another sentence: left alone
    text = "Stopped: the model ran out of context window; this answer is truncated."
    assert stop_text(end(text)) == text  # the model said it itself: its words
    assert stop_text(end("The model declined this request. Because.", ("stop.refusal", {}))) == \
        "El modelo rechazó esta petición. Because."
    assert stop_text(end("The model declined this request. Because.")) == "The model declined this request. Because."


# ---- the terminal agent ---------------------------------------------------------------------------------


def agent(monkeypatch, capsys, *args):
    """`cd workspace && python -m harness_lib ARGS`, in this process: main() reads sys.argv as the program does.
    Returns (exit status, stdout, stderr)."""
    monkeypatch.chdir(DEFAULT_ROOT)
    monkeypatch.setattr(sys, "argv", ["python -m harness_lib", *args])
    try:
        status = main()
    except SystemExit as stop:  # a usage error ends the program from inside argparse
        status = stop.code
    out, err = capsys.readouterr()
    return status, out, err


def spanish_run_lines(out: str) -> list[str]:
    lines = out.splitlines()
    assert lines[0] == f"[tools] lee: {DEFAULT_ROOT} · escribe/borra (si lo apruebas): {DEFAULT_ROOT / 'scratch'}"
    assert lines[1] == f"[offline model] {TAREA}"
    assert lines[2] == '[turn 1] el modelo pide la herramienta: read_file({"path":"README.md"})'
    assert lines[3] == '[turn 1] la herramienta devolvió: "# Agent harness fundamentals\\n..."'
    assert lines[6] == "[turn 3] el modelo termina su turno (end_turn)"
    assert lines[-1] == "Hicieron falta 2 turnos con llamadas a herramientas y 3 peticiones al modelo."
    return lines


def test_lang_es_runs_the_lesson_in_spanish(monkeypatch, capsys):
    status, out, err = agent(monkeypatch, capsys, "--lang", "es", TAREA)
    assert status == 0, err
    spanish_run_lines(out)
    assert "HARNESS_LANG" not in os.environ  # --lang was for that run only


def test_harness_lang_es_does_the_same_and_lang_en_wins_over_it(monkeypatch, capsys, es):
    status, out, err = agent(monkeypatch, capsys, TAREA)
    assert status == 0, err
    spanish_run_lines(out)
    status, out, err = agent(monkeypatch, capsys, "--lang", "en", "What time is it?")
    assert status == 0, err
    assert out.splitlines()[0].startswith("[tools] read: ")
    assert out.splitlines()[-1] == "That took 1 tool-calling turn across 2 model requests."
    assert os.environ["HARNESS_LANG"] == "es"


def test_a_wrong_language_is_english_from_the_environment_and_a_usage_error_as_a_flag(monkeypatch, capsys):
    monkeypatch.setenv("HARNESS_LANG", "klingon")
    status, out, err = agent(monkeypatch, capsys, "What time is it?")
    assert status == 0 and out.startswith("[tools] read: "), err
    monkeypatch.delenv("HARNESS_LANG")
    status, out, err = agent(monkeypatch, capsys, "--lang", "fr", "What time is it?")
    assert status == 2 and out == ""
    assert "argument --lang: invalid choice: 'fr'" in err


def test_spanish_help_and_usage_errors(capsys):
    with pytest.raises(SystemExit) as done:
        parse_args(["--lang", "es", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "Un pequeño agente de IA para la terminal." in out and "de dónde sale la tarea:" in out
    assert f'"{TAREA}"' in out and "--lang {en,es}" in out
    for argv, error in [(["--lang=es", "--max-turns", "x"], "argument --max-turns: se esperaba un número entero, no 'x'"),
                        (["--la", "es", "--token-budget", "0"], "argument --token-budget: debe ser 1 o más, no 0"),
                        (["--lang", "es", "  "], "la tarea dada está vacía; di qué debe hacer el agente"),
                        (["--lang", "es", "x", "--task-file", "y"], "da la tarea como TASK o con --task-file")]:
        with pytest.raises(SystemExit) as done:
            parse_args(argv)
        assert done.value.code == 2 and error in capsys.readouterr().err, argv
    assert "HARNESS_LANG" not in os.environ  # --lang was for that parse only


def test_lang_option_is_found_before_parsing():
    assert lang_option(["--lang", "es", "task"]) == "es"
    assert lang_option(["--lang=es"]) == "es" and lang_option(["--l", "es"]) == "es"
    assert lang_option(["--lang", "fr"]) is None and lang_option(["--lang"]) is None
    assert lang_option(["--", "--lang", "es"]) is None and lang_option(["task"]) is None


def test_no_task_at_a_terminal_runs_the_lesson_in_the_runs_language(monkeypatch):
    monkeypatch.setattr("sys.stdin", Terminal())
    assert parse_args([]).task == LESSON_TASK
    assert parse_args(["--lang", "es"]).task == TAREA


def test_main_keeps_lang_to_its_run(monkeypatch, capsys):
    monkeypatch.chdir(DEFAULT_ROOT)
    assert main(["--lang", "es", "--approve", "no", "Escribe hola en scratch/a.txt"]) == 0
    out = capsys.readouterr().out
    assert "[approve] write_file -> rechazada (--approve no)" in out
    assert "HARNESS_LANG" not in os.environ  # the kernel that awaited it (notebook 01) keeps its own setting
    assert tools_line(DEFAULT_ROOT, "ask") == \
        f"[tools] read: {DEFAULT_ROOT} · write/delete (with approval): {DEFAULT_ROOT / 'scratch'}"


def test_spanish_runtime_errors_are_one_line(monkeypatch, capsys, tmp_path):
    assert main(["--lang", "es", "--root", str(tmp_path / "nope"), "x"]) == 1
    assert capsys.readouterr().err == f"error: --root {tmp_path / 'nope'}: no existe esa carpeta\n"
    assert main(["--lang", "es", "--transcript", str(tmp_path / "no" / "t.jsonl"), "x"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: no se puede escribir la transcripción {tmp_path / 'no' / 't.jsonl'}: ")


# ---- the notebook helpers -------------------------------------------------------------------------------


def test_setup_lang_selects_spanish_for_the_kernel(monkeypatch, capsys):
    monkeypatch.setattr("IPython.get_ipython", lambda: None)  # plain Python: only the mode line
    setup(lang="es")
    assert os.environ["HARNESS_LANG"] == "es"
    assert capsys.readouterr().out == ("sin conexión: responde el modelo sin conexión del kit, no se usa ninguna "
                                       "clave de API (modelo claude-sonnet-5)\n")
    setup(lang="en")
    assert capsys.readouterr().out == "offline: the kit's offline model answers, no API key used (model claude-sonnet-5)\n"
    with pytest.raises(ValueError, match="language must be one of en, es, not 'sp'"):
        setup(lang="sp")


def test_live_lines_in_spanish(monkeypatch, capsys, es):
    monkeypatch.delenv("HARNESS_OFFLINE")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    assert mode_line().startswith("en vivo: las peticiones van a la API de Anthropic y gastan tokens")
    with scripted_model():
        pass
    assert capsys.readouterr().out == ("(Claude no se porta mal por encargo; esta celda usa el modelo sin conexión "
                                       "del kit, que sigue un guion)\n")


@pytest.mark.parametrize("language, expected", [
    ("en", "API error 429 rate_limit_error: {msg} — the SDK retried 2 times; wait a minute, then run the cell again"),
    ("es", "error de la API 429 rate_limit_error: {msg} — el SDK reintentó 2 veces; espera un minuto y vuelve a "
           "ejecutar la celda"),
])
def test_one_line_api_error(monkeypatch, language, expected):
    import anthropic

    monkeypatch.setenv("HARNESS_LANG", language)
    client = offline_client(faults={1: 429, 2: 429, 3: 429})  # the offline API answers 429 three times
    with pytest.raises(anthropic.RateLimitError) as raised:
        asyncio.run(client.messages.create(model="claude-sonnet-5", max_tokens=16,
                                           messages=[{"role": "user", "content": "hola"}]))
    assert describe_api_error(raised.value) == expected.format(msg=raised.value.body["error"]["message"])


# ---- one source: every message written once, used, and never read back ----------------------------------

REPO = Path(__file__).resolve().parent.parent
LIBRARY = sorted(path for package in ("harness_lib", "harness_kit", "harness_ui") for path in (REPO / package).rglob("*.py"))
LESSONS = sorted((REPO / "notebooks").glob("*.ipynb")) + sorted((REPO / "notebooks" / "es").glob("*.ipynb"))
NAMESPACES = ("approve.", "transcript.", "stop.", "cli.", "nb.", "inspector.")
# Where a message is printed, and where the loop writes its stop sentences: none of these reads text with a regex.
SPEAKERS = ("lang.py", "words.py", "trace.py", "inspector.py", "loop.py", "approval.py", "notebook.py", "__main__.py")


class _Code(ast.NodeVisitor):
    """The string and number constants of some code, the constant heads of its f-strings, and the message ids
    it passes to lang (lang.text / lang.english / lang.plural, and the inspector's _t, which adds "inspector.")."""

    def __init__(self):
        self.constants, self.heads, self.asked = set(), set(), set()

    def visit_Assign(self, node):
        if any(isinstance(t, ast.Name) and t.id == "MESSAGES" for t in node.targets):
            return  # the catalogue itself is not a use of it
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        if isinstance(node.target, ast.Name) and node.target.id == "MESSAGES":
            return
        self.generic_visit(node)

    def visit_Constant(self, node):
        if isinstance(node.value, (str, int)) and not isinstance(node.value, bool):
            self.constants.add(str(node.value))

    def visit_JoinedStr(self, node):
        if len(node.values) > 1 and isinstance(node.values[0], ast.Constant):
            self.heads.add(node.values[0].value)
        self.generic_visit(node)

    def visit_Call(self, node):
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if name in ("text", "english", "plural", "_t") and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            self.asked.add(("inspector." if name == "_t" else "") + node.args[0].value)
        self.generic_visit(node)


def _sources() -> dict[str, str]:
    found = {str(path.relative_to(REPO)): path.read_text(encoding="utf-8") for path in LIBRARY}
    for path in LESSONS:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        found[str(path.relative_to(REPO))] = "\n".join(
            line for cell in code for line in cell.splitlines() if not line.lstrip().startswith(("%", "!")))
    return found


@pytest.fixture(scope="module")
def code() -> _Code:
    seen = _Code()
    for source in _sources().values():
        seen.visit(ast.parse(source))
    return seen


def unused(messages: dict, seen: _Code) -> list[str]:
    """Message ids no code uses: not written out whole, nor made of an f-string's head and a constant tail."""
    def used(key):
        return key in seen.constants or any(
            key.startswith(head) and key[len(head):] in seen.constants for head in seen.heads)
    return sorted(key for key in messages if not used(key))


def unknown(messages: dict, seen: _Code) -> list[str]:
    """Message ids the code asks for (or writes out whole) that the catalogue does not hold."""
    written = {c for c in seen.constants if c.startswith(NAMESPACES) and " " not in c and not c.endswith(".")}
    return sorted(key for key in seen.asked | written if key not in messages)


def test_every_message_is_used_somewhere_and_every_id_used_exists_in_both_languages(code):
    for language in lang.LANGUAGES:
        assert unused(lang.MESSAGES[language], code) == [], f"messages ({language}) that no code uses"
        assert unknown(lang.MESSAGES[language], code) == [], f"message ids used that {language} does not hold"


def test_the_catalogue_checks_can_fail(code):
    """Not vacuous: an extra message nobody uses, and an id the code asks for that is missing, are both named."""
    extra = dict(lang.MESSAGES["en"], **{"inspector.nobody_asks": "x", "stop.nobody_stops": "y"})
    assert unused(extra, code) == ["inspector.nobody_asks", "stop.nobody_stops"]
    missing = {k: v for k, v in lang.MESSAGES["es"].items() if k not in ("inspector.caption", "stop.cycle")}
    assert unknown(missing, code) == ["inspector.caption", "stop.cycle"]


def test_no_regex_reads_a_message_back():
    """A sentence is written once (lang.MESSAGES) and never parsed back: the modules that print messages or write
    the loop's stop sentences import no `re`, and no regex in harness_lib/ (outside offline/, the model's side,
    which reads the conversation as a model would) is built at run time or holds words of a message."""
    words = {m: re.findall(r"[^\W\d_]{3,}", m.lower()) for language in lang.MESSAGES.values()
             for m in language.values() if isinstance(m, str)}
    phrases = {" ".join(w[i:i + 3]) for w in words.values() for i in range(len(w) - 2)}
    for path in LIBRARY:
        if "offline" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = {alias.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                   for alias in node.names}
        imports |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        if path.name in SPEAKERS and path.parent.name in ("harness_lib", "harness_kit", "harness_ui"):
            assert "re" not in imports, f"{path.name} imports re: a message must not be read back"
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and getattr(node.func.value, "id", None) == "re" and node.args:
                pattern = node.args[0]
                assert isinstance(pattern, ast.Constant), f"{path.name}:{node.lineno}: a regex built at run time"
                said = " ".join(re.findall(r"[^\W\d_]{3,}", str(pattern.value).lower()))
                assert not any(p in said for p in phrases), f"{path.name}:{node.lineno}: a regex over a message"
