"""harness_lib.client's small promises, where mutation testing found them untested (docs/development.md,
"Mutation testing"). Each was checked to fail with the bug it names planted by hand."""

from types import SimpleNamespace

import pytest

import harness_lib.client as client_module
from harness_lib.client import make_client, offline_api


def test_the_scenarios_are_found_on_first_use_and_nothing_else_is():
    assert "demo" in client_module.SCENARIOS and "never-ends" in client_module.SCENARIOS
    with pytest.raises(AttributeError) as missing:
        client_module.scenarios  # noqa: B018 (the name is exact)
    assert str(missing.value) == "module 'harness_lib.client' has no attribute 'scenarios'"


def test_a_client_retries_twice_by_default():
    assert make_client().max_retries == 2


@pytest.mark.parametrize("not_offline", [SimpleNamespace(), SimpleNamespace(_client=SimpleNamespace()), None])
def test_offline_api_of_anything_but_an_offline_client_says_what_is_wrong(not_offline):
    with pytest.raises(TypeError) as wrong:
        offline_api(not_offline)
    assert str(wrong.value) == "this client talks to the live API; offline_api() needs a client made offline"
