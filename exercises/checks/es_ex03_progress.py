"""The checks' words in Spanish: exercise 3, no-progress detection (ex03_progress.py).

For the twins in exercises/es/. Data only: keyed by the English text at each _t() call, grouped under the
function that calls it; a text another module uses too is listed once, in the first module that uses it.
The {fields} are the same in both languages. kit.py merges the tables into one SPANISH.
"""

SPANISH = {
    # check_progress
    "valve 3: a model walking in place is stopped before the repeated turn runs":
        "válvula 3: a un modelo que gira en vacío se le detiene antes de que se ejecute el turno repetido",
    "stuck: stopped_by='no_progress' after 1 turn and 2 requests":
        "stuck: stopped_by='no_progress' tras 1 turno y 2 peticiones",
    "the same call twice in a row must stop the run: keep `signatures`, append signature_of(response.content), and "
    "return stopped_by='no_progress' when find_loop(signatures) finds a loop":
        "la misma llamada dos veces seguidas tiene que detener la ejecución: lleva `signatures`, añade "
        "signature_of(response.content) y devuelve stopped_by='no_progress' cuando find_loop(signatures) encuentre "
        "un ciclo",
    "the repeated call ran before the check caught it: append the signature and ask find_loop BEFORE the tools run":
        "la llamada repetida se ejecutó antes de que la comprobación la detectara: añade la firma y pregunta a "
        "find_loop ANTES de ejecutar las herramientas",
    "the repeated turn never ran, yet it was counted (turns={turns}): ask find_loop before `turns += 1`":
        "el turno repetido nunca se ejecutó, pero se contó (turns={turns}): pregunta a find_loop antes de `turns "
        "+= 1`",
    "the second, identical response is caught before it runs: append its signature and check BEFORE `turns += 1` "
    "and before the tools run":
        "la segunda respuesta, idéntica, se detecta antes de ejecutarla: añade su firma y comprueba ANTES de "
        "`turns += 1` y antes de que se ejecuten las herramientas",
    "the repeated call never ran: read_file ran once (ran: {n})":
        "la llamada repetida no llegó a ejecutarse: read_file se ejecutó una vez (se ejecutó: {n})",
    "check for no progress before running the tools, not after":
        "comprueba la falta de progreso antes de ejecutar las herramientas, no después",
    "it says why it stopped (a text of the harness, not the model's), and the history it returns can be continued":
        "dice por qué se detuvo (un texto del arnés, no del modelo), y el historial que devuelve se puede continuar",
    "return before appending the repeated response, with a text that says the harness stopped the run because the "
    "turns repeat":
        "devuelve el resultado antes de añadir la respuesta repetida, con un texto que diga que el arnés detuvo la "
        "ejecución porque los turnos se repiten",
    "never-ends (a new file every turn): not stopped as no progress — the cap stops it after 4 turns":
        "never-ends (un archivo nuevo en cada turno): no se detiene por falta de progreso — lo detiene el tope de "
        "turnos tras 4 turnos",
    "a call with a different argument is a different signature: signature_of must include each call's input":
        "una llamada con un argumento distinto es una firma distinta: signature_of tiene que incluir la entrada de "
        "cada llamada",
    "keep the turn cap as it was": "deja el tope de turnos como estaba",
    "the lesson's task (2 different turns, then the answer) is left alone":
        "la tarea de la lección (2 turnos distintos y luego la respuesta) sigue su curso",
    "a model that makes progress must get to its answer": "un modelo que avanza tiene que llegar a su respuesta",
    "the order at the top of the body: turn cap, token budget, then no progress":
        "el orden al principio del cuerpo: tope de turnos, tope de presupuesto y después falta de progreso",
    "stuck with max_turns=1: the cap, asked first, stops the second turn":
        "stuck con max_turns=1: el tope de turnos, que se comprueba primero, detiene el segundo turno",
    "stuck with token_budget={totals_1} (spent after 2 requests): the budget, asked before no progress, stops it":
        "stuck con token_budget={totals_1} (gastado tras 2 peticiones): lo detiene el presupuesto, que se comprueba "
        "antes que la falta de progreso",
    "no budget check stopped it: see check-budget": "no lo detuvo ninguna comprobación del presupuesto: mira check-budget",
    "the count is off, not the order of the valves — {count_hint} (see check-budget)":
        "falla la cuenta, no el orden de las válvulas — {count_hint} (mira check-budget)",
    "the budget must stop it first: the order at the top of the body is turn cap, token budget (`tokens_used >= "
    "token_budget`: spent == budget is used up), then no progress":
        "primero tiene que detenerlo el presupuesto: el orden al principio del cuerpo es tope de turnos, tope de "
        "presupuesto (`tokens_used >= token_budget`: gastado == presupuesto es que se agotó) y luego falta de "
        "progreso",
    "find_loop is asked once per tool-calling turn with every signature so far, oldest first":
        "se pregunta a find_loop una vez por turno con llamadas a herramientas, con todas las firmas hasta ese "
        "momento, la más antigua primero",
    " (it was given lists of length {value})": " (recibió listas de longitud {value})",
    "find_loop was never called: call find_loop(signatures) (the argument), not your own comparison":
        "nunca se llamó a find_loop: llama a find_loop(signatures) (el argumento), no a una comparación tuya",
    "keep ONE list for the run, append each turn's signature, and pass the whole list every turn":
        "lleva UNA lista para toda la ejecución, añade la firma de cada turno y pasa la lista entera en cada turno",
    "when find_loop returns a period, the run stops as no progress (a detector that fires at the 3rd turn: 2 turns "
    "ran)":
        "cuando find_loop devuelve un periodo, la ejecución se detiene por falta de progreso (un detector que salta "
        "en el 3.er turno: se ejecutaron 2 turnos)",
    "stop when find_loop(signatures) returns a period (any number but None/0): the loop must use its verdict":
        "detente cuando find_loop(signatures) devuelva un periodo (cualquier número salvo None/0): el bucle tiene "
        "que hacer caso a su veredicto",
    # check_signature
    "signature_of: one turn's tool calls, as one comparable fingerprint":
        "signature_of: las llamadas a herramientas de un turno, como una huella que se puede comparar",
    "it takes a response's content (text and tool_use blocks)":
        "acepta el content de una respuesta (bloques de texto y tool_use)",
    "skip the blocks that are not tool_use (the text a turn opens with has no name or input)":
        "sáltate los bloques que no son tool_use (el texto con el que se abre un turno no tiene name ni input)",
    "the same call in two turns gives the same signature (each turn's blocks have new ids)":
        "la misma llamada en dos turnos da la misma firma (los bloques de cada turno traen ids nuevos)",
    "leave the block ids out: every tool_use gets a fresh id, so a signature with ids never repeats":
        "deja fuera los ids de los bloques: cada tool_use trae un id nuevo, así que una firma con ids no se repite "
        "nunca",
    "the text before the calls does not change the signature": "el texto previo a las llamadas no cambia la firma",
    "only the tool_use blocks count: the model's sentence changes every turn while it walks in place":
        "solo cuentan los bloques tool_use: la frase del modelo cambia en cada turno aunque esté girando en vacío",
    "the same calls in another order give the same signature": "las mismas llamadas en otro orden dan la misma firma",
    "sort the calls (e.g. the strings 'name(input)') before joining them: a parallel turn's order is not meaningful":
        "ordena las llamadas (p. ej. las cadenas 'name(input)') antes de unirlas: el orden de un turno en paralelo "
        "no significa nada",
    "the same input with its keys in another order (nested ones too) gives the same signature":
        "la misma entrada con sus claves en otro orden (también las anidadas) da la misma firma",
    "write the input as JSON with sorted keys: json.dumps(block.input, sort_keys=True) (str(dict) keeps the order "
    "the keys came in)":
        "escribe la entrada como JSON con las claves ordenadas: json.dumps(block.input, sort_keys=True) (str(dict) "
        "conserva el orden en que llegaron las claves)",
    "a different argument gives a different signature": "un argumento distinto da una firma distinta",
    "include each call's input, not just its name: reading page 1 and page 2 is not walking in place":
        "incluye la entrada de cada llamada, no solo su nombre: leer la página 1 y la 2 no es girar en vacío",
    "a different tool with the same input gives a different signature":
        "otra herramienta con la misma entrada da una firma distinta",
    "include each call's name": "incluye el nombre de cada llamada",
    # check_cycle
    "find_short_cycle: A, B, A, B … within a bounded look-back":
        "find_short_cycle: A, B, A, B… mirando atrás solo hasta cierto punto",
    "(empty)":
        "(vacía)",
    "return the period p itself (an int), not True, when the last p signatures repeat the p before them":
        "devuelve el propio periodo p (un int), no True, cuando las últimas p firmas repiten las p anteriores",
    "a short list raised: with too few signatures for a period, skip that period":
        "una lista corta lanzó una excepción: si no hay firmas suficientes para un periodo, sáltate ese periodo",
    "it finds a repeat anywhere in the list: look only at the END — the last p signatures against the p just "
    "before them (a model may come back to a file after doing something else)":
        "encuentra una repetición en cualquier parte de la lista: mira solo el FINAL — las últimas p firmas contra "
        "las p justo anteriores (un modelo puede volver a un archivo después de hacer otra cosa)",
    "the empty list gave {p!r}: with too few signatures for a period, skip that period (two empty slices are equal)":
        "la lista vacía dio {p!r}: si no hay firmas suficientes para un periodo, sáltate ese periodo (dos cortes "
        "vacíos son iguales)",
    "it tried the longest period first: A A A A A A repeats with period 1, 2 and 3, and the answer is the shortest "
    "— try p = 1, 2, … max_period in that order":
        "probó primero el periodo más largo: A A A A A A se repite con periodo 1, 2 y 3, y la respuesta es el más "
        "corto — prueba p = 1, 2, … max_period en ese orden",
    "it tries periods beyond max_period: try only p = 1 … max_period (the argument; default 3), which bounds how "
    "far back it looks":
        "prueba periodos mayores que max_period: prueba solo p = 1 … max_period (el argumento; por defecto 3), que "
        "limita hasta dónde mira hacia atrás",
    "use the max_period argument: try every p from 1 to max_period, not a fixed set of periods":
        "usa el argumento max_period: prueba cada p de 1 a max_period, no un conjunto fijo de periodos",
    "it returns the period of a cycle at the end: A A → 1, A B A B → 2, A B C A B C → 3, X A B A B → 2":
        "devuelve el periodo de un ciclo al final: A A → 1, A B A B → 2, A B C A B C → 3, X A B A B → 2",
    " (got {wrong})": " (se obtuvo {wrong})",
    "for p in 1 … max_period: the last p signatures equal the p before them → return p":
        "para p en 1 … max_period: si las últimas p firmas son iguales a las p anteriores → devuelve p",
    "the shortest period wins: A A A A A A → 1 (try p = 1 first)":
        "gana el periodo más corto: A A A A A A → 1 (prueba primero p = 1)",
    "try the short periods first: p = 1, 2, … max_period":
        "prueba primero los periodos cortos: p = 1, 2, … max_period",
    "no cycle, no answer: [], A, A B, A B A, A B C D → None": "sin ciclo no hay respuesta: [], A, A B, A B A, A B C D → None",
    " (got {loud})": " (se obtuvo {loud})",
    "a cycle needs its block twice in a row; with too few signatures for a period, skip that period":
        "un ciclo necesita su bloque dos veces seguidas; si no hay firmas suficientes para un periodo, sáltate ese "
        "periodo",
    "a signature seen before, after progress, is not a cycle: A B C A → None; a cycle the model has left behind does "
    "not count: A B A B C → None":
        "una firma que ya salió, después de avanzar, no es un ciclo: A B C A → None; un ciclo que el modelo ya dejó "
        "atrás no cuenta: A B A B C → None",
    " (got {revisit!r}, {left!r})": " (se obtuvo {revisit!r}, {left!r})",
    "look only at the END of the list: the last p signatures against the p just before them, not anywhere in the "
    "history (a model may come back to a file after doing something else)":
        "mira solo el FINAL de la lista: las últimas p firmas frente a las p justo anteriores, no en cualquier punto "
        "del historial (un modelo puede volver a un archivo después de hacer otra cosa)",
    "it looks back at most 2 × max_period signatures: longer cycles are not its business":
        "mira atrás como mucho 2 × max_period firmas: los ciclos más largos no son asunto suyo",
    " (got {over})": " (se obtuvo {over})",
    "try only p = 1 … max_period (the argument; default 3): that bounds how far back it looks":
        "prueba solo p = 1 … max_period (el argumento; por defecto 3): eso limita cuánto mira hacia atrás",
    "max_period=3 is honoured (A B C A B C → 3)": "se respeta max_period=3 (A B C A B C → 3)",
    " (got {three!r})": " (se obtuvo {three!r})",
    "use the max_period argument, not a fixed number of periods":
        "usa el argumento max_period, no un número fijo de periodos",
    "in a loop, ping-pong (read_file, get_time, …) is stopped at the 4th response: 3 turns ran":
        "dentro de un bucle, el ping-pong (read_file, get_time, …) se detiene en la 4.ª respuesta: se ejecutaron 3 "
        "turnos",
    " (got {stopped_by}, {turns} turns)": " (se obtuvo {stopped_by}, {turns} turnos)",
    "A B A B is a cycle of period 2": "A B A B es un ciclo de periodo 2",
    "a task that reads README.md, tells the time, then reads README.md again (A B A) gets to its answer":
        "una tarea que lee README.md, dice la hora y vuelve a leer README.md (A B A) llega a su respuesta",
    "A B A is no cycle yet: only a block repeated twice in a row at the end is":
        "A B A todavía no es un ciclo: solo lo es un bloque repetido dos veces seguidas al final",
    "plugged into your run_guarded: ping-pong stops as no progress after 3 turns and 4 requests":
        "enchufado a tu run_guarded: el ping-pong se detiene por falta de progreso tras 3 turnos y 4 peticiones",
    "run_guarded must stop when find_loop(signatures) returns a period (see check-progress)":
        "run_guarded tiene que detenerse cuando find_loop(signatures) devuelve un periodo (mira check-progress)",
}
