"""How long does the offline model take to answer a hostile 10 KB task?

The task parser (harness_kit/offline/parse.py) once backtracked for minutes on a long run of spaces or
commas between two paths, after "write" or after an e-mail address, and took seconds on thousands of paths
with no verb. This times, for each of those shapes at 10 KB (and at 100 KB, the terminal agent's limit),
the whole first answer: one request through ``OfflineMessagesAPI`` (validation, parsing, planning,
token estimate), in CPU time, the parser's cache cleared each time.

    python benchmarks/bench_parse.py [--repeat 5]     # from the repository root, in the kit's virtualenv

Prints the median per shape and the slowest (goal: every answer < 1 s).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import httpx2

from harness_kit.offline import OfflineMessagesAPI
from harness_kit.offline.parse import _parse_steps, detect_language

MODEL = "claude-sonnet-5"
_PATH = {"type": "string", "minLength": 1, "maxLength": 255}
TOOLS = [
    {"name": "read_file", "description": "Read a UTF-8 text file in the project.",
     "input_schema": {"type": "object", "properties": {"path": _PATH}, "required": ["path"], "additionalProperties": False}},
    {"name": "write_file", "description": "Write a text file under scratch/. Needs approval.",
     "input_schema": {"type": "object", "properties": {"path": _PATH, "content": {"type": "string"}},
                      "required": ["path", "content"], "additionalProperties": False}},
]


def shapes(n: int) -> dict[str, str]:
    return {
        "spaces between two paths": "read a.txt" + " " * n + "x b.txt",
        "commas between two paths": "read a.txt" + "," * n + "x b.txt",
        "spaces after write": "write" + " " * n + "x scratch/a.txt",
        "spaces after write, then to": "write" + " " * n + "to x scratch/a.txt",
        "spaces after escribe": "escribe" + " " * n + "x scratch/a.txt",
        "spaces after an e-mail address": "email bob@example.com" + " " * n,
        "paths with no verb": "x " + "a.txt " * (n // 6),
        "quoted paths with no verb": '"a.txt" ' * (n // 8),
        "quoted names with spaces, each asked for": "of 'a b.txt' " * (n // 13),
        "read a file, then delete it, again and again": "read a.txt then delete it " * (n // 26),
        "create with a text, again and again": "create a.txt with the text x " * (n // 29),
        "copy a file to another, again and again": "copy a.txt to b.txt " * (n // 20),
        "save a file's first line to another, again and again": "save the first line of a.txt to b.txt " * (n // 38),
    }


def answer_seconds(api: OfflineMessagesAPI, task: str) -> float:
    body = json.dumps({"model": MODEL, "max_tokens": 200, "tools": TOOLS,
                       "messages": [{"role": "user", "content": task}]}).encode()
    request = httpx2.Request("POST", "https://offline.invalid/v1/messages", content=body,
                             headers={"content-type": "application/json"})
    _parse_steps.cache_clear()
    detect_language.cache_clear()
    start = time.process_time()
    response = api.handle_request(request)
    seconds = time.process_time() - start
    assert response.status_code == 200, response.content
    return seconds


def main(repeat: int) -> None:
    api = OfflineMessagesAPI()
    slowest = 0.0
    for n in (10_000, 100_000):
        for name, task in shapes(n).items():
            median = statistics.median(answer_seconds(api, task) for _ in range(repeat))
            slowest = max(slowest, median)
            print(f"{len(task):>7} chars  {name:<32} median {median * 1e3:7.1f} ms CPU")
    print(f"slowest: {slowest * 1e3:.1f} ms (goal < 1000 ms)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    main(parser.parse_args().repeat)
