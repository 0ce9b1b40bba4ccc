"""The checks' words: the shared kit (kit.py), in English and Spanish.

Data only: {language: {message_id: text}}, ids grouped under the function that uses them. How the catalogues
are read, and how a sentence is added: kit.py's docstring.
"""

MESSAGES = {
    "en": {
        # Checks
        "kit.checks.follows_from_above": "follows from the ✗ above: fix that first",
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
        "kit.bounded.runaway_after_300_s": "runaway: still running after 300 s ({n} requests)",
        "kit.bounded.runaway_past_the_limit": "runaway: still asking the model after {limit} requests",
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
            "run_tool_uses did not return within 60 s: is it waiting on something?",
        "kit.error_text.run_stopped_with_error":
            "the run stopped with {error}: run_tool_uses must return a list with one tool_result per tool_use block",
        # unfinished
        "kit.unfinished.written_and_runs": "{name} is written and runs",
        "kit.unfinished.still_raises_not_implemented": "write {name}: it still raises NotImplementedError",
        "kit.unfinished.other_criteria_wait": "(the other criteria are checked once it runs)",
    },
    "es": {
        # Checks
        "kit.checks.follows_from_above": "es consecuencia del ✗ de arriba: arregla eso primero",
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
        "kit.bounded.runaway_after_300_s": "desbocado: sigue en marcha después de 300 s ({n} peticiones)",
        "kit.bounded.runaway_past_the_limit": "desbocado: sigue preguntando al modelo después de {limit} peticiones",
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
        "kit.error_text.run_tool_uses_timed_out": "run_tool_uses no terminó en 60 s: ¿está esperando algo?",
        "kit.error_text.run_stopped_with_error":
            "la ejecución se detuvo con {error}: run_tool_uses debe devolver una lista con un tool_result por "
            "bloque tool_use",
        # unfinished
        "kit.unfinished.written_and_runs": "{name} está escrita y se ejecuta",
        "kit.unfinished.still_raises_not_implemented": "escribe {name}: todavía lanza NotImplementedError",
        "kit.unfinished.other_criteria_wait": "(los demás criterios se comprueban cuando se ejecute)",
    },
}
