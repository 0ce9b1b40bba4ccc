"""The checks' words in Spanish: exercise 1, the tiered policy (ex01_policy.py).

For the twins in exercises/es/. Data only: keyed by the English text at each _t() call, grouped under the
function that calls it; a text another module uses too is listed once, in the first module that uses it.
The {fields} are the same in both languages. kit.py merges the tables into one SPANISH.
"""

SPANISH = {
    # drive
    # (also in ex04_gate.py)
    "the API refused the next request: {message}": "la API rechazó la petición siguiente: {message}",
    # completed
    "{label}: the API accepted every request and the model finished":
        "{label}: la API aceptó todas las peticiones y el modelo terminó",
    # check_policy
    "POLICY and DEFAULT_TIER": "POLICY y DEFAULT_TIER",
    "POLICY is a dict: tool name -> 'allow' | 'ask' | 'deny'":
        "POLICY es un dict: nombre de la herramienta -> 'allow' | 'ask' | 'deny'",
    "POLICY is not defined yet: run the exercise cell": "POLICY aún no está definido: ejecuta la celda del ejercicio",
    "fill in POLICY: one entry per tool of the colleague's list":
        "rellena POLICY: una entrada por cada herramienta de la lista de tu compañera",
    "tiers are the plain lowercase strings 'allow', 'ask', 'deny' (found {found})":
        "los niveles son las cadenas 'allow', 'ask' y 'deny', tal cual y en minúsculas (hay {found})",
    "POLICY must be a dict": "POLICY tiene que ser un dict",
    "{name} is not in POLICY yet": "{name} aún no está en POLICY",
    "it is {got!r}; the colleague's list says {tier!r}": "es {got!r}; la lista de tu compañera dice {tier!r}",
    "DEFAULT_TIER fails closed: 'ask' or 'deny'": "DEFAULT_TIER falla en cerrado: 'ask' o 'deny'",
    "with 'allow', any tool added later (delete_file is one already) would run unchecked":
        "con 'allow', cualquier herramienta que se añada después (delete_file ya es una) se ejecutaría sin control",
    "set DEFAULT_TIER to 'ask' or 'deny' (plain lowercase strings)":
        "da a DEFAULT_TIER el valor 'ask' o 'deny' (cadenas tal cual, en minúsculas)",
    # check_allow
    "allow: the tool runs without asking, and its result goes back as it is":
        "allow: la herramienta se ejecuta sin preguntar, y su resultado vuelve tal cual",
    "read_file and get_time (allow) each ran once": "read_file y get_time (allow) se ejecutaron una vez cada una",
    "an allowed tool runs straight away: await arun_tool(tool_impls, block.name, block.input, tools)":
        "una herramienta permitida se ejecuta en el acto: await arun_tool(tool_impls, block.name, block.input, tools)",
    "nobody was asked about an allowed tool": "no se preguntó a nadie por una herramienta permitida",
    "only 'ask' tools go to the approver": "al aprobador solo van las herramientas 'ask'",
    "the tool's output went back as its tool_result content":
        "lo que devolvió la herramienta volvió como content de su tool_result",
    "pass on the text arun_tool returned: tool_result(block.id, text, is_error)":
        "pasa el texto que devolvió arun_tool: tool_result(block.id, text, is_error)",
    "the run": "la ejecución",
    "a tool that fails (read_file of a missing file) is answered with is_error: true":
        "una herramienta que falla (read_file de un archivo que no existe) se responde con is_error: true",
    "keep the tool's own failure: text, is_error = await arun_tool(...) and pass is_error on to tool_result; "
    "dropped, a missing file reaches the model as a success":
        "conserva el fallo de la propia herramienta: text, is_error = await arun_tool(...) y pasa is_error a "
        "tool_result; si lo pierdes, un archivo que no existe le llega al modelo como un éxito",
    "an allowed tool the caller offers, not in the lesson's TOOLS (send_email), runs":
        "se ejecuta una herramienta permitida que ofrece quien llama y que no está en TOOLS de la lección (send_email)",
    "pass the tools argument to arun_tool (arun_tool(tool_impls, name, input, tools)): it checks the input against "
    "the schemas the caller gave, and the lesson's TOOLS has no send_email":
        "pasa el argumento tools a arun_tool (arun_tool(tool_impls, name, input, tools)): comprueba la entrada con "
        "los esquemas que dio quien llama, y TOOLS de la lección no tiene send_email",
    # check_deny
    "deny: the tool never runs, nobody is asked, and the model is told why":
        "deny: la herramienta no se ejecuta nunca, no se pregunta a nadie y al modelo se le dice por qué",
    "send_email (deny) never ran": "send_email (deny) no se ejecutó nunca",
    "look the tier up BEFORE running anything; a deny never reaches arun_tool":
        "consulta el nivel ANTES de ejecutar nada; un deny nunca llega a arun_tool",
    "nobody was asked about send_email": "no se preguntó a nadie por send_email",
    "deny is not ask: a forbidden tool is refused without bothering the person":
        "deny no es ask: una herramienta prohibida se rechaza sin molestar a la persona",
    "the send_email call got exactly one tool_result": "la llamada a send_email recibió exactamente un tool_result",
    "a call you do not run still needs its tool_result (tool_use_id=block.id), or it is left dangling":
        "una llamada que no ejecutas también necesita su tool_result (tool_use_id=block.id); si no, queda colgando",
    "one tool_result per call, not two": "un tool_result por llamada, no dos",
    "... with is_error: true": "... con is_error: true",
    "the call did not succeed: tool_result(..., is_error=True)":
        "la llamada no salió bien: tool_result(..., is_error=True)",
    "... saying the tool is forbidden by policy (so the model does not try again)":
        "... diciendo que la política prohíbe la herramienta (así el modelo no lo vuelve a intentar)",
    "it reads as not approved (an approval's no); the deny text must say it is forbidden by policy (the word 'policy' or "
    "'forbidden'), not REJECTED_MESSAGE":
        "se lee como no aprobada (el no de una aprobación); el texto del deny tiene que decir que la política lo prohíbe (la palabra "
        "'policy' o 'forbidden'), no REJECTED_MESSAGE",
    "say why: e.g. \"send_email is forbidden by policy; it was not run\" (the words 'forbidden' or 'policy')":
        "di por qué: p. ej. \"send_email is forbidden by policy; it was not run\" (las palabras 'forbidden' o "
        "'policy')",
    "a tier that is none of the three (a typo: 'Deny') is treated as deny":
        "un nivel que no es ninguno de los tres (una errata: 'Deny') se trata como deny",
    "the typo ran the tool: fail closed — anything that is not exactly 'allow' or 'ask' is a deny":
        "la errata ejecutó la herramienta: falla en cerrado — todo lo que no sea exactamente 'allow' o 'ask' es "
        "un deny",
    "the typo went to the approver: fail closed — anything that is not exactly 'allow' or 'ask' is a deny":
        "la errata llegó al aprobador: falla en cerrado — todo lo que no sea exactamente 'allow' o 'ask' es un deny",
    "the typo got no tool_result at all: fail closed — anything that is not exactly 'allow' or 'ask' is a deny, "
    "answered like one":
        "la errata no recibió ningún tool_result: falla en cerrado — todo lo que no sea exactamente 'allow' o "
        "'ask' es un deny, y se responde como tal",
    "answer it exactly like a deny: one is_error tool_result, forbidden by policy":
        "respóndela igual que a un deny: un tool_result con is_error, prohibida por la política",
    # check_ask
    "ask: the approval gate decides, before the tool runs":
        "ask: decide la válvula de aprobación, antes de que se ejecute la herramienta",
    "write_file (ask) was put to the approver once, with its name and input":
        "write_file (ask) pasó una vez por el aprobador, con su nombre y su entrada",
    "for an 'ask' tool: await approve(block.name, block.input) — the gate you already have":
        "para una herramienta 'ask': await approve(block.name, block.input) — la válvula que ya tienes",
    "approved: write_file ran, and only after the yes": "aprobada: write_file se ejecutó, y solo después del sí",
    "it never ran after a yes: run it when approve(...) returns True":
        "no se ejecutó tras un sí: ejecútala cuando approve(...) devuelva True",
    "ask first, then run: a question asked after the tool ran comes too late, the file is already written":
        "primero pregunta y después ejecuta: una pregunta hecha cuando la herramienta ya se ejecutó llega tarde, el "
        "archivo ya está escrito",
    "rejected: write_file never ran": "rechazada: write_file no se ejecutó nunca",
    "on a no, skip arun_tool": "ante un no, sáltate arun_tool",
    "rejected: the call still got exactly one tool_result, with is_error: true":
        "rechazada: la llamada recibió aun así exactamente un tool_result, con is_error: true",
    # (also in ex04_gate.py)
    "a rejected call did not succeed: mark its result is_error=True — tool_result(block.id, REJECTED_MESSAGE, "
    "is_error=True)":
        "una llamada rechazada no tuvo éxito: marca su resultado con is_error=True — tool_result(block.id, "
        "REJECTED_MESSAGE, is_error=True)",
    "answer it: tool_result(block.id, REJECTED_MESSAGE, is_error=True) — a rejection is a result, not silence":
        "respóndela: tool_result(block.id, REJECTED_MESSAGE, is_error=True) — un rechazo es un resultado, no un "
        "silencio",
    # (also in ex04_gate.py)
    "rejected: the model reads it as not approved": "rechazada: el modelo lo lee como no aprobada",
    "it reads as a refusal by policy: a rejection is not a deny — send REJECTED_MESSAGE":
        "se lee como un rechazo por política: un rechazo de la persona no es un deny — envía REJECTED_MESSAGE",
    "send REJECTED_MESSAGE (from harness_lib.approval): it tells the model the action was not approved":
        "envía REJECTED_MESSAGE (de harness_lib.approval): le dice al modelo que la acción no se aprobó",
    "approved run": "ejecución aprobada",
    "rejected run": "ejecución rechazada",
    "no approver (approve=None): write_file does not run, and gets an is_error tool_result":
        "sin aprobador (approve=None): write_file no se ejecuta y recibe un tool_result con is_error",
    "with no approver nobody can say yes: fail closed, answer it like a rejection":
        "sin aprobador nadie puede decir que sí: falla en cerrado, respóndela como un rechazo",
    "approve=None ran the tool: with no approver nobody can say yes — fail closed, treat it as a no":
        "con approve=None se ejecutó la herramienta: sin aprobador nadie puede decir que sí — falla en cerrado, "
        "tómalo como un no",
    "an approver that answers something other than True (here the string 'no') does not approve":
        "un aprobador que responde algo distinto de True (aquí la cadena 'no') no aprueba",
    "only `True` is a yes: `if await approve(...) is True:` — a truthy 'no' must not run the tool":
        "solo `True` es un sí: `if await approve(...) is True:` — un 'no' que Python toma por verdadero no debe "
        "ejecutar la herramienta",
    # check_default_tier
    "the default tier: what a tool the policy does not list gets":
        "el nivel por defecto: lo que recibe una herramienta que la política no menciona",
    "ran without asking": "se ejecutó sin preguntar",
    "was asked, then ran": "se preguntó por ella y luego se ejecutó",
    "was neither asked about nor run": "ni se preguntó por ella ni se ejecutó",
    "default_tier={tier!r}: the unlisted delete_file {said}":
        "default_tier={tier!r}: delete_file, que no está en la lista, {said}",
    "look the tier up with policy.get(block.name, default_tier): the default_tier argument, not a fixed tier":
        "consulta el nivel con policy.get(block.name, default_tier): el argumento default_tier, no un nivel fijo",
    "default_tier='deny': delete_file got one is_error tool_result saying it is forbidden by policy":
        "default_tier='deny': delete_file recibió un tool_result con is_error que dice que la política lo prohíbe",
    "an unlisted tool that falls to deny is answered exactly like a listed deny":
        "una herramienta que no está en la lista y cae en deny se responde igual que un deny de la lista",
    "a tool the policy lists gets its own tier, not the default":
        "una herramienta que la política menciona recibe su propio nivel, no el de por defecto",
    "use the policy argument the loop passes in (the checks pass their own), not the global POLICY":
        "usa el argumento policy que pasa el bucle (los controles pasan el suyo), no el POLICY global",
    # check_parallel
    "a turn of several calls: approvals first, then one tool_result each, in order":
        "un turno de varias llamadas: primero las aprobaciones, luego un tool_result por llamada, en orden",
    "for a turn of 4 tool calls, run_tool_uses returned a list":
        "para un turno de 4 llamadas a herramientas, run_tool_uses devolvió una lista",
    "return a list of tool_result blocks; the loop sends it as ONE user message":
        "devuelve una lista de bloques tool_result; el bucle la envía como UN mensaje user",
    "exactly one tool_result per tool_use, in the tool_use order":
        "exactamente un tool_result por tool_use, en el orden de los tool_use",
    "one result per tool_use block, in the order of the blocks, none skipped, none twice (the text block before "
    "them gets none)":
        "un resultado por bloque tool_use, en el orden de los bloques, sin saltarse ninguno ni repetirlo (el bloque "
        "de texto que va antes no recibe ninguno)",
    "every block is a tool_result: type, tool_use_id, content (and is_error when it failed)":
        "cada bloque es un tool_result: type, tool_use_id, content (e is_error si falló)",
    "build each one with tool_result(block.id, text, is_error)":
        "construye cada uno con tool_result(block.id, text, is_error)",
    "read_file, get_time and the approved write_file ran; send_email did not":
        "se ejecutaron read_file, get_time y el write_file aprobado; send_email no",
    "allow runs, ask runs after a yes, deny never runs — in a turn of several calls too":
        "allow se ejecuta, ask se ejecuta tras un sí, deny no se ejecuta nunca — también en un turno de varias "
        "llamadas",
    "every approval of the turn was asked before any tool of the turn ran":
        "todas las aprobaciones del turno se pidieron antes de que se ejecutara ninguna herramienta del turno",
    "the kit's rule: first decide every call of the turn (look up tiers, ask the approver for each 'ask'), then "
    "run the calls that may run — here a tool ran before the turn's question was asked":
        "la regla del kit: primero decide todas las llamadas del turno (consulta los niveles, pregunta al aprobador "
        "por cada 'ask') y después ejecuta las que pueden ejecutarse — aquí una herramienta se ejecutó antes de "
        "hacer la pregunta del turno",
    "two write_file calls in one turn: each was asked about, and only the approved one ran":
        "dos llamadas a write_file en un turno: se preguntó por cada una, y solo se ejecutó la aprobada",
    "the approver was asked {n} time(s) for 2 calls: ask once per call (with its own input), and run a call only "
    "on its own yes (ran: {ran})":
        "se preguntó {n} vez (veces) al aprobador para 2 llamadas: pregunta una vez por llamada (con su propia "
        "entrada) y ejecuta cada llamada solo con su propio sí (se ejecutaron: {ran})",
}
