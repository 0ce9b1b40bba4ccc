"""The checks' words in Spanish: exercise 4, the approval gate (ex04_gate.py).

For the twins in exercises/es/. Data only: keyed by the English text at each _t() call, grouped under the
function that calls it; a text another module uses too is listed once, in the first module that uses it.
The {fields} are the same in both languages. kit.py merges the tables into one SPANISH.
"""

SPANISH = {
    # check_why_wrong
    "why asking after running is no approval gate":
        "por qué preguntar después de ejecutar no es ninguna válvula de aprobación",
    "WHY_WRONG is a non-empty set of the statements of the 🔒 cell":
        "WHY_WRONG es un conjunto no vacío de afirmaciones de la celda 🔒",
    "WHY_WRONG is not defined yet: run the exercise cell": "WHY_WRONG aún no está definido: ejecuta la celda del ejercicio",
    "WHY_WRONG must be a set (or list) of the statements' constants":
        "WHY_WRONG tiene que ser un conjunto (o una lista) de las constantes de las afirmaciones",
    "fill in WHY_WRONG: at least one statement": "rellena WHY_WRONG: al menos una afirmación",
    "use the constants' names (e.g. SLOWER), not your own text: free text cannot be checked":
        "usa los nombres de las constantes (p. ej. SLOWER), no un texto tuyo: un texto libre no se puede comprobar",
    "(the other criteria are checked once WHY_WRONG has entries)":
        "(los demás criterios se comprueban cuando WHY_WRONG tenga entradas)",
    "does not agree with the colleague's argument": "no le da la razón al argumento de tu compañera",
    "one of your statements is the colleague's own argument, which the run above disproves":
        "una de tus afirmaciones es el propio argumento de tu compañera, y la ejecución de arriba lo desmiente",
    "no statement the run above shows to be untrue of this wiring":
        "ninguna afirmación que la ejecución de arriba muestre falsa para este montaje",
    "one of your statements is not what happened: look at the tool_result the model got, and at which calls waited "
    "for the person":
        "una de tus afirmaciones no es lo que ocurrió: mira el tool_result que recibió el modelo, y qué llamadas "
        "esperaron a la persona",
    "names every reason the run above shows ({named} of {n} named)":
        "nombra todas las razones que muestra la ejecución de arriba (nombradas: {named} de {n})",
    "go through the run again: what did the disk say after the no, what was the model told, and when was the person "
    "asked? Each answer is one reason":
        "repasa la ejecución: ¿qué había en disco después del no, qué se le dijo al modelo y cuándo se preguntó a la "
        "persona? Cada respuesta es una razón",
    # gate_hint
    "with no approver (approve=None) nobody can say yes: check `approve is None` before calling it":
        "sin aprobador (approve=None) nadie puede decir que sí: comprueba `approve is None` antes de llamarlo",
    "the approver raised, and the error stopped the run: a broken gate is a closed gate — catch the Exception and "
    "answer the call like a rejection":
        "el aprobador lanzó una excepción y el error detuvo la ejecución: una válvula rota es una válvula cerrada — "
        "captura la Exception y responde la llamada como un rechazo",
    # check_gate
    "the gate sits before execution: a no means the tool never runs":
        "la válvula va antes de la ejecución: un no significa que la herramienta no llega a ejecutarse",
    "write_file was put to the approver once, with its name and input":
        "se preguntó al aprobador por write_file una vez, con su nombre y su entrada",
    "it was asked {n} times: once per call — await approve(block.name, block.input)":
        "se preguntó {n} veces: una por llamada — await approve(block.name, block.input)",
    "the file was written although the person said no: ask BEFORE the tool runs, and run it only after a yes":
        "el archivo se escribió aunque la persona dijo que no: pregunta ANTES de que se ejecute la herramienta, y "
        "ejecútala solo después de un sí",
    "rejected: write_file never ran, and scratch/answer.txt is not on disk":
        "rechazada: write_file no se ejecutó nunca, y scratch/answer.txt no está en disco",
    "rejected: the call got exactly one tool_result, with is_error: true":
        "rechazada: la llamada recibió exactamente un tool_result, con is_error: true",
    "answer a rejected call too: tool_result(block.id, REJECTED_MESSAGE, is_error=True)":
        "responde también a una llamada rechazada: tool_result(block.id, REJECTED_MESSAGE, is_error=True)",
    "send REJECTED_MESSAGE: it tells the model the action was not approved":
        "envía REJECTED_MESSAGE: le dice al modelo que la acción no se aprobó",
    "rejected run: the API accepted every request and the model finished":
        "ejecución rechazada: la API aceptó todas las peticiones y el modelo terminó",
    "approved: write_file ran after the yes, and the file is on disk":
        "aprobada: write_file se ejecutó después del sí, y el archivo está en disco",
    "after a yes, run it: await arun_tool(tool_impls, block.name, block.input, tools)":
        "tras un sí, ejecútala: await arun_tool(tool_impls, block.name, block.input, tools)",
    "approved run: the API accepted every request and the model finished":
        "ejecución aprobada: la API aceptó todas las peticiones y el modelo terminó",
    "read_file and get_time ran without anybody being asked":
        "read_file y get_time se ejecutaron sin preguntar a nadie",
    "only calls whose name is in high_impact go to the approver":
        "al aprobador solo van las llamadas cuyo nombre está en high_impact",
    "approved, but the tool itself fails (outside scratch/): its tool_result keeps is_error: true":
        "aprobada, pero la propia herramienta falla (fuera de scratch/): su tool_result conserva is_error: true",
    "pass on the tool's own verdict: text, is_error = await arun_tool(...); tool_result(block.id, text, is_error)":
        "pasa el veredicto de la propia herramienta: text, is_error = await arun_tool(...); "
        "tool_result(block.id, text, is_error)",
    "the gate follows the high_impact set it is given (here it names send_email: asked, rejected, not sent)":
        "la válvula sigue el conjunto high_impact que recibe (aquí incluye send_email: se pregunta, se rechaza y no "
        "se envía)",
    "use the high_impact argument, not the global HIGH_IMPACT: the caller decides what needs a person":
        "usa el argumento high_impact, no el HIGH_IMPACT global: quien llama decide qué necesita a una persona",
    # check_fail_closed
    "fail closed: no approver, a broken one or an unclear answer is a no":
        "fallar en cerrado: sin aprobador, con uno roto o con una respuesta dudosa, es un no",
    "no approver (approve=None)": "sin aprobador (approve=None)",
    "with no approver nobody can say yes: `if approve is None:` → answer it like a rejection":
        "sin aprobador nadie puede decir que sí: `if approve is None:` → respóndela como un rechazo",
    "an approver that raises an error": "un aprobador que lanza un error",
    "wrap the question: try: … await approve(…) except Exception: → a no (a broken gate is a closed gate)":
        "envuelve la pregunta: try: … await approve(…) except Exception: → un no (una válvula rota es una válvula "
        "cerrada)",
    "an approver that answers nothing (None)": "un aprobador que no responde nada (None)",
    "only `is True` is a yes: None (an approver that forgot its return) is a no":
        "solo `is True` es un sí: None (un aprobador al que se le olvidó el return) es un no",
    "an approver that answers the string 'yes'": "un aprobador que responde la cadena 'yes'",
    "only `is True` is a yes: `if await approve(...):` lets any truthy value through":
        "solo `is True` es un sí: `if await approve(...):` deja pasar cualquier valor que Python tome por verdadero",
    "{label}: write_file does not run, its call gets an is_error tool_result, and the run goes on":
        "{label}: write_file no se ejecuta, su llamada recibe un tool_result con is_error y la ejecución sigue",
    "answer the refused call: tool_result(block.id, <why>, is_error=True)":
        "responde a la llamada rechazada: tool_result(block.id, <motivo>, is_error=True)",
    # check_parallel_gate
    "a parallel turn: two writes, one approved and one rejected":
        "un turno en paralelo: dos escrituras, una aprobada y otra rechazada",
    "each write was put to the approver once, with its own input, in the order of the calls":
        "se preguntó al aprobador por cada escritura una vez, con su propia entrada, en el orden de las llamadas",
    " (asked about: {asked})": " (se preguntó por: {asked})",
    "ask once per call, each with its own block.input: one answer does not cover the turn":
        "pregunta una vez por llamada, cada una con su propio block.input: una sola respuesta no vale para todo el "
        "turno",
    "ask about each call once": "pregunta por cada llamada una sola vez",
    "the kit's rule: decide every call of the turn first (ask about each high-impact one), then run what may run — "
    "here a tool ran before every question of the turn had been asked":
        "la regla del kit: primero decide todas las llamadas del turno (pregunta por cada una de alto impacto) y "
        "después ejecuta lo que puede ejecutarse — aquí una herramienta se ejecutó antes de que se hicieran todas "
        "las preguntas del turno",
    "both questions were asked before any tool of the turn ran":
        "las dos preguntas se hicieron antes de que se ejecutara ninguna herramienta del turno",
    "only the approved write happened: scratch/a.txt is on disk, scratch/b.txt is not":
        "solo ocurrió la escritura aprobada: scratch/a.txt está en disco y scratch/b.txt no",
    " (on disk: {items})": " (en disco: {items})",
    "a write ran before its question was asked: ask first":
        "una escritura se ejecutó antes de que se hiciera su pregunta: pregunta primero",
    "run a call only on its own yes": "ejecuta cada llamada solo con su propio sí",
    "a no for one call must not stop the other: run every call that was approved":
        "el no a una llamada no debe detener la otra: ejecuta todas las llamadas aprobadas",
    "every call gets exactly one tool_result, in the tool_use order, in ONE list (the rejected one too): build the "
    "list in the order of the calls, not rejections after the runs":
        "cada llamada recibe exactamente un tool_result, en el orden de los tool_use, en UNA sola lista (también "
        "la rechazada): construye la lista en el orden de las llamadas, no con los rechazos después de lo "
        "ejecutado",
    "one tool_result per call, in the order of the calls": "un tool_result por llamada, en el orden de las llamadas",
    "scratch/a.txt's result is the tool's output; scratch/b.txt's is an is_error rejection":
        "el resultado de scratch/a.txt es lo que devolvió la herramienta; el de scratch/b.txt, un rechazo con "
        "is_error",
    "each call's result belongs to that call: the approved one gets its tool's output, the rejected one "
    "REJECTED_MESSAGE with is_error=True":
        "el resultado de cada llamada es de esa llamada: la aprobada recibe lo que devolvió su herramienta, y la "
        "rechazada REJECTED_MESSAGE con is_error=True",
    "the API accepted every request and the model finished": "la API aceptó todas las peticiones y el modelo terminó",
    "the other way round (no to a, yes to b): both are asked about, and only scratch/b.txt is written":
        "al revés (no a a, sí a b): se pregunta por las dos y solo se escribe scratch/b.txt",
    " (asked about: {flip_asked})": " (se preguntó por: {flip_asked})",
    "after a no, go on asking: every high-impact call gets its own question, and a call nobody was asked about must "
    "not run":
        "después de un no, sigue preguntando: cada llamada de alto impacto recibe su propia pregunta, y una llamada "
        "por la que no se preguntó no debe ejecutarse",
    "a first no must not decide the rest of the turn: answer each call by its own answer":
        "un primer no no debe decidir el resto del turno: responde cada llamada según su propia respuesta",
    "the other way round too, one tool_result per call in the order of the calls (a rejected call before an "
    "approved one keeps its place)":
        "también al revés, un tool_result por llamada en el orden de las llamadas (una llamada rechazada antes de "
        "una aprobada conserva su lugar)",
    "a turn of read_file, write_file and get_time: the question comes before ANY tool of the turn runs, then all "
    "three run":
        "un turno con read_file, write_file y get_time: la pregunta llega antes de que se ejecute NINGUNA "
        "herramienta del turno, y después se ejecutan las tres",
    "first ask about every high-impact call, then run the calls (the reads too): a read that runs while the person "
    "is still deciding is already under way whatever they answer":
        "pregunta primero por cada llamada de alto impacto y después ejecuta las llamadas (también las lecturas): "
        "una lectura que se ejecuta mientras la persona aún decide ya está en marcha responda lo que responda",
}
