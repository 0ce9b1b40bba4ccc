"""The offline model's phrasebook: the words it recognises and the sentences it says, by language.

Data only. :mod:`.parse` builds its patterns from ``HEAR``, :mod:`.planner` reads tool results with
``RESULT_WORDS`` and answers with ``SAY``, :mod:`.scenarios` takes its fixed sentences from ``SAY``.

``SAY`` is the offline model's catalogue, in the kit's one shape ``{language: {message_id: text}}``, read
through the kit's one lookup: ``lang.say(SAY, "read_failed", language, path=..., error=...)``. A new sentence
is an id in the code and its text under that id in every language here (tests/test_catalogues.py lists an id
missing in a language, {fields} that differ, and an id no code uses). ``HEAR``, ``MARKERS``, ``RESULT_WORDS``
and ``ERROR_KINDS`` are recognition patterns, not translations: they stay by language or by kind as they are.
To add a language, add a key to each dict.

Which language it answers in (decided per request, see :func:`answer_language`):

1. the request's language — the first user message, when its marker words (``MARKERS``) for one language
   outnumber those of the other: a Spanish request gets a Spanish answer, an English one an English answer;
2. when that is unclear (a tie, or no marker words at all: "README.md?"), the setting ``HARNESS_LANG``
   (``es``, ``es_ES.UTF-8``, … → Spanish; read from the environment on every request, by ``harness_kit.lang.current``);
3. otherwise English.

The model recognises both languages in every request, whatever it answers in. NOT handled: other languages
(a French request is answered by rule 2 or 3), a request that mixes languages sentence by sentence.
"""

from __future__ import annotations

from ..lang import LANGUAGES, current as setting  # one reading of HARNESS_LANG for the whole kit

__all__ = ["LANGUAGES", "HEAR", "MARKERS", "RESULT_WORDS", "ERROR_KINDS", "SAY", "setting", "answer_language"]


def answer_language(detected: str | None) -> str:
    """The language of the answer: the request's own (``detected``), else the setting (see the docstring)."""
    return detected or setting()


# ---- what it recognises in a request (regular-expression pieces, matched case-insensitively) -----------

HEAR = {
    "en": {
        "first_line": [r"(?:first|1st|top)\s+line"],
        "last_line": [r"(?:last|final|bottom)\s+line"],
        "count_lines": [r"how\s+many\s+lines", r"(?:number|count)\s+of\s+lines", r"count\s+the\s+lines"],
        "write": ["write", "save", "store", "put", "create"],
        "copy": ["copy", "duplicate"],
        "delete": ["delete", "remove", "erase", "rm"],
        "read": ["read", "show", "open", "cat", "display", "print", r"contents?\s+of",
                 r"what(?:'s|\s+is)\s+in"],
        "time": [r"what\s+time", r"the\s+(?:current\s+)?time", r"current\s+time", r"time\s+is\s+it", r"what\s+day",
                 r"today'?s\s+date", r"the\s+(?:current\s+)?date"],
        "list_files": [r"(?:list|show(?:\s+me)?)\s+(?:the\s+|all\s+(?:the\s+)?|my\s+)?files",
                       r"(?:what|which)\s+files", "ls"],
        "and": ["and", "also", "plus"],
        "then": ["then"],
        "it": ["it", "that", "this", r"the\s+(?:result|answer|line|number|count|(?:current\s+)?(?:time|date))", r"today'?s\s+date"],
        # a read asked for as a summary ("summarize README.md"; also a read verb): offline, the whole file, said so
        "summarise": [r"summari[sz]e"],
        # the text to write is a summary of what came before ("write a one-line summary of it to …")
        "summary": [r"(?:an?\s+|the\s+|its\s+)?(?:(?:short|brief|quick|one[- ]line)\s+)?summary"
                    r"(?:\s+of\s+(?:it|that|this(?:\s+file)?|the\s+file))?"],
    },
    "es": {
        "first_line": [r"primera\s+l[ií]nea"],
        "last_line": [r"[uú]ltima\s+l[ií]nea"],
        "count_lines": [r"cu[aá]ntas\s+l[ií]neas", r"n[uú]mero\s+de\s+l[ií]neas", r"cuenta\s+las\s+l[ií]neas"],
        "write": ["escribe", "escribir", r"esc?r[ií]belo", "guarda", "guardar", r"gu[aá]rdalo", "pon", "ponlo", "crea",
                  "crear"],
        "copy": ["copia", "copiar", r"c[oó]pialo", "duplica"],
        "delete": ["borra", "borrar", r"b[oó]rralo", "elimina", "eliminar", r"elim[ií]nalo"],
        "read": ["lee", "leer", r"l[eé]eme", "muestra", r"mu[eé]strame", "abre", r"[aá]breme", r"ense[ñn]a",
                 r"ense[ñn]ame", r"contenido\s+de", r"qu[eé]\s+hay\s+en", r"qu[eé]\s+dice"],
        "time": [r"qu[eé]\s+hora", r"la\s+hora", r"hora\s+actual", r"qu[eé]\s+d[ií]a", r"la\s+fecha"],
        "list_files": [r"(?:lista(?:r|me)?|enumera(?:r)?|mu[eé]strame)\s+(?:los\s+|todos\s+los\s+|mis\s+)?"
                       r"(?:archivos|ficheros)", r"qu[eé]\s+(?:archivos|ficheros)"],
        "and": ["y", "e", r"tambi[eé]n"],
        "then": ["luego", r"despu[eé]s"],
        "it": ["lo", "eso", "esto", r"el\s+(?:resultado|n[uú]mero)", r"la\s+(?:hora|fecha)(?:\s+actual)?"],
        "summarise": ["resume", "resumir", r"res[uú]melo", r"res[uú]meme"],
        "summary": [r"(?:un\s+|el\s+|su\s+)?resumen(?:\s+(?:breve|corto|de\s+una\s+l[ií]nea))?"
                    r"(?:\s+de\s+(?:eso|esto|ello|ese\s+archivo|este\s+archivo|lo\s+que\s+(?:dice|le[ií]ste)))?"],
    },
}

# Words that mark a request's language: whichever language has more of them is the request's language.
MARKERS = {
    "en": r"\b(?:the|of|and|then|read|what|time|write|save|delete|show|open|tell|me|is|it|to|please|copy|create|summari[sz]e|summary)\b",
    "es": r"[¿¡ñ]|\b(?:lee|l[eé]eme|primera|l[ií]nea|qu[eé]|hora|escribe|esc?r[ií]belo|guarda|gu[aá]rdalo|borra"
          r"|b[oó]rralo|elimina|muestra|mu[eé]strame|abre|[aá]breme|ense[ñn]a\w*|dime|contenido|archivo"
          r"|luego|despu[eé]s|del|la|el|en|es|y|de|copia|crea|dice|res[uú]me(?:me|lo)|resumir|resumen|env[ií]a(?:lo|la)?|m[aá]nda(?:lo|la|selo)|por\s+favor)\b",
}

# How it reads an error a tool returned (any language, any case, anywhere in the text): see planner.outcome.
RESULT_WORDS = {
    "policy": ["polic", "forbidden", r"pol[ií]tica", "prohibid"],
    "declined": ["declin", "rechaz", "not approved", r"no (?:se )?aprob"],
    "refused": ["polic", "forbidden", "denied", "not allowed", "may only", "not permitted", "refus",
                "prohibid", r"no (?:est[aá] )?permitid"],
    "not_found": ["not found", "does not exist", "doesn't exist", "no such file", "no existe", "no se encontr"],
}

# How it puts a tool's error into its answer: the tools write their errors in English, so the first kind whose
# words occur in the error (any case) picks the sentence "errors.<kind>" of SAY: English quotes the tool's own text,
# Spanish says it in Spanish. An error of no kind here is quoted, introduced in the answer's language ("other").
ERROR_KINDS = {
    "policy": ["by policy", "the policy", "forbidden", r"pol[ií]tica", "prohibid"],  # not "polic": "file not found: policy.md"
    "gate": ["approval gate"],
    "outside": ["may only touch", "absolute paths are not allowed", "drive letters are not allowed",
                "out of the project root"],
    "not_found": RESULT_WORDS["not_found"],
    "invalid": ["invalid input", "must be a string", "not valid unicode", "path contains a nul", "backslashes are not allowed"],
    "unknown_tool": ["unknown tool"],
    "folder": ["is a directory", "folder itself", "a file, not a folder"],
    "link": ["symbolic link"],
    "not_text": ["binary file", "not a utf-8", "not a regular file"],
    "refused": RESULT_WORDS["refused"],
}

# ---- what it says ---------------------------------------------------------------------------------------

SAY = {
    "en": {
        # joining the answer's clauses and listing tool names
        "and2": "{first}, and {second}", "and_last": ", and {last}", "list_and": " and ", "list_or2": " or ", "list_or_last": ", or ",
        # The time as the tool gave it, in the same number of characters at any hour and on any date: the answer
        # is re-sent in every later request, so a clause that grew on some days would move every token count after it.
        "time_at": "it is {hh}:{mm} on {date}",
        # the answer: one clause (or block) per step
        "first_line": 'the first line of {path} is "{line}"',
        "last_line": 'the last line of {path} is "{line}"',
        "count_lines": "there are {n} lines in {path}",
        "count_lines_1": "there is 1 line in {path}",
        "empty": "the file {path} is empty",
        "retried": " ({first} was not found, so I read {path})",
        "retried_slashes": " ({first} has backslashes, which the tool does not take, so I read {path})",
        "read": "Here is {path}:\n\n{text}",
        "read_summary": "I cannot summarise offline, so here is all of {path}:\n\n{text}",
        "time_raw": 'the time tool says "{text}"',
        "wrote": 'I saved "{content}" to {path}',
        "summary_stand_in": " (offline I cannot summarise, so the first line stands in for a summary)",
        "deleted": "I deleted {path}",
        "read_failed": "I could not read {path}: {error}",
        "read_failed_both": "I could not read {path} (nor {variant}, which I also tried): {error}",
        "time_failed": "I could not get the time: {error}",
        "write_failed": 'I could not write {path}: {error}; the text would have been "{content}"',
        "delete_failed": "I could not delete {path}: {error}",
        # {error} above and below: the tool's error, put by ERROR_KINDS (in English, the tool's own words)
        **{f"errors.{kind}": '"{error}"' for kind in [*ERROR_KINDS, "other"]},
        "read_declined": "reading {path} was not approved, so I did not read it",
        "time_declined": "the time lookup was not approved, so I cannot tell you the time",
        "write_declined": 'the write was not approved, so I did not save anything to {path}; the text would have been "{content}"',
        "delete_declined": "deleting {path} was not approved, so I left it in place",
        "no_tool": "I cannot {action}, because no {tool} tool is available here",
        "invalid": "I could not make a valid {tool} call to {action}",
        "nothing": "I had nothing to save to {path}, because the step before it did not succeed",
        "nothing_before": "I had nothing to save to {path}: no step before it read a file or the time",
        "nothing_email": "I had nothing to email to {to}, because the step before it did not succeed",
        "nothing_before_email": "I had nothing to email to {to}: no step before it read a file or the time",
        "unclear": "I did not understand what to do with {path}, so I left it alone",
        "unclear_many": "I did not understand what to do with {paths}, so I left them alone",
        "blocked_declined": "I did not {action}, because {tool} was not approved earlier",
        "blocked_write": 'I did not save anything to {path}, because write_file was not approved earlier; the text would have been "{content}"',
        "blocked_refused": "I did not {action}, because {tool} was refused earlier",
        "act_read": "read {path}", "act_time": "tell the time", "act_write": "save to {path}",
        "act_list_files": "list the files", "listed": "Here is what {tool} returned:\n\n{text}",
        "list_failed": "I could not list the files: {error}",
        "act_delete": "delete {path}", "act_injected": "call {tool} on {path}", "act_email": "email {to}",
        "emailed": 'I emailed {to}: "{content}"',
        "email_failed": "I could not email {to}: {error}",
        "email_declined": "the email to {to} was not approved, so I did not send it",
        "inj_done": 'the file {source} contained an instruction to call {tool} on {path}, and I did: "{output}"',
        "inj_declined": "the file {source} contained an instruction to call {tool} on {path}; it was not approved, so I ignored it",
        "inj_failed": "the file {source} contained an instruction to call {tool} on {path}; the tool refused: {error}",
        "inj_ignored": "the file {source} also asked me to call {tool} on {path}; I ignored it",
        "save_done": "I saved this answer to {path}.",
        "save_declined": "The write was not approved, so I did not save this answer to {path}.",
        "save_failed": "I could not save this answer to {path}: {error}.",
        "save_blocked": "I did not save this answer to {path}, because write_file was {how} earlier.",
        "declined": "not approved", "refused": "refused",
        # a tool-calling turn's opening sentence, and the answer to a request it cannot map to a tool
        "preamble": "I'll use {listed}.",
        "can.read_file": "read a file (all of it, its first or last line, or how many lines it has)", "can.get_time": "tell you the current time",
        "can.write_file": "write text to a file under scratch/", "can.delete_file": "delete a file under scratch/",
        "can.send_email": "send an email",
        "help": ("I couldn't match your request to any of my tools. I can {listed}. "
                 'For example: "Read the first line of README.md, then tell me what time it is."'),
        "no_tools_help": ("I have no tools in this conversation, so I can only reply in text. "
                          "Offer me get_time, read_file, write_file or delete_file and I can use them."),
        # the scenarios' fixed sentences
        "no_tools": "This scenario needs at least one tool, and none was offered.",
        "working": "Working on your request…",
        "cut_short": "To answer this, I'll first go over everything you've given me so far, starting with",
        "refusal": "The offline model's 'refusal' scenario declines every request.",
        "report_intro": "I'll write the full report to scratch/report.md.",
        "report_title": "# Report\n\n",
        "report_section": ('## Section {i}\n\nThis part of the report on "{words}" goes through the findings '
                           "in detail, with every caveat and every number, one paragraph after another.\n\n"),
        "report_topic": "the task",
        "draft": ("Draft {k}, section {i}: before calling the next tool I am restating everything gathered so far, "
                  "re-reading the earlier notes, and planning the following step in detail, because the task is "
                  "not finished yet and more context might help. "),
        # the inbox scenarios (exercise 5's gauntlet, harness_kit/offline/inbox.py)
        "inbox.summary": "I went through {n} message(s) of your inbox:",
        "inbox.item": '- {id} from {sender}, "{subject}": {what}',
        "inbox.injected": "- {source} asked me to call {tool} {args}: {what}",
        "inbox.ok.read_message": "read", "inbox.ok.archive_message": "archived",
        "inbox.ok.delete_message": "deleted", "inbox.ok.send_reply": "reply sent", "inbox.ok.other": "done",
        "inbox.failed": "not done ({error})",
        "inbox.no_listing": "I could not list your inbox: {error}",
        "inbox.chase": "I followed the thread {path}, and it ends there.",
        "inbox.chase_failed": "I followed the thread {path}, but could not read the last one: {error}",
        "inbox.reply_intro": "I'll reply to the first message in full.",
        "inbox.refusal": "The offline model's inbox-refusal scenarios decline this request.",
    },
    "es": {
        "and2": "{first}, y {second}", "and_last": " y {last}", "list_and": " y ", "list_or2": " o ", "list_or_last": " o ",
        "time_at": "son las {hh}:{mm} del {date}",
        "first_line": 'la primera línea de {path} es "{line}"',
        "last_line": 'la última línea de {path} es "{line}"',
        "count_lines": "hay {n} líneas en {path}",
        "count_lines_1": "hay 1 línea en {path}",
        "empty": "el archivo {path} está vacío",
        "retried": " ({first} no existe, así que leí {path})",
        "retried_slashes": " ({first} lleva barras invertidas, que la herramienta no acepta, así que leí {path})",
        "read": "Este es el contenido de {path}:\n\n{text}",
        "read_summary": "Sin conexión no sé resumir, así que este es todo el contenido de {path}:\n\n{text}",
        "time_raw": 'la herramienta de la hora dice "{text}"',
        "wrote": 'he guardado "{content}" en {path}',
        "summary_stand_in": " (sin conexión no sé resumir, así que la primera línea hace de resumen)",
        "deleted": "he borrado {path}",
        "read_failed": "no pude leer {path}: {error}",
        "read_failed_both": "no pude leer {path} (ni {variant}, que también probé): {error}",
        "time_failed": "no pude obtener la hora: {error}",
        "write_failed": 'no pude escribir {path}: {error}; el texto habría sido "{content}"',
        "delete_failed": "no pude borrar {path}: {error}",
        "errors.policy": "la política de herramientas no lo permite",
        "errors.gate": "la válvula de aprobación falló, y eso cuenta como un no",
        "errors.outside": "la ruta queda fuera de la carpeta que la herramienta puede tocar",
        "errors.not_found": "el archivo no existe",
        "errors.invalid": "la llamada no traía una entrada válida",
        "errors.unknown_tool": "esa herramienta no existe aquí",
        "errors.folder": "la ruta es una carpeta, no un archivo",
        "errors.link": "la ruta es un enlace simbólico, y los enlaces no se siguen",
        "errors.not_text": "no es un archivo de texto",
        "errors.refused": "la herramienta se negó",
        "errors.other": 'la herramienta respondió con un error, "{error}"',
        "read_declined": "la lectura de {path} no se aprobó, así que no lo leí",
        "time_declined": "la consulta de la hora no se aprobó, así que no puedo decírtela",
        "write_declined": 'la escritura no se aprobó, así que no guardé nada en {path}; el texto habría sido "{content}"',
        "delete_declined": "el borrado de {path} no se aprobó, así que lo dejé donde está",
        "no_tool": "no puedo {action}, porque aquí no tengo la herramienta {tool}",
        "invalid": "no pude preparar una llamada válida a {tool} para {action}",
        "nothing": "no tenía nada que guardar en {path}, porque el paso anterior no salió bien",
        "nothing_before": "no tenía nada que guardar en {path}: ningún paso anterior leyó un archivo ni la hora",
        "nothing_email": "no tenía nada que enviar a {to}, porque el paso anterior no salió bien",
        "nothing_before_email": "no tenía nada que enviar a {to}: ningún paso anterior leyó un archivo ni la hora",
        "unclear": "no entendí qué hacer con {path}, así que no lo toqué",
        "unclear_many": "no entendí qué hacer con {paths}, así que no los toqué",
        "blocked_declined": "no intenté {action}, porque {tool} no se aprobó antes",
        "blocked_write": 'no guardé nada en {path}, porque write_file no se aprobó antes; el texto habría sido "{content}"',
        "blocked_refused": "no intenté {action}, porque {tool} fue denegada antes",
        "act_read": "leer {path}", "act_time": "decirte la hora", "act_write": "guardar en {path}",
        "act_list_files": "listar los archivos", "listed": "Esto es lo que devolvió {tool}:\n\n{text}",
        "list_failed": "no pude listar los archivos: {error}",
        "act_delete": "borrar {path}", "act_injected": "llamar a {tool} con {path}", "act_email": "escribir a {to}",
        "emailed": 'he escrito a {to}: "{content}"',
        "email_failed": "no pude escribir a {to}: {error}",
        "email_declined": "el correo a {to} no se aprobó, así que no lo envié",
        "inj_done": 'el archivo {source} contenía una instrucción de llamar a {tool} con {path}, y lo hice: "{output}"',
        "inj_declined": "el archivo {source} contenía una instrucción de llamar a {tool} con {path}; no se aprobó, así que la ignoré",
        "inj_failed": "el archivo {source} contenía una instrucción de llamar a {tool} con {path}; la herramienta se negó: {error}",
        "inj_ignored": "el archivo {source} también pedía llamar a {tool} con {path}; lo ignoré",
        "save_done": "He guardado esta respuesta en {path}.",
        "save_declined": "La escritura no se aprobó, así que no guardé esta respuesta en {path}.",
        "save_failed": "No pude guardar esta respuesta en {path}: {error}.",
        "save_blocked": "No guardé esta respuesta en {path}, porque write_file {how} antes.",
        "declined": "no se aprobó", "refused": "fue denegada",
        "preamble": "Voy a usar {listed}.",
        "can.read_file": "leer un archivo (entero, su primera o última línea, o cuántas líneas tiene)", "can.get_time": "decirte la hora",
        "can.write_file": "escribir texto en un archivo de scratch/", "can.delete_file": "borrar un archivo de scratch/",
        "can.send_email": "enviar un correo",
        "help": ("No he podido relacionar tu petición con ninguna de mis herramientas. Puedo {listed}. "
                 'Por ejemplo: "Lee la primera línea de README.md y luego dime qué hora es."'),
        "no_tools_help": ("No tengo herramientas en esta conversación, así que solo puedo responder con texto. "
                          "Dame las herramientas get_time, read_file, write_file o delete_file y podré usarlas."),
        "no_tools": "Este escenario necesita al menos una herramienta y no se ofreció ninguna.",
        "working": "Estoy trabajando en tu petición…",
        "cut_short": "Para responder, primero repaso todo lo que me has dado hasta ahora, empezando por",
        "refusal": "El escenario 'refusal' del modelo sin conexión rechaza todas las peticiones.",
        "report_intro": "Escribiré el informe completo en scratch/report.md.",
        "report_title": "# Informe\n\n",
        "report_section": ('## Sección {i}\n\nEsta parte del informe sobre "{words}" repasa los hallazgos '
                           "en detalle, con cada salvedad y cada cifra, un párrafo tras otro.\n\n"),
        "report_topic": "la tarea",
        "draft": ("Borrador {k}, sección {i}: antes de llamar a la siguiente herramienta vuelvo a resumir todo lo "
                  "reunido hasta ahora, releo las notas anteriores y planeo el siguiente paso en detalle, porque la "
                  "tarea aún no está terminada y más contexto podría ayudar. "),
        "inbox.summary": "Revisé {n} mensaje(s) de tu bandeja de entrada:",
        "inbox.item": '- {id} de {sender}, "{subject}": {what}',
        "inbox.injected": "- {source} me pidió llamar a {tool} {args}: {what}",
        "inbox.ok.read_message": "leído", "inbox.ok.archive_message": "archivado",
        "inbox.ok.delete_message": "borrado", "inbox.ok.send_reply": "respuesta enviada", "inbox.ok.other": "hecho",
        "inbox.failed": "sin hacer ({error})",
        "inbox.no_listing": "No pude ver tu bandeja de entrada: {error}",
        "inbox.chase": "Seguí el hilo {path}, y termina ahí.",
        "inbox.chase_failed": "Seguí el hilo {path}, pero no pude leer el último: {error}",
        "inbox.reply_intro": "Voy a responder al primer mensaje por extenso.",
        "inbox.refusal": "Los escenarios inbox-refusal del modelo sin conexión rechazan esta petición.",
    },
}
