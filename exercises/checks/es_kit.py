"""The checks' words in Spanish: the shared kit (kit.py).

For the twins in exercises/es/. Data only: keyed by the English text at each _t() call, grouped under the
function that calls it; a text another module uses too is listed once, in the first module that uses it.
The {fields} are the same in both languages. kit.py merges the tables into one SPANISH.
"""

SPANISH = {
    # Checks
    "follows from the ✗ above: fix that first":
        "es consecuencia del ✗ de arriba: arregla eso primero",
    "hint": "pista",
    "all criteria met": "todos los criterios se cumplen",
    "{cell_id}: {n} criterion(s) not met": "{cell_id}: {n} criterio(s) sin cumplir",
    "{n} criterion(s) not met: fix your cell, run it, then run this check again":
        "{n} criterio(s) sin cumplir: arregla tu celda, ejecútala y vuelve a ejecutar este control",
    # cell_error
    " (line {n})":
        " (línea {n})",
    # not_defined_hint
    "your cell raised {error}, so {name} is not defined: fix it and run the cell again":
        "tu celda lanzó {error}, así que {name} no está definida: corrígela y vuelve a ejecutar la celda",
    "run the cell that defines {name} first": "ejecuta antes la celda que define {name}",
    # bounded
    "runaway: still running after 300 s ({n} requests)":
        "desbocado: sigue en marcha después de 300 s ({n} peticiones)",
    "runaway: still asking the model after {limit} requests":
        "desbocado: sigue preguntando al modelo después de {limit} peticiones",
    # _error_text
    "your code treated the text block the model sends before its calls as a call: handle only blocks whose type "
    "is 'tool_use' (a turn is a sentence, then the tool_use blocks)":
        "tu código trató como una llamada el bloque de texto que el modelo envía antes de sus llamadas: atiende "
        "solo los bloques cuyo type es 'tool_use' (un turno es una frase y luego los bloques tool_use)",
    "write run_tool_uses (it still raises NotImplementedError)":
        "escribe run_tool_uses (todavía lanza NotImplementedError)",
    "with no approver (approve=None) nobody can say yes: check `approve is None` before calling it (the run "
    "stopped with {error})":
        "sin aprobador (approve=None) nadie puede decir que sí: comprueba `approve is None` antes de llamarlo (la "
        "ejecución se detuvo con {error})",
    "call the approver with the call's name and input: await approve(block.name, block.input) (the run stopped "
    "with {error})":
        "llama al aprobador con el nombre y la entrada de la llamada: await approve(block.name, block.input) (la "
        "ejecución se detuvo con {error})",
    "a tool the policy does not list raised {error}: look its tier up with policy.get(block.name, default_tier)":
        "una herramienta que la política no incluye lanzó {error}: busca su nivel con policy.get(block.name, "
        "default_tier)",
    "every tool_use block needs exactly one tool_result (tool_use_id=block.id), in the next user message; look at "
    "every block of content, not only the first":
        "cada bloque tool_use necesita exactamente un tool_result (tool_use_id=block.id) en el siguiente mensaje "
        "user; recorre todos los bloques de content, no solo el primero",
    "run_tool_uses did not return within 60 s: is it waiting on something?":
        "run_tool_uses no terminó en 60 s: ¿está esperando algo?",
    "the run stopped with {error}: run_tool_uses must return a list with one tool_result per tool_use block":
        "la ejecución se detuvo con {error}: run_tool_uses debe devolver una lista con un tool_result por bloque "
        "tool_use",
    # unfinished
    "{name} is written and runs": "{name} está escrita y se ejecuta",
    "write {name}: it still raises NotImplementedError": "escribe {name}: todavía lanza NotImplementedError",
    "(the other criteria are checked once it runs)": "(los demás criterios se comprueban cuando se ejecute)",
}
