"""The checks' words in Spanish: exercise 3, the token budget (ex03_budget.py).

For the twins in exercises/es/. Data only: keyed by the English text at each _t() call, grouped under the
function that calls it; a text another module uses too is listed once, in the first module that uses it.
The {fields} are the same in both languages. kit.py merges the tables into one SPANISH.
"""

SPANISH = {
    # check_tokens
    "tokens_of: every token one response was billed for": "tokens_of: todos los tokens que se facturaron por una respuesta",
    "no caching: input_tokens + output_tokens (1200 + 80 = 1280)": "sin caché: input_tokens + output_tokens (1200 + 80 = 1280)",
    # (also in ex03_progress.py)
    " (got {got!r})": " (se obtuvo {got!r})",
    # (also in ex03_progress.py)
    "it raised {problem}": "lanzó {problem}",
    "return a whole number: usage.input_tokens + usage.output_tokens + …":
        "devuelve un número entero: usage.input_tokens + usage.output_tokens + …",
    "(a cached run on the offline model: the 1st response wrote {cache_creation_input_tokens} tokens to the cache, "
    "the 2nd read {cache_read_input_tokens} from it; input_tokens was only {input_tokens}, then {input_tokens2})":
        "(una ejecución con caché en el modelo sin conexión: la 1.ª respuesta escribió {cache_creation_input_tokens} "
        "tokens en la caché y la 2.ª leyó {cache_read_input_tokens} de ella; input_tokens fue solo {input_tokens} y "
        "luego {input_tokens2})",
    "the first request of a cached run counts its cache writes: {all_four} tokens":
        "la primera petición de una ejecución con caché cuenta lo que escribió en la caché: {all_four} tokens",
    "input + output alone is {short}: with caching on, the cached part of the prompt is billed as "
    "cache_creation_input_tokens (first time) and cache_read_input_tokens (after): add both":
        "solo entrada + salida da {short}: con la caché activada, la parte del prompt que está en caché se factura "
        "como cache_creation_input_tokens (la primera vez) y cache_read_input_tokens (después): suma los dos",
    "add every billed counter: input, output, cache_creation_input_tokens, cache_read_input_tokens":
        "suma todos los contadores que se facturan: entrada, salida, cache_creation_input_tokens, "
        "cache_read_input_tokens",
    "a later request counts its cache reads: {all_four} tokens":
        "una petición posterior cuenta lo que leyó de la caché: {all_four} tokens",
    "cache reads are billed too (cheaper per token, but they fill the context and the budget): add "
    "usage.cache_read_input_tokens":
        "las lecturas de la caché también se facturan (más baratas por token, pero llenan el contexto y el "
        "presupuesto): suma usage.cache_read_input_tokens",
    "a usage whose cache counters are missing (None) counts them as 0 (30 + 12 = 42)":
        "un usage al que le faltan los contadores de caché (None) los cuenta como 0 (30 + 12 = 42)",
    "a counter can be None: `usage.cache_read_input_tokens or 0` (None + int raises TypeError)":
        "un contador puede ser None: `usage.cache_read_input_tokens or 0` (None + int lanza TypeError)",
    "a missing counter is 0": "un contador que falta vale 0",
    "a usage shaped like a live one (cache_creation also broken down by lifetime) counts the cache writes once "
    "(50 + 20 + 3000 = 3070)":
        "un usage con la forma de uno en vivo (cache_creation desglosado además por duración) cuenta una sola vez "
        "lo escrito en la caché (50 + 20 + 3000 = 3070)",
    "usage.cache_creation is a breakdown of cache_creation_input_tokens (by cache lifetime), not more tokens: add "
    "the four *_tokens counters, nothing else":
        "usage.cache_creation es un desglose de cache_creation_input_tokens (por duración de la caché), no más "
        "tokens: suma los cuatro contadores *_tokens y nada más",
    # _loop_hint
    "something it calls is not written yet ({problem})": "algo a lo que llama aún no está escrito ({problem})",
    "the loop does not stop: keep the turn cap at the top of the body":
        "el bucle no se detiene: mantén el tope de turnos al principio del cuerpo",
    # _count_hint
    "tokens_used leaves out the first response: start it at tokens_of(response.usage), right after the first "
    "request (the first response costs too)":
        "tokens_used deja fuera la primera respuesta: empieza con tokens_of(response.usage), justo después de la "
        "primera petición (la primera respuesta también cuesta)",
    "tokens_used holds only the last response's tokens: add each response's to the total (`tokens_used += "
    "tokens_of(response.usage)`), do not replace it":
        "tokens_used solo guarda los tokens de la última respuesta: suma los de cada respuesta al total "
        "(`tokens_used += tokens_of(response.usage)`), no lo reemplaces",
    "tokens_used stays 0: add tokens_of(response.usage) after every request, the first one included":
        "tokens_used se queda en 0: suma tokens_of(response.usage) después de cada petición, también de la primera",
    "add tokens_of(response.usage) after EVERY request, the first one included, and return the total":
        "suma tokens_of(response.usage) después de CADA petición, la primera incluida, y devuelve el total",
    # check_budget
    "valve 2: the token budget, checked after the cap and before spending more":
        "válvula 2: el tope de presupuesto, comprobado después del tope de turnos y antes de gastar más",
    "token-hog, max_turns=8, token_budget=40,000: stopped_by='token_budget' after {turns} turns and {requests} "
    "requests":
        "token-hog, max_turns=8, token_budget=40_000: stopped_by='token_budget' tras {turns} turnos y {requests} "
        "peticiones",
    "the cap stopped it, not the budget: add `if tokens_used >= token_budget:` right after the cap check":
        "lo detuvo el tope de turnos, no el presupuesto: añade `if tokens_used >= token_budget:` justo después de "
        "comprobar el tope de turnos",
    "the budget stopped the run after the turn was counted (turns={got_1}, though {n} turns ran): ask it at the "
    "top of the body, right after the cap, before `turns += 1` and before the response is appended":
        "el presupuesto detuvo la ejecución después de contar el turno (turns={got_1}, aunque se ejecutaron {n} "
        "turnos): compruébalo al principio del cuerpo, justo después del tope de turnos, antes de `turns += 1` y "
        "antes de añadir la respuesta",
    "stopped at the wrong moment (turns={got_1}, requests={got_2}): add each response's tokens as it arrives, and "
    "ask `tokens_used >= token_budget` at the top of the body, right after the cap":
        "se detuvo en mal momento (turns={got_1}, requests={got_2}): suma los tokens de cada respuesta en cuanto "
        "llega y comprueba `tokens_used >= token_budget` al principio del cuerpo, justo después del tope de turnos",
    "tokens_used is the sum over every request, the first included ({tokens_used})":
        "tokens_used es la suma de todas las peticiones, la primera incluida ({tokens_used})",
    " (got {tokens_used})": " (se obtuvo {tokens_used})",
    "the tools ran in exactly the {turns} turns that were allowed (ran: {n})":
        "las herramientas se ejecutaron exactamente en los {turns} turnos permitidos (se ejecutaron: {n})",
    "stop before running the turn that would spend more, not after":
        "detente antes de ejecutar el turno que gastaría más, no después",
    "the budget's stop comes with a text that says the harness stopped the run (not the model's text)":
        "la parada por presupuesto trae un texto que dice que el arnés detuvo la ejecución (no el texto del modelo)",
    "when the budget stops the run, say so in your own words, e.g. f\"Stopped by the harness: {tokens_used} tokens "
    "used, reaching the token budget of {token_budget}.\" — the model's last text is not an answer, the harness "
    "cut it off":
        "cuando el presupuesto detenga la ejecución, dilo con tus palabras, p. ej. f\"El arnés se detuvo: se "
        "gastaron {tokens_used} tokens y se alcanzó el tope de presupuesto de {token_budget}.\" — el último texto "
        "del modelo no es una respuesta: el arnés lo cortó",
    "return before appending the response whose calls you will not run":
        "devuelve el resultado antes de añadir la respuesta cuyas llamadas no vas a ejecutar",
    "pass the tools argument to messages.create": "pasa el argumento tools a messages.create",
    "token_budget=1: the first response already spends it, so no turn runs (1 request)":
        "token_budget=1: la primera respuesta ya lo gasta, así que no se ejecuta ningún turno (1 petición)",
    "check the budget at the TOP of the body, before the first turn runs: a check at the bottom, after the next "
    "request, lets the first turn run whatever the first response cost":
        "comprueba el presupuesto al PRINCIPIO del cuerpo, antes de que se ejecute el primer turno: una "
        "comprobación al final, después de la petición siguiente, deja correr el primer turno cueste lo que cueste "
        "la primera respuesta",
    "max_turns=0 and token_budget=1 both say stop: the turn cap, checked first, names it":
        "max_turns=0 y token_budget=1 dicen los dos que hay que parar: lo nombra el tope de turnos, que se comprueba "
        "primero",
    "the order at the top of the body is: turn cap, then token budget (the lessons' valve order)":
        "el orden al principio del cuerpo es: tope de turnos y luego tope de presupuesto (el orden de las válvulas "
        "de las lecciones)",
    "a budget reached exactly (token_budget={totals_3}, the total after 4 requests) stops the run: `>=`, not `>`":
        "un presupuesto alcanzado justo (token_budget={totals_3}, el total tras 4 peticiones) detiene la ejecución: "
        "`>=`, no `>`",
    "spent == budget means the budget is used up: `if tokens_used >= token_budget:`":
        "gastado == presupuesto significa que el presupuesto se agotó: `if tokens_used >= token_budget:`",
    "count every response's tokens (the first too) and stop at the top of the body once the total reaches the "
    "budget":
        "cuenta los tokens de cada respuesta (también de la primera) y detente al principio del cuerpo en cuanto el "
        "total llegue al presupuesto",
    "a model that ends its turn keeps its answer, even when that last response crosses the budget":
        "un modelo que cierra su turno conserva su respuesta, aunque esa última respuesta se pase del presupuesto",
    " (got stopped_by={stopped_by!r})": " (se obtuvo stopped_by={stopped_by!r})",
    "the budget is checked before spending MORE: once the model has answered nothing more will be spent, so return "
    "its answer. A check after the request (at the bottom of the body) replaces it with a stop":
        "el presupuesto se comprueba antes de gastar MÁS: cuando el modelo ya respondió no se va a gastar nada más, "
        "así que devuelve su respuesta. Una comprobación después de la petición (al final del cuerpo) la cambia por "
        "una parada",
    "with prompt caching on, the budget counts the cached tokens too (token_budget={true_totals_2}: reached after 3 "
    "requests)":
        "con la caché de prompts activada, el presupuesto cuenta también los tokens de la caché "
        "(token_budget={true_totals_2}: se alcanza tras 3 peticiones)",
    "the loop must add tokens_of(response.usage) — all four counters — not input_tokens + output_tokens: a cached "
    "prompt shows up in cache_read_input_tokens":
        "el bucle tiene que sumar tokens_of(response.usage) —los cuatro contadores—, no input_tokens + "
        "output_tokens: un prompt en caché aparece en cache_read_input_tokens",
}
