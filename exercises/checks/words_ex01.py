"""The checks' words: exercise 1, the tiered policy (ex01_policy.py), in English and Spanish.

Data only: {language: {message_id: text}}, ids grouped under the function that uses them. How the catalogues
are read, and how a sentence is added: kit.py's docstring.
"""

MESSAGES = {
    "en": {
        # drive
        # (also in ex04_gate.py)
        "ex01.drive.api_refused_next_request": "the API refused the next request: {message}",
        # completed
        "ex01.completed.api_accepted_every_request": "{label}: the API accepted every request and the model finished",
        # check_policy
        "ex01.policy.title": "POLICY and DEFAULT_TIER",
        "ex01.policy.is_a_dict_of_tiers": "POLICY is a dict: tool name -> 'allow' | 'ask' | 'deny'",
        "ex01.policy.not_defined_yet": "POLICY is not defined yet: run the exercise cell",
        "ex01.policy.fill_in_one_entry_per_tool": "fill in POLICY: one entry per tool of the colleague's list",
        "ex01.policy.tiers_plain_lowercase_strings":
            "tiers are the plain lowercase strings 'allow', 'ask', 'deny' (found {found})",
        "ex01.policy.must_be_a_dict": "POLICY must be a dict",
        "ex01.policy.tool_not_in_policy": "{name} is not in POLICY yet",
        "ex01.policy.wrong_tier": "it is {got!r}; the colleague's list says {tier!r}",
        "ex01.policy.default_tier_fails_closed": "DEFAULT_TIER fails closed: 'ask' or 'deny'",
        "ex01.policy.allow_runs_later_tools_unchecked":
            "with 'allow', any tool added later (delete_file is one already) would run unchecked",
        "ex01.policy.set_default_tier": "set DEFAULT_TIER to 'ask' or 'deny' (plain lowercase strings)",
        # check_allow
        "ex01.allow.title": "allow: the tool runs without asking, and its result goes back as it is",
        "ex01.allow.allowed_tools_ran_once": "read_file and get_time (allow) each ran once",
        "ex01.allow.allowed_tool_runs_straight":
            "an allowed tool runs straight away: await arun_tool(tool_impls, block.name, block.input, tools)",
        "ex01.allow.nobody_asked_about_allowed": "nobody was asked about an allowed tool",
        "ex01.allow.only_ask_tools_are_asked": "only 'ask' tools go to the approver",
        "ex01.allow.tool_output_went_back": "the tool's output went back as its tool_result content",
        "ex01.allow.pass_text_arun_tool":
            "pass on the text arun_tool returned: tool_result(block.id, text, is_error)",
        "ex01.allow.the_run": "the run",
        "ex01.allow.failing_tool_is_error":
            "a tool that fails (read_file of a missing file) is answered with is_error: true",
        "ex01.allow.keep_tool_own_failure":
            "keep the tool's own failure: text, is_error = await arun_tool(...) and pass is_error on to "
            "tool_result; dropped, a missing file reaches the model as a success",
        "ex01.allow.callers_own_tool_runs":
            "an allowed tool the caller offers, not in the lesson's TOOLS (send_email), runs",
        "ex01.allow.pass_tools_to_arun_tool":
            "pass the tools argument to arun_tool (arun_tool(tool_impls, name, input, tools)): it checks the input "
            "against the schemas the caller gave, and the lesson's TOOLS has no send_email",
        # check_deny
        "ex01.deny.title": "deny: the tool never runs, nobody is asked, and the model is told why",
        "ex01.deny.send_email_never_ran": "send_email (deny) never ran",
        "ex01.deny.look_tier_up_before": "look the tier up BEFORE running anything; a deny never reaches arun_tool",
        "ex01.deny.nobody_asked_about_send_email": "nobody was asked about send_email",
        "ex01.deny.deny_is_not_ask": "deny is not ask: a forbidden tool is refused without bothering the person",
        "ex01.deny.send_email_got_one_result": "the send_email call got exactly one tool_result",
        "ex01.deny.unrun_call_needs_a_result":
            "a call you do not run still needs its tool_result (tool_use_id=block.id), or it is left dangling",
        "ex01.deny.one_result_not_two": "one tool_result per call, not two",
        "ex01.deny.with_is_error": "... with is_error: true",
        "ex01.deny.mark_is_error": "the call did not succeed: tool_result(..., is_error=True)",
        "ex01.deny.saying_forbidden_by_policy":
            "... saying the tool is forbidden by policy (so the model does not try again)",
        "ex01.deny.reads_as_not_approved":
            "it reads as not approved (an approval's no); the deny text must say it is forbidden by policy (the "
            "word 'policy' or 'forbidden'), not REJECTED_MESSAGE",
        "ex01.deny.say_why":
            "say why: e.g. \"send_email is forbidden by policy; it was not run\" (the words 'forbidden' or 'policy')",
        "ex01.deny.typo_tier_is_a_deny": "a tier that is none of the three (a typo: 'Deny') is treated as deny",
        "ex01.deny.typo_ran_the_tool":
            "the typo ran the tool: fail closed — anything that is not exactly 'allow' or 'ask' is a deny",
        "ex01.deny.typo_went_to_the_approver":
            "the typo went to the approver: fail closed — anything that is not exactly 'allow' or 'ask' is a deny",
        "ex01.deny.typo_got_no_result":
            "the typo got no tool_result at all: fail closed — anything that is not exactly 'allow' or 'ask' is a "
            "deny, answered like one",
        "ex01.deny.answer_exactly_like_deny":
            "answer it exactly like a deny: one is_error tool_result, forbidden by policy",
        # check_ask
        "ex01.ask.title": "ask: the approval gate decides, before the tool runs",
        "ex01.ask.write_file_asked_once": "write_file (ask) was put to the approver once, with its name and input",
        "ex01.ask.await_approve":
            "for an 'ask' tool: await approve(block.name, block.input) — the gate you already have",
        "ex01.ask.approved_ran_after_yes": "approved: write_file ran, and only after the yes",
        "ex01.ask.never_ran_after_yes": "it never ran after a yes: run it when approve(...) returns True",
        "ex01.ask.asked_too_late":
            "ask first, then run: a question asked after the tool ran comes too late, the file is already written",
        "ex01.ask.rejected_never_ran": "rejected: write_file never ran",
        "ex01.ask.on_a_no_skip_arun_tool": "on a no, skip arun_tool",
        "ex01.ask.rejected_got_one_error_result":
            "rejected: the call still got exactly one tool_result, with is_error: true",
        # (also in ex04_gate.py)
        "ex01.ask.rejected_mark_is_error":
            "a rejected call did not succeed: mark its result is_error=True — tool_result(block.id, "
            "REJECTED_MESSAGE, is_error=True)",
        "ex01.ask.answer_the_rejected_call":
            "answer it: tool_result(block.id, REJECTED_MESSAGE, is_error=True) — a rejection is a result, not "
            "silence",
        # (also in ex04_gate.py)
        "ex01.ask.rejected_reads_as_not_approved": "rejected: the model reads it as not approved",
        "ex01.ask.reads_as_policy_refusal":
            "it reads as a refusal by policy: a rejection is not a deny — send REJECTED_MESSAGE",
        "ex01.ask.send_rejected_message":
            "send REJECTED_MESSAGE (from harness_lib.approval): it tells the model the action was not approved",
        "ex01.ask.approved_run": "approved run",
        "ex01.ask.rejected_run": "rejected run",
        "ex01.ask.no_approver_does_not_run":
            "no approver (approve=None): write_file does not run, and gets an is_error tool_result",
        "ex01.ask.no_approver_fail_closed":
            "with no approver nobody can say yes: fail closed, answer it like a rejection",
        "ex01.ask.no_approver_ran_the_tool":
            "approve=None ran the tool: with no approver nobody can say yes — fail closed, treat it as a no",
        "ex01.ask.non_true_answer_does_not_approve":
            "an approver that answers something other than True (here the string 'no') does not approve",
        "ex01.ask.only_true_is_a_yes":
            "only `True` is a yes: `if await approve(...) is True:` — a truthy 'no' must not run the tool",
        # check_default_tier
        "ex01.default_tier.title": "the default tier: what a tool the policy does not list gets",
        "ex01.default_tier.ran_without_asking": "ran without asking",
        "ex01.default_tier.asked_then_ran": "was asked, then ran",
        "ex01.default_tier.neither_asked_nor_ran": "was neither asked about nor run",
        "ex01.default_tier.unlisted_delete_file": "default_tier={tier!r}: the unlisted delete_file {said}",
        "ex01.default_tier.use_default_tier_argument":
            "look the tier up with policy.get(block.name, default_tier): the default_tier argument, not a fixed tier",
        "ex01.default_tier.deny_answers_like_deny":
            "default_tier='deny': delete_file got one is_error tool_result saying it is forbidden by policy",
        "ex01.default_tier.answer_like_a_listed_deny":
            "an unlisted tool that falls to deny is answered exactly like a listed deny",
        "ex01.default_tier.listed_tool_keeps_its_tier": "a tool the policy lists gets its own tier, not the default",
        "ex01.default_tier.use_policy_argument":
            "use the policy argument the loop passes in (the checks pass their own), not the global POLICY",
        # check_parallel
        "ex01.parallel.title": "a turn of several calls: approvals first, then one tool_result each, in order",
        "ex01.parallel.returned_a_list": "for a turn of 4 tool calls, run_tool_uses returned a list",
        "ex01.parallel.return_a_list": "return a list of tool_result blocks; the loop sends it as ONE user message",
        "ex01.parallel.one_result_per_call_in_order": "exactly one tool_result per tool_use, in the tool_use order",
        "ex01.parallel.one_result_per_block":
            "one result per tool_use block, in the order of the blocks, none skipped, none twice (the text block "
            "before them gets none)",
        "ex01.parallel.every_block_is_a_tool_result":
            "every block is a tool_result: type, tool_use_id, content (and is_error when it failed)",
        "ex01.parallel.build_with_tool_result": "build each one with tool_result(block.id, text, is_error)",
        "ex01.parallel.allowed_and_approved_ran":
            "read_file, get_time and the approved write_file ran; send_email did not",
        "ex01.parallel.tiers_hold_in_a_turn":
            "allow runs, ask runs after a yes, deny never runs — in a turn of several calls too",
        "ex01.parallel.approvals_before_any_tool":
            "every approval of the turn was asked before any tool of the turn ran",
        "ex01.parallel.decide_every_call_then_run":
            "the kit's rule: first decide every call of the turn (look up tiers, ask the approver for each 'ask'), "
            "then run the calls that may run — here a tool ran before the turn's question was asked",
        "ex01.parallel.two_writes_asked_each":
            "two write_file calls in one turn: each was asked about, and only the approved one ran",
        "ex01.parallel.asked_n_times_for_2_calls":
            "the approver was asked {n} time(s) for 2 calls: ask once per call (with its own input), and run a call "
            "only on its own yes (ran: {ran})",
        # the arguments, not the notebook's globals (check_allow, check_default_tier)
        "ex01.state.follows_its_arguments":
            "the valve follows the policy and default_tier it is given, not the notebook's POLICY and DEFAULT_TIER",
        "ex01.state.reads_notebook_policy":
            "your function reads the notebook's POLICY, not its `policy` argument: the argument says {name}: "
            "{want!r}, the notebook's POLICY says {nb!r}, and the call was treated as {seen!r} — look the tier up "
            "with policy.get(block.name, default_tier) (the checks pass their own policy)",
        "ex01.state.reads_notebook_default":
            "your function reads the notebook's DEFAULT_TIER, not its `default_tier` argument: the unlisted {name} "
            "should get {want!r} (the argument) and was treated as {seen!r}, the notebook's DEFAULT_TIER — "
            "policy.get(block.name, default_tier)",
        "ex01.state.uses_tool_impls": "the calls ran on the tool_impls the valve is given",
        "ex01.state.not_the_tool_impls":
            "none of the tools the checks passed in ran, yet {names} got a result: your function runs tools of its "
            "own (the notebook's make_impls()?), not its `tool_impls` argument — arun_tool(tool_impls, block.name, "
            "block.input, tools)",
        "ex01.state.result_reused":
            "{name} did not run in this run, yet its call got {content!r}: a result from an earlier run was reused — "
            "keep no results between runs (a dict at module level lives on): run every "
            "call that may run",
        "ex01.deny.call_never_reached": "not seen: the run stopped before the valve got the send_email call ({error})",
        "ex01.deny.got_n_results": " (it got {n})",
        "ex01.deny.it_says": " (it says: {text!r})",
        "ex01.state.uses_its_tools": "each call is checked against the tools the valve is given",
        "ex01.state.not_its_tools":
            "given tools without get_time, your function still ran get_time: it checks the calls against other tools "
            "than its `tools` argument (the notebook's TOOLS_WITH_EMAIL or the lesson's TOOLS?) — arun_tool("
            "tool_impls, block.name, block.input, tools) answers a tool it does not list with an error",
    },
    "es": {
        # drive
        # (also in ex04_gate.py)
        "ex01.drive.api_refused_next_request": "la API rechazó la petición siguiente: {message}",
        # completed
        "ex01.completed.api_accepted_every_request":
            "{label}: la API aceptó todas las peticiones y el modelo terminó",
        # check_policy
        "ex01.policy.title": "POLICY y DEFAULT_TIER",
        "ex01.policy.is_a_dict_of_tiers": "POLICY es un dict: nombre de la herramienta -> 'allow' | 'ask' | 'deny'",
        "ex01.policy.not_defined_yet": "POLICY aún no está definido: ejecuta la celda del ejercicio",
        "ex01.policy.fill_in_one_entry_per_tool":
            "rellena POLICY: una entrada por cada herramienta de la lista de tu compañera",
        "ex01.policy.tiers_plain_lowercase_strings":
            "los niveles son las cadenas 'allow', 'ask' y 'deny', tal cual y en minúsculas (hay {found})",
        "ex01.policy.must_be_a_dict": "POLICY tiene que ser un dict",
        "ex01.policy.tool_not_in_policy": "{name} aún no está en POLICY",
        "ex01.policy.wrong_tier": "es {got!r}; la lista de tu compañera dice {tier!r}",
        "ex01.policy.default_tier_fails_closed": "DEFAULT_TIER falla en cerrado: 'ask' o 'deny'",
        "ex01.policy.allow_runs_later_tools_unchecked":
            "con 'allow', cualquier herramienta que se añada después (delete_file ya es una) se ejecutaría sin "
            "control",
        "ex01.policy.set_default_tier": "da a DEFAULT_TIER el valor 'ask' o 'deny' (cadenas tal cual, en minúsculas)",
        # check_allow
        "ex01.allow.title": "allow: la herramienta se ejecuta sin preguntar, y su resultado vuelve tal cual",
        "ex01.allow.allowed_tools_ran_once": "read_file y get_time (allow) se ejecutaron una vez cada una",
        "ex01.allow.allowed_tool_runs_straight":
            "una herramienta permitida se ejecuta en el acto: await arun_tool(tool_impls, block.name, block.input, "
            "tools)",
        "ex01.allow.nobody_asked_about_allowed": "no se preguntó a nadie por una herramienta permitida",
        "ex01.allow.only_ask_tools_are_asked": "al aprobador solo van las herramientas 'ask'",
        "ex01.allow.tool_output_went_back": "lo que devolvió la herramienta volvió como content de su tool_result",
        "ex01.allow.pass_text_arun_tool":
            "pasa el texto que devolvió arun_tool: tool_result(block.id, text, is_error)",
        "ex01.allow.the_run": "la ejecución",
        "ex01.allow.failing_tool_is_error":
            "una herramienta que falla (read_file de un archivo que no existe) se responde con is_error: true",
        "ex01.allow.keep_tool_own_failure":
            "conserva el fallo de la propia herramienta: text, is_error = await arun_tool(...) y pasa is_error a "
            "tool_result; si lo pierdes, un archivo que no existe le llega al modelo como un éxito",
        "ex01.allow.callers_own_tool_runs":
            "se ejecuta una herramienta permitida que ofrece quien llama y que no está en TOOLS de la lección "
            "(send_email)",
        "ex01.allow.pass_tools_to_arun_tool":
            "pasa el argumento tools a arun_tool (arun_tool(tool_impls, name, input, tools)): comprueba la entrada "
            "con los esquemas que dio quien llama, y TOOLS de la lección no tiene send_email",
        # check_deny
        "ex01.deny.title":
            "deny: la herramienta no se ejecuta nunca, no se pregunta a nadie y al modelo se le dice por qué",
        "ex01.deny.send_email_never_ran": "send_email (deny) no se ejecutó nunca",
        "ex01.deny.look_tier_up_before": "consulta el nivel ANTES de ejecutar nada; un deny nunca llega a arun_tool",
        "ex01.deny.nobody_asked_about_send_email": "no se preguntó a nadie por send_email",
        "ex01.deny.deny_is_not_ask": "deny no es ask: una herramienta prohibida se rechaza sin molestar a la persona",
        "ex01.deny.send_email_got_one_result": "la llamada a send_email recibió exactamente un tool_result",
        "ex01.deny.unrun_call_needs_a_result":
            "una llamada que no ejecutas también necesita su tool_result (tool_use_id=block.id); si no, queda "
            "colgando",
        "ex01.deny.one_result_not_two": "un tool_result por llamada, no dos",
        "ex01.deny.with_is_error": "... con is_error: true",
        "ex01.deny.mark_is_error": "la llamada no salió bien: tool_result(..., is_error=True)",
        "ex01.deny.saying_forbidden_by_policy":
            "... diciendo que la política prohíbe la herramienta (así el modelo no lo vuelve a intentar)",
        "ex01.deny.reads_as_not_approved":
            "se lee como no aprobada (el no de una aprobación); el texto del deny tiene que decir que la política "
            "lo prohíbe (la palabra 'policy' o 'forbidden'), no REJECTED_MESSAGE",
        "ex01.deny.say_why":
            "di por qué: p. ej. \"send_email is forbidden by policy; it was not run\" (las palabras 'forbidden' o "
            "'policy')",
        "ex01.deny.typo_tier_is_a_deny":
            "un nivel que no es ninguno de los tres (una errata: 'Deny') se trata como deny",
        "ex01.deny.typo_ran_the_tool":
            "la errata ejecutó la herramienta: falla en cerrado — todo lo que no sea exactamente 'allow' o 'ask' es "
            "un deny",
        "ex01.deny.typo_went_to_the_approver":
            "la errata llegó al aprobador: falla en cerrado — todo lo que no sea exactamente 'allow' o 'ask' es un "
            "deny",
        "ex01.deny.typo_got_no_result":
            "la errata no recibió ningún tool_result: falla en cerrado — todo lo que no sea exactamente 'allow' o "
            "'ask' es un deny, y se responde como tal",
        "ex01.deny.answer_exactly_like_deny":
            "respóndela igual que a un deny: un tool_result con is_error, prohibida por la política",
        # check_ask
        "ex01.ask.title": "ask: decide la válvula de aprobación, antes de que se ejecute la herramienta",
        "ex01.ask.write_file_asked_once":
            "write_file (ask) pasó una vez por el aprobador, con su nombre y su entrada",
        "ex01.ask.await_approve":
            "para una herramienta 'ask': await approve(block.name, block.input) — la válvula que ya tienes",
        "ex01.ask.approved_ran_after_yes": "aprobada: write_file se ejecutó, y solo después del sí",
        "ex01.ask.never_ran_after_yes": "no se ejecutó tras un sí: ejecútala cuando approve(...) devuelva True",
        "ex01.ask.asked_too_late":
            "primero pregunta y después ejecuta: una pregunta hecha cuando la herramienta ya se ejecutó llega "
            "tarde, el archivo ya está escrito",
        "ex01.ask.rejected_never_ran": "rechazada: write_file no se ejecutó nunca",
        "ex01.ask.on_a_no_skip_arun_tool": "ante un no, sáltate arun_tool",
        "ex01.ask.rejected_got_one_error_result":
            "rechazada: la llamada recibió aun así exactamente un tool_result, con is_error: true",
        # (also in ex04_gate.py)
        "ex01.ask.rejected_mark_is_error":
            "una llamada rechazada no tuvo éxito: marca su resultado con is_error=True — tool_result(block.id, "
            "REJECTED_MESSAGE, is_error=True)",
        "ex01.ask.answer_the_rejected_call":
            "respóndela: tool_result(block.id, REJECTED_MESSAGE, is_error=True) — un rechazo es un resultado, no un "
            "silencio",
        # (also in ex04_gate.py)
        "ex01.ask.rejected_reads_as_not_approved": "rechazada: el modelo lo lee como no aprobada",
        "ex01.ask.reads_as_policy_refusal":
            "se lee como un rechazo por política: un rechazo de la persona no es un deny — envía REJECTED_MESSAGE",
        "ex01.ask.send_rejected_message":
            "envía REJECTED_MESSAGE (de harness_lib.approval): le dice al modelo que la acción no se aprobó",
        "ex01.ask.approved_run": "ejecución aprobada",
        "ex01.ask.rejected_run": "ejecución rechazada",
        "ex01.ask.no_approver_does_not_run":
            "sin aprobador (approve=None): write_file no se ejecuta y recibe un tool_result con is_error",
        "ex01.ask.no_approver_fail_closed":
            "sin aprobador nadie puede decir que sí: falla en cerrado, respóndela como un rechazo",
        "ex01.ask.no_approver_ran_the_tool":
            "con approve=None se ejecutó la herramienta: sin aprobador nadie puede decir que sí — falla en cerrado, "
            "tómalo como un no",
        "ex01.ask.non_true_answer_does_not_approve":
            "un aprobador que responde algo distinto de True (aquí la cadena 'no') no aprueba",
        "ex01.ask.only_true_is_a_yes":
            "solo `True` es un sí: `if await approve(...) is True:` — un 'no' que Python toma por verdadero no debe "
            "ejecutar la herramienta",
        # check_default_tier
        "ex01.default_tier.title": "el nivel por defecto: lo que recibe una herramienta que la política no menciona",
        "ex01.default_tier.ran_without_asking": "se ejecutó sin preguntar",
        "ex01.default_tier.asked_then_ran": "se preguntó por ella y luego se ejecutó",
        "ex01.default_tier.neither_asked_nor_ran": "ni se preguntó por ella ni se ejecutó",
        "ex01.default_tier.unlisted_delete_file":
            "default_tier={tier!r}: delete_file, que no está en la lista, {said}",
        "ex01.default_tier.use_default_tier_argument":
            "consulta el nivel con policy.get(block.name, default_tier): el argumento default_tier, no un nivel fijo",
        "ex01.default_tier.deny_answers_like_deny":
            "default_tier='deny': delete_file recibió un tool_result con is_error que dice que la política lo "
            "prohíbe",
        "ex01.default_tier.answer_like_a_listed_deny":
            "una herramienta que no está en la lista y cae en deny se responde igual que un deny de la lista",
        "ex01.default_tier.listed_tool_keeps_its_tier":
            "una herramienta que la política menciona recibe su propio nivel, no el de por defecto",
        "ex01.default_tier.use_policy_argument":
            "usa el argumento policy que pasa el bucle (los controles pasan el suyo), no el POLICY global",
        # check_parallel
        "ex01.parallel.title":
            "un turno de varias llamadas: primero las aprobaciones, luego un tool_result por llamada, en orden",
        "ex01.parallel.returned_a_list":
            "para un turno de 4 llamadas a herramientas, run_tool_uses devolvió una lista",
        "ex01.parallel.return_a_list":
            "devuelve una lista de bloques tool_result; el bucle la envía como UN mensaje user",
        "ex01.parallel.one_result_per_call_in_order":
            "exactamente un tool_result por tool_use, en el orden de los tool_use",
        "ex01.parallel.one_result_per_block":
            "un resultado por bloque tool_use, en el orden de los bloques, sin saltarse ninguno ni repetirlo (el "
            "bloque de texto que va antes no recibe ninguno)",
        "ex01.parallel.every_block_is_a_tool_result":
            "cada bloque es un tool_result: type, tool_use_id, content (e is_error si falló)",
        "ex01.parallel.build_with_tool_result": "construye cada uno con tool_result(block.id, text, is_error)",
        "ex01.parallel.allowed_and_approved_ran":
            "se ejecutaron read_file, get_time y el write_file aprobado; send_email no",
        "ex01.parallel.tiers_hold_in_a_turn":
            "allow se ejecuta, ask se ejecuta tras un sí, deny no se ejecuta nunca — también en un turno de varias "
            "llamadas",
        "ex01.parallel.approvals_before_any_tool":
            "todas las aprobaciones del turno se pidieron antes de que se ejecutara ninguna herramienta del turno",
        "ex01.parallel.decide_every_call_then_run":
            "la regla del kit: primero decide todas las llamadas del turno (consulta los niveles, pregunta al "
            "aprobador por cada 'ask') y después ejecuta las que pueden ejecutarse — aquí una herramienta se "
            "ejecutó antes de hacer la pregunta del turno",
        "ex01.parallel.two_writes_asked_each":
            "dos llamadas a write_file en un turno: se preguntó por cada una, y solo se ejecutó la aprobada",
        "ex01.parallel.asked_n_times_for_2_calls":
            "se preguntó {n} vez (veces) al aprobador para 2 llamadas: pregunta una vez por llamada (con su propia "
            "entrada) y ejecuta cada llamada solo con su propio sí (se ejecutaron: {ran})",
        # the arguments, not the notebook's globals (check_allow, check_default_tier)
        "ex01.state.follows_its_arguments":
            "la válvula sigue la policy y el default_tier que recibe, no POLICY ni DEFAULT_TIER del cuaderno",
        "ex01.state.reads_notebook_policy":
            "tu función lee POLICY del cuaderno, no su argumento `policy`: el argumento dice {name}: {want!r}, POLICY "
            "del cuaderno dice {nb!r}, y la llamada se trató como {seen!r} — busca el nivel con "
            "policy.get(block.name, default_tier) (los controles pasan su propia policy)",
        "ex01.state.reads_notebook_default":
            "tu función lee DEFAULT_TIER del cuaderno, no su argumento `default_tier`: la herramienta no listada "
            "{name} debería recibir {want!r} (el argumento) y se trató como {seen!r}, el DEFAULT_TIER del cuaderno — "
            "policy.get(block.name, default_tier)",
        "ex01.state.uses_tool_impls": "las llamadas se ejecutaron con las tool_impls que recibe la válvula",
        "ex01.state.not_the_tool_impls":
            "no se ejecutó ninguna de las herramientas que pasaron los controles y aun así {names} recibió un "
            "resultado: tu función ejecuta herramientas propias (¿make_impls() del cuaderno?), no su argumento "
            "`tool_impls` — arun_tool(tool_impls, block.name, block.input, tools)",
        "ex01.state.result_reused":
            "{name} no se ejecutó en esta ejecución y aun así su llamada recibió {content!r}: se reutilizó un "
            "resultado de una ejecución anterior — no guardes resultados entre "
            "ejecuciones (un dict a nivel de módulo sobrevive): ejecuta cada llamada que pueda ejecutarse",
        "ex01.deny.call_never_reached":
            "no se vio: la ejecución se detuvo antes de que la válvula recibiera la llamada a send_email ({error})",
        "ex01.deny.got_n_results": " (recibió {n})",
        "ex01.deny.it_says": " (dice: {text!r})",
        "ex01.state.uses_its_tools": "cada llamada se comprueba con las herramientas que recibe la válvula",
        "ex01.state.not_its_tools":
            "con unas tools sin get_time, tu función ejecutó get_time igualmente: comprueba las llamadas con otras "
            "herramientas que su argumento `tools` (¿TOOLS_WITH_EMAIL del cuaderno o TOOLS de la lección?) — "
            "arun_tool(tool_impls, block.name, block.input, tools) responde con un error a una herramienta que no "
            "está en la lista",
    },
}
