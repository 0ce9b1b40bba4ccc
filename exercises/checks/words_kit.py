"""The checks' words: the shared kit (kit.py), in English and Spanish.

Data only: {language: {message_id: text}}, ids grouped under the function that uses them. How the catalogues
are read, and how a sentence is added: kit.py's docstring.
"""

MESSAGES = {
    "en": {
        # Checks
        "kit.checks.follows_from_above": "follows from the ✗ above: fix that first",
        "kit.checks.follows_from": "follows from {where}: fix that first",
        "kit.checks.hint": "hint",
        "kit.checks.all_criteria_met": "all criteria met",
        "kit.checks.not_met_summary": "{cell_id}: {n} criterion(s) not met",
        "kit.checks.not_met_fix_and_rerun":
            "{n} criterion(s) not met: fix your cell, run it, then run this check again",
        # cell_error
        "kit.cell_error.line_number": " (line {n})",
        # not_defined_hint
        "kit.not_defined.cell_raised":
            "your cell raised {error}, so {name} is not defined: fix it and run the cell again",
        "kit.not_defined.run_its_cell_first": "run the cell that defines {name} first",
        # bounded
        "kit.bounded.runaway_after_seconds": "runaway: still running after {seconds:g} s ({n} requests)",
        "kit.bounded.runaway_past_the_limit": "runaway: still asking the model after {limit} requests",
        "kit.bounded.busy_hint":
            "it was still running when the time was up, after {n} request(s) to the model: a loop in your own code "
            "that never ends?",
        # _error_text
        "kit.error_text.text_block_taken_for_a_call":
            "your code treated the text block the model sends before its calls as a call: handle only blocks whose "
            "type is 'tool_use' (a turn is a sentence, then the tool_use blocks)",
        "kit.error_text.run_tool_uses_not_written": "write run_tool_uses (it still raises NotImplementedError)",
        "kit.error_text.no_approver_was_called":
            "with no approver (approve=None) nobody can say yes: check `approve is None` before calling it (the run "
            "stopped with {error})",
        "kit.error_text.approver_arguments":
            "call the approver with the call's name and input: await approve(block.name, block.input) (the run "
            "stopped with {error})",
        "kit.error_text.unlisted_tool_keyerror":
            "a tool the policy does not list raised {error}: look its tier up with policy.get(block.name, "
            "default_tier)",
        "kit.error_text.one_result_per_tool_use":
            "every tool_use block needs exactly one tool_result (tool_use_id=block.id), in the next user message; "
            "look at every block of content, not only the first",
        "kit.error_text.run_tool_uses_timed_out":
            "run_tool_uses did not return within 60 s: is it waiting on something, or in a loop that does not end?",
        "kit.error_text.call_got_no_result":
            "the {name} call got no tool_result, so the next request was refused: every tool_use block needs "
            "exactly one tool_result (tool_use_id=block.id), a call you do not run too",
        "kit.error_text.turn_got_no_result":
            "the {name} call got no tool_result, so the next request was refused: every tool_use block needs "
            "exactly one tool_result (tool_use_id=block.id), a call you do not run too; look at every block of "
            "content, not only the first",
        "kit.error_text.run_stopped_with_error":
            "the run stopped with {error}: run_tool_uses must return a list with one tool_result per tool_use block",
        # unfinished
        "kit.unfinished.written_and_runs": "{name} is written and runs",
        "kit.unfinished.still_raises_not_implemented": "write {name}: it still raises NotImplementedError",
        "kit.unfinished.other_criteria_wait": "(the other criteria are checked once it runs)",
        # raised_first
        "kit.raised.cell_ran_to_its_end": "the cell that defines {name} ran to its end",
        "kit.raised.cell_raised":
            "your cell raised {error}: the cell that defines {name} must run to its end — fix that line and run "
            "the cell again",
        # unasked_hint
        "kit.state.ran_unasked":
            "nobody was asked about {name}, which needs a yes, yet it ran: approve(...) without `await` only makes "
            "a coroutine — truthy, and it asks nobody — so `await approve(block.name, block.input)` (or the call "
            "was handled as if it needed no yes)",
        "kit.state.approver_miscalled":
            "the approver was called with {args} and raised TypeError, which your gate took for a no: call it with "
            "the call's name and input — await approve(block.name, block.input)",
        "kit.state.refused_unasked":
            "{name} was refused, yet the approver it was given was never asked: approve(...) without `await` only "
            "makes a coroutine, which asks nobody and is never True — `await approve(block.name, block.input)`",
        # state kept between runs (the checks' state causes, late_bound)
        "kit.state.approver_awaited": "every call that needs a yes was put to the approver it was given",
        "kit.state.each_run_afresh": "each run starts afresh: nothing an earlier run decided carries over",
        "kit.state.yes_reused":
            "a yes from an earlier run was reused: in this run nobody was asked about {name}, yet it ran (an earlier "
            "run had said yes) — keep no approvals outside one call of run_tool_uses (a set at module level, or a "
            "default like approved=set(), lives on between runs): ask about every call, every time",
        "kit.state.each_call_its_own": "each call of the turn is handled with its own id and input",
        "kit.state.late_binding":
            "every call of the turn was handled as the last one ({value}, every time): a function "
            "made in the loop (a lambda, an inner def) reads `block` when it runs, after the loop has moved on — "
            "give it the block as an argument (lambda b=block: …, def job(b=block)), or ask and run in the loop "
            "body",
    },
    "es": {
        # Checks
        "kit.checks.follows_from_above": "es consecuencia del ✗ de arriba: arregla eso primero",
        "kit.checks.follows_from": "es consecuencia de {where}: arregla eso primero",
        "kit.checks.hint": "pista",
        "kit.checks.all_criteria_met": "todos los criterios se cumplen",
        "kit.checks.not_met_summary": "{cell_id}: {n} criterio(s) sin cumplir",
        "kit.checks.not_met_fix_and_rerun":
            "{n} criterio(s) sin cumplir: arregla tu celda, ejecútala y vuelve a ejecutar este control",
        # cell_error
        "kit.cell_error.line_number": " (línea {n})",
        # not_defined_hint
        "kit.not_defined.cell_raised":
            "tu celda lanzó {error}, así que {name} no está definida: corrígela y vuelve a ejecutar la celda",
        "kit.not_defined.run_its_cell_first": "ejecuta antes la celda que define {name}",
        # bounded
        "kit.bounded.runaway_after_seconds": "desbocado: sigue en marcha después de {seconds:g} s ({n} peticiones)",
        "kit.bounded.runaway_past_the_limit": "desbocado: sigue preguntando al modelo después de {limit} peticiones",
        "kit.bounded.busy_hint":
            "seguía en marcha cuando se acabó el tiempo, tras {n} petición(es) al modelo: ¿un bucle de tu propio "
            "código que no termina nunca?",
        # _error_text
        "kit.error_text.text_block_taken_for_a_call":
            "tu código trató como una llamada el bloque de texto que el modelo envía antes de sus llamadas: atiende "
            "solo los bloques cuyo type es 'tool_use' (un turno es una frase y luego los bloques tool_use)",
        "kit.error_text.run_tool_uses_not_written": "escribe run_tool_uses (todavía lanza NotImplementedError)",
        "kit.error_text.no_approver_was_called":
            "sin aprobador (approve=None) nadie puede decir que sí: comprueba `approve is None` antes de llamarlo "
            "(la ejecución se detuvo con {error})",
        "kit.error_text.approver_arguments":
            "llama al aprobador con el nombre y la entrada de la llamada: await approve(block.name, block.input) "
            "(la ejecución se detuvo con {error})",
        "kit.error_text.unlisted_tool_keyerror":
            "una herramienta que la política no incluye lanzó {error}: busca su nivel con policy.get(block.name, "
            "default_tier)",
        "kit.error_text.one_result_per_tool_use":
            "cada bloque tool_use necesita exactamente un tool_result (tool_use_id=block.id) en el siguiente "
            "mensaje user; recorre todos los bloques de content, no solo el primero",
        "kit.error_text.run_tool_uses_timed_out":
            "run_tool_uses no terminó en 60 s: ¿está esperando algo, o en un bucle que no termina?",
        "kit.error_text.call_got_no_result":
            "la llamada a {name} no recibió tool_result, así que se rechazó la petición siguiente: cada bloque "
            "tool_use necesita exactamente un tool_result (tool_use_id=block.id), también una llamada que no "
            "ejecutas",
        "kit.error_text.turn_got_no_result":
            "la llamada a {name} no recibió tool_result, así que se rechazó la petición siguiente: cada bloque "
            "tool_use necesita exactamente un tool_result (tool_use_id=block.id), también una llamada que no "
            "ejecutas; recorre todos los bloques de content, no solo el primero",
        "kit.error_text.run_stopped_with_error":
            "la ejecución se detuvo con {error}: run_tool_uses debe devolver una lista con un tool_result por "
            "bloque tool_use",
        # unfinished
        "kit.unfinished.written_and_runs": "{name} está escrita y se ejecuta",
        "kit.unfinished.still_raises_not_implemented": "escribe {name}: todavía lanza NotImplementedError",
        "kit.unfinished.other_criteria_wait": "(los demás criterios se comprueban cuando se ejecute)",
        # raised_first
        "kit.raised.cell_ran_to_its_end": "la celda que define {name} se ejecutó hasta el final",
        "kit.raised.cell_raised":
            "tu celda lanzó {error}: la celda que define {name} tiene que ejecutarse hasta el final — corrige esa "
            "línea y vuelve a ejecutar la celda",
        # unasked_hint
        "kit.state.ran_unasked":
            "no se preguntó a nadie por {name}, que necesita un sí, y aun así se ejecutó: approve(...) sin `await` "
            "solo crea una corrutina —que es verdadera y no pregunta a nadie—, así que `await approve(block.name, "
            "block.input)` (o la llamada se trató como si no necesitara un sí)",
        "kit.state.approver_miscalled":
            "se llamó al aprobador con {args} y lanzó TypeError, que tu compuerta tomó por un no: llámalo con el "
            "nombre y la entrada de la llamada — await approve(block.name, block.input)",
        "kit.state.refused_unasked":
            "{name} se rechazó, pero nunca se preguntó al aprobador que recibió: approve(...) sin `await` solo crea "
            "una corrutina, que no pregunta a nadie y nunca es True — `await approve(block.name, block.input)`",
        # state kept between runs (the checks' state causes, late_bound)
        "kit.state.approver_awaited": "cada llamada que necesita un sí se le preguntó al aprobador que recibió",
        "kit.state.each_run_afresh": "cada ejecución empieza de cero: nada de lo que decidió una anterior se arrastra",
        "kit.state.yes_reused":
            "se reutilizó un sí de una ejecución anterior: en esta nadie fue preguntado por {name} y aun así se "
            "ejecutó (una ejecución anterior había dicho que sí) — no guardes aprobaciones fuera de una llamada a "
            "run_tool_uses (un set a nivel de módulo, o un valor por defecto como approved=set(), sobrevive entre "
            "ejecuciones): pregunta por cada llamada, cada vez",
        "kit.state.each_call_its_own": "cada llamada del turno se trata con su propio id y su propia entrada",
        "kit.state.late_binding":
            "todas las llamadas del turno se trataron como la última ({value}, cada vez): una "
            "función creada en el bucle (una lambda, un def interno) lee `block` cuando se ejecuta, cuando el bucle "
            "ya ha avanzado — pásale el bloque como argumento (lambda b=block: …, def job(b=block)), o pregunta y "
            "ejecuta en el cuerpo del bucle",
    },
}
