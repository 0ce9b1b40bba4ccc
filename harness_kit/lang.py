"""The language of what harness_lib prints for people: English (the default) or Spanish.

    HARNESS_LANG=es python -m harness_lib "Lee la primera línea de README.md y luego dime qué hora es"
    python -m harness_lib --lang es "..."          # the same, for one run
    setup(lang="es")                               # a notebook's first cell (harness_ui.notebook)

`current()` reads ``HARNESS_LANG`` at every call, so a change takes effect at the next printed line.
``--lang`` (the terminal agent) and ``setup(lang=...)`` (a notebook) set ``HARNESS_LANG`` themselves, so
every part of the kit that reads it (the offline model too) agrees on one language. Precedence: ``--lang``
or ``setup(lang=...)``, then ``HARNESS_LANG``, then English.

What follows the language: the approver's prompt, buttons and decision lines, the transcript's lines (the
harness's own stop sentences included), the run inspector's words, the terminal agent's lines, help and usage
errors, and the notebook helpers' mode line and one-line API errors. Each is written once, here, by message id;
the loop keeps the id and values of the stop sentence it wrote (AgentResult.note), so no printed line is ever
parsed back to be translated.

One way to translate, for the whole kit: a catalogue ``{language: {message_id: text}}`` and one lookup,
:func:`say`. Three catalogues use it: ``MESSAGES`` below (harness_lib's printed lines, read by :func:`text`),
the offline model's sentences (``offline.phrases.SAY``) and the exercises' checks (``checks.kit.MESSAGES``).
To add a sentence: give it an id in the code (``lang.text("nb.new_line", n=2)``) and its text under that id in
every language of the catalogue; tests/test_catalogues.py fails on an id missing in a language, {fields} that
differ, or an id no code uses. What does not follow the language:

- Tags in square brackets stay as they are in both languages -- ``[turn 2]``, ``[approve]``, ``[tools]``,
  ``[offline model]`` -- and so do names the code uses (``end_turn``, ``--approve yes``, ``scratch/``).
- Everything the *model* reads stays English: tool error messages, ``REJECTED_MESSAGE`` and the loop's
  other is_error texts are part of the conversation with the model (and the offline model reads them),
  not lines for a person. ``AgentResult.text`` keeps loop.py's English stop sentences; the transcript
  shows them in Spanish when it prints them.
- argparse's own words (``usage:``, ``options:``, ``error: unrecognized arguments``) stay English.

Not handled: the machine's locale (``LANG``, ``LC_ALL``) is not consulted -- a kit whose printed lines
changed with the computer's settings would make its own tests pass on one machine and fail on the next.
A value of ``HARNESS_LANG`` that names no language here (``fr``, a typo) means English, silently: the
setting only changes words, so the safe reading of a wrong value is the default. Regional forms are
read by their language: ``es_MX``, ``es-ES``, ``ES``, ``es_ES.UTF-8`` are all ``es``.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

LANGUAGES = ("en", "es")
DEFAULT = "en"
ENVIRONMENT = "HARNESS_LANG"


def normalize(value: str | None) -> str | None:
    """``"es"`` for es, ES, es_MX, es-ES, es_ES.UTF-8; None for anything that names no language here."""
    code = (value or "").strip().lower().replace("-", "_").split(".")[0].split("_")[0]
    return code if code in LANGUAGES else None


def current() -> str:
    """The language to print in now: ``HARNESS_LANG`` if it names one of LANGUAGES, else English."""
    return normalize(os.environ.get(ENVIRONMENT)) or DEFAULT


def use(language: str) -> str:
    """Print in `language` ("en" or "es") from now on, in this process and the programs it starts.

    Sets ``HARNESS_LANG``. An explicit choice in code must be one of LANGUAGES: anything else is a
    ValueError (a typo in a notebook cell should say so, not quietly print English).
    """
    code = normalize(language) if isinstance(language, str) else None
    if code is None:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    os.environ[ENVIRONMENT] = code
    return code


@contextmanager
def using(language: str | None):
    """``with using("es"):`` -- print in `language` inside the block, then go back to what was set before.

    ``None`` changes nothing. This is how ``--lang`` works for one run of the terminal agent, also when
    notebook 01 awaits the agent inside its kernel. Not handled: two runs in one process at the same time
    with different languages (the setting is the process's environment, shared by both).
    """
    if language is None:
        yield
        return
    before = os.environ.get(ENVIRONMENT)
    use(language)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(ENVIRONMENT, None)
        else:
            os.environ[ENVIRONMENT] = before


def say(catalogue: dict, key: str, language: str | None = None, **values):
    """The message `key` of `catalogue` in `language` (None: :func:`current`), with `values` filled in.

    The one lookup of the kit. A catalogue is ``{language: {message_id: text}}``, every language with the
    same ids and the same {fields}: :data:`MESSAGES` here, the offline model's ``offline.phrases.SAY``, the
    exercises' checks' ``checks.kit.MESSAGES``. `values` fill the text's {fields} (str.format); with no values
    the text comes back as written (a text with no fields may show braces, ``{tool name: tier}``). A few
    entries are tuples (a word's singular and plural, the answers a prompt takes): they come back as they are.
    A missing id or language is a KeyError: a sentence is never quietly left out or shown in another language.
    """
    template = catalogue[language or current()][key]
    return template.format(**values) if values else template


def text(key: str, **values) -> str:
    """The message `key` of MESSAGES in the current language, with `values` filled in (str.format)."""
    return say(MESSAGES, key, **values)


def english(key: str, **values) -> str:
    """The message `key` in English, whatever the setting: the loop's stop sentences in AgentResult.text."""
    return say(MESSAGES, key, "en", **values)


def plural(key: str, n: int) -> str:
    """The singular (n == 1) or plural word for `key`: plural("turn", 2) == "turns" (or "turnos")."""
    one, many = say(MESSAGES, key)
    return one if n == 1 else many


def yes_answers() -> tuple[str, ...]:
    """What approves at a ``[y/N]`` / ``[s/N]`` prompt (lower case). Everything else is a no."""
    return say(MESSAGES, "approve.yes")


def no_answers() -> tuple[str, ...]:
    """The answers that reject without comment (Enter, n, no); any other unclear answer is named in the line."""
    return say(MESSAGES, "approve.no")


# Every learner-facing string harness_lib prints, per language. Both languages have the same ids
# (tests/test_catalogues.py checks it, that the fields in braces match, and that code uses every id).
MESSAGES: dict[str, dict] = {
    "en": {
        # approval.py: the question, the buttons, one line per decision
        "approve.yes": ("y", "yes"),
        "approve.no": ("", "n", "no"),
        "approve.prompt": "[approve] about to run high-impact action {action} — allow it? [y/N] ",
        "approve.pending": "[approve] about to run high-impact action {action}",
        "approve.button_approve": "Approve",
        "approve.button_reject": "Reject",
        "approve.buttons_here": "(the Approve and Reject buttons: JupyterLab draws them here while the cell waits)",
        "approve.decision": "[approve] {action} → {outcome}",
        "approve.approved": "approved",
        "approve.rejected": "rejected",
        "approve.by_code": "{outcome} (clicked by the code, not by a person)",
        "approve.by_switch": "{outcome} (pressed by HARNESS_AUTO_APPROVE, not by a person: nobody clicked)",
        "approve.click": "Click Approve to run it, or Reject.",
        "approve.countdown": "Click Approve to run it, or Reject. If nobody answers, it is not approved in {seconds} s.",
        "approve.interrupted": "not approved (no answer: the run was stopped)",
        "approve.timed_out": "not approved (no answer within {seconds} s)",
        "approve.in_a_tab": ("not approved (a browser tab cannot ask while a cell runs: start the run with "
                             "harness_ui.tab.TabApproval)"),
        "approve.unclear": "rejected ({answer} is not y or yes)",
        "approve.eof": "not approved (no answer: end of input)",
        "approve.no_input": "not approved (no answer: {error})",
        "approve.long": "{action}\n[approve] that is, in short: {short}",
        "approve.characters": "({n} characters)",
        "approve.no_buttons": ("[approve] this kernel (ipykernel {version}) cannot deliver a button click while a "
                               "cell waits; asking in a text box instead"),
        # trace.py: the transcript
        "transcript.tool_call": "[turn {turn}] model requests tool: {call}",
        "transcript.tool_returned": "[turn {turn}] tool returned: {preview}",
        "transcript.tool_failed": "[turn {turn}] tool failed: {preview}",
        "transcript.model_ends": "[turn {turn}] model ends ({why})",
        "transcript.harness_stops": "[turn {turn}] harness stops ({why})",
        "transcript.summary": "That took {turns} tool-calling {turn_word} across {requests} model {request_word}.",
        "turn": ("turn", "turns"),
        "request": ("request", "requests"),
        # loop.py's stop sentences: AgentResult.text has them in English (lang.english), the transcript and the
        # inspector print them in the current language (trace.stop_text), from the message id and values the
        # run ended with (AgentResult.note, the "end" event's "note")
        "stop.max_turns": ("Stopped by the harness: reached the turn cap of {cap} "
                           "(the task may be too hard, or the model may be stuck)."),
        "stop.token_budget": "Stopped by the harness: {used} tokens used, reaching the token budget of {budget}.",
        "stop.repeat": ("Stopped by the harness: the model asked again for the identical tool calls of its last "
                        "turn ({calls}); no progress."),
        "stop.cycle": ("Stopped by the harness: the model went back round a cycle of {period} turns it had already "
                       "run ({calls}); no progress."),
        "stop.max_tokens": ("Stopped: the response hit max_tokens. Any tool call in it was cut off and was not run; "
                            "retry with a higher max_tokens."),
        "stop.context_window": "Stopped: the model ran out of context window; this answer is truncated.",
        "stop.no_tool_calls": ('Stopped: the response said stop_reason "tool_use" but held no tool call, so there '
                               "was nothing to run."),
        "stop.unknown_stop": ("Stopped: the response ended with stop_reason {reason}, which this harness does not "
                              "handle; treat the answer as incomplete."),
        "stop.duplicate_ids": ("Stopped: the response gave two tool calls the same id {id}, so no result could say "
                               "which call it answers; none of its calls was run."),
        "stop.refusal": "The model declined this request.",
        # __main__.py: the terminal agent
        "cli.lesson_task": "Read the first line of README.md, then tell me what time it is",
        "cli.tools": "[tools] read: {root} · write/delete ({how}): {scratch}",
        "cli.how.ask": "with approval",
        "cli.how.yes": "approved by --approve yes",
        "cli.how.no": "always rejected: --approve no",
        "cli.always": "[approve] {name} -> {outcome} (--approve {flag})",
        "cli.record": "[record] {action} → {outcome}",
        "cli.record.run": "approved, run: {result}",
        "cli.record.failed": "approved, but the tool failed: {result}",
        "cli.record.refused": "not run: {result}", "cli.record.not_approved": "not approved: {result}",
        "cli.record.unasked": "no approval recorded, its result: {result}",
        "cli.long_task": "{shown}… ({length} characters)",
        "cli.api_status": "the API answered {status}: {message}",
        "cli.api_connection": "could not reach the API: {error}",
        "cli.transcript_unwritable": "cannot write the transcript {path}: {error}",
        "cli.not_a_folder": "not a folder",
        "cli.no_such_folder": "no such folder",
        "cli.interrupted": "interrupted",
        "cli.task_given": "given",
        "cli.task_stdin": "read from stdin",
        "cli.task_file": "in --task-file {file}",
        "cli.both_tasks": "give the task either as TASK or with --task-file, not both",
        "cli.not_utf8": "the task {source} is not UTF-8 text",
        "cli.unreadable": "cannot read the task from --task-file {file}: {error}",
        "cli.task_too_long": "the task {source} is longer than {limit} characters; give a shorter one",
        "cli.stdout_closed": "stdout is closed, so there is nowhere to show the run",
        "cli.stdout_unwritable": "cannot write to stdout: {error}",
        "cli.empty_task": ('the task {source} is empty; say what the agent should do, '
                           'e.g. python -m harness_lib "{example}"'),
        "cli.example_task": "What time is it?",
        "cli.not_a_number": "expected a whole number, got {text!r}",
        "cli.too_small": "must be {low} or more, got {value}",
        "cli.description": (
            "A small AI agent for the terminal. It asks a model to do TASK; the model may call\n"
            "get_time and read_file (files in --root) and, each time you approve, write_file and\n"
            "delete_file (only in --root's scratch/ folder). Four valves keep the loop in check:\n"
            "a turn cap, a token budget, no-progress detection and your approval.\n"
            "Offline by default (no API key needed); with ANTHROPIC_API_KEY set it talks to Claude."),
        "cli.notes": (
            "where the task comes from:\n"
            "  TASK            the argument, in quotes\n"
            "  -               read the task from stdin (also when no TASK is given and stdin is piped);\n"
            "                  then --approve ask finds no answers on stdin and rejects every high-impact action\n"
            "  --task-file F   read the task from file F (UTF-8)\n"
            "  nothing         at a terminal: the default task,\n"
            '                  "{lesson_task}"\n'
            "  a task may be up to {limit} characters long; a longer one is a usage error\n"
            "\n"
            "exit status:\n"
            "  0    the model ended its turn\n"
            "  1    an error (one line on stderr), or the response was cut short (max_tokens, refusal, ...),\n"
            "       or the output cannot be written (stdout closed or full, the transcript's disk full)\n"
            "  2    a usage error (bad flag, empty or too long task)\n"
            "  3    a valve stopped the loop (turn cap, token budget, no progress)\n"
            "  130  interrupted (Ctrl-C)\n"),
        "cli.help.task": "what to ask the agent, in plain words ('-': read stdin)",
        "cli.help.task_file": "read the task from this file",
        "cli.help.root": "the folder the tools work on (default: . , the current folder)",
        "cli.help.approve": ("valve 4: ask at the terminal before each high-impact action, or approve (yes) / "
                             "reject (no) all of them (default: ask)"),
        "cli.help.max_turns": "valve 1: the turn cap, tool-calling turns (default: 8)",
        "cli.help.token_budget": ("valve 2: the token budget, every token billed: input, output, cache writes "
                                  "and cache reads (default: 40000)"),
        "cli.help.transcript": "also append every event to this JSONL file (its folder must exist)",
        "cli.help.scenario": "offline model behaviour (default: demo): {names}",
        "cli.help.offline": "use the offline model even if ANTHROPIC_API_KEY is set",
        "cli.help.model": "model id (default: {model})",
        "cli.help.lang": "the language of what is printed: en or es (default: HARNESS_LANG, else en)",
        # notebook.py: who answers, and an API failure as one line
        "nb.live": "live: requests go to {where} and cost tokens (model {model})",
        "nb.the_anthropic_api": "the Anthropic API",
        "nb.offline": "offline: the kit's offline model answers, no API key used (model {model})",
        "nb.retried": ("the SDK retried {n} time", "the SDK retried {n} times"),
        "nb.api_error": "API error {status}",
        "nb.api_error_plain": "API error: {message}",
        "nb.wait_and_retry": "{what} — {retried}; wait a minute, then run the cell again",
        "nb.advice.401": "check ANTHROPIC_API_KEY: is it set before Jupyter started, and is it a valid key?",
        "nb.advice.403": "this key may not use this model or feature",
        "nb.advice.404": "check the model id (HARNESS_MODEL, now {model})",
        "nb.advice.413": "the request is too large; send a shorter history",
        "nb.the_api": "the API",
        "nb.timeout": "connection error: {where} did not answer in time",
        "nb.unreachable": "connection error: could not reach {where}{cause}",
        "nb.check_network": ("{what} — {retried}; check the network (and ANTHROPIC_BASE_URL, if set), "
                             "then run the cell again"),
        "nb.full_traceback": "{line}  (%tb shows the full traceback)",
        "nb.scripted": "(Claude will not misbehave on cue; this cell uses the kit's scripted offline model)",
        "restart.hint": ("name '{name}' is not defined: a cell above defines it but has not run since the kernel "
                         "started. Run them: Run → Run All Above Selected Cell, then this cell again."),
        # inspector.py: the run inspector's own words (how a run ended, by stopped_by: inspector.by.*)
        "inspector.caption": "Run inspector", "inspector.request": "request", "inspector.stop": "stop_reason",
        "inspector.calls": "tool calls → results", "inspector.tokens": "tokens of this response",
        "inspector.after": "after it", "inspector.input_tokens": "input", "inspector.output_tokens": "output",
        "inspector.cache_creation_input_tokens": "cache write", "inspector.cache_read_input_tokens": "cache read",
        "inspector.total": "total", "inspector.no_usage": "(no usage reported)",
        "inspector.turns": "turns {used} of {cap}", "inspector.budget": "tokens {used} of {budget}",
        "inspector.over": "over the budget by {over}", "inspector.turn_meter": "turns against the cap",
        "inspector.budget_meter": "tokens against the budget", "inspector.signature": "signature",
        "inspector.repeat": "↻ repeat: the same calls as turn {turn}",
        "inspector.cycle": "↻ cycle: turns {first}–{last} again", "inspector.approved": "approved",
        "inspector.refused": "not approved", "inspector.waiting": "⏳ waiting for approval",
        "inspector.ok": "✓ returned", "inspector.error": "✗ error",
        "inspector.not_run": "not run: the harness stopped first",
        "inspector.going_on": "asked to go on (not taken)", "inspector.in_progress": "…",
        "inspector.waiting_model": "⏳ waiting for the model: request {n}",
        "inspector.waiting_approval": "⏳ waiting for approval: {call}",
        "inspector.no_events": "No events yet: pass this inspector as on_event to a run.", "inspector.end": "end",
        "inspector.ended_by": "How it ended: {what} ({name}).", "inspector.failed": "The run failed: {message}",
        "inspector.by.max_turns": "valve 1, the turn cap, stopped it",
        "inspector.by.token_budget": "valve 2, the token budget, stopped it",
        "inspector.by.no_progress": "valve 3, no-progress detection, stopped it",
        "inspector.by.end_turn": "the model ended its turn",
        "inspector.by.stop_sequence": "the model reached a stop sequence",
        "inspector.by.max_tokens": "the response was cut short at max_tokens",
        "inspector.by.refusal": "the model declined",
        "inspector.by.context_window": "the response was cut short by the context window",
        "inspector.by.no_tool_calls": "a tool_use response held no tool call",
        "inspector.by.unknown_stop": "with a stop reason this harness does not know",
        "inspector.by.duplicate_ids": "two tool calls of a response shared an id",
        "inspector.shared_id": "⚠ another call of this turn has the same id",
        "inspector.answer": "The answer: {text}",
    },
    "es": {
        "approve.yes": ("s", "si", "sí", "y", "yes"),
        "approve.no": ("", "n", "no"),
        "approve.prompt": "[approve] a punto de ejecutar la acción de alto impacto {action} — ¿la permites? [s/N] ",
        "approve.pending": "[approve] a punto de ejecutar la acción de alto impacto {action}",
        "approve.button_approve": "Aprobar",
        "approve.button_reject": "Rechazar",
        "approve.buttons_here": "(los botones Aprobar y Rechazar: JupyterLab los dibuja aquí mientras la celda espera)",
        "approve.decision": "[approve] {action} → {outcome}",
        "approve.approved": "aprobada",
        "approve.rejected": "rechazada",
        "approve.by_code": "{outcome} (el clic lo hizo el código, no una persona)",
        "approve.by_switch": "{outcome} (lo pulsó HARNESS_AUTO_APPROVE, no una persona: nadie hizo clic)",
        "approve.click": "Haz clic en Aprobar para ejecutarla, o en Rechazar.",
        "approve.countdown": ("Haz clic en Aprobar para ejecutarla, o en Rechazar. Si nadie responde, no se aprueba "
                              "en {seconds} s."),
        "approve.interrupted": "no aprobada (sin respuesta: se detuvo la ejecución)",
        "approve.timed_out": "no aprobada (nadie respondió en {seconds} s)",
        "approve.in_a_tab": ("no aprobada (una pestaña del navegador no puede preguntar mientras corre una celda: "
                             "empieza la ejecución con harness_ui.tab.TabApproval)"),
        "approve.unclear": "rechazada ({answer} no es s ni sí)",
        "approve.eof": "no aprobada (sin respuesta: la entrada terminó)",
        "approve.no_input": "no aprobada (sin respuesta: {error})",
        "approve.long": "{action}\n[approve] es decir, en breve: {short}",
        "approve.characters": "({n} caracteres)",
        "approve.no_buttons": ("[approve] este kernel (ipykernel {version}) no recibe el clic de un botón mientras "
                               "una celda espera; la pregunta va en un cuadro de texto"),
        "transcript.tool_call": "[turn {turn}] el modelo pide la herramienta: {call}",
        "transcript.tool_returned": "[turn {turn}] la herramienta devolvió: {preview}",
        "transcript.tool_failed": "[turn {turn}] la herramienta falló: {preview}",
        "transcript.model_ends": "[turn {turn}] el modelo termina su turno ({why})",
        "transcript.harness_stops": "[turn {turn}] el arnés se detiene ({why})",
        "transcript.summary": ("Hicieron falta {turns} {turn_word} con llamadas a herramientas y "
                               "{requests} {request_word} al modelo."),
        "turn": ("turno", "turnos"),
        "request": ("petición", "peticiones"),
        "stop.max_turns": ("El arnés se detuvo: llegó al tope de turnos de {cap} "
                           "(quizá la tarea sea demasiado difícil, o el modelo se haya atascado)."),
        "stop.token_budget": ("El arnés se detuvo: ya se gastaron {used} tokens, y el tope de presupuesto "
                              "es de {budget}."),
        "stop.repeat": ("El arnés se detuvo: el modelo volvió a pedir las mismas llamadas a herramientas de su "
                        "turno anterior ({calls}); falta de progreso."),
        "stop.cycle": ("El arnés se detuvo: el modelo volvió a recorrer un ciclo de {period} turnos que ya había "
                       "hecho ({calls}); falta de progreso."),
        "stop.max_tokens": ("Detenido: la respuesta llegó a max_tokens. Si traía una llamada a herramienta, quedó "
                            "cortada y no se ejecutó; prueba otra vez con un max_tokens mayor."),
        "stop.context_window": "Detenido: al modelo se le acabó la ventana de contexto; esta respuesta está cortada.",
        "stop.no_tool_calls": ('Detenido: la respuesta decía stop_reason "tool_use" pero no traía ninguna llamada a '
                               "herramienta, así que no había nada que ejecutar."),
        "stop.unknown_stop": ("Detenido: la respuesta terminó con stop_reason {reason}, que este arnés no sabe "
                              "tratar; considera la respuesta incompleta."),
        "stop.duplicate_ids": ("Detenido: la respuesta dio el mismo id {id} a dos llamadas a herramientas, así que "
                               "ningún resultado podría decir a cuál responde; no se ejecutó ninguna."),
        "stop.refusal": "El modelo rechazó esta petición.",
        "cli.lesson_task": "Lee la primera línea de README.md y luego dime qué hora es",
        "cli.tools": "[tools] lee: {root} · escribe/borra ({how}): {scratch}",
        "cli.how.ask": "si lo apruebas",
        "cli.how.yes": "aprobado por --approve yes",
        "cli.how.no": "siempre rechazado: --approve no",
        "cli.always": "[approve] {name} -> {outcome} (--approve {flag})",
        "cli.record": "[registro] {action} → {outcome}",
        "cli.record.run": "aprobada, ejecutada: {result}",
        "cli.record.failed": "aprobada, pero la herramienta falló: {result}",
        "cli.record.refused": "no se ejecutó: {result}", "cli.record.not_approved": "no aprobada: {result}",
        "cli.record.unasked": "sin aprobación registrada, su resultado: {result}",
        "cli.long_task": "{shown}… ({length} caracteres)",
        "cli.api_status": "la API respondió {status}: {message}",
        "cli.api_connection": "no se pudo llegar a la API: {error}",
        "cli.transcript_unwritable": "no se puede escribir la transcripción {path}: {error}",
        "cli.not_a_folder": "no es una carpeta",
        "cli.no_such_folder": "no existe esa carpeta",
        "cli.interrupted": "interrumpido",
        "cli.task_given": "dada",
        "cli.task_stdin": "leída de stdin",
        "cli.task_file": "de --task-file {file}",
        "cli.both_tasks": "da la tarea como TASK o con --task-file, no de las dos formas",
        "cli.not_utf8": "la tarea {source} no es texto UTF-8",
        "cli.unreadable": "no se puede leer la tarea de --task-file {file}: {error}",
        "cli.task_too_long": "la tarea {source} tiene más de {limit} caracteres; da una más corta",
        "cli.stdout_closed": "stdout está cerrada, así que no hay dónde mostrar la ejecución",
        "cli.stdout_unwritable": "no se puede escribir en stdout: {error}",
        "cli.empty_task": ('la tarea {source} está vacía; di qué debe hacer el agente, '
                           'p. ej. python -m harness_lib "{example}"'),
        "cli.example_task": "¿Qué hora es?",
        "cli.not_a_number": "se esperaba un número entero, no {text!r}",
        "cli.too_small": "debe ser {low} o más, no {value}",
        "cli.description": (
            "Un pequeño agente de IA para la terminal. Le pide a un modelo que haga TASK; el modelo\n"
            "puede llamar a get_time y read_file (archivos en --root) y, cada vez que lo apruebes,\n"
            "a write_file y delete_file (solo en la carpeta scratch/ de --root). Cuatro válvulas\n"
            "mantienen el bucle a raya: el tope de turnos, el tope de presupuesto, la detección de\n"
            "falta de progreso y tu aprobación.\n"
            "Sin conexión por defecto (no hace falta clave de API); con ANTHROPIC_API_KEY habla con Claude."),
        "cli.notes": (
            "de dónde sale la tarea:\n"
            "  TASK            el argumento, entre comillas\n"
            "  -               la tarea se lee de stdin (también sin TASK cuando stdin viene de una tubería);\n"
            "                  entonces --approve ask no encuentra respuestas en stdin y rechaza toda acción\n"
            "                  de alto impacto\n"
            "  --task-file F   la tarea se lee del archivo F (UTF-8)\n"
            "  nada            en una terminal: la tarea por defecto,\n"
            '                  "{lesson_task}"\n'
            "  una tarea puede tener hasta {limit} caracteres; una más larga es un error de uso\n"
            "\n"
            "código de salida:\n"
            "  0    el modelo terminó su turno\n"
            "  1    un error (una línea en stderr), o la respuesta quedó cortada (max_tokens, refusal, ...),\n"
            "       o no se puede escribir la salida (stdout cerrada o llena, el disco de la transcripción lleno)\n"
            "  2    un error de uso (una opción incorrecta, una tarea vacía o demasiado larga)\n"
            "  3    una válvula detuvo el bucle (tope de turnos, tope de presupuesto, falta de progreso)\n"
            "  130  interrumpido (Ctrl-C)\n"),
        "cli.help.task": "lo que le pides al agente, con tus palabras ('-': leer de stdin)",
        "cli.help.task_file": "leer la tarea de este archivo",
        "cli.help.root": "la carpeta sobre la que trabajan las herramientas (por defecto: . , la carpeta actual)",
        "cli.help.approve": ("válvula 4: preguntar en la terminal antes de cada acción de alto impacto, o aprobarlas "
                             "(yes) / rechazarlas (no) todas (por defecto: ask)"),
        "cli.help.max_turns": "válvula 1: el tope de turnos con llamadas a herramientas (por defecto: 8)",
        "cli.help.token_budget": ("válvula 2: el tope de presupuesto, todos los tokens facturados: entrada, salida, "
                                  "escritura y lectura de caché (por defecto: 40000)"),
        "cli.help.transcript": "añadir además cada evento a este archivo JSONL (su carpeta debe existir)",
        "cli.help.scenario": "comportamiento del modelo sin conexión (por defecto: demo): {names}",
        "cli.help.offline": "usar el modelo sin conexión aunque ANTHROPIC_API_KEY esté definida",
        "cli.help.model": "id del modelo (por defecto: {model})",
        "cli.help.lang": "el idioma de lo que se imprime: en o es (por defecto: HARNESS_LANG, si no, en)",
        "nb.live": "en vivo: las peticiones van a {where} y gastan tokens (modelo {model})",
        "nb.the_anthropic_api": "la API de Anthropic",
        "nb.offline": ("sin conexión: responde el modelo sin conexión del kit, no se usa ninguna clave de API "
                       "(modelo {model})"),
        "nb.retried": ("el SDK reintentó {n} vez", "el SDK reintentó {n} veces"),
        "nb.api_error": "error de la API {status}",
        "nb.api_error_plain": "error de la API: {message}",
        "nb.wait_and_retry": "{what} — {retried}; espera un minuto y vuelve a ejecutar la celda",
        "nb.advice.401": ("revisa ANTHROPIC_API_KEY: ¿estaba definida antes de arrancar Jupyter, y es una clave "
                          "válida?"),
        "nb.advice.403": "puede que esta clave no tenga acceso a este modelo o función",
        "nb.advice.404": "revisa el id del modelo (HARNESS_MODEL, ahora {model})",
        "nb.advice.413": "la petición es demasiado grande; envía un historial más corto",
        "nb.the_api": "la API",
        "nb.timeout": "error de conexión: {where} no respondió a tiempo",
        "nb.unreachable": "error de conexión: no se pudo llegar a {where}{cause}",
        "nb.check_network": ("{what} — {retried}; revisa la red (y ANTHROPIC_BASE_URL, si está definida) y vuelve "
                             "a ejecutar la celda"),
        "nb.full_traceback": "{line}  (%tb muestra la traza completa)",
        "nb.scripted": ("(Claude no se porta mal por encargo; esta celda usa el modelo sin conexión del kit, que "
                        "sigue un guion)"),
        "restart.hint": ("el nombre '{name}' no está definido: lo define una celda de arriba que no se ha ejecutado "
                         "desde que arrancó el kernel. Ejecútalas con el menú Run → Run All Above Selected Cell y "
                         "luego esta celda otra vez."),
        "inspector.caption": "Inspector de la ejecución", "inspector.request": "petición",
        "inspector.stop": "stop_reason", "inspector.calls": "llamadas a herramientas → resultados",
        "inspector.tokens": "tokens de esta respuesta", "inspector.after": "después",
        "inspector.input_tokens": "entrada", "inspector.output_tokens": "salida",
        "inspector.cache_creation_input_tokens": "escritura en caché",
        "inspector.cache_read_input_tokens": "lectura de caché", "inspector.total": "total",
        "inspector.no_usage": "(sin datos de uso)", "inspector.turns": "turnos: {used} de {cap}",
        "inspector.budget": "tokens: {used} de {budget}", "inspector.over": "{over} por encima del presupuesto",
        "inspector.turn_meter": "turnos frente al tope", "inspector.budget_meter": "tokens frente al presupuesto",
        "inspector.signature": "firma", "inspector.repeat": "↻ repetición: las mismas llamadas que el turno {turn}",
        "inspector.cycle": "↻ ciclo: otra vez los turnos {first}–{last}", "inspector.approved": "aprobada",
        "inspector.refused": "no aprobada", "inspector.waiting": "⏳ esperando tu aprobación",
        "inspector.ok": "✓ devolvió", "inspector.error": "✗ error",
        "inspector.not_run": "no se ejecutó: el arnés se detuvo antes",
        "inspector.going_on": "pedía seguir (no se le dio el turno)", "inspector.in_progress": "…",
        "inspector.waiting_model": "⏳ esperando al modelo: petición {n}",
        "inspector.waiting_approval": "⏳ esperando tu aprobación: {call}",
        "inspector.no_events": "Aún no hay eventos: pasa este inspector como on_event a una ejecución.",
        "inspector.end": "fin", "inspector.ended_by": "Cómo terminó: {what} ({name}).",
        "inspector.failed": "La ejecución falló: {message}",
        "inspector.by.max_turns": "la detuvo la válvula 1, el tope de turnos",
        "inspector.by.token_budget": "la detuvo la válvula 2, el tope de presupuesto",
        "inspector.by.no_progress": "la detuvo la válvula 3, la detección de falta de progreso",
        "inspector.by.end_turn": "el modelo terminó su turno",
        "inspector.by.stop_sequence": "el modelo llegó a una secuencia de parada",
        "inspector.by.max_tokens": "la respuesta quedó cortada en max_tokens",
        "inspector.by.refusal": "el modelo rechazó la petición",
        "inspector.by.context_window": "la respuesta quedó cortada por la ventana de contexto",
        "inspector.by.no_tool_calls": "una respuesta tool_use no traía ninguna llamada a herramienta",
        "inspector.by.unknown_stop": "con una razón de parada que este arnés no conoce",
        "inspector.by.duplicate_ids": "dos llamadas de una respuesta compartían un id",
        "inspector.shared_id": "⚠ otra llamada de este turno tiene el mismo id",
        "inspector.answer": "La respuesta: {text}",
    },
}
