"""The run inspector's picture, word for word (harness_ui/inspector.py; issue 38, mutation testing).

tests/test_inspector.py draws real offline runs and reads them back; these tests feed the Inspector hand-written
events (the loop's, field by field) and compare what a person reads: each row of the table whole (its words, its
numbers, the marks in words and the class that colours them, the gauges' values), the text twin (`repr`), the
error messages, the live states. In-process and fast: mutmut tries each planted bug against them.
"""

import json
import sys
import types

import pytest

from harness_kit import lang
from harness_ui.inspector import STYLE, Inspector, side_by_side

HEAD_EN = ('<tr><th scope="col">request</th><th scope="col">stop_reason</th><th scope="col">tool calls → results'
           '</th><th scope="col">tokens of this response</th><th scope="col">after it</th></tr>')


@pytest.fixture(autouse=True)
def english(monkeypatch):
    monkeypatch.setenv("HARNESS_LANG", "en")
    lang.use("en")
    yield
    lang.use("en")


def page(inspector) -> str:
    html = inspector._repr_html_()
    assert html.startswith(STYLE)
    return html[len(STYLE):]


def rows(inspector) -> list[str]:
    """The table's body, one string per <tr>."""
    body = page(inspector).split("<tbody>")[1].split("</tbody>")[0]
    return [row + "</tr>" for row in body.split("</tr>")[:-1]]


def turns(n, cap, label="turns against the cap", words=None):
    return (f'<span class="hl-turns"><meter min="0" max="{max(cap, 1)}" value="{min(n, cap)}" aria-label="{label}">'
            f'</meter> {words or f"turns {n} of {cap}"}</span>')


def budget(spent, value, maximum, words, label="tokens against the budget"):
    return (f'<span class="hl-budget"><meter min="0" max="{maximum}" value="{value}" aria-label="{label}"></meter> '
            f'{words}</span>')


def usage(i, o, w, r, total):
    return (f'<td class="hl-tokens"><span class="hl-usage">input {i} · output {o} · cache write {w} · cache read {r}'
            f'</span><br><b class="hl-cost">total {total}</b></td>')


def guarded_events():
    return [
        {"event": "start", "input": "t", "model": "m"},
        {"event": "request", "n": 1, "usage": {"input_tokens": 12345, "output_tokens": 678,
                                               "cache_creation_input_tokens": 9, "cache_read_input_tokens": 1000}},
        {"event": "tool_call", "turn": 1, "id": "a", "name": "read_file", "input": {"path": "README.md"}},
        {"event": "tool_result", "turn": 1, "id": "a", "name": "read_file", "content": "x" * 85 + "\nsecond",
         "is_error": False},
        {"event": "request", "n": 2, "usage": {"input_tokens": 20000, "output_tokens": 6,
                                               "cache_creation_input_tokens": None}},
        {"event": "tool_call", "turn": 2, "id": "b", "name": "write_file", "input": {"path": "a.txt", "content": "hi"}},
        {"event": "approval", "turn": 2, "name": "write_file", "input": {"path": "a.txt", "content": "hi"},
         "approved": True},
        {"event": "tool_result", "turn": 2, "id": "b", "name": "write_file", "content": "disk full", "is_error": True},
    ]


# --- a run, row by row --------------------------------------------------------------------------------


def test_a_guarded_run_row_by_row_with_the_budget_spent_to_the_last_token():
    run = Inspector.from_events(guarded_events(), max_turns=3, token_budget=34038)
    assert page(run).startswith('<div class="hl-inspector" lang="en"><table><caption>Run inspector</caption><thead>'
                                + HEAD_EN + "</thead><tbody>")
    assert page(run).endswith("</tbody></table></div>")
    read = '<code>read_file({&quot;path&quot;:&quot;README.md&quot;})</code>'
    write = '<code>write_file({&quot;path&quot;:&quot;a.txt&quot;,&quot;content&quot;:&quot;hi&quot;})</code>'
    assert rows(run) == [
        '<tr class="hl-row" data-request="1"><th scope="row">1</th><td class="hl-stop"><code>tool_use</code></td>'
        f'<td class="hl-calls"><ul><li class="hl-call hl-call">{read} — <span class="hl-ok">✓ returned</span> '
        f'<code>&quot;{"x" * 80}\\n...&quot;</code></li></ul></td>'  # the first line, cut at 80 characters
        + usage("12,345", "678", "9", "1,000", "14,032")
        + '<td class="hl-after">' + turns(1, 3) + "<br>"
        + budget(14032, 14032, 34038, "tokens 14,032 of 34,038")
        + '<br>signature: <code class="hl-signature">read_file({&quot;path&quot;:&quot;README.md&quot;})</code>'
          "</td></tr>",
        '<tr class="hl-row" data-request="2"><th scope="row">2</th><td class="hl-stop"><code>tool_use</code></td>'
        f'<td class="hl-calls"><ul><li class="hl-call hl-call-error">{write} — <span class="hl-approved">'
        'approved</span> — <span class="hl-error">✗ error:</span> <code>&quot;disk full&quot;</code></li></ul></td>'
        + usage("20,000", "6", "0", "0", "20,006")  # a counter that is null or missing is 0
        + '<td class="hl-after">' + turns(2, 3) + "<br>"
        + budget(34038, 34038, 34038, "tokens 34,038 of 34,038")
        + ' <span class="hl-over">over the budget by 0</span>'  # spent == budget: valve 2 stops here (>=)
        + '<br>signature: <code class="hl-signature">write_file({&quot;content&quot;:&quot;hi&quot;,&quot;path&quot;:'
          '&quot;a.txt&quot;})</code></td></tr>',
        '<tr class="hl-waiting"><td colspan="5">⏳ waiting for the model: request 3</td></tr>',
    ]
    assert repr(run) == ('Run inspector\n1: tool_use read_file({"path":"README.md"})\n'
                         '2: tool_use write_file({"path":"a.txt","content":"hi"})')
    one_below = Inspector.from_events(guarded_events(), max_turns=3, token_budget=34039)
    assert "hl-over" not in page(one_below) and "tokens 34,038 of 34,039" in page(one_below)


def test_it_draws_only_the_valves_the_loop_has():
    """Lesson 03's loop has a turn cap and nothing else yet: token_budget=None draws no budget, progress=False no
    signatures and no loop marks, even for the same calls twice in a row; the cap is drawn as always."""
    events = [{"event": "start"}]
    for n in (1, 2):
        events += [{"event": "request", "n": n, "usage": {"input_tokens": 10, "output_tokens": 1}},
                   {"event": "tool_call", "turn": n, "id": f"i{n}", "name": "get_time", "input": {}},
                   {"event": "tool_result", "turn": n, "id": f"i{n}", "content": "ok", "is_error": False}]
    events += [{"event": "end", "turn": 2, "stop_reason": None, "stopped_by": "max_turns", "text": "stopped",
                "turns": 2, "requests": 2, "note": ["stop.max_turns", {"max_turns": 2}]}]
    capped = page(Inspector.from_events(events, max_turns=2, token_budget=None, progress=False))
    assert "hl-turns" in capped and "turns 2 of 2" in capped
    drawn = [k for k in ("hl-budget", "hl-over", "hl-signature", "hl-repeat", "hl-cycle", "tokens 22 of") if k in capped]
    assert not drawn
    full = page(Inspector.from_events(events, max_turns=2, token_budget=100))
    assert "hl-budget" in full and "hl-signature" in full and "↻ repeat: the same calls as turn 1" in full
    with pytest.raises(ValueError):
        Inspector(token_budget=-1)


def test_a_cycle_stopped_by_valve_3_marks_the_cycle_and_the_call_never_run():
    events = [{"event": "start"}]
    for n, (name, tool_input) in enumerate([("read_file", {"path": "a"}), ("get_time", {}),
                                             ("read_file", {"path": "a"})], 1):
        events += [{"event": "request", "n": n, "usage": {"input_tokens": 10, "output_tokens": 1}},
                   {"event": "tool_call", "turn": n, "id": f"i{n}", "name": name, "input": tool_input},
                   {"event": "tool_result", "turn": n, "id": f"i{n}", "content": "ok", "is_error": False}]
    events += [{"event": "request", "n": 4, "usage": {"input_tokens": 10, "output_tokens": 1}},
               {"event": "end", "turn": 4, "stop_reason": None, "stopped_by": "no_progress", "text": "stopped",
                "turns": 3, "requests": 4, "note": ["stop.cycle", {"period": 2}]}]
    run = Inspector.from_events(events, max_turns=5, token_budget=100)
    read_a = "read_file({&quot;path&quot;:&quot;a&quot;})"

    def row(n, call, sig, mark="", classes="hl-row", shown_turns=None):
        return (f'<tr class="{classes}" data-request="{n}"><th scope="row">{n}</th><td class="hl-stop"><code>tool_use'
                f'</code></td><td class="hl-calls"><ul>{call}</ul></td>' + usage("10", "1", "0", "0", "11")
                + '<td class="hl-after">' + turns(shown_turns or n, 5) + "<br>"
                + budget(11 * n, 11 * n, 100, f"tokens {11 * n} of 100")
                + f'<br>signature: <code class="hl-signature">{sig}</code>{mark}</td></tr>')

    def ran(shown):
        return (f'<li class="hl-call hl-call"><code>{shown}</code> — <span class="hl-ok">✓ returned</span> '
                '<code>&quot;ok&quot;</code></li>')

    assert rows(run) == [
        row(1, ran(read_a), read_a),
        row(2, ran("get_time({})"), "get_time({})"),
        row(3, ran(read_a), read_a),  # the same calls as turn 1, after another turn: no loop yet, not marked
        row(4, '<li class="hl-call hl-not-run"><code>get_time({})</code> — '
               '<span class="hl-refused">not run: the harness stopped first</span></li>', "get_time({})",
            ' <span class="hl-badge hl-cycle">↻ cycle: turns 1–2 again</span>', "hl-row hl-repeat", shown_turns=3),
        '<tr class="hl-end" data-stopped-by="no_progress"><th scope="row">end</th><td colspan="4">How it ended: '
        "valve 3, no-progress detection, stopped it (no_progress).<br>stopped<br>That took 3 tool-calling turns "
        "across 4 model requests.</td></tr>",
    ]
    assert repr(run) == ('Run inspector\n1: tool_use read_file({"path":"a"})\n2: tool_use get_time({})\n'
                         '3: tool_use read_file({"path":"a"})\n4: tool_use get_time({}) (not run: the harness stopped '
                         'first)\nHow it ended: valve 3, no-progress detection, stopped it (no_progress).')


def repeat_run(note):
    events = []
    for n in (1, 2, 3):
        events += [{"event": "request", "n": n},
                   {"event": "tool_call", "turn": n, "id": f"i{n}", "name": "get_time", "input": {}},
                   {"event": "tool_result", "turn": n, "id": f"i{n}", "content": "ok", "is_error": False}]
    events += [{"event": "request", "n": 4},
               {"event": "end", "turn": 4, "stop_reason": None, "stopped_by": "no_progress", "text": "stopped",
                "turns": 3, "requests": 4, "note": note}]
    return Inspector.from_events(events)


def test_a_repeat_of_the_last_turn_and_the_period_read_from_the_note():
    run = repeat_run(["stop.repeat", {"period": 1}])
    marks = [row.split('<code class="hl-signature">get_time({})</code>')[1].split("</td>")[0] for row in rows(run)[:4]]
    assert marks == ["", ' <span class="hl-badge hl-cycle">↻ repeat: the same calls as turn 1</span>',
                     ' <span class="hl-badge hl-cycle">↻ repeat: the same calls as turn 2</span>',
                     ' <span class="hl-badge hl-cycle">↻ repeat: the same calls as turn 3</span>']
    assert repr(run).splitlines()[4] == "4: tool_use get_time({}) (not run: the harness stopped first)"
    assert '<td class="hl-stop"><code>tool_use</code></td>' in rows(run)[3]
    assert usage("0", "0", "0", "0", "0") in rows(run)[3]  # a request without usage: nothing counted
    # a period the note cannot mean (not 1 to 3, not a whole number) is read as 1: the last turn again
    for period in (0, 4, "2", True, None):
        assert repr(repeat_run(["stop.cycle", {"period": period}])) == repr(run)
    assert repr(repeat_run(["stop.cycle", {"period": 3}])).splitlines()[4] == "4: tool_use get_time({}) (not run: " \
                                                                             "the harness stopped first)"
    # no note (a loop of one's own), or another sentence's: the calls it did not run are not guessed
    for note in (None, ["stop.max_turns", {"period": 1}]):
        other = repeat_run(note)
        assert repr(other).splitlines()[4] == "4: asked to go on (not taken)"
        assert "hl-not-run" not in page(other) and "hl-signature" not in rows(other)[3]


def test_refused_and_approved_calls_a_pause_and_the_answer_cut_at_160_characters():
    same = {"path": "x", "content": "y"}
    events = [
        {"event": "start"}, {"event": "request", "n": 1, "usage": {"input_tokens": 5}},
        {"event": "tool_call", "turn": 1, "id": "w", "name": "write_file", "input": same},
        {"event": "tool_call", "turn": 1, "id": "w2", "name": "write_file", "input": same},
        {"event": "approval", "turn": 1, "name": "write_file", "input": same, "approved": False},  # the first one
        {"event": "approval", "turn": 1, "name": "write_file", "input": same, "approved": True},  # the next one
        {"event": "tool_result", "turn": 1, "id": "w", "content": "The person said no.", "is_error": True},
        {"event": "tool_result", "turn": 1, "id": "w2", "content": "wrote 1 byte", "is_error": False},
        {"event": "request", "n": 2, "usage": {"input_tokens": 5}},
        {"event": "request", "n": 3},
        {"event": "end", "turn": 3, "stop_reason": "end_turn", "stopped_by": "end_turn", "text": "A" * 170 + "\nmore",
         "turns": 2, "requests": 3, "note": None}]
    run = Inspector.from_events(events, max_turns=2, token_budget=0, title="My <run>")
    assert "<caption>My &lt;run&gt;</caption>" in page(run)
    shown = "<code>write_file({&quot;path&quot;:&quot;x&quot;,&quot;content&quot;:&quot;y&quot;})</code>"
    sig = "write_file({&quot;content&quot;:&quot;y&quot;,&quot;path&quot;:&quot;x&quot;})"
    assert rows(run) == [
        '<tr class="hl-row" data-request="1"><th scope="row">1</th><td class="hl-stop"><code>tool_use</code></td>'
        f'<td class="hl-calls"><ul><li class="hl-call hl-call-error">{shown} — <span class="hl-refused">not approved'
        '</span> — <span class="hl-error">✗ error:</span> <code>&quot;The person said no.&quot;</code></li>'
        f'<li class="hl-call hl-call">{shown} — <span class="hl-approved">approved</span> — <span class="hl-ok">'
        '✓ returned</span> <code>&quot;wrote 1 byte&quot;</code></li></ul></td>' + usage("5", "0", "0", "0", "5")
        + '<td class="hl-after">' + turns(1, 2) + "<br>" + budget(5, 0, 1, "tokens 5 of 0")
        + ' <span class="hl-over">over the budget by 5</span>'
        + f'<br>signature: <code class="hl-signature">{sig} | {sig}</code></td></tr>',
        '<tr class="hl-row" data-request="2"><th scope="row">2</th><td class="hl-stop"><code>pause_turn</code></td>'
        '<td class="hl-calls"></td>' + usage("5", "0", "0", "0", "5") + '<td class="hl-after">' + turns(2, 2)
        + "<br>" + budget(10, 0, 1, "tokens 10 of 0") + ' <span class="hl-over">over the budget by 10</span></td></tr>',
        '<tr class="hl-row" data-request="3"><th scope="row">3</th><td class="hl-stop"><code>end_turn</code></td>'
        '<td class="hl-calls"></td>' + usage("0", "0", "0", "0", "0") + '<td class="hl-after">'
        + turns(2, 2) + "<br>" + budget(10, 0, 1, "tokens 10 of 0") + ' <span class="hl-over">over the budget by 10'
        '</span></td></tr>',
        '<tr class="hl-end" data-stopped-by="end_turn"><th scope="row">end</th><td colspan="4">How it ended: the model'
        f" ended its turn (end_turn).<br>The answer: {'A' * 160}…<br>That took 2 tool-calling turns across 3 model "
        "requests.</td></tr>",
    ]
    assert repr(run) == ('My <run>\n1: tool_use write_file({"path":"x","content":"y"}), write_file({"path":"x",'
                         '"content":"y"})\n2: pause_turn\n3: end_turn\nHow it ended: the model ended its turn '
                         '(end_turn).')


@pytest.mark.parametrize("text, answer", [
    ("B" * 160, "The answer: " + "B" * 160),  # exactly 160: whole, no mark
    ("B" * 161, "The answer: " + "B" * 160 + "…"),
    ("  first\nsecond", "The answer: first…"),  # more lines follow: marked
    ("\n\n", None),  # nothing to show: no answer line
    ("tab\there", "The answer: tab\\u0009here"),
])
def test_the_answer_line_of_a_finished_run(text, answer):
    run = Inspector.from_events([
        {"event": "request", "n": 1, "usage": {}},
        {"event": "end", "turn": 1, "stop_reason": "stop_sequence", "stopped_by": "stop_sequence", "text": text,
         "turns": 0, "requests": 1}])
    lines = rows(run)[-1].split('<td colspan="4">')[1].split("</td>")[0].split("<br>")
    assert lines == (["How it ended: the model reached a stop sequence (stop_sequence)."] + ([answer] if answer else [])
                     + ["That took 0 tool-calling turns across 1 model request."])
    assert '<tr class="hl-end" data-stopped-by="stop_sequence"><th scope="row">end</th>' in rows(run)[-1]
    assert repr(run) == ("Run inspector\n1: stop_sequence\n"
                         "How it ended: the model reached a stop sequence (stop_sequence).")


def test_a_stop_of_another_kind_shows_its_sentence_on_one_line_and_an_unknown_name_as_it_is():
    run = Inspector.from_events([
        {"event": "request", "n": 1},
        {"event": "end", "turn": 1, "stop_reason": "max_tokens", "stopped_by": "max_tokens",
         "text": "half an answer\n<b>cut</b>", "turns": 0, "requests": 1}])
    assert rows(run)[-1].split('<td colspan="4">')[1] == (
        "How it ended: the response was cut short at max_tokens (max_tokens).<br>half an answer\\u000a&lt;b&gt;cut"
        "&lt;/b&gt;<br>That took 0 tool-calling turns across 1 model request.</td></tr>")
    odd = Inspector.from_events([{"event": "end", "turn": 1, "stop_reason": "x", "stopped_by": "made\nup",
                                 "text": "", "turns": 0, "requests": 0}])
    assert repr(odd).splitlines()[-1] == "How it ended: made\\u000aup (made\\u000aup)."
    assert rows(odd)[-1] == ('<tr class="hl-end" data-stopped-by="made\\u000aup"><th scope="row">end</th>'
                             '<td colspan="4">How it ended: made\\u000aup (made\\u000aup).<br>That took 0 '
                             'tool-calling turns across 0 model requests.</td></tr>')
    assert rows(odd)[0] == ('<tr class="hl-row" data-request="1"><th scope="row">1</th><td class="hl-stop"><code>x'
                            '</code></td><td class="hl-calls"></td><td class="hl-tokens">(no usage reported)</td>'
                            '<td class="hl-after">' + turns(0, 8) + "</td></tr>")


def test_the_spanish_edition_writes_its_numbers_its_way(monkeypatch):
    lang.use("es")
    run = Inspector.from_events([
        {"event": "request", "n": 1, "usage": {"input_tokens": 12345, "output_tokens": 9999,
                                               "cache_read_input_tokens": 10000}},
        {"event": "tool_call", "turn": 1, "id": "a", "name": "get_time", "input": {}},
        {"event": "tool_result", "turn": 1, "id": "a", "content": "12:00", "is_error": False}],
        max_turns=2, token_budget=30000)
    nb = "\u00a0"
    assert page(run).startswith('<div class="hl-inspector" lang="es"><table><caption>Inspector de la ejecución'
                                '</caption><thead><tr><th scope="col">petición</th><th scope="col">stop_reason</th>'
                                '<th scope="col">llamadas a herramientas → resultados</th><th scope="col">tokens de '
                                'esta respuesta</th><th scope="col">después</th></tr></thead>')
    assert rows(run)[0] == (
        '<tr class="hl-row" data-request="1"><th scope="row">1</th><td class="hl-stop"><code>tool_use</code></td>'
        '<td class="hl-calls"><ul><li class="hl-call hl-call"><code>get_time({})</code> — <span class="hl-ok">✓ '
        'devolvió</span> <code>&quot;12:00&quot;</code></li></ul></td><td class="hl-tokens"><span class="hl-usage">'
        f'entrada 12{nb}345 · salida 9999 · escritura en caché 0 · lectura de caché 10{nb}000</span><br>'
        f'<b class="hl-cost">total 32{nb}344</b></td><td class="hl-after">'
        + turns(1, 2, "turnos frente al tope", "turnos: 1 de 2") + "<br>"
        + budget(0, 30000, 30000, f"tokens: 32{nb}344 de 30{nb}000", "tokens frente al presupuesto")
        + ' <span class="hl-over">2344 por encima del presupuesto</span><br>firma: <code class="hl-signature">'
          'get_time({})</code></td></tr>')
    assert rows(run)[1] == '<tr class="hl-waiting"><td colspan="5">⏳ esperando al modelo: petición 2</td></tr>'
    # a row drawn before is drawn again in the language of the moment
    lang.use("en")
    assert "input 12,345 · output 9,999" in rows(run)[0] and "turns 1 of 2" in rows(run)[0]


# --- while it runs ------------------------------------------------------------------------------------


def test_live_states_no_events_started_waiting_for_approval_running_failed():
    assert rows(Inspector()) == ['<tr class="hl-waiting"><td colspan="5">No events yet: pass this inspector as '
                                 'on_event to a run.</td></tr>']
    assert repr(Inspector()) == "Run inspector"
    assert rows(Inspector.from_events([{"event": "start"}])) == [
        '<tr class="hl-waiting"><td colspan="5">⏳ waiting for the model: request 1</td></tr>']
    calls = [{"event": "tool_call", "turn": 1, "id": "a", "name": "delete_file", "input": {"path": "p"}},
             {"event": "tool_call", "turn": 1, "id": "b", "name": "get_time", "input": {}}]
    waiting = Inspector.from_events(calls)
    assert rows(waiting) == [
        '<tr class="hl-row" data-request="1"><th scope="row">1</th><td class="hl-stop"><code>tool_use</code></td>'
        '<td class="hl-calls"><ul><li class="hl-call hl-call"><code>delete_file({&quot;path&quot;:&quot;p&quot;})'
        '</code> — <span class="hl-waiting-approval">⏳ waiting for approval</span></li><li class="hl-call hl-call">'
        '<code>get_time({})</code></li></ul></td><td class="hl-tokens">(no usage reported)</td><td class="hl-after">'
        + turns(1, 8) + '<br>signature: <code class="hl-signature">delete_file({&quot;path&quot;:&quot;p&quot;}) | '
        'get_time({})</code></td></tr>',
        '<tr class="hl-waiting"><td colspan="5">⏳ waiting for approval: delete_file({&quot;path&quot;:&quot;p&quot;})'
        '</td></tr>']
    # another gate: the other call waits for a person
    other = rows(Inspector.from_events(calls, high_impact={"get_time"}))
    assert other[0].count("⏳ waiting for approval") == 1 and "get_time({})</code> — <span" in other[0]
    assert other[1] == '<tr class="hl-waiting"><td colspan="5">⏳ waiting for approval: get_time({})</td></tr>'
    # approved: the tools are running, their results come in a moment; no row says it waits
    approved = Inspector.from_events(calls + [{"event": "approval", "turn": 1, "name": "delete_file",
                                               "input": {"path": "p"}, "approved": True}])
    assert len(rows(approved)) == 1 and '<span class="hl-approved">approved</span></li>' in rows(approved)[0]
    assert "waiting" not in page(approved)
    failed = Inspector.from_events([{"event": "request", "n": 1}, {"event": "error", "message": "boom\n\x1b[31m"}])
    assert rows(failed) == [
        '<tr class="hl-row" data-request="1"><th scope="row">1</th><td class="hl-stop">…</td><td class="hl-calls">'
        '</td>' + usage("0", "0", "0", "0", "0") + '<td class="hl-after">' + turns(0, 8) + "<br>"
        + budget(0, 0, 40000, "tokens 0 of 40,000") + "</td></tr>",
        '<tr class="hl-end hl-failed"><th scope="row">end</th><td colspan="4" class="hl-error">The run failed: '
        'boom\\u000a\\u001b[31m</td></tr>']
    assert repr(failed) == "Run inspector\n1: …\nThe run failed: boom\\u000a\\u001b[31m"


def test_a_result_goes_to_the_first_call_with_its_id_still_waiting_and_an_approval_to_its_own_call():
    events = [{"event": "tool_call", "turn": 1, "id": "a", "name": "write_file", "input": {"path": "1"}},
              {"event": "tool_call", "turn": 1, "id": "b", "name": "write_file", "input": {"path": "2"}},
              {"event": "approval", "turn": 1, "name": "write_file", "input": {"path": "2"}, "approved": 1},
              {"event": "tool_result", "turn": 1, "id": "b", "content": "two", "is_error": False},
              {"event": "tool_result", "turn": 1, "id": "b", "content": "again", "is_error": True}]
    with pytest.raises(ValueError, match="'approved' field is 1, not a boolean"):
        Inspector.from_events(events)
    events[2]["approved"] = True
    run = Inspector.from_events(events)
    first, second = rows(run)[0].split("<li ")[1:]
    assert "approved" not in first and "returned" not in first and "waiting for approval" in first
    assert second == ('class="hl-call hl-call"><code>write_file({&quot;path&quot;:&quot;2&quot;})</code> — '
                      '<span class="hl-approved">approved</span> — <span class="hl-ok">✓ returned</span> '
                      '<code>&quot;two&quot;</code></li></ul></td>' + rows(run)[0].split("</ul></td>")[1])
    assert [c.result for c in run.rows[1].calls] == [None, "two"]


def test_show_draws_once_and_redraws_after_each_event(monkeypatch):
    shown = []

    class Handle:
        def update(self, what):
            shown.append(("update", repr(what)))

    def display(what, display_id=None):
        shown.append(("display", repr(what), display_id))
        return Handle()

    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: None
    ipython.display = types.ModuleType("IPython.display")
    ipython.display.display = display
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "IPython.display", ipython.display)
    run = Inspector()
    run.show()  # not in a kernel: nothing
    run.on_event({"event": "start"})
    assert shown == []
    ipython.get_ipython = lambda: object()
    run.show()
    run({"event": "request", "n": 1})
    assert shown == [("display", "Run inspector", True), ("update", "Run inspector\n1: …")]
    monkeypatch.setitem(sys.modules, "IPython", None)  # no IPython at all: nothing, no error
    Inspector().show()


# --- two runs, and what it refuses ----------------------------------------------------------------------


def test_side_by_side_draws_each_run_under_its_title_and_leaves_their_titles_alone():
    a = Inspector.from_events([{"event": "request", "n": 1}], title="kept")
    b = Inspector()
    both = side_by_side(a, b, titles=("bare", None))
    html = both._repr_html_()
    assert html.startswith(STYLE + '<div class="hl-side"><div><div class="hl-inspector" lang="en"><table><caption>'
                                   "bare</caption>")
    assert html.count("<caption>") == 2 and "<caption>Run inspector</caption>" in html
    assert html.endswith("</table></div></div></div>")
    assert html[len(STYLE):] == ('<div class="hl-side"><div>' + page(Inspector.from_events(
        [{"event": "request", "n": 1}], title="bare")) + "</div><div>" + page(b) + "</div></div>")
    assert repr(both) == "bare\n1: …\n\nRun inspector"
    assert (a.title, b.title) == ("kept", None)
    assert repr(side_by_side(a, b)) == "kept\n1: …\n\nRun inspector"
    with pytest.raises(TypeError, match=r"^side_by_side takes two Inspector objects, not dict$"):
        side_by_side(a, {})
    with pytest.raises(TypeError, match=r"^side_by_side takes two Inspector objects, not list$"):
        side_by_side([], b)


@pytest.mark.parametrize("name, value", [("max_turns", -1), ("max_turns", True), ("token_budget", 2.0),
                                         ("token_budget", "9")])
def test_a_cap_or_budget_that_is_not_a_whole_number_is_refused(name, value):
    with pytest.raises(ValueError, match=rf"^{name} must be a whole number, 0 or more, not {value!r}$"):
        Inspector(**{name: value})
    assert Inspector(max_turns=0, token_budget=0).max_turns == 0


@pytest.mark.parametrize("event, message", [
    ({"event": "request"}, "the inspector cannot draw this 'request' event: it has no 'n' field "
                           '({"event":"request"})'),
    ({"event": "request", "n": -1}, "the inspector cannot draw this request event: its 'n' field is -1, "
                                    "not a whole number"),
    ({"event": "request", "n": True}, "the inspector cannot draw this request event: its 'n' field is true, "
                                      "not a whole number"),
    ({"event": "tool_call", "turn": 1, "id": 7, "name": "x", "input": {}},
     "the inspector cannot draw this tool_call event: its 'id' field is 7, not a string"),
    ({"event": "tool_result", "turn": 1, "id": "a", "content": "c", "is_error": "no"},
     "the inspector cannot draw this tool_result event: its 'is_error' field is \"no\", not a boolean"),
    ({"event": "end", "turn": 1, "stop_reason": 5, "stopped_by": "x", "text": "", "turns": 0, "requests": 0},
     "the inspector cannot draw this end event: its 'stop_reason' field is 5, not a string"),
    ({"event": "request", "n": 1, "usage": {"input_tokens": -2}},
     'the inspector cannot draw this request event: its usage is {"input_tokens":-2}'),
    ({"event": "request", "n": 1, "usage": {"output_tokens": 1.5}},
     'the inspector cannot draw this request event: its usage is {"output_tokens":1.5}'),
    ({"event": "request", "n": 1, "usage": [1]}, "the inspector cannot draw this request event: its usage is [1]"),
    ({"event": "end", "turn": 1, "stop_reason": None, "stopped_by": "x", "text": "", "turns": 0, "requests": 0,
      "note": ["stop.x"]}, 'the inspector cannot draw this end event: its note is ["stop.x"]'),
    ({"event": "end", "turn": 1, "stop_reason": None, "stopped_by": "x", "text": "", "turns": 0, "requests": 0,
      "note": [1, {}]}, "the inspector cannot draw this end event: its note is [1,{}]"),
    ({"event": "end", "turn": 1, "stop_reason": None, "stopped_by": "x", "text": "", "turns": 0, "requests": 0,
      "note": ["stop.x", []]}, 'the inspector cannot draw this end event: its note is ["stop.x",[]]'),
    ({"event": "error", "message": None}, "the inspector cannot draw this error event: its 'message' field is null, "
                                          "not a string"),
    ({"event": "tool_call", "turn": 1, "id": "a", "name": "n" * 100, "input": {}}, None),
    ({"event": "tool_call\u202e", "turn": "x"}, None),
])
def test_an_event_it_cannot_draw_is_named_with_its_field(event, message):
    if message is None:  # drawn, or not one it draws: no error
        Inspector().on_event(event)
        return
    with pytest.raises(ValueError) as caught:
        Inspector().on_event(event)
    assert str(caught.value) == message


def test_a_long_field_is_cut_in_the_message():
    with pytest.raises(ValueError) as caught:
        Inspector().on_event({"event": "request", "n": "9" * 300})
    assert str(caught.value) == ("the inspector cannot draw this request event: its 'n' field is "
                                 f'"{"9" * 79}, not a whole number')
    with pytest.raises(ValueError) as caught:  # the event, as compact JSON, cut at 200 characters
        Inspector().on_event({"event": "tool_call", "turn": 1, "id": "a", "input": "z" * 300})
    assert str(caught.value) == ("the inspector cannot draw this 'tool_call' event: it has no 'name' field "
                                 '({"event":"tool_call","turn":1,"id":"a","input":"' + "z" * 152 + ")")
    with pytest.raises(ValueError) as caught:  # usage and note: cut at 80
        Inspector().on_event({"event": "request", "n": 1, "usage": {"input_tokens": -1, "x": "z" * 100}})
    assert str(caught.value) == ('the inspector cannot draw this request event: its usage is {"input_tokens":-1,"x":"'
                                 + "z" * 56)
    with pytest.raises(ValueError) as caught:
        Inspector().on_event({"event": "end", "turn": 1, "stop_reason": None, "stopped_by": "x", "text": "",
                              "turns": 0, "requests": 0, "note": ["z" * 100]})
    assert str(caught.value) == 'the inspector cannot draw this end event: its note is ["' + "z" * 78


def cycle_run(paths, period):
    """Tool-calling turns reading `paths` in order, then a request valve 3 stopped (its note says the period)."""
    events = []
    for n, path in enumerate(paths, 1):
        events += [{"event": "request", "n": n},
                   {"event": "tool_call", "turn": n, "id": f"i{n}", "name": "read_file", "input": {"path": path}},
                   {"event": "tool_result", "turn": n, "id": f"i{n}", "content": "ok", "is_error": False}]
    last = len(paths) + 1
    events += [{"event": "request", "n": last},
               {"event": "end", "turn": last, "stop_reason": None, "stopped_by": "no_progress", "text": "stopped",
                "turns": len(paths), "requests": last, "note": ["stop.cycle", {"period": period}]}]
    return Inspector.from_events(events)


def badges(run) -> list[str]:
    return [row.split('<span class="hl-badge')[1].split(">", 1)[1].split("</span>")[0] if "hl-badge" in row else ""
            for row in rows(run)[:-1]]


def test_a_cycle_after_other_turns_names_its_own_first_turn_and_the_calls_the_note_says_were_not_run():
    run = cycle_run(["a", "b", "c", "b"], 2)  # the model went back to b, c: turns 2-3 again
    assert badges(run) == ["", "", "", "", "↻ cycle: turns 2–3 again"]  # b at turn 4 is no loop yet
    assert repr(run).splitlines()[5] == '5: tool_use read_file({"path":"c"}) (not run: the harness stopped first)'
    run = cycle_run(["a", "b", "c", "a", "b"], 3)  # a, b, c again: the call not run was c
    assert badges(run)[-1] == "↻ cycle: turns 1–3 again"
    assert repr(run).splitlines()[6] == '6: tool_use read_file({"path":"c"}) (not run: the harness stopped first)'
    for period in (7, 0):  # a period valve 3 cannot find: read as the last turn again
        assert repr(cycle_run(["a", "b"], period)).splitlines()[3] == \
            '3: tool_use read_file({"path":"b"}) (not run: the harness stopped first)'


def test_a_stop_reason_is_shown_on_one_line_in_the_text_view():
    run = Inspector.from_events([{"event": "request", "n": 1},
                                 {"event": "end", "turn": 1, "stop_reason": "odd\nreason", "stopped_by": "unknown_stop",
                                  "text": "", "turns": 0, "requests": 1}])
    assert repr(run).splitlines()[1] == "1: odd\\u000areason"


def test_a_transcript_file_line_by_line(tmp_path):
    path = tmp_path / "run.jsonl"
    good = [{"event": "request", "n": 1}, {"event": "request", "n": 2}]
    path.write_text(json.dumps(good[0]) + "\n\n  \n" + json.dumps(good[1]) + "\n", encoding="utf-8")
    assert repr(Inspector.from_jsonl(path, title="file")) == "file\n1: pause_turn\n2: …"
    assert repr(Inspector.from_jsonl(str(path), max_turns=1)) == "Run inspector\n1: pause_turn\n2: …"
    for lines, message in [
        (['{"event": "request", "n": 1}', "{oops"], "line 2: not JSON (Expecting property name enclosed in double "
                                                    "quotes)"),
        (["[1, 2]"], "line 1: not a transcript event"),
        (['{"n": 1}'], "line 1: not a transcript event"),
        (["", '{"event": "request", "n": "1"}'], "line 2: the inspector cannot draw this request event: its 'n' "
                                                 'field is "1", not a whole number'),
    ]:
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        with pytest.raises(ValueError) as caught:
            Inspector.from_jsonl(path)
        assert str(caught.value) == f"{path}, {message}"
    path.write_text(json.dumps({"event": "error", "message": "año ✓"}, ensure_ascii=False), encoding="utf-8")
    assert repr(Inspector.from_jsonl(path)) == "Run inspector\nThe run failed: año ✓"


def test_a_redrawn_row_follows_the_title():
    run = Inspector.from_events([{"event": "request", "n": 1}, {"event": "request", "n": 2}])
    before = rows(run)
    run.title = "renamed"
    assert rows(run) == before and "<caption>renamed</caption>" in page(run)
    run.on_event({"event": "tool_call", "turn": 2, "id": "a", "name": "get_time", "input": {}})
    assert "get_time" in rows(run)[1] and rows(run)[0] == before[0]
