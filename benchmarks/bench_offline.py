"""How much does the offline model cost on top of the SDK itself?

Times one ``await client.messages.create(...)`` with a 20-turn history (41 messages, the kit's four
tools) through the real anthropic SDK, twice:

* offline: the transport is ``OfflineMessagesAPI`` (validation, planning, token estimate);
* baseline: the transport is ``httpx2.MockTransport`` with a handler that returns a fixed valid message.

Prints both medians and their ratio (goal: offline ≤ 2× baseline). Each call is timed in CPU time
(``time.process_time``), so other programs on a busy machine do not count; the calls alternate between the two.

    python benchmarks/bench_offline.py [--repeat 400]     # from the repository root, in the kit's virtualenv
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

import anthropic
import httpx2

from harness_kit.offline import OfflineMessagesAPI

MODEL = "claude-sonnet-5"
_PATH = {"type": "string", "minLength": 1, "maxLength": 255}
TOOLS = [
    {"name": "get_time", "description": "Get the current local time, as ISO 8601 with the UTC offset.",
     "input_schema": {"type": "object", "properties": {}, "additionalProperties": False}},
    {"name": "read_file", "description": "Read a UTF-8 text file in the project.",
     "input_schema": {"type": "object", "properties": {"path": _PATH}, "required": ["path"], "additionalProperties": False}},
    {"name": "write_file", "description": "Write a text file under scratch/. Needs approval.",
     "input_schema": {"type": "object", "properties": {"path": _PATH, "content": {"type": "string"}},
                      "required": ["path", "content"], "additionalProperties": False}},
    {"name": "delete_file", "description": "Delete a file under scratch/. Needs approval.",
     "input_schema": {"type": "object", "properties": {"path": _PATH}, "required": ["path"], "additionalProperties": False}},
]
TASK = "Read the first line of README.md, then tell me what time it is"

FIXED = json.dumps({
    "id": "msg_01AAAAAAAAAAAAAAAAAAAAAA", "type": "message", "role": "assistant", "model": MODEL,
    "content": [{"type": "tool_use", "id": "toolu_01AAAAAAAAAAAAAAAAAAAAAA", "name": "read_file",
                 "input": {"path": "README.md"}}],
    "stop_reason": "tool_use", "stop_sequence": None, "stop_details": None,
    "usage": {"input_tokens": 1, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
}).encode()


def trivial(request: httpx2.Request) -> httpx2.Response:
    return httpx2.Response(200, headers={"content-type": "application/json"}, content=FIXED)


def client_for(transport) -> anthropic.AsyncAnthropic:
    return anthropic.AsyncAnthropic(api_key="offline", base_url="https://offline.invalid", max_retries=0,
                                    http_client=httpx2.AsyncClient(transport=transport))


async def history(turns: int) -> list[dict]:
    """A real 20-turn conversation made by the offline model (scenario never-ends) with tool results."""
    client = client_for(OfflineMessagesAPI("never-ends"))
    messages = [{"role": "user", "content": TASK}]
    for k in range(turns):
        response = await client.messages.create(model=MODEL, max_tokens=1024, tools=TOOLS, messages=messages)
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": b.id, "content": f"# Part {k}\n" + "Some words. " * 30}
            for b in response.content if b.type == "tool_use"]})
    return messages


async def medians(clients: dict, messages: list, repeat: int) -> dict[str, float]:
    """Median CPU seconds per create() for each client; calls alternate, so machine noise hits both alike."""
    async def once(client) -> float:
        start = time.process_time()
        await client.messages.create(model=MODEL, max_tokens=1024, tools=TOOLS, messages=messages)
        return time.process_time() - start

    for client in clients.values():  # warm up
        for _ in range(20):
            await once(client)
    times: dict[str, list[float]] = {name: [] for name in clients}
    for _ in range(repeat):
        for name, client in clients.items():
            times[name].append(await once(client))
    return {name: statistics.median(t) for name, t in times.items()}


async def main(repeat: int) -> None:
    messages = await history(20)
    api = OfflineMessagesAPI("demo")
    result = await medians({"baseline": client_for(httpx2.MockTransport(trivial)), "offline": client_for(api)},
                           messages, repeat)
    base, off = result["baseline"], result["offline"]
    print(f"history: {len(messages)} messages; request body {len(json.dumps(api.log[-1]))} bytes of JSON")
    print(f"baseline (MockTransport, fixed message): median {base * 1e3:.3f} ms CPU")
    print(f"offline  (OfflineMessagesAPI, demo):     median {off * 1e3:.3f} ms CPU")
    print(f"ratio offline / baseline: {off / base:.2f}x (goal <= 2x)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=400)
    asyncio.run(main(parser.parse_args().repeat))
