"""The checks' words: exercise 3, no-progress detection (ex03_progress.py), in English and Spanish.

Data only: {language: {message_id: text}}, ids grouped under the function that uses them. How the catalogues
are read, and how a sentence is added: kit.py's docstring.
"""

MESSAGES = {
    "en": {
        # check_progress
        "ex03.progress.title": "valve 3: a model walking in place is stopped before the repeated turn runs",
        "ex03.progress.stuck_stopped_no_progress": "stuck: stopped_by='no_progress' after 1 turn and 2 requests",
        "ex03.progress.same_call_twice_must_stop":
            "the same call twice in a row must stop the run: keep `signatures`, append "
            "signature_of(response.content), and return stopped_by='no_progress' when find_loop(signatures) finds a "
            "loop",
        "ex03.progress.repeat_ran_before_the_check":
            "the repeated call ran before the check caught it: append the signature and ask find_loop BEFORE the "
            "tools run",
        "ex03.progress.repeat_counted_as_a_turn":
            "the repeated turn never ran, yet it was counted (turns={turns}): ask find_loop before `turns += 1`",
        "ex03.progress.caught_before_it_runs":
            "the second, identical response is caught before it runs: append its signature and check BEFORE `turns "
            "+= 1` and before the tools run",
        "ex03.progress.repeated_call_never_ran": "the repeated call never ran: read_file ran once (ran: {n})",
        "ex03.progress.check_before_running_tools": "check for no progress before running the tools, not after",
        "ex03.progress.says_why_it_stopped":
            "it says why it stopped (a text of the harness, not the model's), and the history it returns can be "
            "continued",
        "ex03.progress.return_before_appending_repeated":
            "return before appending the repeated response, with a text that says the harness stopped the run "
            "because the turns repeat",
        "ex03.progress.never_ends_is_not_stuck":
            "never-ends (a new file every turn): not stopped as no progress — the cap stops it after 4 turns",
        "ex03.progress.include_the_input":
            "a call with a different argument is a different signature: signature_of must include each call's input",
        "ex03.progress.keep_turn_cap": "keep the turn cap as it was",
        "ex03.progress.lesson_task_left_alone":
            "the lesson's task (2 different turns, then the answer) is left alone",
        "ex03.progress.progress_gets_its_answer": "a model that makes progress must get to its answer",
        "ex03.progress.valve_order": "the order at the top of the body: turn cap, token budget, then no progress",
        "ex03.progress.cap_stops_stuck_first": "stuck with max_turns=1: the cap, asked first, stops the second turn",
        "ex03.progress.budget_stops_stuck_first":
            "stuck with token_budget={totals_1} (spent after 2 requests): the budget, asked before no progress, "
            "stops it",
        "ex03.progress.no_budget_check_stopped": "no budget check stopped it: see check-budget",
        "ex03.progress.count_is_off":
            "the count is off, not the order of the valves — {count_hint} (see check-budget)",
        "ex03.progress.budget_must_stop_first":
            "the budget must stop it first: the order at the top of the body is turn cap, token budget "
            "(`tokens_used >= token_budget`: spent == budget is used up), then no progress",
        "ex03.progress.find_loop_asked_each_turn":
            "find_loop is asked once per tool-calling turn with every signature so far, oldest first",
        "ex03.progress.list_lengths_given": " (it was given lists of length {value})",
        "ex03.progress.find_loop_never_called":
            "find_loop was never called: call find_loop(signatures) (the argument), not your own comparison",
        "ex03.progress.keep_one_list":
            "keep ONE list for the run, append each turn's signature, and pass the whole list every turn",
        "ex03.progress.period_stops_the_run":
            "when find_loop returns a period, the run stops as no progress (a detector that fires at the 3rd turn: "
            "2 turns ran)",
        "ex03.progress.use_find_loops_verdict":
            "stop when find_loop(signatures) returns a period (any number but None/0): the loop must use its verdict",
        # check_signature
        "ex03.progress.signature.title": "signature_of: one turn's tool calls, as one comparable fingerprint",
        "ex03.progress.signature.takes_a_responses_content":
            "it takes a response's content (text and tool_use blocks)",
        "ex03.progress.signature.skip_non_tool_use_blocks":
            "skip the blocks that are not tool_use (the text a turn opens with has no name or input)",
        "ex03.progress.signature.same_call_two_turns":
            "the same call in two turns gives the same signature (each turn's blocks have new ids)",
        "ex03.progress.signature.leave_block_ids_out":
            "leave the block ids out: every tool_use gets a fresh id, so a signature with ids never repeats",
        "ex03.progress.signature.text_does_not_count": "the text before the calls does not change the signature",
        "ex03.progress.signature.only_tool_use_blocks":
            "only the tool_use blocks count: the model's sentence changes every turn while it walks in place",
        "ex03.progress.signature.order_does_not_count": "the same calls in another order give the same signature",
        "ex03.progress.signature.sort_the_calls":
            "sort the calls (e.g. the strings 'name(input)') before joining them: a parallel turn's order is not "
            "meaningful",
        "ex03.progress.signature.key_order_does_not_count":
            "the same input with its keys in another order (nested ones too) gives the same signature",
        "ex03.progress.signature.json_with_sorted_keys":
            "write the input as JSON with sorted keys: json.dumps(block.input, sort_keys=True) (str(dict) keeps the "
            "order the keys came in)",
        "ex03.progress.signature.different_argument_differs": "a different argument gives a different signature",
        "ex03.progress.signature.include_the_input":
            "include each call's input, not just its name: reading page 1 and page 2 is not walking in place",
        "ex03.progress.signature.different_tool_differs":
            "a different tool with the same input gives a different signature",
        "ex03.progress.signature.include_the_name": "include each call's name",
        # check_cycle
        "ex03.progress.cycle.title": "find_short_cycle: A, B, A, B … within a bounded look-back",
        "ex03.progress.cycle.empty_list": "(empty)",
        "ex03.progress.cycle.return_the_period":
            "return the period p itself (an int), not True, when the last p signatures repeat the p before them",
        "ex03.progress.cycle.short_list_raised":
            "a short list raised: with too few signatures for a period, skip that period",
        "ex03.progress.cycle.finds_repeats_anywhere":
            "it finds a repeat anywhere in the list: look only at the END — the last p signatures against the p "
            "just before them (a model may come back to a file after doing something else)",
        "ex03.progress.cycle.empty_list_gave_a_period":
            "the empty list gave {p!r}: with too few signatures for a period, skip that period (two empty slices "
            "are equal)",
        "ex03.progress.cycle.tried_longest_period_first":
            "it tried the longest period first: A A A A A A repeats with period 1, 2 and 3, and the answer is the "
            "shortest — try p = 1, 2, … max_period in that order",
        "ex03.progress.cycle.tries_periods_beyond_max":
            "it tries periods beyond max_period: try only p = 1 … max_period (the argument; default 3), which "
            "bounds how far back it looks",
        "ex03.progress.cycle.use_max_period_argument":
            "use the max_period argument: try every p from 1 to max_period, not a fixed set of periods",
        "ex03.progress.cycle.period_of_the_cycle_at_the_end":
            "it returns the period of a cycle at the end: A A → 1, A B A B → 2, A B C A B C → 3, X A B A B → 2",
        "ex03.progress.cycle.got_wrong": " (got {wrong})",
        "ex03.progress.cycle.compare_the_last_p":
            "for p in 1 … max_period: the last p signatures equal the p before them → return p",
        "ex03.progress.cycle.shortest_period_wins": "the shortest period wins: A A A A A A → 1 (try p = 1 first)",
        "ex03.progress.cycle.try_short_periods_first": "try the short periods first: p = 1, 2, … max_period",
        "ex03.progress.cycle.no_cycle_no_answer": "no cycle, no answer: [], A, A B, A B A, A B C D → None",
        "ex03.progress.cycle.got_loud": " (got {loud})",
        "ex03.progress.cycle.needs_block_twice":
            "a cycle needs its block twice in a row; with too few signatures for a period, skip that period",
        "ex03.progress.cycle.left_cycle_is_no_cycle":
            "a signature seen before, after progress, is not a cycle: A B C A → None; a cycle the model has left "
            "behind does not count: A B A B C → None",
        "ex03.progress.cycle.got_revisit_left": " (got {revisit!r}, {left!r})",
        "ex03.progress.cycle.look_only_at_the_end":
            "look only at the END of the list: the last p signatures against the p just before them, not anywhere "
            "in the history (a model may come back to a file after doing something else)",
        "ex03.progress.cycle.bounded_look_back":
            "it looks back at most 2 × max_period signatures: longer cycles are not its business",
        "ex03.progress.cycle.got_over": " (got {over})",
        "ex03.progress.cycle.try_only_up_to_max_period":
            "try only p = 1 … max_period (the argument; default 3): that bounds how far back it looks",
        "ex03.progress.cycle.max_period_3_honoured": "max_period=3 is honoured (A B C A B C → 3)",
        "ex03.progress.cycle.got_three": " (got {three!r})",
        "ex03.progress.cycle.use_max_period_not_fixed": "use the max_period argument, not a fixed number of periods",
        "ex03.progress.cycle.ping_pong_stopped_in_a_loop":
            "in a loop, ping-pong (read_file, get_time, …) is stopped at the 4th response: 3 turns ran",
        "ex03.progress.cycle.got_turns": " (got {stopped_by}, {turns} turns)",
        "ex03.progress.cycle.abab_is_period_2": "A B A B is a cycle of period 2",
        "ex03.progress.cycle.aba_task_gets_its_answer":
            "a task that reads README.md, tells the time, then reads README.md again (A B A) gets to its answer",
        "ex03.progress.cycle.aba_is_no_cycle_yet":
            "A B A is no cycle yet: only a block repeated twice in a row at the end is",
        "ex03.progress.cycle.ping_pong_stopped_in_run_guarded":
            "plugged into your run_guarded: ping-pong stops as no progress after 3 turns and 4 requests",
        "ex03.progress.cycle.run_guarded_must_use_find_loop":
            "run_guarded must stop when find_loop(signatures) returns a period (see check-progress)",
        # the stop's text; what a period is
        "ex03.progress.not_the_models_text":
            "that is the model's own text, not the harness's: say in your words that the harness stopped the run "
            "because the turns repeat",
        "ex03.progress.name_the_repeat":
            'a person must read it as "the harness stopped the run: no progress": say that the turns repeat (repeat, '
            'loop, cycle, same, no progress), e.g. "Stopped by the harness: the last turns repeat; no progress."',
        "ex03.progress.cycle.zero_is_no_period":
            "0 is not a period: a period is 1 or more (the length of the block that repeats), and no cycle is None — "
            "`return None`, not 0",
        "ex03.progress.cycle.a_block_twice_is_enough":
            "a block repeated twice is exactly 2 × p signatures (A A is 2: period 1; A B A B is 4: period 2): it "
            "asks for more than that — `len(signatures) >= 2 * p`",
    },
    "es": {
        # check_progress
        "ex03.progress.title":
            "válvula 3: a un modelo que gira en vacío se le detiene antes de que se ejecute el turno repetido",
        "ex03.progress.stuck_stopped_no_progress": "stuck: stopped_by='no_progress' tras 1 turno y 2 peticiones",
        "ex03.progress.same_call_twice_must_stop":
            "la misma llamada dos veces seguidas tiene que detener la ejecución: lleva `signatures`, añade "
            "signature_of(response.content) y devuelve stopped_by='no_progress' cuando find_loop(signatures) "
            "encuentre un ciclo",
        "ex03.progress.repeat_ran_before_the_check":
            "la llamada repetida se ejecutó antes de que la comprobación la detectara: añade la firma y pregunta a "
            "find_loop ANTES de ejecutar las herramientas",
        "ex03.progress.repeat_counted_as_a_turn":
            "el turno repetido nunca se ejecutó, pero se contó (turns={turns}): pregunta a find_loop antes de "
            "`turns += 1`",
        "ex03.progress.caught_before_it_runs":
            "la segunda respuesta, idéntica, se detecta antes de ejecutarla: añade su firma y comprueba ANTES de "
            "`turns += 1` y antes de que se ejecuten las herramientas",
        "ex03.progress.repeated_call_never_ran":
            "la llamada repetida no llegó a ejecutarse: read_file se ejecutó una vez (se ejecutó: {n})",
        "ex03.progress.check_before_running_tools":
            "comprueba la falta de progreso antes de ejecutar las herramientas, no después",
        "ex03.progress.says_why_it_stopped":
            "dice por qué se detuvo (un texto del arnés, no del modelo), y el historial que devuelve se puede "
            "continuar",
        "ex03.progress.return_before_appending_repeated":
            "devuelve el resultado antes de añadir la respuesta repetida, con un texto que diga que el arnés detuvo "
            "la ejecución porque los turnos se repiten",
        "ex03.progress.never_ends_is_not_stuck":
            "never-ends (un archivo nuevo en cada turno): no se detiene por falta de progreso — lo detiene el tope "
            "de turnos tras 4 turnos",
        "ex03.progress.include_the_input":
            "una llamada con un argumento distinto es una firma distinta: signature_of tiene que incluir la entrada "
            "de cada llamada",
        "ex03.progress.keep_turn_cap": "deja el tope de turnos como estaba",
        "ex03.progress.lesson_task_left_alone":
            "la tarea de la lección (2 turnos distintos y luego la respuesta) sigue su curso",
        "ex03.progress.progress_gets_its_answer": "un modelo que avanza tiene que llegar a su respuesta",
        "ex03.progress.valve_order":
            "el orden al principio del cuerpo: tope de turnos, tope de presupuesto y después falta de progreso",
        "ex03.progress.cap_stops_stuck_first":
            "stuck con max_turns=1: el tope de turnos, que se comprueba primero, detiene el segundo turno",
        "ex03.progress.budget_stops_stuck_first":
            "stuck con token_budget={totals_1} (gastado tras 2 peticiones): lo detiene el presupuesto, que se "
            "comprueba antes que la falta de progreso",
        "ex03.progress.no_budget_check_stopped":
            "no lo detuvo ninguna comprobación del presupuesto: mira check-budget",
        "ex03.progress.count_is_off":
            "falla la cuenta, no el orden de las válvulas — {count_hint} (mira check-budget)",
        "ex03.progress.budget_must_stop_first":
            "primero tiene que detenerlo el presupuesto: el orden al principio del cuerpo es tope de turnos, tope "
            "de presupuesto (`tokens_used >= token_budget`: gastado == presupuesto es que se agotó) y luego falta "
            "de progreso",
        "ex03.progress.find_loop_asked_each_turn":
            "se pregunta a find_loop una vez por turno con llamadas a herramientas, con todas las firmas hasta ese "
            "momento, la más antigua primero",
        "ex03.progress.list_lengths_given": " (recibió listas de longitud {value})",
        "ex03.progress.find_loop_never_called":
            "nunca se llamó a find_loop: llama a find_loop(signatures) (el argumento), no a una comparación tuya",
        "ex03.progress.keep_one_list":
            "lleva UNA lista para toda la ejecución, añade la firma de cada turno y pasa la lista entera en cada "
            "turno",
        "ex03.progress.period_stops_the_run":
            "cuando find_loop devuelve un periodo, la ejecución se detiene por falta de progreso (un detector que "
            "salta en el 3.er turno: se ejecutaron 2 turnos)",
        "ex03.progress.use_find_loops_verdict":
            "detente cuando find_loop(signatures) devuelva un periodo (cualquier número salvo None/0): el bucle "
            "tiene que hacer caso a su veredicto",
        # check_signature
        "ex03.progress.signature.title":
            "signature_of: las llamadas a herramientas de un turno, como una huella que se puede comparar",
        "ex03.progress.signature.takes_a_responses_content":
            "acepta el content de una respuesta (bloques de texto y tool_use)",
        "ex03.progress.signature.skip_non_tool_use_blocks":
            "sáltate los bloques que no son tool_use (el texto con el que se abre un turno no tiene name ni input)",
        "ex03.progress.signature.same_call_two_turns":
            "la misma llamada en dos turnos da la misma firma (los bloques de cada turno traen ids nuevos)",
        "ex03.progress.signature.leave_block_ids_out":
            "deja fuera los ids de los bloques: cada tool_use trae un id nuevo, así que una firma con ids no se "
            "repite nunca",
        "ex03.progress.signature.text_does_not_count": "el texto previo a las llamadas no cambia la firma",
        "ex03.progress.signature.only_tool_use_blocks":
            "solo cuentan los bloques tool_use: la frase del modelo cambia en cada turno aunque esté girando en "
            "vacío",
        "ex03.progress.signature.order_does_not_count": "las mismas llamadas en otro orden dan la misma firma",
        "ex03.progress.signature.sort_the_calls":
            "ordena las llamadas (p. ej. las cadenas 'name(input)') antes de unirlas: el orden de un turno en "
            "paralelo no significa nada",
        "ex03.progress.signature.key_order_does_not_count":
            "la misma entrada con sus claves en otro orden (también las anidadas) da la misma firma",
        "ex03.progress.signature.json_with_sorted_keys":
            "escribe la entrada como JSON con las claves ordenadas: json.dumps(block.input, sort_keys=True) "
            "(str(dict) conserva el orden en que llegaron las claves)",
        "ex03.progress.signature.different_argument_differs": "un argumento distinto da una firma distinta",
        "ex03.progress.signature.include_the_input":
            "incluye la entrada de cada llamada, no solo su nombre: leer la página 1 y la 2 no es girar en vacío",
        "ex03.progress.signature.different_tool_differs":
            "otra herramienta con la misma entrada da una firma distinta",
        "ex03.progress.signature.include_the_name": "incluye el nombre de cada llamada",
        # check_cycle
        "ex03.progress.cycle.title": "find_short_cycle: A, B, A, B… mirando atrás solo hasta cierto punto",
        "ex03.progress.cycle.empty_list": "(vacía)",
        "ex03.progress.cycle.return_the_period":
            "devuelve el propio periodo p (un int), no True, cuando las últimas p firmas repiten las p anteriores",
        "ex03.progress.cycle.short_list_raised":
            "una lista corta lanzó una excepción: si no hay firmas suficientes para un periodo, sáltate ese periodo",
        "ex03.progress.cycle.finds_repeats_anywhere":
            "encuentra una repetición en cualquier parte de la lista: mira solo el FINAL — las últimas p firmas "
            "contra las p justo anteriores (un modelo puede volver a un archivo después de hacer otra cosa)",
        "ex03.progress.cycle.empty_list_gave_a_period":
            "la lista vacía dio {p!r}: si no hay firmas suficientes para un periodo, sáltate ese periodo (dos "
            "cortes vacíos son iguales)",
        "ex03.progress.cycle.tried_longest_period_first":
            "probó primero el periodo más largo: A A A A A A se repite con periodo 1, 2 y 3, y la respuesta es el "
            "más corto — prueba p = 1, 2, … max_period en ese orden",
        "ex03.progress.cycle.tries_periods_beyond_max":
            "prueba periodos mayores que max_period: prueba solo p = 1 … max_period (el argumento; por defecto 3), "
            "que limita hasta dónde mira hacia atrás",
        "ex03.progress.cycle.use_max_period_argument":
            "usa el argumento max_period: prueba cada p de 1 a max_period, no un conjunto fijo de periodos",
        "ex03.progress.cycle.period_of_the_cycle_at_the_end":
            "devuelve el periodo de un ciclo al final: A A → 1, A B A B → 2, A B C A B C → 3, X A B A B → 2",
        "ex03.progress.cycle.got_wrong": " (se obtuvo {wrong})",
        "ex03.progress.cycle.compare_the_last_p":
            "para p en 1 … max_period: si las últimas p firmas son iguales a las p anteriores → devuelve p",
        "ex03.progress.cycle.shortest_period_wins":
            "gana el periodo más corto: A A A A A A → 1 (prueba primero p = 1)",
        "ex03.progress.cycle.try_short_periods_first": "prueba primero los periodos cortos: p = 1, 2, … max_period",
        "ex03.progress.cycle.no_cycle_no_answer": "sin ciclo no hay respuesta: [], A, A B, A B A, A B C D → None",
        "ex03.progress.cycle.got_loud": " (se obtuvo {loud})",
        "ex03.progress.cycle.needs_block_twice":
            "un ciclo necesita su bloque dos veces seguidas; si no hay firmas suficientes para un periodo, sáltate "
            "ese periodo",
        "ex03.progress.cycle.left_cycle_is_no_cycle":
            "una firma que ya salió, después de avanzar, no es un ciclo: A B C A → None; un ciclo que el modelo ya "
            "dejó atrás no cuenta: A B A B C → None",
        "ex03.progress.cycle.got_revisit_left": " (se obtuvo {revisit!r}, {left!r})",
        "ex03.progress.cycle.look_only_at_the_end":
            "mira solo el FINAL de la lista: las últimas p firmas frente a las p justo anteriores, no en cualquier "
            "punto del historial (un modelo puede volver a un archivo después de hacer otra cosa)",
        "ex03.progress.cycle.bounded_look_back":
            "mira atrás como mucho 2 × max_period firmas: los ciclos más largos no son asunto suyo",
        "ex03.progress.cycle.got_over": " (se obtuvo {over})",
        "ex03.progress.cycle.try_only_up_to_max_period":
            "prueba solo p = 1 … max_period (el argumento; por defecto 3): eso limita cuánto mira hacia atrás",
        "ex03.progress.cycle.max_period_3_honoured": "se respeta max_period=3 (A B C A B C → 3)",
        "ex03.progress.cycle.got_three": " (se obtuvo {three!r})",
        "ex03.progress.cycle.use_max_period_not_fixed": "usa el argumento max_period, no un número fijo de periodos",
        "ex03.progress.cycle.ping_pong_stopped_in_a_loop":
            "dentro de un bucle, el ping-pong (read_file, get_time, …) se detiene en la 4.ª respuesta: se "
            "ejecutaron 3 turnos",
        "ex03.progress.cycle.got_turns": " (se obtuvo {stopped_by}, {turns} turnos)",
        "ex03.progress.cycle.abab_is_period_2": "A B A B es un ciclo de periodo 2",
        "ex03.progress.cycle.aba_task_gets_its_answer":
            "una tarea que lee README.md, dice la hora y vuelve a leer README.md (A B A) llega a su respuesta",
        "ex03.progress.cycle.aba_is_no_cycle_yet":
            "A B A todavía no es un ciclo: solo lo es un bloque repetido dos veces seguidas al final",
        "ex03.progress.cycle.ping_pong_stopped_in_run_guarded":
            "enchufado a tu run_guarded: el ping-pong se detiene por falta de progreso tras 3 turnos y 4 peticiones",
        "ex03.progress.cycle.run_guarded_must_use_find_loop":
            "run_guarded tiene que detenerse cuando find_loop(signatures) devuelve un periodo (mira check-progress)",
        # the stop's text; what a period is
        "ex03.progress.not_the_models_text":
            "ese es el texto del propio modelo, no el del arnés: di con tus palabras que el arnés detuvo la ejecución "
            "porque los turnos se repiten",
        "ex03.progress.name_the_repeat":
            'quien lo lea tiene que entender "el arnés detuvo la ejecución: no hay progreso": di que los turnos se '
            'repiten (repite, bucle, ciclo, mismo, sin progreso), p. ej. "El arnés se detuvo: los últimos turnos se '
            'repiten; no hay progreso."',
        "ex03.progress.cycle.zero_is_no_period":
            "0 no es un periodo: un periodo es 1 o más (la longitud del bloque que se repite), y sin ciclo es None — "
            "`return None`, no 0",
        "ex03.progress.cycle.a_block_twice_is_enough":
            "un bloque repetido dos veces son exactamente 2 × p firmas (A A son 2: periodo 1; A B A B son 4: periodo "
            "2): pide más que eso — `len(signatures) >= 2 * p`",
    },
}
