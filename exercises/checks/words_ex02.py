"""The checks' words: exercise 2, the missing guards (ex02_guards.py), in English and Spanish.

Data only: {language: {message_id: text}}, ids grouped under the function that uses them. How the catalogues
are read, and how a sentence is added: kit.py's docstring.
"""

MESSAGES = {
    "en": {
        # capped
        # (also in ex03_budget.py)
        "ex02.capped.not_an_agent_result": "it returned {kind}, not an AgentResult",
        # _problem_hint
        "ex02.problem.run_its_cell_first": "run the cell that defines MAX_TURNS and run_capped first",
        "ex02.problem.run_capped_not_written": "write run_capped (it still raises NotImplementedError)",
        "ex02.problem.add_the_cap":
            "the loop turns as long as the model asks for tools: add the cap, `if turns >= max_turns:` at the top",
        # (also in ex03_budget.py)
        "ex02.problem.ended_with_error": "the run ended with an error ({problem}): it must end with an AgentResult",
        # (also in ex03_budget.py)
        "ex02.problem.must_return_agent_result": "it must return an AgentResult",
        # check_diagnosis
        "ex02.diagnosis.title": "the diagnosis: what the bare loop lacks, and how each absence runs away",
        "ex02.diagnosis.non_empty_dict":
            "DIAGNOSIS is a non-empty dict {missing guard: runaway} built from the constants of the 🔒 cell",
        "ex02.diagnosis.not_defined_yet": "DIAGNOSIS is not defined yet: run the exercise cell",
        "ex02.diagnosis.must_be_a_dict":
            "DIAGNOSIS must be a dict {{missing guard: runaway}}; it is a {kind} of {n}: pair each guard with the "
            "runaway its absence allows",
        "ex02.diagnosis.fill_in_one_entry": "fill in DIAGNOSIS: at least one entry",
        "ex02.diagnosis.use_the_constants":
            "use the constants' names (e.g. NO_TURN_CAP), not your own text: free text cannot be checked",
        "ex02.diagnosis.other_criteria_wait": "(the other criteria are checked once DIAGNOSIS has entries)",
        "ex02.diagnosis.every_key_a_runaway_guard":
            "no key is a guard whose absence does not make this loop run away",
        "ex02.diagnosis.key_that_never_runs_away":
            "one of your keys names something the bare loop lacks, but its absence never makes a loop run away "
            "(what does the SDK already do by itself?)",
        "ex02.diagnosis.every_value_a_failure_of_this_loop": "no value is a failure this loop does not have",
        "ex02.diagnosis.value_that_does_not_happen":
            "one of your values describes something that does not happen in this loop: look at what it sends back "
            "after every tool_use",
        "ex02.diagnosis.names_every_missing_guard":
            "names every missing guard that lets this loop run away ({named} of {total} named)",
        "ex02.diagnosis.read_the_while_line":
            "read the while line (who decides when it ends?), then the two runaway runs: what grows without end, "
            "and what goes unnoticed? Each has a guard whose absence allows it",
        "ex02.diagnosis.guards_mapped_to_their_runaway":
            "each of those guards is mapped to the runaway its absence allows ({right} of {total} right)",
        "ex02.diagnosis.pick_each_guards_runaway":
            "for each guard ask: without it, what happens when the model keeps asking for tools? Pick the runaway "
            "constant that describes exactly that",
        # check_turn_cap
        "ex02.turn_cap.title": "the turn cap: a hard stop, asked at the top of the loop body",
        "ex02.turn_cap.max_turns_whole_number": "MAX_TURNS is a whole number from 1 to 30",
        "ex02.turn_cap.it_is_cap": " (it is {cap!r})",
        "ex02.turn_cap.set_max_turns": "set MAX_TURNS to your cap, e.g. 8 (the lessons' value)",
        "ex02.turn_cap.never_ends_is_stopped":
            "a model that never ends its turn is stopped (never-ends, max_turns=3)",
        "ex02.turn_cap.turns_never_counted":
            "with max_turns=0 your loop stops at once, so the cap is asked; with max_turns=3 it never stops: "
            "`turns` never reaches the cap — add `turns += 1` for each turn that runs",
        "ex02.turn_cap.exactly_3_tool_turns": "exactly 3 tool turns ran (ran: {n})",
        "ex02.turn_cap.one_turn_short":
            "one turn short: the cap fired with 2 turns done — is `turns` counted before the check? Ask first, then "
            "count the turn",
        "ex02.turn_cap.more_turns_than_the_cap":
            "more turns than the cap: ask `turns >= max_turns` before every turn",
        "ex02.turn_cap.fewer_turns_than_the_cap": "fewer turns than the cap: the run ended early",
        "ex02.turn_cap.exactly_4_model_requests":
            "exactly 4 model requests: the first, and one after each turn (sent: {n})",
        "ex02.turn_cap.stop_before_running_4th": "stop before running a 4th turn, so no 5th request is sent",
        "ex02.turn_cap.one_request_per_turn": "a request after each turn that ran, plus the first",
        "ex02.turn_cap.returns_max_turns_result":
            "it returns AgentResult with stopped_by='max_turns', turns=3, requests=4",
        # (also in ex03_budget.py, ex03_progress.py)
        "ex02.turn_cap.got": " (got {got})",
        "ex02.turn_cap.ended_by_while_not_cap":
            "the loop ended by its while condition (stopped_by={stopped_by!r}), not by the cap: ask `if turns >= "
            "max_turns:` first thing in the body and return AgentResult(text, 'max_turns', turns, requests, 0, "
            "messages) there",
        "ex02.turn_cap.requests_miscounted":
            "it reports requests={got}, but the API received {sent}: count every request you send (the first, and "
            "`requests += 1` after each messages.create)",
        "ex02.turn_cap.return_max_turns_result":
            "return AgentResult(text, 'max_turns', turns, requests, 0, messages) when the cap fires; turns counts "
            "the turns that ran, requests every request sent",
        "ex02.turn_cap.text_says_harness_stopped":
            "its text says the harness stopped the run: it names the turn cap and its limit (3)",
        "ex02.turn_cap.give_a_stop_sentence":
            'give the caller a sentence, e.g. f"Stopped by the harness: turn cap of {max_turns} reached."',
        "ex02.turn_cap.empty_as_the_models":
            "the text is empty (so is the model's own text at the cap: its last response asks for tools, and "
            "final_text gives ''): say in your words that the harness stopped the run, e.g. "
            'f"Stopped by the harness: turn cap of {max_turns} reached."',
        # (also in ex03_budget.py)
        "ex02.turn_cap.history_can_be_continued":
            "the history it returns can be continued (no tool_use left without its tool_result)",
        "ex02.turn_cap.return_before_appending":
            "when the cap fires, return before appending the response whose calls you will not run",
        # (also in ex03_budget.py)
        "ex02.turn_cap.offered_the_callers_tools": "every request offered exactly the tools the caller passed",
        "ex02.turn_cap.pass_tools_to_create":
            "pass the tools argument to messages.create, not a global list (the checks pass their own tools)",
        "ex02.turn_cap.max_turns_0_runs_no_turn":
            "max_turns=0: not a single turn runs (tool calls: {n}, requests: {requests})",
        "ex02.turn_cap.max_turns_0_ran_turns":
            "with max_turns=0, {n} turn(s) ran: the cap must be asked before the first turn runs, first thing in "
            "the loop body",
        "ex02.turn_cap.parallel_calls_one_turn":
            "a turn of 2 parallel calls counts as ONE turn (parallel, max_turns=1: turns=1, the model's answer)",
        "ex02.turn_cap.got_stopped_by_and_turns": " (got stopped_by={stopped_by!r}, turns={turns})",
        "ex02.turn_cap.count_responses_not_calls":
            "turns counts tool-calling turns (model responses), not tool calls: add 1 per response, however many "
            "tool_use blocks it holds",
        "ex02.turn_cap.model_ended_after_one_turn":
            "after its one turn the model ended its turn: return its answer (stopped_by='end_turn'); the cap fires "
            "only when the model asks for one more turn",
        "ex02.turn_cap.count_every_request": "count every request you send: the first, and one after the turn",
        "ex02.turn_cap.default_cap_is_max_turns":
            "run_capped's default cap is MAX_TURNS (without max_turns, {n} turns ran; MAX_TURNS={cap})",
        "ex02.turn_cap.keep_the_default": "keep `max_turns=MAX_TURNS` as the default in the def line",
        # check_model_answer
        "ex02.model_answer.title": "the cap leaves a model that ends in time alone",
        "ex02.model_answer.demo_within_cap_of_2":
            "the demo task with max_turns=2: its 2 tool turns ran, in 3 requests (ran: {n}, requests: {requests})",
        "ex02.model_answer.cap_of_2_allows_2": "a cap of 2 must allow 2 turns: compare before counting the turn",
        "ex02.model_answer.one_request_per_turn":
            "the task needs 2 turns and the model then ends its turn: send one request per turn, plus the first",
        "ex02.model_answer.returns_the_answer":
            "it returns the model's own answer (stopped_by='end_turn'), not a cap message",
        "ex02.model_answer.end_by_while_condition":
            "the model ended its turn within the cap, so the loop must end by its while condition and return "
            "final_text(response)",
        "ex02.model_answer.got_stopped": " — got stopped_by={stopped_by!r}",
        "ex02.model_answer.reports_turns_and_requests": "it reports turns=2, requests=3",
        "ex02.model_answer.got_turns_requests": " (got turns={turns}, requests={requests})",
        "ex02.model_answer.count_turns_and_requests": "count a turn when it runs and every request you send",
        "ex02.model_answer.history_can_be_continued": "the history it returns can be continued",
        "ex02.model_answer.return_the_messages": "return the messages list the loop built",
        "ex02.model_answer.refusal_ends_the_run":
            "a reply that is neither tool_use nor end_turn (a refusal) ends the run: stopped_by='refusal', 1 request",
        "ex02.model_answer.loop_only_while_tool_use":
            'loop only `while response.stop_reason == "tool_use"`: any other stop reason (refusal, max_tokens, …) '
            'ends the loop and is returned as stopped_by; `!= "end_turn"` runs an empty tool step',
        # what outlives a run, the argument or the constant (check_turn_cap), the diagnosis's shape
        "ex02.diagnosis.keys_are_guards": "each key is a missing guard, each value the runaway its absence allows",
        "ex02.diagnosis.keys_and_values_swapped":
            "keys and values are swapped: every key is a runaway and every value a guard — the key is the missing "
            "guard "
            "(NO_…, STOP_…), the value the runaway its absence allows",
        "ex02.state.same_run_twice":
            "the same run ({run}) gave {first}, then {second}: something your function keeps "
            "outlives a run — a counter or a list at module level (`global`), or a default like x=[] — make every "
            "count inside the function, so that each call starts from 0",
        "ex02.state.uses_the_argument": "the loop stops at its max_turns argument",
        "ex02.state.constant_not_argument":
            "your function reads the notebook's MAX_TURNS ({cap}), not its `max_turns` argument: with max_turns=3, "
            "and with max_turns=0, it ran {cap} turns — compare `turns >= max_turns` (MAX_TURNS is only its default)",
        "ex02.state.zero_is_a_cap":
            "with max_turns=0 it ran {n} turns, as many as MAX_TURNS: 0 is a cap (not a single turn), not \"no cap "
            "given\" — `max_turns or MAX_TURNS` and `if max_turns and …` read 0 as false; compare `turns >= "
            "max_turns` as it is",
        "ex02.turn_cap.stopped_by_is_max_turns":
            "the cap fired at the right turn, but stopped_by is {stopped_by!r}: callers (and the inspector) read "
            "exactly stopped_by='max_turns'",
        "ex02.turn_cap.it_says": " (it says: {text!r})",
        "ex02.turn_cap.not_the_models_text":
            'that is the model\'s own text, not the harness\'s: say in your words that the harness stopped the run '
            'at the turn cap, e.g. f"Stopped by the harness: turn cap of {max_turns} reached."',
        "ex02.turn_cap.name_the_cap_and_its_limit":
            'a person must read it as "the harness stopped the run at the turn cap": name the cap (turn, cap or '
            'max_turns) and its limit (here 3), e.g. f"Stopped by the harness: turn cap of {max_turns} reached."',
        "ex02.model_answer.cap_asked_after_the_answer":
            "the model answered at its 2nd turn, and the cap, asked after that request, replaced its answer: end by "
            "its while condition and return final_text(response) — ask `turns >= max_turns` at the top of the body, "
            "before a turn, not after a request",
        "ex02.state.counts_carried_over":
            "it reports turns={turns} and requests={requests}, yet in this run {ran} turn(s) ran and the API "
            "received {sent} request(s): a count carries over from an earlier run — a counter at module level "
            "(`global`) or kept on an object lives on between runs: make `turns = "
            "0` and `requests = 1` inside the function",
        "ex02.model_answer.text_is_not_the_answer":
            "stopped_by='end_turn' is right, but its text is not the model's answer (a {kind}: {text!r}): return "
            "final_text(response), the text of the last response",
    },
    "es": {
        # capped
        # (also in ex03_budget.py)
        "ex02.capped.not_an_agent_result": "devolvió {kind}, no un AgentResult",
        # _problem_hint
        "ex02.problem.run_its_cell_first": "ejecuta antes la celda que define MAX_TURNS y run_capped",
        "ex02.problem.run_capped_not_written": "escribe run_capped (todavía lanza NotImplementedError)",
        "ex02.problem.add_the_cap":
            "el bucle da vueltas mientras el modelo pida herramientas: añade el tope, `if turns >= max_turns:` al "
            "principio",
        # (also in ex03_budget.py)
        "ex02.problem.ended_with_error":
            "la ejecución terminó con un error ({problem}): tiene que terminar con un AgentResult",
        # (also in ex03_budget.py)
        "ex02.problem.must_return_agent_result": "tiene que devolver un AgentResult",
        # check_diagnosis
        "ex02.diagnosis.title": "el diagnóstico: qué le falta al bucle desnudo, y cómo se desboca por cada ausencia",
        "ex02.diagnosis.non_empty_dict":
            "DIAGNOSIS es un dict no vacío {salvaguarda que falta: desbocamiento} hecho con las constantes de la "
            "celda 🔒",
        "ex02.diagnosis.not_defined_yet": "DIAGNOSIS aún no está definido: ejecuta la celda del ejercicio",
        "ex02.diagnosis.must_be_a_dict":
            "DIAGNOSIS tiene que ser un dict {{protección que falta: desbocamiento}}; es un {kind} de {n}: empareja "
            "cada protección con el desbocamiento que permite su ausencia",
        "ex02.diagnosis.fill_in_one_entry": "rellena DIAGNOSIS: al menos una entrada",
        "ex02.diagnosis.use_the_constants":
            "usa los nombres de las constantes (p. ej. NO_TURN_CAP), no un texto tuyo: un texto libre no se puede "
            "comprobar",
        "ex02.diagnosis.other_criteria_wait": "(los demás criterios se comprueban cuando DIAGNOSIS tenga entradas)",
        "ex02.diagnosis.every_key_a_runaway_guard":
            "ninguna clave es una salvaguarda cuya ausencia no haga desbocarse a este bucle",
        "ex02.diagnosis.key_that_never_runs_away":
            "una de tus claves nombra algo que le falta al bucle desnudo, pero cuya ausencia nunca hace que un "
            "bucle se desboque (¿qué hace ya el SDK por su cuenta?)",
        "ex02.diagnosis.every_value_a_failure_of_this_loop": "ningún valor es un fallo que este bucle no tiene",
        "ex02.diagnosis.value_that_does_not_happen":
            "uno de tus valores describe algo que no ocurre en este bucle: mira lo que devuelve después de cada "
            "tool_use",
        "ex02.diagnosis.names_every_missing_guard":
            "nombra todas las salvaguardas que faltan y dejan que este bucle se desboque (nombradas: {named} de "
            "{total})",
        "ex02.diagnosis.read_the_while_line":
            "lee la línea del while (¿quién decide cuándo termina?) y luego las dos ejecuciones desbocadas: ¿qué "
            "crece sin fin, y qué pasa inadvertido? Cada cosa tiene una salvaguarda cuya ausencia la permite",
        "ex02.diagnosis.guards_mapped_to_their_runaway":
            "cada una de esas salvaguardas va con el desbocamiento que permite su ausencia (bien: {right} de "
            "{total})",
        "ex02.diagnosis.pick_each_guards_runaway":
            "pregúntate por cada salvaguarda: sin ella, ¿qué pasa cuando el modelo sigue pidiendo herramientas? "
            "Elige la constante de desbocamiento que describe exactamente eso",
        # check_turn_cap
        "ex02.turn_cap.title": "el tope de turnos: un límite firme, comprobado al principio del cuerpo del bucle",
        "ex02.turn_cap.max_turns_whole_number": "MAX_TURNS es un número entero entre 1 y 30",
        "ex02.turn_cap.it_is_cap": " (es {cap!r})",
        "ex02.turn_cap.set_max_turns": "pon en MAX_TURNS tu tope, p. ej. 8 (el de las lecciones)",
        "ex02.turn_cap.never_ends_is_stopped":
            "un modelo que nunca cierra su turno queda detenido (never-ends, max_turns=3)",
        "ex02.turn_cap.turns_never_counted":
            "con max_turns=0 tu bucle se detiene enseguida, así que el tope se comprueba; con max_turns=3 nunca se "
            "detiene: `turns` nunca llega al tope — añade `turns += 1` por cada turno que se ejecuta",
        "ex02.turn_cap.exactly_3_tool_turns":
            "se ejecutaron exactamente 3 turnos con herramientas (se ejecutaron: {n})",
        "ex02.turn_cap.one_turn_short":
            "falta un turno: el tope saltó con 2 turnos hechos — ¿cuentas `turns` antes de comprobarlo? Primero "
            "pregunta y luego cuenta el turno",
        "ex02.turn_cap.more_turns_than_the_cap":
            "más turnos que el tope: comprueba `turns >= max_turns` antes de cada turno",
        "ex02.turn_cap.fewer_turns_than_the_cap": "menos turnos que el tope: la ejecución terminó antes de tiempo",
        "ex02.turn_cap.exactly_4_model_requests":
            "exactamente 4 peticiones al modelo: la primera, y una después de cada turno (enviadas: {n})",
        "ex02.turn_cap.stop_before_running_4th":
            "detente antes de ejecutar un 4.º turno, para que no se envíe una 5.ª petición",
        "ex02.turn_cap.one_request_per_turn": "una petición después de cada turno ejecutado, más la primera",
        "ex02.turn_cap.returns_max_turns_result":
            "devuelve AgentResult con stopped_by='max_turns', turns=3, requests=4",
        # (also in ex03_budget.py, ex03_progress.py)
        "ex02.turn_cap.got": " (se obtuvo {got})",
        "ex02.turn_cap.ended_by_while_not_cap":
            "el bucle terminó por su condición del while (stopped_by={stopped_by!r}), no por el tope: pregunta `if "
            "turns >= max_turns:` lo primero del cuerpo y devuelve ahí AgentResult(text, 'max_turns', turns, "
            "requests, 0, messages)",
        "ex02.turn_cap.requests_miscounted":
            "indica requests={got}, pero la API recibió {sent}: cuenta cada petición que envías (la primera, y "
            "`requests += 1` después de cada messages.create)",
        "ex02.turn_cap.return_max_turns_result":
            "devuelve AgentResult(text, 'max_turns', turns, requests, 0, messages) cuando salta el tope; turns "
            "cuenta los turnos ejecutados, y requests todas las peticiones enviadas",
        "ex02.turn_cap.text_says_harness_stopped":
            "su texto dice que el arnés detuvo la ejecución: nombra el tope de turnos y su límite (3)",
        "ex02.turn_cap.give_a_stop_sentence":
            'dale una frase a quien llama, p. ej. f"El arnés se detuvo: llegó al tope de turnos de {max_turns}."',
        "ex02.turn_cap.empty_as_the_models":
            "el texto está vacío (también lo está el del propio modelo en el tope: su última respuesta pide "
            "herramientas, y final_text da ''): di con tus palabras que el arnés detuvo la ejecución, p. ej. "
            'f"El arnés se detuvo: llegó al tope de turnos de {max_turns}."',
        # (also in ex03_budget.py)
        "ex02.turn_cap.history_can_be_continued":
            "el historial que devuelve se puede continuar (ningún tool_use se queda sin su tool_result)",
        "ex02.turn_cap.return_before_appending":
            "cuando salta el tope, devuelve el resultado antes de añadir la respuesta cuyas llamadas no vas a "
            "ejecutar",
        # (also in ex03_budget.py)
        "ex02.turn_cap.offered_the_callers_tools":
            "cada petición ofreció exactamente las herramientas que pasó quien llama",
        "ex02.turn_cap.pass_tools_to_create":
            "pasa el argumento tools a messages.create, no una lista global (los controles pasan sus propias "
            "herramientas)",
        "ex02.turn_cap.max_turns_0_runs_no_turn":
            "max_turns=0: no se ejecuta ni un turno (llamadas a herramientas: {n}, peticiones: {requests})",
        "ex02.turn_cap.max_turns_0_ran_turns":
            "con max_turns=0 se ejecutaron {n} turno(s): el tope tiene que comprobarse antes de que se ejecute el "
            "primer turno, lo primero del cuerpo del bucle",
        "ex02.turn_cap.parallel_calls_one_turn":
            "un turno con 2 llamadas en paralelo cuenta como UN turno (parallel, max_turns=1: turns=1, la respuesta "
            "del modelo)",
        "ex02.turn_cap.got_stopped_by_and_turns": " (se obtuvo stopped_by={stopped_by!r}, turns={turns})",
        "ex02.turn_cap.count_responses_not_calls":
            "turns cuenta turnos con llamadas a herramientas (respuestas del modelo), no llamadas: suma 1 por "
            "respuesta, tenga los bloques tool_use que tenga",
        "ex02.turn_cap.model_ended_after_one_turn":
            "tras su único turno el modelo cerró su turno: devuelve su respuesta (stopped_by='end_turn'); el tope "
            "solo salta cuando el modelo pide un turno más",
        "ex02.turn_cap.count_every_request":
            "cuenta todas las peticiones que envías: la primera, y una después del turno",
        "ex02.turn_cap.default_cap_is_max_turns":
            "el tope por defecto de run_capped es MAX_TURNS (sin max_turns se ejecutaron {n} turnos; "
            "MAX_TURNS={cap})",
        "ex02.turn_cap.keep_the_default": "deja `max_turns=MAX_TURNS` como valor por defecto en la línea def",
        # check_model_answer
        "ex02.model_answer.title": "el tope no molesta a un modelo que termina a tiempo",
        "ex02.model_answer.demo_within_cap_of_2":
            "la tarea demo con max_turns=2: se ejecutaron sus 2 turnos con herramientas, en 3 peticiones (se "
            "ejecutaron: {n}, peticiones: {requests})",
        "ex02.model_answer.cap_of_2_allows_2":
            "un tope de 2 tiene que permitir 2 turnos: compara antes de contar el turno",
        "ex02.model_answer.one_request_per_turn":
            "la tarea necesita 2 turnos y después el modelo termina su turno: envía una petición por turno, más la "
            "primera",
        "ex02.model_answer.returns_the_answer":
            "devuelve la respuesta del propio modelo (stopped_by='end_turn'), no un mensaje del tope",
        "ex02.model_answer.end_by_while_condition":
            "el modelo cerró su turno dentro del tope, así que el bucle tiene que terminar por su condición del "
            "while y devolver final_text(response)",
        "ex02.model_answer.got_stopped": " — se obtuvo stopped_by={stopped_by!r}",
        "ex02.model_answer.reports_turns_and_requests": "informa turns=2, requests=3",
        "ex02.model_answer.got_turns_requests": " (se obtuvo turns={turns}, requests={requests})",
        "ex02.model_answer.count_turns_and_requests": "cuenta un turno cuando se ejecuta, y cada petición que envías",
        "ex02.model_answer.history_can_be_continued": "el historial que devuelve se puede continuar",
        "ex02.model_answer.return_the_messages": "devuelve la lista messages que construyó el bucle",
        "ex02.model_answer.refusal_ends_the_run":
            "una respuesta que no es ni tool_use ni end_turn (un rechazo) termina la ejecución: "
            "stopped_by='refusal', 1 petición",
        "ex02.model_answer.loop_only_while_tool_use":
            'da vueltas solo `while response.stop_reason == "tool_use"`: cualquier otro motivo de parada (refusal, '
            'max_tokens, …) termina el bucle y se devuelve como stopped_by; `!= "end_turn"` ejecuta un paso de '
            'herramientas vacío',
        # what outlives a run, the argument or the constant (check_turn_cap), the diagnosis's shape
        "ex02.diagnosis.keys_are_guards":
            "cada clave es una protección que falta, cada valor el desbocamiento que permite su ausencia",
        "ex02.diagnosis.keys_and_values_swapped":
            "claves y valores están al revés: cada clave es un desbocamiento y cada valor una protección — la clave es "
            "la protección que falta (NO_…, STOP_…), el valor el desbocamiento que permite su ausencia",
        "ex02.state.same_run_twice":
            "la misma ejecución ({run}) dio {first} y luego {second}: algo que guarda tu función "
            "sobrevive a una ejecución — un contador o una lista a nivel de módulo (`global`), o un valor por "
            "defecto como x=[] — crea cada cuenta dentro de la función, para que cada llamada empiece en 0",
        "ex02.state.uses_the_argument": "el bucle se detiene en su argumento max_turns",
        "ex02.state.constant_not_argument":
            "tu función lee MAX_TURNS del cuaderno ({cap}), no su argumento `max_turns`: con max_turns=3, y con "
            "max_turns=0, ejecutó {cap} turnos — compara `turns >= max_turns` (MAX_TURNS es solo su valor por "
            "defecto)",
        "ex02.state.zero_is_a_cap":
            "con max_turns=0 ejecutó {n} turnos, tantos como MAX_TURNS: 0 es un tope (ni un solo turno), no \"no "
            "me dieron tope\" — `max_turns or MAX_TURNS` e `if max_turns and …` leen 0 como falso; compara `turns "
            ">= max_turns` tal cual",
        "ex02.turn_cap.stopped_by_is_max_turns":
            "el tope saltó en el turno correcto, pero stopped_by es {stopped_by!r}: quien llama (y el inspector) "
            "lee exactamente stopped_by='max_turns'",
        "ex02.turn_cap.it_says": " (dice: {text!r})",
        "ex02.turn_cap.not_the_models_text":
            'ese es el texto del propio modelo, no el del arnés: di con tus palabras que el arnés detuvo la '
            'ejecución en el tope de turnos, p. ej. f"El arnés se detuvo: llegó al tope de turnos de {max_turns}."',
        "ex02.turn_cap.name_the_cap_and_its_limit":
            'quien lo lea tiene que entender "el arnés detuvo la ejecución en el tope de turnos": nombra el tope '
            '(turno, tope, límite o max_turns) y su límite (aquí 3), p. ej. f"El arnés se detuvo: llegó al tope de '
            'turnos de {max_turns}."',
        "ex02.model_answer.cap_asked_after_the_answer":
            "el modelo respondió en su 2.º turno, y el tope, preguntado después de esa petición, sustituyó su "
            "respuesta: termina por la condición del while y devuelve final_text(response) — pregunta `turns >= "
            "max_turns` al principio del cuerpo, antes de un turno, no después de una petición",
        "ex02.state.counts_carried_over":
            "indica turns={turns} y requests={requests}, pero en esta ejecución se ejecutaron {ran} turno(s) y la "
            "API recibió {sent} petición(es): una cuenta viene de una ejecución anterior — un contador a nivel de "
            "módulo (`global`) o guardado en un objeto sobrevive entre "
            "ejecuciones: pon `turns = 0` y `requests = 1` dentro de la función",
        "ex02.model_answer.text_is_not_the_answer":
            "stopped_by='end_turn' está bien, pero su texto no es la respuesta del modelo (un {kind}: {text!r}): "
            "devuelve final_text(response), el texto de la última respuesta",
    },
}
