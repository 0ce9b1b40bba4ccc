"""The run inspector: one run of the loop drawn as a table, one row per model request.

    from harness_ui.inspector import Inspector, side_by_side

    run = Inspector(max_turns=3)          # the same cap and budget the loop gets
    run.show()                            # in a notebook: a picture that fills in as the run goes
    await run_agent(client, TASK, tools, tool_impls, max_turns=3, on_event=run)
    run                                   # or draw it once, at the end (plain HTML)

    Inspector.from_jsonl("run.jsonl")     # a run of `python -m harness_lib --transcript run.jsonl`
    side_by_side(bare, guarded)           # two runs next to each other

Each row is one request and the turn its response asked for: the stop reason; each tool call (name and
input) with its approval decision and its result (a failed call says "error" in words, not only in red);
the response's tokens split into the four usage counters; and the run's state after it: turns against the
cap and tokens against the budget (each a <meter> with its numbers written next to it), and the turn's
signature, with a repeat or a short cycle marked in words. The last row says what ended the run: a valve
or the model's stop reason, in the lesson's words, in the current language (harness_kit.lang).

It only reads the events (typed: FIELDS), draws them by the kit's one escaping rule (harness_kit.shown) as plain
HTML with no JavaScript, ids or clock, so nbval can compare it and GitHub shows it (docs/architecture.md).

Not handled:
- The cap and the budget are not in the events: give the Inspector the same `max_turns` and
  `token_budget` the loop gets (the defaults are run_agent's), `token_budget=None` for a loop with no budget
  and `progress=False` for one with no no-progress check: it draws only the valves the loop has. `high_impact`
  likewise (for the "waiting for approval" row). A repeat is marked only where valve 3's own test
  (valves.find_cycle, with its defaults) finds one, as run_agent would; calls that came back after other turns
  are no loop, and are not marked.
- Which approver answered, and why it said no, is not in the `approval` event: a refused call shows the
  reason the model was sent (its tool_result), which says why it counts as a no.
- The stop reason of a response the loop went on from is inferred: `tool_use` when it held tool calls,
  `pause_turn` when the loop went round without any. A valve that stopped the run before a turn was
  taken leaves the last response's stop reason unknown (it asked to go on).
- An end event with no `note` (a loop of one's own that records none): its stop sentence is shown as
  it was written, in its language, and a no-progress stop does not show the calls it did not run (which
  turns the cycle held is in the note's values, never read back out of the sentence).
- One run per Inspector: events of a second run are added to the same rows. Events it does not know are
  ignored. A loop that emits no `request` events (notebook 03's bare loop) gets rows without tokens.
- The live picture needs IPython (a Jupyter kernel); elsewhere `show()` does nothing. Several runs at
  once in one kernel each need their own Inspector.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any, Iterable

from harness_kit import lang
from harness_kit.shown import compact, one_word, show_call, visible, visible_text
from harness_kit.words import number, stop_text
from harness_lib.tools import HIGH_IMPACT
from harness_lib.trace import preview, summary
from harness_lib.valves import find_cycle, signature_of

__all__ = ["Inspector", "side_by_side"]

USAGE_COUNTERS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")

# Scoped to .hl-inspector; every colour is a JupyterLab theme variable with a light-theme fallback.
STYLE = """<style>
.hl-inspector.hl-inspector{color:var(--jp-ui-font-color1,#1f1f1f);font-family:var(--jp-ui-font-family,sans-serif);font-size:13px}
.hl-inspector.hl-inspector table{border-collapse:collapse;margin:2px 0;table-layout:auto}
.hl-inspector.hl-inspector caption{text-align:left;font-weight:bold;padding:2px 0;color:inherit}
.hl-inspector.hl-inspector tr,.hl-inspector.hl-inspector tbody tr:nth-child(odd),.hl-inspector.hl-inspector tbody tr:hover{background:transparent}
.hl-inspector.hl-inspector th,.hl-inspector.hl-inspector td{border:1px solid var(--jp-border-color2,#ccc);padding:3px 6px;vertical-align:top;text-align:left;line-height:1.4;color:inherit}
.hl-inspector.hl-inspector thead th{background:var(--jp-layout-color2,#eee)}
.hl-inspector.hl-inspector code{font-family:var(--jp-code-font-family,monospace);font-size:12px;color:inherit;background:none;padding:0;white-space:pre-wrap;word-break:break-word}
.hl-inspector.hl-inspector ul{margin:0;padding-left:1.1em}
.hl-inspector.hl-inspector .hl-error,.hl-inspector.hl-inspector .hl-refused,.hl-inspector.hl-inspector .hl-over{color:var(--jp-error-color1,#c62828);font-weight:bold}
.hl-inspector.hl-inspector .hl-ok{color:var(--jp-success-color1,#2e7d32)}
.hl-inspector.hl-inspector .hl-approved{color:var(--jp-success-color1,#2e7d32);font-weight:bold}
.hl-inspector.hl-inspector .hl-repeat td,.hl-inspector.hl-inspector .hl-repeat th{background:var(--jp-layout-color2,#fff3e0)}
.hl-inspector.hl-inspector .hl-repeat th{border-left:5px solid var(--jp-warn-color1,#ef6c00)}
.hl-inspector.hl-inspector .hl-badge{color:var(--jp-warn-color1,#b35900);font-weight:bold}
.hl-inspector.hl-inspector .hl-waiting td{font-style:italic;border-left:5px solid var(--jp-brand-color1,#1976d2)}
.hl-inspector.hl-inspector .hl-end td,.hl-inspector.hl-inspector .hl-end th{background:var(--jp-layout-color2,#eee);font-weight:bold}
.hl-inspector.hl-inspector meter{width:7em;vertical-align:middle}
.hl-side{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
</style>"""


def _t(key: str, **values) -> str:
    """The inspector's words for `key` in the current language (lang.MESSAGES, "inspector.*")."""
    return lang.text(f"inspector.{key}", **values)


def _n(value: int) -> str:
    return number(value, space="\u00a0")  # a count as the reader's language writes it, never broken in the HTML


@dataclass
class Call:
    """One tool call of a turn, as the events told it."""
    id: str
    name: str
    input: Any
    approved: bool | None = None  # None: not put to the approval gate (or not yet)
    result: str | None = None
    is_error: bool = False


@dataclass
class Row:
    """One request, and the turn its response asked for."""
    n: int
    usage: dict | None = None
    calls: list[Call] = field(default_factory=list)


class Inspector:
    """Collects one run's events; draws it as HTML. Pass it (or its `on_event`) as the loop's `on_event`."""

    def __init__(self, *, max_turns: int = 8, token_budget: int | None = 40_000, progress: bool = True,
                 high_impact: Iterable[str] = HIGH_IMPACT, title: str | None = None):
        for name, value in (("max_turns", max_turns), ("token_budget", 0 if token_budget is None else token_budget)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a whole number, 0 or more, not {value!r}")
        self.max_turns = max_turns
        self.token_budget = token_budget  # None: the loop has no budget, and none is drawn
        self.progress = progress  # False: the loop has no no-progress check; no signatures are drawn
        self.high_impact = frozenset(high_impact)
        self.title = title
        self.rows: dict[int, Row] = {}
        self.end: dict | None = None
        self.error: str | None = None
        self.started = False
        self._handle = None
        self._drawn: dict[tuple, str] = {}  # rows already drawn that can no longer change (live redraws)

    # --- collecting ---------------------------------------------------------------------------------

    def on_event(self, event: dict) -> None:
        """Take one event of the loop (the on_event callback); refresh the live picture if shown.

        An event it draws that lacks a field, or holds one of the wrong type (FIELDS: a turn is a whole
        number, a name a string ...), is a ValueError naming the event and the field.
        """
        try:
            _check(event)
            self._take(event)
        except KeyError as err:
            raise ValueError(f"the inspector cannot draw this {event.get('event')!r} event: it has no "
                             f"{err.args[0]!r} field ({visible(compact(event)[:200])})") from None
        if self._handle is not None:
            self._handle.update(self)

    __call__ = on_event

    def _take(self, event: dict) -> None:
        kind = event.get("event")
        if kind == "start":
            self.started = True
        elif kind == "request":
            self._row(event["n"]).usage = dict(event.get("usage") or {})
        elif kind == "tool_call":
            self._row(event["turn"]).calls.append(Call(event["id"], event["name"], event["input"]))
        elif kind == "approval":
            for call in self._row(event["turn"]).calls:
                if call.approved is None and call.name == event["name"] and call.input == event["input"]:
                    call.approved = bool(event["approved"])
                    break
        elif kind == "tool_result":
            for call in self._row(event["turn"]).calls:  # the first call with this id still without a result
                if call.id == event["id"] and call.result is None:
                    call.result, call.is_error = event["content"], event["is_error"]
                    break
        elif kind == "end":
            self.end = event
            self._row(event["turn"])
        elif kind == "error":
            self.error = event["message"]  # any other event: not drawn

    def _row(self, n: int) -> Row:
        self.started = True
        if n not in self.rows:
            self.rows[n] = Row(n)
        return self.rows[n]

    @classmethod
    def from_events(cls, events: Iterable[dict], **options: Any) -> "Inspector":
        """An Inspector fed with `events` (dicts, as the loop emits them)."""
        inspector = cls(**options)
        for event in events:
            inspector.on_event(event)
        return inspector

    @classmethod
    def from_jsonl(cls, path: str | Path, **options: Any) -> "Inspector":
        """An Inspector for a JSONL transcript (`python -m harness_lib --transcript FILE`, or trace.Transcript(path)).

        A line that is not a JSON object, or an event with a field of the wrong type (FIELDS), is a
        ValueError naming the file and line. Several runs in one file (Transcript appends) are drawn as one.
        """
        inspector = cls(**options)
        with open(path, encoding="utf-8") as file:
            for number, line in enumerate(file, 1):
                if not line.strip():
                    continue
                try:
                    event = json.loads(line)
                except json.JSONDecodeError as err:
                    raise ValueError(f"{path}, line {number}: not JSON ({err.msg})") from None
                except ValueError as err:  # JSON, but a number Python will not read (over 4300 digits)
                    raise ValueError(f"{path}, line {number}: not a transcript event ({err})") from None
                if not isinstance(event, dict) or "event" not in event:
                    raise ValueError(f"{path}, line {number}: not a transcript event")
                try:
                    inspector.on_event(event)
                except ValueError as err:
                    raise ValueError(f"{path}, line {number}: {err}") from None
        return inspector

    # --- live ---------------------------------------------------------------------------------------

    def show(self) -> None:
        """Display the picture now and redraw it after every event (IPython's display handle).

        Outside IPython this does nothing. The saved notebook keeps the last picture.
        """
        try:
            from IPython import get_ipython
            from IPython.display import display
        except ImportError:
            return
        if get_ipython() is None:
            return
        self._handle = display(self, display_id=True)

    # --- what the rows say ----------------------------------------------------------------------------

    def _ordered(self) -> list[Row]:
        return [self.rows[n] for n in sorted(self.rows)]

    def _analysis(self) -> list[dict]:
        """Per row: stop reason, tokens, running totals, signature, repeat/cycle, whether it is the last."""
        rows = self._ordered()
        end = self.end
        final_n = end["turn"] if end else None
        period = _period(end) if end and end.get("stopped_by") == "no_progress" else None
        out, spent, signatures, turn_of = [], 0, [], []
        for i, row in enumerate(rows):
            final = row.n == final_n
            info: dict[str, Any] = {"row": row, "final": final, "signature": None, "cycle": None, "not_run": False}
            cost = sum((row.usage or {}).get(name) or 0 for name in USAGE_COUNTERS)
            spent += cost
            info["cost"] = cost if row.usage is not None else None
            info["spent"] = spent
            later = i + 1 < len(rows)
            if row.calls:
                info["stop"] = "tool_use"
                info["signature"] = signature_of(
                    [{"type": "tool_use", "name": c.name, "input": c.input} for c in row.calls])
            elif final:
                info["stop"] = end["stop_reason"] or (None if period is None else "tool_use")
                if period is not None and len(signatures) >= period:  # valve 3 stopped it: calls never emitted
                    info["signature"] = signatures[-period]
                    info["not_run"] = True
            elif later or end:
                info["stop"] = "pause_turn"  # the loop went round without tool calls
            else:
                info["stop"] = ""  # in progress
            if final:
                info["turns"] = end["turns"]
            elif row.calls or info["stop"] == "pause_turn":
                info["turns"] = row.n
            else:
                info["turns"] = row.n - 1
            if info["signature"] is not None:
                signatures.append(info["signature"])
                turn_of.append(row.n)
                found = find_cycle(signatures)  # valve 3's own test: what it would stop, nothing else
                if found:
                    first = turn_of[-2 * found] if len(turn_of) >= 2 * found else turn_of[0]
                    info["cycle"] = (found, first, turn_of[-found - 1])
            out.append(info)
        return out

    # --- drawing ------------------------------------------------------------------------------------

    def _repr_html_(self) -> str:
        return STYLE + self._table()

    def __repr__(self) -> str:  # the text/plain twin of the picture: no address, so it is deterministic
        lines = [self.title or _t("caption")]
        for info in self._analysis():
            row = info["row"]
            calls = ", ".join(show_call(c.name, c.input) for c in row.calls)
            stop = one_word(info["stop"]) if info["stop"] else (
                _t("going_on") if info["final"] else _t("in_progress"))
            if info["not_run"]:
                calls = f"{visible(info['signature'])} ({_t('not_run')})"
            lines.append(f"{row.n}: {stop} {calls}".rstrip())
        if self.end:
            lines.append(self._ending_line())
        elif self.error is not None:
            lines.append(_t("failed", message=visible_text(self.error, lines=False)))
        return "\n".join(lines)

    def _ending_line(self) -> str:
        name = one_word(self.end["stopped_by"])
        what = _t(f"by.{name}") if f"inspector.by.{name}" in lang.MESSAGES[lang.current()] else name
        return _t("ended_by", what=what, name=name)

    def _table(self) -> str:
        head = "".join(f'<th scope="col">{escape(_t(k))}</th>' for k in ("request", "stop", "calls", "tokens", "after"))
        body, analysis = [], self._analysis()
        for i, info in enumerate(analysis):
            done = i + 1 < len(analysis)  # a later request came: this row will not change again
            key = (info["row"].n, lang.current(), self.title)
            if not done or key not in self._drawn:
                self._drawn[key] = self._row_html(info)
            body.append(self._drawn[key])
        body.extend(self._tail_html())
        caption = escape(self.title or _t("caption"))
        return (f'<div class="hl-inspector" lang="{lang.current()}"><table>'
                f"<caption>{caption}</caption><thead><tr>{head}</tr></thead>"
                f"<tbody>{''.join(body)}</tbody></table></div>")

    def _row_html(self, info: dict) -> str:
        row: Row = info["row"]
        classes = ["hl-row"]
        if info["cycle"] and self.progress:
            classes.append("hl-repeat")
        stop = info["stop"]
        if info["final"] and not stop:
            stop_cell = f'<span class="hl-going-on">{escape(_t("going_on"))}</span>'
        else:
            stop_cell = f"<code>{escape(one_word(stop))}</code>" if stop else escape(_t("in_progress"))
        # calls
        items = []
        if info["not_run"]:
            items.append(f'<li class="hl-call hl-not-run"><code>{escape(visible(info["signature"]))}</code> '
                         f'— <span class="hl-refused">{escape(_t("not_run"))}</span></li>')
        ids = [call.id for call in row.calls]
        for call in row.calls:
            items.append(self._call_html(call, waiting=self.end is None, shared=ids.count(call.id) > 1))
        calls_cell = f"<ul>{''.join(items)}</ul>" if items else ""
        # tokens
        if row.usage is None:
            tokens_cell = escape(_t("no_usage"))
        else:
            parts = [f"{escape(_t(name))} {_n(row.usage.get(name) or 0)}" for name in USAGE_COUNTERS]
            tokens_cell = (f'<span class="hl-usage">{" · ".join(parts)}</span><br>'
                           f'<b class="hl-cost">{escape(_t("total"))} {_n(info["cost"])}</b>')
        # state after it
        state = [self._gauge(_t("turns", used=info["turns"], cap=self.max_turns), "hl-turns",
                             _t("turn_meter"), info["turns"], self.max_turns)]
        if row.usage is not None and self.token_budget is not None:
            over = info["spent"] - self.token_budget
            label = _t("budget", used=_n(info["spent"]), budget=_n(self.token_budget))
            extra = f' <span class="hl-over">{escape(_t("over", over=_n(over)))}</span>' if over >= 0 else ""
            state.append(self._gauge(label, "hl-budget", _t("budget_meter"), info["spent"], self.token_budget) + extra)
        if info["signature"] is not None and self.progress:
            sig = f'{escape(_t("signature"))}: <code class="hl-signature">{escape(visible(info["signature"]))}</code>'
            if info["cycle"]:
                period, first, last = info["cycle"]
                badge = (_t("repeat", turn=last) if period == 1
                         else _t("cycle", first=first, last=last))
                sig += f' <span class="hl-badge hl-cycle">{escape(badge)}</span>'
            state.append(sig)
        after_cell = "<br>".join(state)
        return (f'<tr class="{" ".join(classes)}" data-request="{escape(str(row.n))}">'
                f'<th scope="row">{escape(str(row.n))}</th><td class="hl-stop">{stop_cell}</td>'
                f'<td class="hl-calls">{calls_cell}</td><td class="hl-tokens">{tokens_cell}</td>'
                f'<td class="hl-after">{after_cell}</td></tr>')

    def _call_html(self, call: Call, *, waiting: bool, shared: bool = False) -> str:
        parts = [f"<code>{escape(show_call(call.name, call.input))}</code>"]
        if shared:  # which result is whose cannot be told: say so rather than guess
            parts.append(f'<span class="hl-error hl-shared-id">{escape(_t("shared_id"))}</span>')
        if call.approved is True:
            parts.append(f'<span class="hl-approved">{escape(_t("approved"))}</span>')
        elif call.approved is False:
            parts.append(f'<span class="hl-refused">{escape(_t("refused"))}</span>')
        elif waiting and call.result is None and call.name in self.high_impact:
            parts.append(f'<span class="hl-waiting-approval">{escape(_t("waiting"))}</span>')
        if call.result is not None:
            text = escape(visible(preview(call.result, 80)))
            if call.is_error:
                parts.append(f'<span class="hl-error">{escape(_t("error"))}:</span> <code>{text}</code>')
            else:
                parts.append(f'<span class="hl-ok">{escape(_t("ok"))}</span> <code>{text}</code>')
        kind = "hl-call-error" if call.is_error else "hl-call"
        return f'<li class="hl-call {kind}">{" — ".join(parts)}</li>'

    @staticmethod
    def _gauge(label: str, kind: str, what: str, value: int, maximum: int) -> str:
        shown = min(value, maximum)
        return (f'<span class="{kind}"><meter min="0" max="{max(maximum, 1)}" value="{shown}" '
                f'aria-label="{escape(what)}"></meter> {escape(label)}</span>')

    def _tail_html(self) -> list[str]:
        if self.end is not None:
            end = self.end
            lines = [escape(self._ending_line())]
            text = stop_text(end)
            if end["stopped_by"] in ("end_turn", "stop_sequence"):
                first, _, rest = text.strip().partition("\n")
                if first:
                    more = "…" if rest or len(first) > 160 else ""
                    lines.append(escape(_t("answer", text=visible_text(first[:160]) + more)))
            elif text:
                lines.append(escape(visible_text(text, lines=False)))
            lines.append(escape(summary(end["turns"], end["requests"])))
            return [f'<tr class="hl-end" data-stopped-by="{escape(one_word(end["stopped_by"]))}">'
                    f'<th scope="row">{escape(_t("end"))}</th><td colspan="4">{"<br>".join(lines)}</td></tr>']
        if self.error is not None:
            failed = _t("failed", message=visible_text(self.error, lines=False))
            return [f'<tr class="hl-end hl-failed"><th scope="row">{escape(_t("end"))}</th>'
                    f'<td colspan="4" class="hl-error">{escape(failed)}</td></tr>']
        if not self.started:
            return [f'<tr class="hl-waiting"><td colspan="5">{escape(_t("no_events"))}</td></tr>']
        rows = self._ordered()
        last = rows[-1] if rows else None
        pending = [c for c in (last.calls if last else []) if c.approved is None and c.result is None
                   and c.name in self.high_impact]
        if pending:
            text = _t("waiting_approval", call=show_call(pending[0].name, pending[0].input))
        elif last is not None and any(c.result is None for c in last.calls):
            return []  # the tools are running: their results come in a moment
        else:
            text = _t("waiting_model", n=last.n + 1 if last else 1)
        return [f'<tr class="hl-waiting"><td colspan="5">{escape(text)}</td></tr>']


FIELDS = {"request": {"n": int}, "tool_call": {"turn": int, "id": str, "name": str},  # what is drawn, and its type
          "approval": {"turn": int, "name": str, "approved": bool}, "error": {"message": str},
          "tool_result": {"turn": int, "id": str, "content": str, "is_error": bool},
          "end": {"turn": int, "stop_reason": (str, type(None)), "stopped_by": str, "text": str, "turns": int,
                  "requests": int}}


def _whole(value) -> bool:  # an int that is not a bool, 0 or more
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check(event: dict) -> None:
    """ValueError unless `event`'s drawn fields have their types (FIELDS; KeyError for a missing one); a
    request's usage holds whole numbers (or null), a note is null or [message id, values]."""
    kind = event.get("event")
    for name, kind_of in FIELDS.get(kind, {}).items():
        if not (_whole(event[name]) if kind_of is int else isinstance(event[name], kind_of)):
            what = "a whole number" if kind_of is int else "a boolean" if kind_of is bool else "a string"
            raise ValueError(f"the inspector cannot draw this {visible_text(str(kind), lines=False)} event: its "
                             f"{name!r} field is {visible(compact(event[name])[:80])}, not {what}")
    usage, note = event.get("usage"), event.get("note")
    if kind == "request" and usage is not None and not (
            isinstance(usage, dict) and all(usage.get(k) is None or _whole(usage.get(k)) for k in USAGE_COUNTERS)):
        raise ValueError(f"the inspector cannot draw this request event: its usage is {visible(compact(usage)[:80])}")
    if kind == "end" and note is not None and not (isinstance(note, (list, tuple)) and len(note) == 2
                                                   and isinstance(note[0], str) and isinstance(note[1], dict)):
        raise ValueError(f"the inspector cannot draw this end event: its note is {visible(compact(note)[:80])}")


def _period(end: dict) -> int | None:
    """The length of the cycle valve 3 found, from the run's note (None for a loop that records no note)."""
    note = end.get("note")
    if not (note and note[0] in ("stop.repeat", "stop.cycle")):
        return None
    return note[1].get("period") if _whole(note[1].get("period")) and 1 <= note[1]["period"] <= 3 else 1


class _SideBySide:
    def __init__(self, runs: list[Inspector], titles: list[str | None]):
        self.runs, self.titles = runs, titles

    def _each(self, draw) -> list[str]:
        drawn = []
        for run, title in zip(self.runs, self.titles):
            saved = run.title
            run.title = title or saved
            try:
                drawn.append(draw(run))
            finally:
                run.title = saved
        return drawn

    def _repr_html_(self) -> str:
        cells = self._each(lambda run: f"<div>{run._table()}</div>")
        return STYLE + f'<div class="hl-side">{"".join(cells)}</div>'

    def __repr__(self) -> str:
        return "\n\n".join(self._each(repr))


def side_by_side(a: Inspector, b: Inspector, *, titles: tuple[str | None, str | None] = (None, None)) -> _SideBySide:
    """Two runs drawn next to each other (e.g. the bare loop and the guarded one on the same task)."""
    for run in (a, b):
        if not isinstance(run, Inspector):
            raise TypeError(f"side_by_side takes two Inspector objects, not {type(run).__name__}")
    return _SideBySide([a, b], list(titles))
