"""The checks' words: exercise 3, the token budget (ex03_budget.py), in English and Spanish.

Data only: {language: {message_id: text}}, ids grouped under the function that uses them. How the catalogues
are read, and how a sentence is added: kit.py's docstring.
"""

MESSAGES = {
    "en": {
        # check_tokens
        "ex03.budget.tokens.title": "tokens_of: every token one response was billed for",
        "ex03.budget.tokens.no_caching": "no caching: input_tokens + output_tokens (1200 + 80 = 1280)",
        # (also in ex03_progress.py)
        "ex03.budget.tokens.got": " (got {got!r})",
        # (also in ex03_progress.py)
        "ex03.budget.tokens.raised_problem": "it raised {problem}",
        "ex03.budget.tokens.return_a_whole_number":
            "return a whole number: usage.input_tokens + usage.output_tokens + …",
        "ex03.budget.tokens.cached_run_numbers":
            "(a cached run on the offline model: the 1st response wrote {cache_creation_input_tokens} tokens to the "
            "cache, the 2nd read {cache_read_input_tokens} from it; input_tokens was only {input_tokens}, then "
            "{input_tokens2})",
        "ex03.budget.tokens.counts_cache_writes":
            "the first request of a cached run counts its cache writes: {all_four} tokens",
        "ex03.budget.tokens.cache_writes_missing":
            "input + output alone is {short}: with caching on, the cached part of the prompt is billed as "
            "cache_creation_input_tokens (first time) and cache_read_input_tokens (after): add both",
        "ex03.budget.tokens.add_every_billed_counter":
            "add every billed counter: input, output, cache_creation_input_tokens, cache_read_input_tokens",
        "ex03.budget.tokens.counts_cache_reads": "a later request counts its cache reads: {all_four} tokens",
        "ex03.budget.tokens.cache_reads_billed_too":
            "cache reads are billed too (cheaper per token, but they fill the context and the budget): add "
            "usage.cache_read_input_tokens",
        "ex03.budget.tokens.missing_counters_are_0":
            "a usage whose cache counters are missing (None) counts them as 0 (30 + 12 = 42)",
        "ex03.budget.tokens.counter_can_be_none":
            "a counter can be None: `usage.cache_read_input_tokens or 0` (None + int raises TypeError)",
        "ex03.budget.tokens.a_missing_counter_is_0": "a missing counter is 0",
        "ex03.budget.tokens.live_usage_counts_writes_once":
            "a usage shaped like a live one (cache_creation also broken down by lifetime) counts the cache writes "
            "once (50 + 20 + 3000 = 3070)",
        "ex03.budget.tokens.breakdown_is_not_more_tokens":
            "usage.cache_creation is a breakdown of cache_creation_input_tokens (by cache lifetime), not more "
            "tokens: add the four *_tokens counters, nothing else",
        # _loop_hint
        "ex03.budget.loop.something_calls_not_written": "something it calls is not written yet ({problem})",
        "ex03.budget.loop.does_not_stop": "the loop does not stop: keep the turn cap at the top of the body",
        # _count_hint
        "ex03.budget.count.first_response_left_out":
            "tokens_used leaves out the first response: start it at tokens_of(response.usage), right after the "
            "first request (the first response costs too)",
        "ex03.budget.count.only_last_response":
            "tokens_used holds only the last response's tokens: add each response's to the total (`tokens_used += "
            "tokens_of(response.usage)`), do not replace it",
        "ex03.budget.count.tokens_used_stays_0":
            "tokens_used stays 0: add tokens_of(response.usage) after every request, the first one included",
        "ex03.budget.count.add_after_every_request":
            "add tokens_of(response.usage) after EVERY request, the first one included, and return the total",
        # check_budget
        "ex03.budget.title": "valve 2: the token budget, checked after the cap and before spending more",
        "ex03.budget.token_hog_stopped_by_budget":
            "token-hog, max_turns=8, token_budget=40,000: stopped_by='token_budget' after {turns} turns and "
            "{requests} requests",
        "ex03.budget.cap_stopped_not_budget":
            "the cap stopped it, not the budget: add `if tokens_used >= token_budget:` right after the cap check",
        "ex03.budget.stopped_after_counting_the_turn":
            "the budget stopped the run after the turn was counted (turns={got_1}, though {n} turns ran): ask it at "
            "the top of the body, right after the cap, before `turns += 1` and before the response is appended",
        "ex03.budget.stopped_at_wrong_moment":
            "stopped at the wrong moment (turns={got_1}, requests={got_2}): add each response's tokens as it "
            "arrives, and ask `tokens_used >= token_budget` at the top of the body, right after the cap",
        "ex03.budget.tokens_used_is_the_sum":
            "tokens_used is the sum over every request, the first included ({tokens_used})",
        "ex03.budget.got_tokens_used": " (got {tokens_used})",
        "ex03.budget.tools_ran_in_allowed_turns":
            "the tools ran in exactly the {turns} turns that were allowed (ran: {n})",
        "ex03.budget.stop_before_running_turn": "stop before running the turn that would spend more, not after",
        "ex03.budget.stop_text_is_the_harnesss":
            "the budget's stop comes with a text that says the harness stopped the run: its own words (not the "
            "model's), naming the token budget and a number it stopped at",
        "ex03.budget.say_the_budget_stopped_it":
            "when the budget stops the run, say so in your own words, e.g. f\"Stopped by the harness: {tokens_used} "
            "tokens used, reaching the token budget of {token_budget}.\" — the model's last text is not an answer, "
            "the harness cut it off",
        "ex03.budget.return_before_appending": "return before appending the response whose calls you will not run",
        "ex03.budget.pass_tools_to_create": "pass the tools argument to messages.create",
        "ex03.budget.budget_of_1_runs_no_turn":
            "token_budget=1: the first response already spends it, so no turn runs (1 request)",
        "ex03.budget.check_at_the_top":
            "check the budget at the TOP of the body, before the first turn runs: a check at the bottom, after the "
            "next request, lets the first turn run whatever the first response cost",
        "ex03.budget.cap_named_before_budget":
            "max_turns=0 and token_budget=1 both say stop: the turn cap, checked first, names it",
        "ex03.budget.cap_then_budget":
            "the order at the top of the body is: turn cap, then token budget (the lessons' valve order)",
        "ex03.budget.reached_exactly_stops":
            "a budget reached exactly (token_budget={totals_3}, the total after 4 requests) stops the run: `>=`, "
            "not `>`",
        "ex03.budget.use_greater_or_equal":
            "spent == budget means the budget is used up: `if tokens_used >= token_budget:`",
        "ex03.budget.count_every_response":
            "count every response's tokens (the first too) and stop at the top of the body once the total reaches "
            "the budget",
        "ex03.budget.answer_kept_past_budget":
            "a model that ends its turn keeps its answer, even when that last response crosses the budget",
        "ex03.budget.got_stopped": " (got stopped_by={stopped_by!r})",
        "ex03.budget.check_before_spending_more":
            "the budget is checked before spending MORE: once the model has answered nothing more will be spent, so "
            "return its answer. A check after the request (at the bottom of the body) replaces it with a stop",
        "ex03.budget.counts_cached_tokens":
            "with prompt caching on, the budget counts the cached tokens too (token_budget={true_totals_2}: reached "
            "after 3 requests)",
        "ex03.budget.add_all_four_counters":
            "the loop must add tokens_of(response.usage) — all four counters — not input_tokens + output_tokens: a "
            "cached prompt shows up in cache_read_input_tokens",
        # run_causes: what a run depends on besides its arguments
        "ex03.budget.name_the_budget":
            'a person must read it as "the harness stopped the run at the token budget": name the budget (token or '
            'budget) and a number (the budget, or the tokens spent), e.g. f"Stopped by the harness: {tokens_used} '
            'tokens used, reaching the token budget of {token_budget}."',
        "ex03.budget.state.tokens_of_keeps_a_total":
            "tokens_of gave {first}, then {second}, for the same usage: it keeps a total between calls — return what "
            "this one usage costs; the loop adds the responses up",
        "ex03.budget.state.list_survives":
            "find_loop's first question of a run got {n} signatures, though the run had taken one turn: the list "
            "survives between runs — make it inside the function (`signatures = []` in the body): a default like "
            "signatures=[], or a list at module level, is made once and shared by every run",
        "ex03.budget.state.uses_its_limits": "the loop stops at the max_turns and token_budget it is given",
        "ex03.budget.state.fixed_cap":
            "with max_turns=2 it ran {n} turns: your function compares with a fixed number (or a constant), not its "
            "`max_turns` argument — `if turns >= max_turns:`",
        "ex03.budget.state.fixed_budget":
            "with token_budget=1,000,000,000 the budget stopped it at {n} tokens: your function compares with a fixed "
            "number (40_000?), not its `token_budget` argument — `if tokens_used >= token_budget:`",
        "ex03.budget.append_then_ask":
            "find_loop was asked before this turn's signature was appended (its first question of a run got an "
            "empty list): append signature_of(response.content) first, then ask find_loop(signatures) — asked "
            "the other way round, a repeat is caught a turn late, after the repeated call ran",
        "ex03.budget.count.not_tokens_of":
            "tokens_used counts only {counted}: add tokens_of(response.usage) — every billed counter — after every "
            "request, the first one included",
        "ex03.budget.count.counted_output": "output_tokens",
        "ex03.budget.count.counted_io": "input_tokens + output_tokens (not the cache counters)",
    },
    "es": {
        # check_tokens
        "ex03.budget.tokens.title": "tokens_of: todos los tokens que se facturaron por una respuesta",
        "ex03.budget.tokens.no_caching": "sin caché: input_tokens + output_tokens (1200 + 80 = 1280)",
        # (also in ex03_progress.py)
        "ex03.budget.tokens.got": " (se obtuvo {got!r})",
        # (also in ex03_progress.py)
        "ex03.budget.tokens.raised_problem": "lanzó {problem}",
        "ex03.budget.tokens.return_a_whole_number":
            "devuelve un número entero: usage.input_tokens + usage.output_tokens + …",
        "ex03.budget.tokens.cached_run_numbers":
            "(una ejecución con caché en el modelo sin conexión: la 1.ª respuesta escribió "
            "{cache_creation_input_tokens} tokens en la caché y la 2.ª leyó {cache_read_input_tokens} de ella; "
            "input_tokens fue solo {input_tokens} y luego {input_tokens2})",
        "ex03.budget.tokens.counts_cache_writes":
            "la primera petición de una ejecución con caché cuenta lo que escribió en la caché: {all_four} tokens",
        "ex03.budget.tokens.cache_writes_missing":
            "solo entrada + salida da {short}: con la caché activada, la parte del prompt que está en caché se "
            "factura como cache_creation_input_tokens (la primera vez) y cache_read_input_tokens (después): suma "
            "los dos",
        "ex03.budget.tokens.add_every_billed_counter":
            "suma todos los contadores que se facturan: entrada, salida, cache_creation_input_tokens, "
            "cache_read_input_tokens",
        "ex03.budget.tokens.counts_cache_reads":
            "una petición posterior cuenta lo que leyó de la caché: {all_four} tokens",
        "ex03.budget.tokens.cache_reads_billed_too":
            "las lecturas de la caché también se facturan (más baratas por token, pero llenan el contexto y el "
            "presupuesto): suma usage.cache_read_input_tokens",
        "ex03.budget.tokens.missing_counters_are_0":
            "un usage al que le faltan los contadores de caché (None) los cuenta como 0 (30 + 12 = 42)",
        "ex03.budget.tokens.counter_can_be_none":
            "un contador puede ser None: `usage.cache_read_input_tokens or 0` (None + int lanza TypeError)",
        "ex03.budget.tokens.a_missing_counter_is_0": "un contador que falta vale 0",
        "ex03.budget.tokens.live_usage_counts_writes_once":
            "un usage con la forma de uno en vivo (cache_creation desglosado además por duración) cuenta una sola "
            "vez lo escrito en la caché (50 + 20 + 3000 = 3070)",
        "ex03.budget.tokens.breakdown_is_not_more_tokens":
            "usage.cache_creation es un desglose de cache_creation_input_tokens (por duración de la caché), no más "
            "tokens: suma los cuatro contadores *_tokens y nada más",
        # _loop_hint
        "ex03.budget.loop.something_calls_not_written": "algo a lo que llama aún no está escrito ({problem})",
        "ex03.budget.loop.does_not_stop": "el bucle no se detiene: mantén el tope de turnos al principio del cuerpo",
        # _count_hint
        "ex03.budget.count.first_response_left_out":
            "tokens_used deja fuera la primera respuesta: empieza con tokens_of(response.usage), justo después de "
            "la primera petición (la primera respuesta también cuesta)",
        "ex03.budget.count.only_last_response":
            "tokens_used solo guarda los tokens de la última respuesta: suma los de cada respuesta al total "
            "(`tokens_used += tokens_of(response.usage)`), no lo reemplaces",
        "ex03.budget.count.tokens_used_stays_0":
            "tokens_used se queda en 0: suma tokens_of(response.usage) después de cada petición, también de la "
            "primera",
        "ex03.budget.count.add_after_every_request":
            "suma tokens_of(response.usage) después de CADA petición, la primera incluida, y devuelve el total",
        # check_budget
        "ex03.budget.title":
            "válvula 2: el tope de presupuesto, comprobado después del tope de turnos y antes de gastar más",
        "ex03.budget.token_hog_stopped_by_budget":
            "token-hog, max_turns=8, token_budget=40_000: stopped_by='token_budget' tras {turns} turnos y "
            "{requests} peticiones",
        "ex03.budget.cap_stopped_not_budget":
            "lo detuvo el tope de turnos, no el presupuesto: añade `if tokens_used >= token_budget:` justo después "
            "de comprobar el tope de turnos",
        "ex03.budget.stopped_after_counting_the_turn":
            "el presupuesto detuvo la ejecución después de contar el turno (turns={got_1}, aunque se ejecutaron {n} "
            "turnos): compruébalo al principio del cuerpo, justo después del tope de turnos, antes de `turns += 1` "
            "y antes de añadir la respuesta",
        "ex03.budget.stopped_at_wrong_moment":
            "se detuvo en mal momento (turns={got_1}, requests={got_2}): suma los tokens de cada respuesta en "
            "cuanto llega y comprueba `tokens_used >= token_budget` al principio del cuerpo, justo después del tope "
            "de turnos",
        "ex03.budget.tokens_used_is_the_sum":
            "tokens_used es la suma de todas las peticiones, la primera incluida ({tokens_used})",
        "ex03.budget.got_tokens_used": " (se obtuvo {tokens_used})",
        "ex03.budget.tools_ran_in_allowed_turns":
            "las herramientas se ejecutaron exactamente en los {turns} turnos permitidos (se ejecutaron: {n})",
        "ex03.budget.stop_before_running_turn": "detente antes de ejecutar el turno que gastaría más, no después",
        "ex03.budget.stop_text_is_the_harnesss":
            "la parada por presupuesto trae un texto que dice que el arnés detuvo la ejecución: con sus propias "
            "palabras (no las del modelo), nombrando el presupuesto de tokens y un número en el que se detuvo",
        "ex03.budget.say_the_budget_stopped_it":
            'cuando el presupuesto detenga la ejecución, dilo con tus palabras, p. ej. f"El arnés se detuvo: se '
            'gastaron {tokens_used} tokens y se alcanzó el tope de presupuesto de {token_budget}." — el último '
            'texto del modelo no es una respuesta: el arnés lo cortó',
        "ex03.budget.return_before_appending":
            "devuelve el resultado antes de añadir la respuesta cuyas llamadas no vas a ejecutar",
        "ex03.budget.pass_tools_to_create": "pasa el argumento tools a messages.create",
        "ex03.budget.budget_of_1_runs_no_turn":
            "token_budget=1: la primera respuesta ya lo gasta, así que no se ejecuta ningún turno (1 petición)",
        "ex03.budget.check_at_the_top":
            "comprueba el presupuesto al PRINCIPIO del cuerpo, antes de que se ejecute el primer turno: una "
            "comprobación al final, después de la petición siguiente, deja correr el primer turno cueste lo que "
            "cueste la primera respuesta",
        "ex03.budget.cap_named_before_budget":
            "max_turns=0 y token_budget=1 dicen los dos que hay que parar: lo nombra el tope de turnos, que se "
            "comprueba primero",
        "ex03.budget.cap_then_budget":
            "el orden al principio del cuerpo es: tope de turnos y luego tope de presupuesto (el orden de las "
            "válvulas de las lecciones)",
        "ex03.budget.reached_exactly_stops":
            "un presupuesto alcanzado justo (token_budget={totals_3}, el total tras 4 peticiones) detiene la "
            "ejecución: `>=`, no `>`",
        "ex03.budget.use_greater_or_equal":
            "gastado == presupuesto significa que el presupuesto se agotó: `if tokens_used >= token_budget:`",
        "ex03.budget.count_every_response":
            "cuenta los tokens de cada respuesta (también de la primera) y detente al principio del cuerpo en "
            "cuanto el total llegue al presupuesto",
        "ex03.budget.answer_kept_past_budget":
            "un modelo que cierra su turno conserva su respuesta, aunque esa última respuesta se pase del "
            "presupuesto",
        "ex03.budget.got_stopped": " (se obtuvo stopped_by={stopped_by!r})",
        "ex03.budget.check_before_spending_more":
            "el presupuesto se comprueba antes de gastar MÁS: cuando el modelo ya respondió no se va a gastar nada "
            "más, así que devuelve su respuesta. Una comprobación después de la petición (al final del cuerpo) la "
            "cambia por una parada",
        "ex03.budget.counts_cached_tokens":
            "con la caché de prompts activada, el presupuesto cuenta también los tokens de la caché "
            "(token_budget={true_totals_2}: se alcanza tras 3 peticiones)",
        "ex03.budget.add_all_four_counters":
            "el bucle tiene que sumar tokens_of(response.usage) —los cuatro contadores—, no input_tokens + "
            "output_tokens: un prompt en caché aparece en cache_read_input_tokens",
        # run_causes: what a run depends on besides its arguments
        "ex03.budget.name_the_budget":
            'quien lo lea tiene que entender "el arnés detuvo la ejecución por el presupuesto de tokens": nombra el '
            'presupuesto (token o presupuesto) y un número (el presupuesto, o los tokens gastados), p. ej. f"El '
            'arnés se detuvo: se gastaron {tokens_used} tokens y se alcanzó el presupuesto de {token_budget}."',
        "ex03.budget.state.tokens_of_keeps_a_total":
            "tokens_of dio {first} y luego {second} para el mismo usage: guarda un total entre llamadas — devuelve lo "
            "que cuesta este usage; el bucle suma las respuestas",
        "ex03.budget.state.list_survives":
            "la primera pregunta a find_loop de una ejecución recibió {n} firmas, aunque la ejecución llevaba un "
            "turno: la lista sobrevive entre ejecuciones — créala dentro de la función (`signatures = []` en el "
            "cuerpo): un valor por defecto como signatures=[], o una lista a nivel de módulo, se crea una vez y la "
            "comparten todas las ejecuciones",
        "ex03.budget.state.uses_its_limits": "el bucle se detiene en el max_turns y el token_budget que recibe",
        "ex03.budget.state.fixed_cap":
            "con max_turns=2 ejecutó {n} turnos: tu función compara con un número fijo (o una constante), no con su "
            "argumento `max_turns` — `if turns >= max_turns:`",
        "ex03.budget.state.fixed_budget":
            "con token_budget=1.000.000.000 el presupuesto lo detuvo en {n} tokens: tu función compara con un número "
            "fijo (¿40_000?), no con su argumento `token_budget` — `if tokens_used >= token_budget:`",
        "ex03.budget.append_then_ask":
            "se preguntó a find_loop antes de añadir la firma de este turno (su primera pregunta de una ejecución "
            "recibió una lista vacía): añade primero signature_of(response.content) y luego pregunta "
            "find_loop(signatures) — al revés, una repetición se detecta un turno tarde, después de ejecutar la "
            "llamada repetida",
        "ex03.budget.count.not_tokens_of":
            "tokens_used cuenta solo {counted}: suma tokens_of(response.usage) — todos los contadores facturados — "
            "después de cada petición, la primera incluida",
        "ex03.budget.count.counted_output": "output_tokens",
        "ex03.budget.count.counted_io": "input_tokens + output_tokens (no los contadores de caché)",
    },
}
