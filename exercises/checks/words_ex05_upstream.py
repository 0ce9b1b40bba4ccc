"""The checks' words: exercise 5's causes an earlier check names and a later one follows (ex05_upstream.py), in
English and Spanish.

Data only: {language: {message_id: text}}. How the catalogues are read, and how a sentence is added: kit.py's
docstring.
"""

MESSAGES = {
    "en": {
        "ex05.upstream.policy": "check-policy's ✗ '{name}: {tiers}'",
        "ex05.upstream.loop": "check-loop's ✗ '{criterion}'",
        "ex05.upstream.valves": "check-valves' ✗ '{criterion}'",
        "ex05.upstream.every_message": "the run finished without running the call of every message (4 reads, 1 "
                                       "archive): a call of the turn was dropped",
        "ex05.upstream.unknown_crashed": "a call of an unknown tool ended your run ({error}): look tools up through "
                                         "arun_tool (it answers an unknown name with an is_error result), and give "
                                         "a name POLICY does not list the tier 'deny'",
        "ex05.upstream.unknown_asked": "a tool that does not exist went to the approver: a name POLICY does not "
                                       "list is denied, nobody asked",
        "ex05.upstream.deny_asked": "a tool that does not exist went to the approver, as your 'deny' calls do "
                                    "(forward_all was put to the person too): 'deny', and a name the policy does not "
                                    "list, never runs and nobody is asked",
    },
    "es": {
        "ex05.upstream.policy": "el ✗ de check-policy '{name}: {tiers}'",
        "ex05.upstream.loop": "el ✗ de check-loop '{criterion}'",
        "ex05.upstream.valves": "el ✗ de check-valves '{criterion}'",
        "ex05.upstream.every_message": "la ejecución terminó sin ejecutar la llamada de cada mensaje (4 lecturas, 1 "
                                       "archivado): se perdió una llamada del turno",
        "ex05.upstream.unknown_crashed": "una llamada a una herramienta desconocida terminó tu ejecución ({error}): "
                                         "busca las herramientas con arun_tool (responde a un nombre desconocido con "
                                         "un resultado is_error) y da a un nombre que POLICY no lista el nivel 'deny'",
        "ex05.upstream.unknown_asked": "una herramienta que no existe llegó al aprobador: un nombre que POLICY no "
                                       "lista se deniega, sin preguntar",
        "ex05.upstream.deny_asked": "una herramienta que no existe llegó al aprobador, como tus llamadas 'deny' "
                                    "(también se preguntó por forward_all): 'deny', y un nombre que la política no "
                                    "lista, nunca se ejecuta y no se pregunta a nadie",
    },
}
