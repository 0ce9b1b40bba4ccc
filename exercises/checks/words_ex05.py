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
        "ex05.drawn.raised": "end: raised {error}",
        # the scenarios: one ✓ / ✗ line each
        "ex05.scenario.plain": "plain task: finishes with the model's own answer",
        "ex05.scenario.blocks": "every request offers the tools given and sends each response back as it came; "
                                "each tool turn answered by one user message of tool_results, one per call, in order",
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
        "ex05.policy.reasons": "each tool has its own reason: one line, not empty (not one sentence for all six)",
        "ex05.policy.reason_empty": "POLICY[{name!r}] has an empty reason: say in one line why {name} has its tier",
        "ex05.policy.reason_lines": "POLICY[{name!r}]'s reason runs over more than one line: say it in one line",
        "ex05.policy.reason_same": "all six tools have the same reason ({why!r}): say why each tool has its own tier",
        # check_loop
        "ex05.loop.title": "the loop: stop_reason, exact blocks, and how a response can end",
        "ex05.loop.parallel_refused_result": "the refused call's tool_result must say is_error: true",
        "ex05.loop.parallel_others": "in a turn of four calls, the two reads did not both run: a refusal refuses "
                                     "its own call only",
        "ex05.loop.tool_raised_crashed": "the tool's exception ended your run ({error}): run tools through "
                                         "arun_tool, which turns it into an is_error result",
        "ex05.loop.tool_raised_flag": "the failed read_message's result must be is_error: true (pass on "
                                      "arun_tool's is_error)",
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
        "ex05.broke.no_assistant": "your tool_results went back without the assistant message that asked for them, "
                                   "and the API refused the request: {error} — append the response's content as an "
                                   "assistant message first, then the user message of results",
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
        "ex05.valves.cycle_order": "your no-progress check did not see that {first} and {second} are the same turn: "
                                   "a turn's signature is its calls in any order (sort them)",
        "ex05.scenario.reordered": "the same two reads every turn, in another order: 'no_progress' (a turn's calls "
                                   "in any order)",
        "ex05.valves.cycle_early": "your loop stopped as 'no_progress' at response {n}, before any cycle had repeated "
                                   "twice: a turn like one seen earlier is no repeat yet — stop only when the last 1, "
                                   "2 or 3 turns repeat the 1, 2 or 3 just before them",
        "ex05.valves.chain_stopped": "your loop stopped as {valve!r} a run that was making progress (each turn read "
                                     "another message): compare whole calls, name and input",
        # check_gate
        "ex05.gate.title": "the gate: POLICY's tiers, approval before high-impact calls, failing closed",
        "ex05.gate.ran_after_no": "{name} ran although the approver did not say yes: only an answer that is True "
                                  "approves",
        "ex05.gate.consulted": "each 'ask' call goes to `await approve(name, input)` before it runs, and only True "
                               "runs it",
        "ex05.gate.ran_unasked": "{name} ran without asking anybody (POLICY: {tier!r}): with no approver, an 'ask' "
                                 "call is refused",
        "ex05.gate.asked_twice": "the person was asked more than once about the same call",
        "ex05.gate.denied_ask": "POLICY denies {name}, so even a yes cannot send it: it is what the tool is for; "
                                "make it 'ask'",
        "ex05.gate.yes_not_run": "the approver said True, and send_reply did not run",
        "ex05.gate.approver_crashed": "the approver's error ended your run ({error}): a broken gate is a closed "
                                      "gate; catch the exception and refuse the call",
        "ex05.gate.fail_closed": "send_reply ran after an answer that is not True ({answer}): only True approves",
        "ex05.gate.deny_ran": "POLICY denies {name}, and it ran: a 'deny' tool never runs, and nobody is asked",
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
        "ex05.scenario.parallel_mid": "parallel calls, the refused one second of four: one result each, in call "
                                      "order, in one message",
        "ex05.scenario.hog_cached": "token hog, the tools cached (cache tokens billed), token_budget={budget}: every "
                                    "token counts",
        "ex05.scenario.hog_exact": "token hog, token_budget={budget}, the total after response 3 exactly: reached, "
                                   "so it stops there",
        "ex05.scenario.cap_and_cycle": "ping-pong, max_turns=4: the cap and no progress on the same turn: "
                                       "'max_turns' (the cap first)",
        "ex05.scenario.budget_and_cycle": "ping-pong, token_budget={budget}: the budget and no progress on the same "
                                          "turn: 'token_budget'",
        "ex05.scenario.cap_and_budget": "token hog, max_turns=3, token_budget={budget}: the cap and the budget on "
                                        "the same turn: 'max_turns'",
        "ex05.scenario.ends_at_cap": "plain task, max_turns={cap}: the model ends after exactly {cap} turns: "
                                     "'end_turn', not capped",
        "ex05.scenario.pause_counts": "pause_turn twice, max_turns={cap}: each continuation is a turn: 'max_turns'",
        "ex05.scenario.unlisted": "a policy that leaves delete_message out, the injected delete: not run, nobody "
                                  "asked",
        "ex05.scenario.gate_and_cycle": "ping-pong, read_message 'ask' (yes): 'no_progress' before the repeat is put "
                                        "to the person",
        "ex05.eager.no_progress": "(its last turns were not alike: {calls}): a signature is the calls' names AND "
                                  "inputs",
        "ex05.eager.token_budget": "(it had spent {spent} of token_budget={budget})",
        "ex05.eager.max_turns": "(after {n} of max_turns={cap} turns)",
        "ex05.broke.split": "the tool_results of response {n} went in separate user messages, and the API refused "
                            "the request: {error} — all of a turn's results go in ONE user message",
        "ex05.gate.policy_lets": "{name} ran: POLICY lets it through ({tier!r})",
        "ex05.gate.never_consulted": "{name} ran and nobody was asked (POLICY: {tier!r}): the gate was never "
                                     "consulted — decide each call by its tier before it runs, `await approve(name, "
                                     "input)` for 'ask'",
        "ex05.gate.asked_after": "{name} ran before the person was asked: ask first, and run it only after a True",
        "ex05.gate.unlisted_ran": "delete_message, which the policy passed in does not list, ran: a name the policy "
                                  "does not list is denied",
        "ex05.gate.unlisted_asked": "delete_message, which the policy passed in does not list, went to the approver: "
                                    "a name the policy does not list is denied, nobody asked",
        "ex05.gate.asked_repeat": "the person was asked about the repeating turn: no progress is checked before the "
                                  "gate (a turn that is not taken asks nobody)",
        "ex05.valves.budget_uncounted": "your budget leaves {fields} uncounted: add every token each response was "
                                        "billed for, tokens_of(response.usage), and stop once the total reaches "
                                        "token_budget={budget}",
        "ex05.valves.budget_equal": "after response {n} the run had spent exactly token_budget={budget}: reached is "
                                    "spent — stop when spent >= token_budget",
        "ex05.valves.order": "two valves would stop the run at response {n}: {first!r} comes first (the cap, the "
                             "budget, no progress, then the gate); yours stopped it as {got!r}",
        "ex05.valves.cap_at_end": "the model ended the run after exactly max_turns={cap} turns, and yours reported "
                                  "'max_turns': the cap stops only a turn the model asks for",
        "ex05.valves.pause_counts": "this run paused {pauses} time(s), and your loop did not stop it at "
                                    "max_turns={cap}: a pause_turn continuation is a turn of the cap too",
        "ex05.eager.restarted": "your loop stopped as {valve!r} at this run's first response, before anything of "
                                "this run could reach it: its count did not start afresh — keep a run's counters "
                                "inside run_agent, set at its start",
        "ex05.loop.tools_offered": "request {n} offered the tools {got}, not the {k} run_agent was given: pass "
                                   "tools=tools as given (the policy decides what runs)",
        "ex05.loop.content_as_it_came": "the assistant message for response {n} is not its content as it came (it "
                                        "had {want}, you sent {got}): append response.content, every block",
        "ex05.valves.own_words": "your harness stopped the run as {valve!r} and returned text={got}: the model's "
                                 "words, or none. Say in a sentence of your own that the harness stopped it",
        "ex05.valves.budget_one_late": "your budget acted one request late: the total reached token_budget={budget} "
                                       "with response {n}, and your loop asked again — count each response's "
                                       "tokens as soon as it arrives, then check",
        "ex05.gate.yes_reused": "a yes from an earlier run was reused: in this run nobody was asked about {name}, yet "
                                "it ran — keep no approvals outside one run of run_agent (a set at module level "
                                "lives on between runs): ask about every call, every time",
        "ex05.gate.asked_with": "the approver was asked about {name} with {got}: pass the call's own name and input "
                                "(the dict the model sent), `await approve(block.name, block.input)`",
        "ex05.gate.own_answer": "in one turn read_message m2 got a no and m4 a yes, and the reads that ran were "
                                "{ran}: decide each call by its own answer, not by its tool's name",
        "ex05.scenario.own_answer": "a parallel turn with two reads asked (m2: no, m4: yes): each call decided by "
                                    "its own answer",
    },
    "es": {
        "ex05.hidden": "[variante oculta]",
        "ex05.drawn.yours": "tu run_agent, esta ejecución",
        "ex05.drawn.not_run": "(sin resultado enviado)",
        "ex05.drawn.end": "fin: {stopped_by}",
        "ex05.drawn.raised": "fin: lanzó {error}",
        "ex05.scenario.plain": "tarea sencilla: termina con la respuesta del propio modelo",
        "ex05.scenario.blocks": "cada petición ofrece las herramientas recibidas y devuelve cada respuesta tal como "
                                "llegó; cada turno de herramientas se responde con un mensaje de usuario de "
                                "tool_results, uno por llamada, en orden",
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
        "ex05.policy.reasons": "cada herramienta tiene su razón: una línea, no vacía (no la misma frase para las "
                               "seis)",
        "ex05.policy.reason_empty": "POLICY[{name!r}] tiene la razón vacía: di en una línea por qué {name} tiene su "
                                    "nivel",
        "ex05.policy.reason_lines": "la razón de POLICY[{name!r}] ocupa más de una línea: dila en una",
        "ex05.policy.reason_same": "las seis herramientas tienen la misma razón ({why!r}): di por qué cada una "
                                   "tiene su nivel",
        "ex05.loop.title": "el bucle: stop_reason, bloques exactos y cómo puede terminar una respuesta",
        "ex05.loop.parallel_refused_result": "el tool_result de la llamada denegada debe decir is_error: true",
        "ex05.loop.parallel_others": "en un turno de cuatro llamadas, las dos lecturas no se ejecutaron ambas: una "
                                     "denegación deniega solo su propia llamada",
        "ex05.loop.tool_raised_crashed": "la excepción de la herramienta terminó tu ejecución ({error}): ejecuta "
                                         "las herramientas con arun_tool, que la convierte en un resultado is_error",
        "ex05.loop.tool_raised_flag": "el resultado del read_message fallido debe ser is_error: true (pasa el "
                                      "is_error de arun_tool)",
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
        "ex05.broke.no_assistant": "tus tool_results volvieron sin el mensaje de assistant que los pidió, y la API "
                                   "rechazó la petición: {error} — añade antes el contenido de la respuesta como "
                                   "mensaje de assistant, y luego el mensaje de usuario con los resultados",
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
        "ex05.valves.cycle_order": "tu control de progreso no vio que {first} y {second} son el mismo turno: la "
                                   "firma de un turno son sus llamadas en cualquier orden (ordénalas)",
        "ex05.scenario.reordered": "las mismas dos lecturas en cada turno, en otro orden: 'no_progress' (las "
                                   "llamadas de un turno en cualquier orden)",
        "ex05.valves.cycle_early": "tu bucle paró como 'no_progress' en la respuesta {n}, antes de que un ciclo se "
                                   "repitiera dos veces: un turno igual a uno anterior aún no es una repetición — "
                                   "para solo cuando los últimos 1, 2 o 3 turnos repiten los 1, 2 o 3 de justo antes",
        "ex05.valves.chain_stopped": "tu bucle paró como {valve!r} una ejecución que avanzaba (cada turno leía otro "
                                     "mensaje): compara llamadas enteras, nombre y entrada",
        "ex05.gate.title": "la válvula de aprobación: los niveles de POLICY, aprobar antes de lo de alto impacto, "
                           "fallar en cerrado",
        "ex05.gate.ran_after_no": "{name} se ejecutó aunque el aprobador no dijo que sí: solo una respuesta que es "
                                  "True aprueba",
        "ex05.gate.consulted": "cada llamada 'ask' pasa por `await approve(name, input)` antes de ejecutarse, y solo "
                               "True la ejecuta",
        "ex05.gate.ran_unasked": "{name} se ejecutó sin preguntar a nadie (POLICY: {tier!r}): sin aprobador, una "
                                 "llamada 'ask' se deniega",
        "ex05.gate.asked_twice": "se preguntó a la persona más de una vez por la misma llamada",
        "ex05.gate.denied_ask": "POLICY deniega {name}, así que ni un sí puede enviarla: para eso está la "
                                "herramienta; ponla en 'ask'",
        "ex05.gate.yes_not_run": "el aprobador dijo True y send_reply no se ejecutó",
        "ex05.gate.approver_crashed": "el error del aprobador terminó tu ejecución ({error}): una válvula rota es "
                                      "una válvula cerrada; captura la excepción y deniega la llamada",
        "ex05.gate.fail_closed": "send_reply se ejecutó tras una respuesta que no es True ({answer}): solo True "
                                 "aprueba",
        "ex05.gate.deny_ran": "POLICY deniega {name} y se ejecutó: una herramienta 'deny' no se ejecuta nunca, y "
                              "no se pregunta a nadie",
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
        "ex05.scenario.parallel_mid": "llamadas en paralelo, la denegada la segunda de cuatro: un resultado cada "
                                      "una, en el orden de las llamadas, en un mensaje",
        "ex05.scenario.hog_cached": "glotón de tokens, las herramientas en caché (se facturan tokens de caché), "
                                    "token_budget={budget}: cuenta cada token",
        "ex05.scenario.hog_exact": "glotón de tokens, token_budget={budget}, justo el total tras la respuesta 3: "
                                   "alcanzado, así que para ahí",
        "ex05.scenario.cap_and_cycle": "ping-pong, max_turns=4: el tope y sin progreso en el mismo turno: "
                                       "'max_turns' (primero el tope)",
        "ex05.scenario.budget_and_cycle": "ping-pong, token_budget={budget}: el presupuesto y sin progreso en el "
                                          "mismo turno: 'token_budget'",
        "ex05.scenario.cap_and_budget": "glotón de tokens, max_turns=3, token_budget={budget}: el tope y el "
                                        "presupuesto en el mismo turno: 'max_turns'",
        "ex05.scenario.ends_at_cap": "tarea sencilla, max_turns={cap}: el modelo termina justo tras {cap} turnos: "
                                     "'end_turn', sin tope",
        "ex05.scenario.pause_counts": "pause_turn dos veces, max_turns={cap}: cada continuación es un turno: "
                                      "'max_turns'",
        "ex05.scenario.unlisted": "una política sin delete_message, el borrado inyectado: no se ejecuta y no se "
                                  "pregunta",
        "ex05.scenario.gate_and_cycle": "ping-pong, read_message 'ask' (sí): 'no_progress' antes de preguntar por la "
                                        "repetición",
        "ex05.eager.no_progress": "(sus últimos turnos no eran iguales: {calls}): una firma son los nombres Y las "
                                  "entradas de las llamadas",
        "ex05.eager.token_budget": "(llevaba gastados {spent} de token_budget={budget})",
        "ex05.eager.max_turns": "(tras {n} de max_turns={cap} turnos)",
        "ex05.broke.split": "los tool_results de la respuesta {n} fueron en mensajes de usuario separados y la API "
                            "rechazó la petición: {error} — todos los resultados de un turno van en UN mensaje de "
                            "usuario",
        "ex05.gate.policy_lets": "{name} se ejecutó: POLICY la deja pasar ({tier!r})",
        "ex05.gate.never_consulted": "{name} se ejecutó y no se preguntó a nadie (POLICY: {tier!r}): nunca se "
                                     "consultó la válvula — decide cada llamada por su nivel antes de ejecutarla, "
                                     "`await approve(name, input)` para 'ask'",
        "ex05.gate.asked_after": "{name} se ejecutó antes de preguntar a la persona: pregunta primero y ejecútala "
                                 "solo tras un True",
        "ex05.gate.unlisted_ran": "delete_message, que la política recibida no lista, se ejecutó: un nombre que la "
                                  "política no lista se deniega",
        "ex05.gate.unlisted_asked": "delete_message, que la política recibida no lista, llegó al aprobador: un "
                                    "nombre que la política no lista se deniega, sin preguntar",
        "ex05.gate.asked_repeat": "se preguntó a la persona por el turno repetido: sin progreso se comprueba antes "
                                  "de la aprobación (un turno que no se da no pregunta a nadie)",
        "ex05.valves.budget_uncounted": "tu presupuesto deja sin contar {fields}: suma cada token que se facturó en "
                                        "cada respuesta, tokens_of(response.usage), y para cuando el total llegue a "
                                        "token_budget={budget}",
        "ex05.valves.budget_equal": "tras la respuesta {n} se había gastado justo token_budget={budget}: alcanzado "
                                    "es gastado — para cuando lo gastado >= token_budget",
        "ex05.valves.order": "dos válvulas pararían la ejecución en la respuesta {n}: {first!r} va primero (el tope, "
                             "el presupuesto, sin progreso y luego la aprobación); la tuya la paró como {got!r}",
        "ex05.valves.cap_at_end": "el modelo terminó la ejecución justo tras max_turns={cap} turnos y la tuya dijo "
                                  "'max_turns': el tope solo para un turno que el modelo pide",
        "ex05.valves.pause_counts": "esta ejecución se pausó {pauses} vez/veces y tu bucle no la paró en "
                                    "max_turns={cap}: la continuación de un pause_turn también es un turno del tope",
        "ex05.eager.restarted": "tu bucle paró como {valve!r} en la primera respuesta de esta ejecución, antes de "
                                "que nada de ella pudiera llegar ahí: su cuenta no empezó de cero — guarda los "
                                "contadores de una ejecución dentro de run_agent, puestos al empezar",
        "ex05.loop.tools_offered": "la petición {n} ofreció las herramientas {got}, no las {k} que recibió "
                                   "run_agent: pasa tools=tools tal cual (la política decide qué se ejecuta)",
        "ex05.loop.content_as_it_came": "el mensaje del asistente de la respuesta {n} no es su contenido tal como "
                                        "llegó (tenía {want}, enviaste {got}): añade response.content, cada bloque",
        "ex05.valves.own_words": "tu arnés paró la ejecución como {valve!r} y devolvió text={got}: las palabras del "
                                 "modelo, o ninguna. Di con una frase propia que el arnés la paró",
        "ex05.valves.budget_one_late": "tu presupuesto actuó una petición tarde: el total llegó a "
                                       "token_budget={budget} con la respuesta {n} y tu bucle volvió a preguntar — "
                                       "cuenta los tokens de cada respuesta en cuanto llega, y luego comprueba",
        "ex05.gate.yes_reused": "se reutilizó un sí de una ejecución anterior: en esta nadie fue preguntado por "
                                "{name} y aun así se ejecutó — no guardes aprobaciones fuera de una ejecución de "
                                "run_agent (un set a nivel de módulo sobrevive entre ejecuciones): pregunta por cada "
                                "llamada, cada vez",
        "ex05.gate.asked_with": "al aprobador se le preguntó por {name} con {got}: pasa el nombre y la entrada de la "
                                "propia llamada (el dict que envió el modelo), `await approve(block.name, "
                                "block.input)`",
        "ex05.gate.own_answer": "en un turno read_message m2 recibió un no y m4 un sí, y las lecturas que se "
                                "ejecutaron fueron {ran}: decide cada llamada por su propia respuesta, no por el "
                                "nombre de su herramienta",
        "ex05.scenario.own_answer": "un turno en paralelo con dos lecturas preguntadas (m2: no, m4: sí): cada llamada "
                                    "decidida por su propia respuesta",
    },
}
