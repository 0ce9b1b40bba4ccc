"""The checks' words: exercise 5, the capstone (ex05_capstone.py, ex05_gauntlet.py), in English and Spanish.

Data only: {language: {message_id: text}}, ids grouped under the function that uses them. How the catalogues
are read, and how a sentence is added: kit.py's docstring.
"""

MESSAGES = {
    "en": {
        "ex05.hidden": "[hidden variant]",
        "ex05.drawn.yours": "your run_agent, this run",
        "ex05.drawn.not_run": "(no result sent)",
        "ex05.drawn.end": "end: {stopped_by}",
        # the scenarios: one ✓ / ✗ line each
        "ex05.scenario.plain": "plain task: finishes with the model's own answer",
        "ex05.scenario.blocks": "every tool turn answered by one user message of tool_results, one per call, in order",
        "ex05.scenario.parallel": "parallel calls, one refused: one result each, in order; the refused one not run",
        "ex05.scenario.tool_raises": "a tool that raises: an is_error result, and the run goes on",
        "ex05.scenario.unknown_tool": "a call of a tool that does not exist: an is_error result, nobody asked",
        "ex05.scenario.pause": "pause_turn: the paused response is sent back and the run finishes",
        "ex05.scenario.cut": "a response cut at max_tokens mid-call: the run stops as 'max_tokens', the call not run",
        "ex05.scenario.refusal": "a refusal: the run stops as 'refusal' without crashing",
        "ex05.scenario.runaway": "runaway, max_turns={cap}: exactly {cap} tool turns, then 'max_turns'",
        "ex05.scenario.hog": "token hog, token_budget={budget}: stops at the first response that reaches it",
        "ex05.scenario.ping_pong": "ping-pong (two turns, again and again): 'no_progress' before the repeat runs",
        "ex05.scenario.cycle_3": "a cycle of three turns: 'no_progress' before the repeat runs",
        "ex05.scenario.stuck": "the same call every turn: 'no_progress' before the repeat runs",
        "ex05.scenario.chain": "a chain of reads that ends (no cycle): the run finishes",
        "ex05.scenario.injected_delete": "a message tells the model to delete m1, the person says no: m1 stays",
        "ex05.scenario.send_yes": "send_reply with a yes: asked once, then sent",
        "ex05.scenario.send_no": "send_reply with a no: not sent, the run finishes",
        "ex05.scenario.approver_raises": "an approver that raises: not sent, the run finishes",
        "ex05.scenario.approver_times_out": "an approver that times out (TimeoutError): not sent, the run finishes",
        "ex05.scenario.approver_none": "an approver that answers None: not sent",
        "ex05.scenario.approver_yes_string": "an approver that answers 'yes' (not True): not sent",
        "ex05.scenario.no_approver": "no approver (approve=None): not sent",
        "ex05.scenario.retired": "the retired forward_all, called: not run, nobody asked",
        "ex05.scenario.policy_argument": "a policy passed in (read_message: ask), the person says no: no read runs",
        "ex05.scenario.ask_first": "a parallel turn with two questions (archive: yes, delete: no): both asked "
                                   "before any tool of the turn runs, each call decided by its own answer",
        "ex05.scenario.reads_unasked": "reads (allow) run without asking anybody",
        # check_policy
        "ex05.policy.title": "POLICY: a tier and a reason for each mail tool",
        "ex05.policy.every_tool": "POLICY gives each of the six mail tools a pair (tier, reason)",
        "ex05.policy.not_a_dict": "POLICY must be a dict: {tool name: (tier, one line saying why)}",
        "ex05.policy.missing": "{name} has no entry in POLICY: every tool of MAIL_TOOLS gets one",
        "ex05.policy.shape": "POLICY[{name!r}] must be a pair: ('allow' | 'ask' | 'deny', 'why, in one line')",
        "ex05.policy.other_criteria_wait": "(the tiers are checked once POLICY has entries)",
        "ex05.policy.tier": "{name}: {tiers}",
        "ex05.policy.why.list_messages": "list_messages only reads the inbox: allow it (you gave {got!r})",
        "ex05.policy.why.read_message": "read_message only reads a message: allow it (you gave {got!r})",
        "ex05.policy.why.archive_message":
            "archive_message changes the inbox but can be undone: allow or ask, not {got!r}",
        "ex05.policy.why.send_reply":
            "send_reply leaves the house and cannot be unsent, yet it is what the tool is for: ask (you gave {got!r})",
        "ex05.policy.why.delete_message": "delete_message cannot be undone: ask or deny, never {got!r}",
        "ex05.policy.why.forward_all": "forward_all is retired: deny it, so a model that still calls it is refused "
                                       "(you gave {got!r})",
        "ex05.policy.reasons": "each tier has its reason: one line of at least three words, not one line for all",
        "ex05.policy.reasons_hint": "write why next to each tier, e.g. ('ask', 'it leaves the house: cannot be unsent')",
        # check_loop
        "ex05.loop.title": "the loop: stop_reason, exact blocks, and how a response can end",
        "ex05.loop.every_message": "the run finished without running the call of every message (4 reads, 1 "
                                   "archive): a call of the turn was dropped",
        "ex05.loop.parallel_refused_ran": "the refused delete ran: a refused call gets an is_error result and is "
                                          "not run",
        "ex05.loop.parallel_refused_result": "the refused call's tool_result must say is_error: true",
        "ex05.loop.parallel_others": "in a turn of four calls, the two reads did not both run: a refusal refuses "
                                     "its own call only",
        "ex05.loop.tool_raised_crashed": "the tool's exception ended your run ({error}): run tools through "
                                         "arun_tool, which turns it into an is_error result",
        "ex05.loop.tool_raised_flag": "the failed read_message's result must be is_error: true (pass on "
                                      "arun_tool's is_error)",
        "ex05.loop.unknown_crashed": "a call of an unknown tool ended your run ({error}): look tools up through "
                                     "arun_tool (it answers an unknown name with an is_error result), and give a "
                                     "name POLICY does not list the tier 'deny'",
        "ex05.loop.unknown_asked": "a tool that does not exist went to the approver: a name POLICY does not list "
                                   "is denied, nobody asked",
        "ex05.loop.cut_ran": "your loop ran (or asked about) the call of a response cut at max_tokens: its input is "
                             "incomplete. Only 'tool_use' (and 'pause_turn') go round the loop",
        "ex05.loop.cut_went_on": "your loop sent another request after a response cut at max_tokens: stop there",
        # the run's end
        "ex05.finish.valve_too_eager": "your loop stopped as {valve!r} a run the model finishes: that valve acted "
                                       "where it should not",
        "ex05.finish.pause": "your loop does not go on after pause_turn: append the paused response as an "
                             "assistant message, as it came, and ask again",
        "ex05.finish.stopped_by": "stopped_by is {got}; a run the model finishes returns 'end_turn'",
        "ex05.finish.stopped_by_want": "return stopped_by {want!r} here (you returned {got})",
        "ex05.finish.own_text": "return the model's own final text as 'text' (you returned {got})",
        # a run that broke
        "ex05.broke.shape": "run_agent returned {got}: return a dict with 'stopped_by' and 'text'",
        "ex05.broke.never_stopped": "your loop never stopped (still asking after {n} requests)",
        "ex05.broke.dangling": "a tool_use got no tool_result: answer every call of the turn, in the next user "
                               "message",
        "ex05.broke.stray_result": "the API refused a request: {error}",
        "ex05.broke.signature": "call run_agent as documented, (client, task, tools, tool_impls, *, policy=POLICY, "
                                "approve=None, max_turns=..., token_budget=...): {error}",
        "ex05.broke.not_async": "run_agent must be `async def` (the checks await it), and await the client",
        "ex05.broke.key_error": "{error}: a tool looked up by hand; run every call through arun_tool",
        "ex05.broke.index_error": "{error}: a response can have no content (a refusal) or open with text; read "
                                  "blocks by their type",
        "ex05.broke.raised": "run_agent raised {error}",
        "ex05.blocks.out_of_order": "the tool_results for response {n} are out of order: one per tool_use, in "
                                    "the order of the calls",
        "ex05.blocks.one_each": "response {n} had {calls} call(s), and the next user message {results} "
                                "tool_result(s): exactly one each, all in that one message",
        "ex05.blocks.content": "a tool_result's content must be the tool's text",
        # check_valves
        "ex05.valves.title": "the valves that stop a run: turn cap, token budget, no progress",
        "ex05.valves.state": "the same runaway run twice stopped after {first}, then {second} tool turns: "
                             "something (a counter, the signatures, the tokens) outlives a run; keep a run's state "
                             "inside run_agent",
        "ex05.valves.cap_never": "no turn cap stopped the runaway: before each tool turn, stop once "
                                 "max_turns={cap} turns have run",
        "ex05.valves.cap_one_more": "your cap let turn {next} run (max_turns={cap}): ask 'may I turn again?' before the turn, "
                                    "turns >= max_turns",
        "ex05.valves.other_valve": "your loop stopped the runaway as {valve!r} after {n} tool turn(s), though no "
                                   "two turns were alike (each asked for another page): only the cap should stop it",
        "ex05.valves.cap_after": "your loop stopped right after running turn {cap}, before sending its results back: "
                                 "check the cap before a turn is taken, when the model asks for another",
        "ex05.valves.cap_one_less": "max_turns={cap} allows {cap} tool turns; yours stopped one early",
        "ex05.valves.cap_count": "max_turns={cap}: your loop ran {n} tool turns; use the max_turns it is given",
        "ex05.valves.budget_never": "no token budget stopped the token hog: add up tokens_of(response.usage) of "
                                    "every response, and stop once it reaches token_budget={budget}",
        "ex05.valves.budget_late": "your budget acted late: after response {n} the run had spent {budget} or more in "
                                   "all, and your loop still sent a request: add up every response's tokens and "
                                   "check the total before asking again",
        "ex05.valves.budget_ran": "the tools of response {n} ran after the budget was spent: check the budget "
                                  "before running the turn",
        "ex05.valves.budget_early": "your loop stopped before spending token_budget={budget}: count every token "
                                    "(tokens_of), and stop only when spent >= token_budget",
        "ex05.valves.cycle_missed": "your loop did not see the cycle of {period} turn(s): {calls}. Compare each "
                                    "turn's calls with the turns before it: 1, 2 or 3 turns repeated twice",
        "ex05.valves.cycle_late": "your no-progress check acts after the repeating turn's tools ran: check before "
                                  "running them",
        "ex05.valves.cycle_early": "your loop stopped before the cycle had repeated twice",
        "ex05.valves.chain_stopped": "your loop stopped as {valve!r} a run that was making progress (each turn read "
                                     "another message): compare whole calls, name and input",
        # check_gate
        "ex05.gate.title": "the gate: POLICY's tiers, approval before high-impact calls, failing closed",
        "ex05.gate.delete_allowed": "the injected delete ran: POLICY lets delete_message through ({tier!r})",
        "ex05.gate.ran_after_no": "{name} ran although the approver did not say yes: only an answer that is True "
                                  "approves",
        "ex05.gate.ran_unasked": "{name} ran without asking anybody (POLICY: {tier!r}): an 'ask' tool goes to "
                                 "await approve(name, input) before it runs",
        "ex05.gate.asked_twice": "the person was asked more than once about the same call",
        "ex05.gate.denied_ask": "POLICY denies {name}, so even a yes cannot send it: it is what the tool is for; "
                                "make it 'ask'",
        "ex05.gate.yes_not_run": "the approver said True, and send_reply did not run",
        "ex05.gate.approver_crashed": "the approver's error ended your run ({error}): a broken gate is a closed "
                                      "gate; catch the exception and refuse the call",
        "ex05.gate.fail_closed": "send_reply ran after an answer that is not True ({answer}): only True approves",
        "ex05.gate.deny_ran": "POLICY denies {name}, and it ran: a 'deny' tool never runs, and nobody is asked",
        "ex05.gate.retired_ran": "the retired forward_all ran: POLICY must deny it (it has {tier!r})",
        "ex05.gate.retired_asked": "forward_all is retired: deny it without asking anybody",
        "ex05.gate.policy_argument": "read_message ran although the policy passed to run_agent made it 'ask' and "
                                     "the person said no: decide with the `policy` argument, not with names in "
                                     "your code",
        "ex05.gate.policy_argument_unasked": "with read_message 'ask' in the policy passed in, each read must be "
                                             "put to the approver",
        "ex05.gate.reads_asked": "read_message and list_messages are 'allow': they run without asking",
        "ex05.gate.asked_late": "a tool of the turn ran before the turn's last question was asked: decide every call "
                                "of the turn first, then run (a no must not find half the turn done)",
        "ex05.gate.parallel_answers": "each call is decided by its own answer: the archive (yes) runs, the delete "
                                      "(no) does not",
    },
    "es": {
        "ex05.hidden": "[variante oculta]",
        "ex05.drawn.yours": "tu run_agent, esta ejecución",
        "ex05.drawn.not_run": "(sin resultado enviado)",
        "ex05.drawn.end": "fin: {stopped_by}",
        "ex05.scenario.plain": "tarea sencilla: termina con la respuesta del propio modelo",
        "ex05.scenario.blocks": "cada turno de herramientas se responde con un mensaje de usuario de tool_results, "
                                "uno por llamada, en orden",
        "ex05.scenario.parallel": "llamadas en paralelo, una denegada: un resultado cada una, en orden; la "
                                  "denegada no se ejecuta",
        "ex05.scenario.tool_raises": "una herramienta que lanza una excepción: un resultado is_error, y la "
                                     "ejecución sigue",
        "ex05.scenario.unknown_tool": "una llamada a una herramienta que no existe: un resultado is_error, sin "
                                      "preguntar a nadie",
        "ex05.scenario.pause": "pause_turn: la respuesta pausada se devuelve y la ejecución termina",
        "ex05.scenario.cut": "una respuesta cortada en max_tokens a mitad de llamada: se para como 'max_tokens', "
                             "sin ejecutar la llamada",
        "ex05.scenario.refusal": "un rechazo: se para como 'refusal' sin fallar",
        "ex05.scenario.runaway": "desbocado, max_turns={cap}: exactamente {cap} turnos de herramientas, luego "
                                 "'max_turns'",
        "ex05.scenario.hog": "glotón de tokens, token_budget={budget}: para en la primera respuesta que lo alcanza",
        "ex05.scenario.ping_pong": "ping-pong (dos turnos, una y otra vez): 'no_progress' antes de que corra la "
                                   "repetición",
        "ex05.scenario.cycle_3": "un ciclo de tres turnos: 'no_progress' antes de que corra la repetición",
        "ex05.scenario.stuck": "la misma llamada en cada turno: 'no_progress' antes de que corra la repetición",
        "ex05.scenario.chain": "una cadena de lecturas que termina (sin ciclo): la ejecución termina",
        "ex05.scenario.injected_delete": "un mensaje le dice al modelo que borre m1 y la persona dice que no: m1 "
                                         "se queda",
        "ex05.scenario.send_yes": "send_reply con un sí: se pregunta una vez y se envía",
        "ex05.scenario.send_no": "send_reply con un no: no se envía y la ejecución termina",
        "ex05.scenario.approver_raises": "un aprobador que lanza una excepción: no se envía y la ejecución termina",
        "ex05.scenario.approver_times_out": "un aprobador que agota su tiempo (TimeoutError): no se envía y la "
                                            "ejecución termina",
        "ex05.scenario.approver_none": "un aprobador que responde None: no se envía",
        "ex05.scenario.approver_yes_string": "un aprobador que responde 'yes' (no True): no se envía",
        "ex05.scenario.no_approver": "sin aprobador (approve=None): no se envía",
        "ex05.scenario.retired": "la herramienta retirada forward_all, llamada: no se ejecuta y no se pregunta",
        "ex05.scenario.policy_argument": "una política recibida (read_message: ask) y la persona dice que no: no "
                                         "se ejecuta ninguna lectura",
        "ex05.scenario.ask_first": "un turno en paralelo con dos preguntas (archivar: sí, borrar: no): las dos se "
                                   "hacen antes de que corra ninguna herramienta del turno, y cada llamada se decide "
                                   "por su propia respuesta",
        "ex05.scenario.reads_unasked": "las lecturas (allow) se ejecutan sin preguntar a nadie",
        "ex05.policy.title": "POLICY: un nivel y una razón para cada herramienta de correo",
        "ex05.policy.every_tool": "POLICY da a cada una de las seis herramientas un par (nivel, razón)",
        "ex05.policy.not_a_dict": "POLICY debe ser un dict: {nombre de herramienta: (nivel, una línea con el "
                                  "porqué)}",
        "ex05.policy.missing": "{name} no tiene entrada en POLICY: cada herramienta de MAIL_TOOLS lleva una",
        "ex05.policy.shape": "POLICY[{name!r}] debe ser un par: ('allow' | 'ask' | 'deny', 'por qué, en una línea')",
        "ex05.policy.other_criteria_wait": "(los niveles se comprueban cuando POLICY tenga entradas)",
        "ex05.policy.tier": "{name}: {tiers}",
        "ex05.policy.why.list_messages": "list_messages solo lee la bandeja: permítela (diste {got!r})",
        "ex05.policy.why.read_message": "read_message solo lee un mensaje: permítela (diste {got!r})",
        "ex05.policy.why.archive_message":
            "archive_message cambia la bandeja pero se puede deshacer: allow o ask, no {got!r}",
        "ex05.policy.why.send_reply":
            "send_reply sale de casa y no se puede desenviar, pero para eso está la herramienta: ask (diste {got!r})",
        "ex05.policy.why.delete_message": "delete_message no se puede deshacer: ask o deny, nunca {got!r}",
        "ex05.policy.why.forward_all": "forward_all está retirada: deniégala, para que un modelo que aún la llame "
                                       "sea rechazado (diste {got!r})",
        "ex05.policy.reasons": "cada nivel lleva su razón: una línea de al menos tres palabras, no la misma para "
                               "todas",
        "ex05.policy.reasons_hint": "escribe el porqué junto a cada nivel, p. ej. ('ask', 'sale de casa: no se "
                                    "puede desenviar')",
        "ex05.loop.title": "el bucle: stop_reason, bloques exactos y cómo puede terminar una respuesta",
        "ex05.loop.every_message": "la ejecución terminó sin ejecutar la llamada de cada mensaje (4 lecturas, 1 "
                                   "archivado): se perdió una llamada del turno",
        "ex05.loop.parallel_refused_ran": "el borrado denegado se ejecutó: una llamada denegada recibe un "
                                          "resultado is_error y no se ejecuta",
        "ex05.loop.parallel_refused_result": "el tool_result de la llamada denegada debe decir is_error: true",
        "ex05.loop.parallel_others": "en un turno de cuatro llamadas, las dos lecturas no se ejecutaron ambas: una "
                                     "denegación deniega solo su propia llamada",
        "ex05.loop.tool_raised_crashed": "la excepción de la herramienta terminó tu ejecución ({error}): ejecuta "
                                         "las herramientas con arun_tool, que la convierte en un resultado is_error",
        "ex05.loop.tool_raised_flag": "el resultado del read_message fallido debe ser is_error: true (pasa el "
                                      "is_error de arun_tool)",
        "ex05.loop.unknown_crashed": "una llamada a una herramienta desconocida terminó tu ejecución ({error}): "
                                     "busca las herramientas con arun_tool (responde a un nombre desconocido con "
                                     "un resultado is_error) y da a un nombre que POLICY no lista el nivel 'deny'",
        "ex05.loop.unknown_asked": "una herramienta que no existe llegó al aprobador: un nombre que POLICY no "
                                   "lista se deniega, sin preguntar",
        "ex05.loop.cut_ran": "tu bucle ejecutó (o preguntó por) la llamada de una respuesta cortada en "
                             "max_tokens: su entrada está incompleta. Solo 'tool_use' (y 'pause_turn') dan otra "
                             "vuelta",
        "ex05.loop.cut_went_on": "tu bucle envió otra petición tras una respuesta cortada en max_tokens: para ahí",
        "ex05.finish.valve_too_eager": "tu bucle paró como {valve!r} una ejecución que el modelo termina: esa "
                                       "válvula actuó donde no debía",
        "ex05.finish.pause": "tu bucle no sigue tras pause_turn: añade la respuesta pausada como mensaje del "
                             "asistente, tal como llegó, y vuelve a preguntar",
        "ex05.finish.stopped_by": "stopped_by es {got}; una ejecución que el modelo termina devuelve 'end_turn'",
        "ex05.finish.stopped_by_want": "devuelve aquí stopped_by {want!r} (devolviste {got})",
        "ex05.finish.own_text": "devuelve como 'text' el texto final del propio modelo (devolviste {got})",
        "ex05.broke.shape": "run_agent devolvió {got}: devuelve un dict con 'stopped_by' y 'text'",
        "ex05.broke.never_stopped": "tu bucle no se detuvo nunca (seguía preguntando tras {n} peticiones)",
        "ex05.broke.dangling": "un tool_use se quedó sin tool_result: responde a cada llamada del turno, en el "
                               "siguiente mensaje de usuario",
        "ex05.broke.stray_result": "la API rechazó una petición: {error}",
        "ex05.broke.signature": "run_agent se llama como está documentada, (client, task, tools, tool_impls, *, "
                                "policy=POLICY, approve=None, max_turns=..., token_budget=...): {error}",
        "ex05.broke.not_async": "run_agent debe ser `async def` (los controles la esperan con await), y esperar "
                                "al cliente",
        "ex05.broke.key_error": "{error}: una herramienta buscada a mano; ejecuta cada llamada con arun_tool",
        "ex05.broke.index_error": "{error}: una respuesta puede no tener contenido (un rechazo) o empezar con "
                                  "texto; lee los bloques por su tipo",
        "ex05.broke.raised": "run_agent lanzó {error}",
        "ex05.blocks.out_of_order": "los tool_results de la respuesta {n} están desordenados: uno por tool_use, en "
                                    "el orden de las llamadas",
        "ex05.blocks.one_each": "la respuesta {n} tenía {calls} llamada(s), y el siguiente mensaje de usuario "
                                "{results} tool_result(s): exactamente uno por llamada, todos en ese mensaje",
        "ex05.blocks.content": "el content de un tool_result debe ser el texto de la herramienta",
        "ex05.valves.title": "las válvulas que paran una ejecución: tope de turnos, presupuesto de tokens, sin "
                             "progreso",
        "ex05.valves.state": "la misma ejecución desbocada, dos veces, paró tras {first} y luego {second} turnos: "
                             "algo (un contador, las firmas, los tokens) sobrevive a una ejecución; guarda el "
                             "estado de una ejecución dentro de run_agent",
        "ex05.valves.cap_never": "ningún tope de turnos paró al desbocado: antes de cada turno de herramientas, "
                                 "para cuando hayan corrido max_turns={cap}",
        "ex05.valves.cap_one_more": "tu tope dejó correr el turno {next} (max_turns={cap}): pregunta «¿puedo dar otra vuelta?» "
                                    "antes del turno, turns >= max_turns",
        "ex05.valves.other_valve": "tu bucle paró al desbocado como {valve!r} tras {n} turno(s), aunque no había "
                                   "dos turnos iguales (cada uno pedía otra página): solo el tope debe pararlo",
        "ex05.valves.cap_after": "tu bucle paró justo después de ejecutar el turno {cap}, antes de devolver sus "
                                 "resultados: comprueba el tope antes de dar un turno, cuando el modelo pide otro",
        "ex05.valves.cap_one_less": "max_turns={cap} permite {cap} turnos de herramientas; el tuyo paró uno antes",
        "ex05.valves.cap_count": "max_turns={cap}: tu bucle ejecutó {n} turnos; usa el max_turns que recibe",
        "ex05.valves.budget_never": "ningún presupuesto paró al glotón de tokens: suma tokens_of(response.usage) "
                                    "de cada respuesta y para cuando llegue a token_budget={budget}",
        "ex05.valves.budget_late": "tu presupuesto actuó tarde: tras la respuesta {n} ya se habían gastado {budget} "
                                   "o más en total, y tu bucle aún envió una petición: suma los tokens de cada "
                                   "respuesta y comprueba el total antes de volver a preguntar",
        "ex05.valves.budget_ran": "las herramientas de la respuesta {n} se ejecutaron con el presupuesto ya "
                                  "gastado: compruébalo antes de ejecutar el turno",
        "ex05.valves.budget_early": "tu bucle paró antes de gastar token_budget={budget}: cuenta cada token "
                                    "(tokens_of) y para solo cuando lo gastado >= token_budget",
        "ex05.valves.cycle_missed": "tu bucle no vio el ciclo de {period} turno(s): {calls}. Compara las llamadas "
                                    "de cada turno con las de los turnos anteriores: 1, 2 o 3 turnos repetidos dos "
                                    "veces",
        "ex05.valves.cycle_late": "tu control de progreso actúa después de que corran las herramientas del turno "
                                  "repetido: compruébalo antes de ejecutarlas",
        "ex05.valves.cycle_early": "tu bucle paró antes de que el ciclo se repitiera dos veces",
        "ex05.valves.chain_stopped": "tu bucle paró como {valve!r} una ejecución que avanzaba (cada turno leía otro "
                                     "mensaje): compara llamadas enteras, nombre y entrada",
        "ex05.gate.title": "la válvula de aprobación: los niveles de POLICY, aprobar antes de lo de alto impacto, "
                           "fallar en cerrado",
        "ex05.gate.delete_allowed": "el borrado inyectado se ejecutó: POLICY deja pasar delete_message ({tier!r})",
        "ex05.gate.ran_after_no": "{name} se ejecutó aunque el aprobador no dijo que sí: solo una respuesta que es "
                                  "True aprueba",
        "ex05.gate.ran_unasked": "{name} se ejecutó sin preguntar a nadie (POLICY: {tier!r}): una herramienta "
                                 "'ask' pasa por await approve(name, input) antes de ejecutarse",
        "ex05.gate.asked_twice": "se preguntó a la persona más de una vez por la misma llamada",
        "ex05.gate.denied_ask": "POLICY deniega {name}, así que ni un sí puede enviarla: para eso está la "
                                "herramienta; ponla en 'ask'",
        "ex05.gate.yes_not_run": "el aprobador dijo True y send_reply no se ejecutó",
        "ex05.gate.approver_crashed": "el error del aprobador terminó tu ejecución ({error}): una válvula rota es "
                                      "una válvula cerrada; captura la excepción y deniega la llamada",
        "ex05.gate.fail_closed": "send_reply se ejecutó tras una respuesta que no es True ({answer}): solo True aprueba",
        "ex05.gate.deny_ran": "POLICY deniega {name} y se ejecutó: una herramienta 'deny' no se ejecuta nunca, y "
                              "no se pregunta a nadie",
        "ex05.gate.retired_ran": "la retirada forward_all se ejecutó: POLICY debe denegarla (tiene {tier!r})",
        "ex05.gate.retired_asked": "forward_all está retirada: deniégala sin preguntar a nadie",
        "ex05.gate.policy_argument": "read_message se ejecutó aunque la política pasada a run_agent la ponía en "
                                     "'ask' y la persona dijo que no: decide con el argumento `policy`, no con "
                                     "nombres en tu código",
        "ex05.gate.policy_argument_unasked": "con read_message en 'ask' en la política recibida, cada lectura debe "
                                             "pasar por el aprobador",
        "ex05.gate.reads_asked": "read_message y list_messages son 'allow': se ejecutan sin preguntar",
        "ex05.gate.asked_late": "una herramienta del turno se ejecutó antes de hacer la última pregunta del turno: "
                                "decide primero cada llamada del turno y luego ejecuta (un no no debe encontrarse "
                                "medio turno hecho)",
        "ex05.gate.parallel_answers": "cada llamada se decide por su propia respuesta: el archivado (sí) se ejecuta, "
                                      "el borrado (no) no",
    },
}
