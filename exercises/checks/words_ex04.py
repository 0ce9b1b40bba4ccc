"""The checks' words: exercise 4, the approval gate (ex04_gate.py), in English and Spanish.

Data only: {language: {message_id: text}}, ids grouped under the function that uses them. How the catalogues
are read, and how a sentence is added: kit.py's docstring.
"""

MESSAGES = {
    "en": {
        # check_why_wrong
        "ex04.why_wrong.title": "why asking after running is no approval gate",
        "ex04.why_wrong.is_a_non_empty_set": "WHY_WRONG is a non-empty set of the statements of the 🔒 cell",
        "ex04.why_wrong.not_defined_yet": "WHY_WRONG is not defined yet: run the exercise cell",
        "ex04.why_wrong.must_be_a_set": "WHY_WRONG must be a set (or list) of the statements' constants",
        "ex04.why_wrong.fill_in_one_statement": "fill in WHY_WRONG: at least one statement",
        "ex04.why_wrong.use_the_constants":
            "use the constants' names (e.g. SLOWER), not your own text: free text cannot be checked",
        "ex04.why_wrong.other_criteria_wait": "(the other criteria are checked once WHY_WRONG has entries)",
        "ex04.why_wrong.disagrees_with_the_colleague": "does not agree with the colleague's argument",
        "ex04.why_wrong.colleagues_own_argument":
            "one of your statements is the colleague's own argument, which the run above disproves",
        "ex04.why_wrong.no_untrue_statement": "no statement the run above shows to be untrue of this wiring",
        "ex04.why_wrong.statement_that_did_not_happen": "one of your statements is not what happened: {what}",
        "ex04.why_wrong.untrue_count": " ({n} of yours)",
        "ex04.why_wrong.refuted.left_dangling":
            "the run shows the rejected write_file got its tool_result (is_error, REJECTED_MESSAGE) and the next "
            "request went through — nothing was left dangling",
        "ex04.why_wrong.refuted.model_never_told":
            "the run shows the model was told: write_file's tool_result says it was not approved, and the model's "
            "answer repeats it",
        "ex04.why_wrong.refuted.slower":
            "the run shows no extra wait: the person is asked once, before the tool runs or after it — asking "
            "first costs the same wait, so speed is not why this wiring is no gate",
        "ex04.why_wrong.refuted.reads_wait_too":
            "the run shows only write_file was asked about: read_file and get_time ran without waiting for anybody",
        "ex04.why_wrong.names_every_reason_run": "names every reason the run above shows ({named} of {n} named)",
        "ex04.why_wrong.go_through_run_again":
            "go through the run again: what did the disk say after the no, what was the model told, and when was "
            "the person asked? Each answer is one reason",
        # gate_hint
        "ex04.gate.no_approver_was_called":
            "with no approver (approve=None) nobody can say yes: check `approve is None` before calling it",
        "ex04.gate.broken_approver_stopped_run":
            "the approver raised, and the error stopped the run: a broken gate is a closed gate — catch the "
            "Exception and answer the call like a rejection",
        # check_gate
        "ex04.gate.title": "the gate sits before execution: a no means the tool never runs",
        "ex04.gate.write_file_asked_once": "write_file was put to the approver once, with its name and input",
        "ex04.gate.asked_n_times": "it was asked {n} times: once per call — await approve(block.name, block.input)",
        "ex04.gate.written_despite_a_no":
            "the file was written although the person said no: ask BEFORE the tool runs, and run it only after a yes",
        "ex04.gate.rejected_never_ran": "rejected: write_file never ran, and scratch/answer.txt is not on disk",
        "ex04.gate.rejected_got_one_error_result":
            "rejected: the call got exactly one tool_result, with is_error: true",
        "ex04.gate.answer_rejected_call_too":
            "answer a rejected call too: tool_result(block.id, REJECTED_MESSAGE, is_error=True)",
        "ex04.gate.send_rejected_message": "send REJECTED_MESSAGE: it tells the model the action was not approved",
        "ex04.gate.rejected_run_api_accepted": "rejected run: the API accepted every request and the model finished",
        "ex04.gate.approved_ran_after_yes": "approved: write_file ran after the yes, and the file is on disk",
        "ex04.gate.run_after_a_yes":
            "after a yes, run it: await arun_tool(tool_impls, block.name, block.input, tools)",
        "ex04.gate.approved_run_api_accepted": "approved run: the API accepted every request and the model finished",
        "ex04.gate.reads_ran_unasked": "read_file and get_time ran without anybody being asked",
        "ex04.gate.only_high_impact_asked": "only calls whose name is in high_impact go to the approver",
        "ex04.gate.approved_tool_fails":
            "approved, but the tool itself fails (outside scratch/): its tool_result keeps is_error: true",
        "ex04.gate.pass_tool_own_verdict":
            "pass on the tool's own verdict: text, is_error = await arun_tool(...); tool_result(block.id, text, "
            "is_error)",
        "ex04.gate.follows_its_high_impact_set":
            "the gate follows the high_impact set it is given (here it names send_email: asked, rejected, not sent)",
        "ex04.gate.use_high_impact_argument":
            "use the high_impact argument, not the global HIGH_IMPACT: the caller decides what needs a person",
        # check_fail_closed
        "ex04.fail_closed.title": "fail closed: no approver, a broken one or an unclear answer is a no",
        "ex04.fail_closed.no_approver": "no approver (approve=None)",
        "ex04.fail_closed.no_approver_is_a_no":
            "with no approver nobody can say yes: `if approve is None:` → answer it like a rejection",
        "ex04.fail_closed.approver_raises_error": "an approver that raises an error",
        "ex04.fail_closed.catch_the_exception":
            "wrap the question: try: … await approve(…) except Exception: → a no (a broken gate is a closed gate)",
        "ex04.fail_closed.answers_none": "an approver that answers nothing (None)",
        "ex04.fail_closed.none_is_a_no": "only `is True` is a yes: None (an approver that forgot its return) is a no",
        "ex04.fail_closed.answers_the_string_yes": "an approver that answers the string 'yes'",
        "ex04.fail_closed.only_true_is_a_yes":
            "only `is True` is a yes: `if await approve(...):` lets any truthy value through",
        "ex04.fail_closed.refused_and_run_goes_on":
            "{label}: write_file does not run, its call gets an is_error tool_result, and the run goes on",
        "ex04.fail_closed.answer_the_refused_call":
            "answer the refused call: tool_result(block.id, <why>, is_error=True)",
        # check_parallel_gate
        "ex04.parallel_gate.title": "a parallel turn: two writes, one approved and one rejected",
        "ex04.parallel_gate.each_write_asked_once":
            "each write was put to the approver once, with its own input, in the order of the calls",
        "ex04.parallel_gate.asked_about": " (asked about: {asked})",
        "ex04.parallel_gate.ask_once_per_call":
            "ask once per call, each with its own block.input: one answer does not cover the turn",
        "ex04.parallel_gate.ask_about_call_once": "ask about each call once",
        "ex04.parallel_gate.decide_every_call_then_run":
            "the kit's rule: decide every call of the turn first (ask about each high-impact one), then run what "
            "may run — here a tool ran before every question of the turn had been asked",
        "ex04.parallel_gate.both_questions_asked_before": "both questions were asked before any tool of the turn ran",
        "ex04.parallel_gate.only_approved_write_happened":
            "only the approved write happened: scratch/a.txt is on disk, scratch/b.txt is not",
        "ex04.parallel_gate.on_disk": " (on disk: {items})",
        "ex04.parallel_gate.write_ran_before_question": "a write ran before its question was asked: ask first",
        "ex04.parallel_gate.run_only_on_its_own_yes": "run a call only on its own yes",
        "ex04.parallel_gate.a_no_does_not_stop_the_other":
            "a no for one call must not stop the other: run every call that was approved",
        "ex04.parallel_gate.one_result_per_call_in_one_list":
            "every call gets exactly one tool_result, in the tool_use order, in ONE list (the rejected one too): "
            "build the list in the order of the calls, not rejections after the runs",
        "ex04.parallel_gate.one_result_per_call_in_order": "one tool_result per call, in the order of the calls",
        "ex04.parallel_gate.each_result_matches_its_call":
            "scratch/a.txt's result is the tool's output; scratch/b.txt's is an is_error rejection",
        "ex04.parallel_gate.result_belongs_to_its_call":
            "each call's result belongs to that call: the approved one gets its tool's output, the rejected one "
            "REJECTED_MESSAGE with is_error=True",
        "ex04.parallel_gate.api_accepted_every_request": "the API accepted every request and the model finished",
        "ex04.parallel_gate.other_way_round":
            "the other way round (no to a, yes to b): both are asked about, and only scratch/b.txt is written",
        "ex04.parallel_gate.asked_about_flipped": " (asked about: {flip_asked})",
        "ex04.parallel_gate.keep_asking_after_a_no":
            "after a no, go on asking: every high-impact call gets its own question, and a call nobody was asked "
            "about must not run",
        "ex04.parallel_gate.first_no_does_not_decide":
            "a first no must not decide the rest of the turn: answer each call by its own answer",
        "ex04.parallel_gate.other_way_round_results":
            "the other way round too, one tool_result per call in the order of the calls (a rejected call before an "
            "approved one keeps its place)",
        "ex04.parallel_gate.questions_before_any_tool":
            "a turn of read_file, write_file and get_time: the question comes before ANY tool of the turn runs, "
            "then all three run",
        "ex04.parallel_gate.ask_first_then_run":
            "first ask about every high-impact call, then run the calls (the reads too): a read that runs while the "
            "person is still deciding is already under way whatever they answer",
        "ex04.gate.callers_own_tool_runs":
            "approved: a call of a tool the caller offers, not in the lesson's TOOLS (send_email), runs",
        "ex04.gate.pass_tools_to_arun_tool":
            "pass the tools argument to arun_tool (arun_tool(tool_impls, block.name, block.input, tools)): it checks "
            "the call against the tools the caller gave, and the notebook's TOOLS has no send_email",
        "ex04.fail_closed.caught_and_ran":
            "your gate caught the approver's error and then ran write_file: an approver that raises is a no — in "
            "the `except Exception:` branch refuse the call (approved = False), do not run it",
    },
    "es": {
        # check_why_wrong
        "ex04.why_wrong.title": "por qué preguntar después de ejecutar no es ninguna válvula de aprobación",
        "ex04.why_wrong.is_a_non_empty_set": "WHY_WRONG es un conjunto no vacío de afirmaciones de la celda 🔒",
        "ex04.why_wrong.not_defined_yet": "WHY_WRONG aún no está definido: ejecuta la celda del ejercicio",
        "ex04.why_wrong.must_be_a_set":
            "WHY_WRONG tiene que ser un conjunto (o una lista) de las constantes de las afirmaciones",
        "ex04.why_wrong.fill_in_one_statement": "rellena WHY_WRONG: al menos una afirmación",
        "ex04.why_wrong.use_the_constants":
            "usa los nombres de las constantes (p. ej. SLOWER), no un texto tuyo: un texto libre no se puede "
            "comprobar",
        "ex04.why_wrong.other_criteria_wait": "(los demás criterios se comprueban cuando WHY_WRONG tenga entradas)",
        "ex04.why_wrong.disagrees_with_the_colleague": "no le da la razón al argumento de tu compañera",
        "ex04.why_wrong.colleagues_own_argument":
            "una de tus afirmaciones es el propio argumento de tu compañera, y la ejecución de arriba lo desmiente",
        "ex04.why_wrong.no_untrue_statement":
            "ninguna afirmación que la ejecución de arriba muestre falsa para este montaje",
        "ex04.why_wrong.statement_that_did_not_happen": "una de tus afirmaciones no es lo que ocurrió: {what}",
        "ex04.why_wrong.untrue_count": " ({n} de las tuyas)",
        "ex04.why_wrong.refuted.left_dangling":
            "la ejecución muestra que el write_file rechazado recibió su tool_result (is_error, REJECTED_MESSAGE) y "
            "la petición siguiente pasó — nada quedó colgando",
        "ex04.why_wrong.refuted.model_never_told":
            "la ejecución muestra que al modelo se le dijo: el tool_result de write_file dice que no se aprobó, y la "
            "respuesta del modelo lo repite",
        "ex04.why_wrong.refuted.slower":
            "la ejecución no muestra ninguna espera de más: a la persona se le pregunta una vez, antes de ejecutar "
            "la herramienta o después — preguntar primero cuesta la misma espera, así que la velocidad no es por qué "
            "este montaje no es una compuerta",
        "ex04.why_wrong.refuted.reads_wait_too":
            "la ejecución muestra que solo se preguntó por write_file: read_file y get_time se ejecutaron sin "
            "esperar a nadie",
        "ex04.why_wrong.names_every_reason_run":
            "nombra todas las razones que muestra la ejecución de arriba (nombradas: {named} de {n})",
        "ex04.why_wrong.go_through_run_again":
            "repasa la ejecución: ¿qué había en disco después del no, qué se le dijo al modelo y cuándo se preguntó "
            "a la persona? Cada respuesta es una razón",
        # gate_hint
        "ex04.gate.no_approver_was_called":
            "sin aprobador (approve=None) nadie puede decir que sí: comprueba `approve is None` antes de llamarlo",
        "ex04.gate.broken_approver_stopped_run":
            "el aprobador lanzó una excepción y el error detuvo la ejecución: una válvula rota es una válvula "
            "cerrada — captura la Exception y responde la llamada como un rechazo",
        # check_gate
        "ex04.gate.title":
            "la válvula va antes de la ejecución: un no significa que la herramienta no llega a ejecutarse",
        "ex04.gate.write_file_asked_once":
            "se preguntó al aprobador por write_file una vez, con su nombre y su entrada",
        "ex04.gate.asked_n_times": "se preguntó {n} veces: una por llamada — await approve(block.name, block.input)",
        "ex04.gate.written_despite_a_no":
            "el archivo se escribió aunque la persona dijo que no: pregunta ANTES de que se ejecute la herramienta, "
            "y ejecútala solo después de un sí",
        "ex04.gate.rejected_never_ran":
            "rechazada: write_file no se ejecutó nunca, y scratch/answer.txt no está en disco",
        "ex04.gate.rejected_got_one_error_result":
            "rechazada: la llamada recibió exactamente un tool_result, con is_error: true",
        "ex04.gate.answer_rejected_call_too":
            "responde también a una llamada rechazada: tool_result(block.id, REJECTED_MESSAGE, is_error=True)",
        "ex04.gate.send_rejected_message": "envía REJECTED_MESSAGE: le dice al modelo que la acción no se aprobó",
        "ex04.gate.rejected_run_api_accepted":
            "ejecución rechazada: la API aceptó todas las peticiones y el modelo terminó",
        "ex04.gate.approved_ran_after_yes":
            "aprobada: write_file se ejecutó después del sí, y el archivo está en disco",
        "ex04.gate.run_after_a_yes":
            "tras un sí, ejecútala: await arun_tool(tool_impls, block.name, block.input, tools)",
        "ex04.gate.approved_run_api_accepted":
            "ejecución aprobada: la API aceptó todas las peticiones y el modelo terminó",
        "ex04.gate.reads_ran_unasked": "read_file y get_time se ejecutaron sin preguntar a nadie",
        "ex04.gate.only_high_impact_asked": "al aprobador solo van las llamadas cuyo nombre está en high_impact",
        "ex04.gate.approved_tool_fails":
            "aprobada, pero la propia herramienta falla (fuera de scratch/): su tool_result conserva is_error: true",
        "ex04.gate.pass_tool_own_verdict":
            "pasa el veredicto de la propia herramienta: text, is_error = await arun_tool(...); "
            "tool_result(block.id, text, is_error)",
        "ex04.gate.follows_its_high_impact_set":
            "la válvula sigue el conjunto high_impact que recibe (aquí incluye send_email: se pregunta, se rechaza "
            "y no se envía)",
        "ex04.gate.use_high_impact_argument":
            "usa el argumento high_impact, no el HIGH_IMPACT global: quien llama decide qué necesita a una persona",
        # check_fail_closed
        "ex04.fail_closed.title":
            "fallar en cerrado: sin aprobador, con uno roto o con una respuesta dudosa, es un no",
        "ex04.fail_closed.no_approver": "sin aprobador (approve=None)",
        "ex04.fail_closed.no_approver_is_a_no":
            "sin aprobador nadie puede decir que sí: `if approve is None:` → respóndela como un rechazo",
        "ex04.fail_closed.approver_raises_error": "un aprobador que lanza un error",
        "ex04.fail_closed.catch_the_exception":
            "envuelve la pregunta: try: … await approve(…) except Exception: → un no (una válvula rota es una "
            "válvula cerrada)",
        "ex04.fail_closed.answers_none": "un aprobador que no responde nada (None)",
        "ex04.fail_closed.none_is_a_no":
            "solo `is True` es un sí: None (un aprobador al que se le olvidó el return) es un no",
        "ex04.fail_closed.answers_the_string_yes": "un aprobador que responde la cadena 'yes'",
        "ex04.fail_closed.only_true_is_a_yes":
            "solo `is True` es un sí: `if await approve(...):` deja pasar cualquier valor que Python tome por "
            "verdadero",
        "ex04.fail_closed.refused_and_run_goes_on":
            "{label}: write_file no se ejecuta, su llamada recibe un tool_result con is_error y la ejecución sigue",
        "ex04.fail_closed.answer_the_refused_call":
            "responde a la llamada rechazada: tool_result(block.id, <motivo>, is_error=True)",
        # check_parallel_gate
        "ex04.parallel_gate.title": "un turno en paralelo: dos escrituras, una aprobada y otra rechazada",
        "ex04.parallel_gate.each_write_asked_once":
            "se preguntó al aprobador por cada escritura una vez, con su propia entrada, en el orden de las llamadas",
        "ex04.parallel_gate.asked_about": " (se preguntó por: {asked})",
        "ex04.parallel_gate.ask_once_per_call":
            "pregunta una vez por llamada, cada una con su propio block.input: una sola respuesta no vale para todo "
            "el turno",
        "ex04.parallel_gate.ask_about_call_once": "pregunta por cada llamada una sola vez",
        "ex04.parallel_gate.decide_every_call_then_run":
            "la regla del kit: primero decide todas las llamadas del turno (pregunta por cada una de alto impacto) "
            "y después ejecuta lo que puede ejecutarse — aquí una herramienta se ejecutó antes de que se hicieran "
            "todas las preguntas del turno",
        "ex04.parallel_gate.both_questions_asked_before":
            "las dos preguntas se hicieron antes de que se ejecutara ninguna herramienta del turno",
        "ex04.parallel_gate.only_approved_write_happened":
            "solo ocurrió la escritura aprobada: scratch/a.txt está en disco y scratch/b.txt no",
        "ex04.parallel_gate.on_disk": " (en disco: {items})",
        "ex04.parallel_gate.write_ran_before_question":
            "una escritura se ejecutó antes de que se hiciera su pregunta: pregunta primero",
        "ex04.parallel_gate.run_only_on_its_own_yes": "ejecuta cada llamada solo con su propio sí",
        "ex04.parallel_gate.a_no_does_not_stop_the_other":
            "el no a una llamada no debe detener la otra: ejecuta todas las llamadas aprobadas",
        "ex04.parallel_gate.one_result_per_call_in_one_list":
            "cada llamada recibe exactamente un tool_result, en el orden de los tool_use, en UNA sola lista "
            "(también la rechazada): construye la lista en el orden de las llamadas, no con los rechazos después de "
            "lo ejecutado",
        "ex04.parallel_gate.one_result_per_call_in_order": "un tool_result por llamada, en el orden de las llamadas",
        "ex04.parallel_gate.each_result_matches_its_call":
            "el resultado de scratch/a.txt es lo que devolvió la herramienta; el de scratch/b.txt, un rechazo con "
            "is_error",
        "ex04.parallel_gate.result_belongs_to_its_call":
            "el resultado de cada llamada es de esa llamada: la aprobada recibe lo que devolvió su herramienta, y "
            "la rechazada REJECTED_MESSAGE con is_error=True",
        "ex04.parallel_gate.api_accepted_every_request": "la API aceptó todas las peticiones y el modelo terminó",
        "ex04.parallel_gate.other_way_round":
            "al revés (no a a, sí a b): se pregunta por las dos y solo se escribe scratch/b.txt",
        "ex04.parallel_gate.asked_about_flipped": " (se preguntó por: {flip_asked})",
        "ex04.parallel_gate.keep_asking_after_a_no":
            "después de un no, sigue preguntando: cada llamada de alto impacto recibe su propia pregunta, y una "
            "llamada por la que no se preguntó no debe ejecutarse",
        "ex04.parallel_gate.first_no_does_not_decide":
            "un primer no no debe decidir el resto del turno: responde cada llamada según su propia respuesta",
        "ex04.parallel_gate.other_way_round_results":
            "también al revés, un tool_result por llamada en el orden de las llamadas (una llamada rechazada antes "
            "de una aprobada conserva su lugar)",
        "ex04.parallel_gate.questions_before_any_tool":
            "un turno con read_file, write_file y get_time: la pregunta llega antes de que se ejecute NINGUNA "
            "herramienta del turno, y después se ejecutan las tres",
        "ex04.parallel_gate.ask_first_then_run":
            "pregunta primero por cada llamada de alto impacto y después ejecuta las llamadas (también las "
            "lecturas): una lectura que se ejecuta mientras la persona aún decide ya está en marcha responda lo que "
            "responda",
        "ex04.gate.callers_own_tool_runs":
            "aprobada: se ejecuta una llamada a una herramienta que ofrece quien llama y que no está en TOOLS de la "
            "lección (send_email)",
        "ex04.gate.pass_tools_to_arun_tool":
            "pasa el argumento tools a arun_tool (arun_tool(tool_impls, block.name, block.input, tools)): comprueba "
            "la llamada con las herramientas que dio quien llama, y TOOLS del cuaderno no tiene send_email",
        "ex04.fail_closed.caught_and_ran":
            "tu compuerta capturó el error del aprobador y luego ejecutó write_file: un aprobador que lanza es un no "
            "— en la rama `except Exception:` rechaza la llamada (approved = False), no la ejecutes",
    },
}
