"""The checks' words in Spanish: exercise 2, the missing guards (ex02_guards.py).

For the twins in exercises/es/. Data only: keyed by the English text at each _t() call, grouped under the
function that calls it; a text another module uses too is listed once, in the first module that uses it.
The {fields} are the same in both languages. kit.py merges the tables into one SPANISH.
"""

SPANISH = {
    # capped
    # (also in ex03_budget.py)
    "it returned {kind}, not an AgentResult": "devolvió {kind}, no un AgentResult",
    # _problem_hint
    "run the cell that defines MAX_TURNS and run_capped first":
        "ejecuta antes la celda que define MAX_TURNS y run_capped",
    "write run_capped (it still raises NotImplementedError)": "escribe run_capped (todavía lanza NotImplementedError)",
    "the loop turns as long as the model asks for tools: add the cap, `if turns >= max_turns:` at the top":
        "el bucle da vueltas mientras el modelo pida herramientas: añade el tope, `if turns >= max_turns:` al "
        "principio",
    # (also in ex03_budget.py)
    "the run ended with an error ({problem}): it must end with an AgentResult":
        "la ejecución terminó con un error ({problem}): tiene que terminar con un AgentResult",
    # (also in ex03_budget.py)
    "it must return an AgentResult": "tiene que devolver un AgentResult",
    # check_diagnosis
    "the diagnosis: what the bare loop lacks, and how each absence runs away":
        "el diagnóstico: qué le falta al bucle desnudo, y cómo se desboca por cada ausencia",
    "DIAGNOSIS is a non-empty dict {missing guard: runaway} built from the constants of the 🔒 cell":
        "DIAGNOSIS es un dict no vacío {salvaguarda que falta: desbocamiento} hecho con las constantes de la celda 🔒",
    "DIAGNOSIS is not defined yet: run the exercise cell":
        "DIAGNOSIS aún no está definido: ejecuta la celda del ejercicio",
    "DIAGNOSIS must be a dict": "DIAGNOSIS tiene que ser un dict",
    "fill in DIAGNOSIS: at least one entry": "rellena DIAGNOSIS: al menos una entrada",
    "use the constants' names (e.g. NO_TURN_CAP), not your own text: free text cannot be checked":
        "usa los nombres de las constantes (p. ej. NO_TURN_CAP), no un texto tuyo: un texto libre no se puede "
        "comprobar",
    "(the other criteria are checked once DIAGNOSIS has entries)":
        "(los demás criterios se comprueban cuando DIAGNOSIS tenga entradas)",
    "no key is a guard whose absence does not make this loop run away":
        "ninguna clave es una salvaguarda cuya ausencia no haga desbocarse a este bucle",
    "one of your keys names something the bare loop lacks, but its absence never makes a loop run away (what does "
    "the SDK already do by itself?)":
        "una de tus claves nombra algo que le falta al bucle desnudo, pero cuya ausencia nunca hace que un bucle "
        "se desboque (¿qué hace ya el SDK por su cuenta?)",
    "no value is a failure this loop does not have": "ningún valor es un fallo que este bucle no tiene",
    "one of your values describes something that does not happen in this loop: look at what it sends back after "
    "every tool_use":
        "uno de tus valores describe algo que no ocurre en este bucle: mira lo que devuelve después de cada tool_use",
    "names every missing guard that lets this loop run away ({named} of {total} named)":
        "nombra todas las salvaguardas que faltan y dejan que este bucle se desboque (nombradas: {named} de {total})",
    "read the while line (who decides when it ends?), then the two runaway runs: what grows without end, and what "
    "goes unnoticed? Each has a guard whose absence allows it":
        "lee la línea del while (¿quién decide cuándo termina?) y luego las dos ejecuciones desbocadas: ¿qué crece "
        "sin fin, y qué pasa inadvertido? Cada cosa tiene una salvaguarda cuya ausencia la permite",
    "each of those guards is mapped to the runaway its absence allows ({right} of {total} right)":
        "cada una de esas salvaguardas va con el desbocamiento que permite su ausencia (bien: {right} de {total})",
    "for each guard ask: without it, what happens when the model keeps asking for tools? Pick the runaway constant "
    "that describes exactly that":
        "pregúntate por cada salvaguarda: sin ella, ¿qué pasa cuando el modelo sigue pidiendo herramientas? Elige la "
        "constante de desbocamiento que describe exactamente eso",
    # check_turn_cap
    "the turn cap: a hard stop, asked at the top of the loop body":
        "el tope de turnos: un límite firme, comprobado al principio del cuerpo del bucle",
    "MAX_TURNS is a whole number from 1 to 30": "MAX_TURNS es un número entero entre 1 y 30",
    " (it is {cap!r})": " (es {cap!r})",
    "set MAX_TURNS to your cap, e.g. 8 (the lessons' value)":
        "pon en MAX_TURNS tu tope, p. ej. 8 (el de las lecciones)",
    "a model that never ends its turn is stopped (never-ends, max_turns=3)":
        "un modelo que nunca cierra su turno queda detenido (never-ends, max_turns=3)",
    "with max_turns=0 your loop stops at once, so the cap is asked; with max_turns=3 it never stops: `turns` never "
    "reaches the cap — add `turns += 1` for each turn that runs":
        "con max_turns=0 tu bucle se detiene enseguida, así que el tope se comprueba; con max_turns=3 nunca se "
        "detiene: `turns` nunca llega al tope — añade `turns += 1` por cada turno que se ejecuta",
    "exactly 3 tool turns ran (ran: {n})": "se ejecutaron exactamente 3 turnos con herramientas (se ejecutaron: {n})",
    "one turn short: the cap fired with 2 turns done — is `turns` counted before the check? Ask first, then count "
    "the turn":
        "falta un turno: el tope saltó con 2 turnos hechos — ¿cuentas `turns` antes de comprobarlo? Primero "
        "pregunta y luego cuenta el turno",
    "more turns than the cap: ask `turns >= max_turns` before every turn":
        "más turnos que el tope: comprueba `turns >= max_turns` antes de cada turno",
    "fewer turns than the cap: the run ended early": "menos turnos que el tope: la ejecución terminó antes de tiempo",
    "exactly 4 model requests: the first, and one after each turn (sent: {n})":
        "exactamente 4 peticiones al modelo: la primera, y una después de cada turno (enviadas: {n})",
    "stop before running a 4th turn, so no 5th request is sent":
        "detente antes de ejecutar un 4.º turno, para que no se envíe una 5.ª petición",
    "a request after each turn that ran, plus the first":
        "una petición después de cada turno ejecutado, más la primera",
    "it returns AgentResult with stopped_by='max_turns', turns=3, requests=4":
        "devuelve AgentResult con stopped_by='max_turns', turns=3, requests=4",
    # (also in ex03_budget.py, ex03_progress.py)
    " (got {got})": " (se obtuvo {got})",
    "the loop ended by its while condition (stopped_by={stopped_by!r}), not by the cap: ask `if turns >= "
    "max_turns:` first thing in the body and return AgentResult(text, 'max_turns', turns, requests, 0, messages) "
    "there":
        "el bucle terminó por su condición del while (stopped_by={stopped_by!r}), no por el tope: pregunta `if "
        "turns >= max_turns:` lo primero del cuerpo y devuelve ahí AgentResult(text, 'max_turns', turns, requests, "
        "0, messages)",
    "it reports requests={got}, but the API received {sent}: count every request you send (the first, and "
    "`requests += 1` after each messages.create)":
        "indica requests={got}, pero la API recibió {sent}: cuenta cada petición que envías (la primera, y "
        "`requests += 1` después de cada messages.create)",
    "return AgentResult(text, 'max_turns', turns, requests, 0, messages) when the cap fires; turns counts the turns "
    "that ran, requests every request sent":
        "devuelve AgentResult(text, 'max_turns', turns, requests, 0, messages) cuando salta el tope; turns cuenta "
        "los turnos ejecutados, y requests todas las peticiones enviadas",
    "its text says the harness stopped the run (not empty)":
        "su texto dice que el arnés detuvo la ejecución (no vacío)",
    "give the caller a sentence, e.g. f\"Stopped by the harness: turn cap of {max_turns} reached.\"":
        "dale una frase a quien llama, p. ej. f\"El arnés se detuvo: llegó al tope de turnos de {max_turns}.\"",
    # (also in ex03_budget.py)
    "the history it returns can be continued (no tool_use left without its tool_result)":
        "el historial que devuelve se puede continuar (ningún tool_use se queda sin su tool_result)",
    "when the cap fires, return before appending the response whose calls you will not run":
        "cuando salta el tope, devuelve el resultado antes de añadir la respuesta cuyas llamadas no vas a ejecutar",
    # (also in ex03_budget.py)
    "every request offered exactly the tools the caller passed":
        "cada petición ofreció exactamente las herramientas que pasó quien llama",
    "pass the tools argument to messages.create, not a global list (the checks pass their own tools)":
        "pasa el argumento tools a messages.create, no una lista global (los controles pasan sus propias "
        "herramientas)",
    "max_turns=0: not a single turn runs (tool calls: {n}, requests: {requests})":
        "max_turns=0: no se ejecuta ni un turno (llamadas a herramientas: {n}, peticiones: {requests})",
    "with max_turns=0, {n} turn(s) ran: the cap must be asked before the first turn runs, first thing in the loop "
    "body":
        "con max_turns=0 se ejecutaron {n} turno(s): el tope tiene que comprobarse antes de que se ejecute el primer "
        "turno, lo primero del cuerpo del bucle",
    "a turn of 2 parallel calls counts as ONE turn (parallel, max_turns=1: turns=1, the model's answer)":
        "un turno con 2 llamadas en paralelo cuenta como UN turno (parallel, max_turns=1: turns=1, la respuesta "
        "del modelo)",
    " (got stopped_by={stopped_by!r}, turns={turns})": " (se obtuvo stopped_by={stopped_by!r}, turns={turns})",
    "turns counts tool-calling turns (model responses), not tool calls: add 1 per response, however many tool_use "
    "blocks it holds":
        "turns cuenta turnos con llamadas a herramientas (respuestas del modelo), no llamadas: suma 1 por "
        "respuesta, tenga los bloques tool_use que tenga",
    "after its one turn the model ended its turn: return its answer (stopped_by='end_turn'); the cap fires only "
    "when the model asks for one more turn":
        "tras su único turno el modelo cerró su turno: devuelve su respuesta (stopped_by='end_turn'); el tope solo "
        "salta cuando el modelo pide un turno más",
    "count every request you send: the first, and one after the turn":
        "cuenta todas las peticiones que envías: la primera, y una después del turno",
    "run_capped's default cap is MAX_TURNS (without max_turns, {n} turns ran; MAX_TURNS={cap})":
        "el tope por defecto de run_capped es MAX_TURNS (sin max_turns se ejecutaron {n} turnos; MAX_TURNS={cap})",
    "keep `max_turns=MAX_TURNS` as the default in the def line":
        "deja `max_turns=MAX_TURNS` como valor por defecto en la línea def",
    # check_model_answer
    "the cap leaves a model that ends in time alone": "el tope no molesta a un modelo que termina a tiempo",
    "the demo task with max_turns=2: its 2 tool turns ran, in 3 requests (ran: {n}, requests: {requests})":
        "la tarea demo con max_turns=2: se ejecutaron sus 2 turnos con herramientas, en 3 peticiones "
        "(se ejecutaron: {n}, peticiones: {requests})",
    "a cap of 2 must allow 2 turns: compare before counting the turn":
        "un tope de 2 tiene que permitir 2 turnos: compara antes de contar el turno",
    "the task needs 2 turns and the model then ends its turn: send one request per turn, plus the first":
        "la tarea necesita 2 turnos y después el modelo termina su turno: envía una petición por turno, más la primera",
    "it returns the model's own answer (stopped_by='end_turn'), not a cap message":
        "devuelve la respuesta del propio modelo (stopped_by='end_turn'), no un mensaje del tope",
    "the model ended its turn within the cap, so the loop must end by its while condition and return "
    "final_text(response)":
        "el modelo cerró su turno dentro del tope, así que el bucle tiene que terminar por su condición del while "
        "y devolver final_text(response)",
    " — got stopped_by={stopped_by!r}": " — se obtuvo stopped_by={stopped_by!r}",
    "it reports turns=2, requests=3": "informa turns=2, requests=3",
    " (got turns={turns}, requests={requests})": " (se obtuvo turns={turns}, requests={requests})",
    "count a turn when it runs and every request you send":
        "cuenta un turno cuando se ejecuta, y cada petición que envías",
    "the history it returns can be continued": "el historial que devuelve se puede continuar",
    "return the messages list the loop built": "devuelve la lista messages que construyó el bucle",
    "a reply that is neither tool_use nor end_turn (a refusal) ends the run: stopped_by='refusal', 1 request":
        "una respuesta que no es ni tool_use ni end_turn (un rechazo) termina la ejecución: stopped_by='refusal', "
        "1 petición",
    "loop only `while response.stop_reason == \"tool_use\"`: any other stop reason (refusal, max_tokens, …) ends "
    "the loop and is returned as stopped_by; `!= \"end_turn\"` runs an empty tool step":
        "da vueltas solo `while response.stop_reason == \"tool_use\"`: cualquier otro motivo de parada (refusal, "
        "max_tokens, …) termina el bucle y se devuelve como stopped_by; `!= \"end_turn\"` ejecuta un paso de "
        "herramientas vacío",
}
