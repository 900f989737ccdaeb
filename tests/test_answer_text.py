"""Answers' JSON and CSV are written straight from the integer weights: the
same bytes as the standard library's encoder and csv writer given the
Fractions, on awkward values too. And a sweep's tails table gives the same
exact figures as the distribution's own methods."""

from __future__ import annotations

import csv
import io
import json
import random
from fractions import Fraction as F
from typing import NamedTuple

import pytest

from exactodds import Dist, ask
from exactodds.answer import Answer, json_text
from exactodds.sweep.report import Tails


class Shot(NamedTuple):
    who: str
    hits: int


class Deep(NamedTuple):
    tag: str
    inner: tuple
    share: F
    flag: bool


AWKWARD = ['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\rhere', 'é ü', '', ' lead', 'tab\there']


@pytest.mark.parametrize("value", [
    0, -3, 10**40, 1.5, 0.1, 1e-300, float("inf"), float("-inf"), True, False, None, "", "é\n\"x\"",
    [], {}, [1, [2, []], {}], {"a": {"b": [1, {"c": None}]}, "d": []}, (1, "x"),
    {1: "int key", 2.5: "float key", True: "bool key", None: "none key"},
])
def test_json_text_is_json_dumps_indent_2(value: object) -> None:
    assert json_text(value) == json.dumps(value, indent=2)


def test_json_text_nan_as_json_writes_it() -> None:
    assert json_text([float("nan")]) == json.dumps([float("nan")], indent=2) == "[\n  NaN\n]"


def answers() -> list[Answer]:
    deep = Dist.from_weights({Deep("a", (1, ("x", 2)), F(1, 3), True): 2, Deep("b", (), F(0), False): 5})
    return [
        ask("pool", n=7, hit="4+"),
        ask("pool", n=0, hit="4+"),
        ask("pool", n=5, hit="auto"),
        ask("hd", "shoot", dice=9, target_def=4, engaged_def=[5, 3]),
        Answer(Dist.from_weights({Shot(w, i): i + 1 for i, w in enumerate(AWKWARD)}), {"q": 'x"y'},
               {"p_x": F(2, 7), "name": "a,b", "table": {"t": F(1, 9), "u": 3, "v": "w\nz"}, "flag": True}),
        Answer(Dist.from_weights({w: 3 for w in AWKWARD}), {}),
        Answer(deep, {"deep": [1, {"x": None}]}),
        Answer(Dist.from_weights({F(1, 2): 1, F(3, 2): 2, 2: 4})),
        Answer(Dist.uniform(range(-3, 4)), {"n": 1}, {"mean": "overridden", "query": 5}),
    ]


@pytest.mark.parametrize("answer", answers())
def test_to_json_is_the_encoder_on_the_json_object(answer: Answer) -> None:
    assert answer.to_json() == json.dumps(answer.to_json_obj(), indent=2)


def reference_csv(answer: Answer) -> str:
    """The CSV as one writer writes whole rows from the Fractions of ``dist.items()``."""
    from exactodds.answer import _csv_value, _flat_extras, frac_str
    from exactodds.render import outcome_label

    items = answer.dist.items()
    first = items[0][0]
    fields = list(first._asdict()) if hasattr(first, "_asdict") else ["outcome"]
    numeric = answer.numeric and not isinstance(first, bool)
    heads, values = [], []
    if answer.mean is not None:
        heads += ["mean", "mean_float"]
        values += [frac_str(answer.mean), repr(float(answer.mean))]
    for name, value in _flat_extras(answer.extras):
        if isinstance(value, F):
            heads += [name, f"{name}_float"]
            values += [frac_str(value), repr(float(value))]
        else:
            heads.append(name)
            values.append(_csv_value(value))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(fields + ["p", "p_float"] + (["p_at_least", "p_at_least_float"] if numeric else []) + heads)
    above = F(1)
    for x, p in items:
        row = (list(x._asdict().values()) if hasattr(x, "_asdict") else [outcome_label(x)]) + [frac_str(p),
                                                                                             repr(float(p))]
        if numeric:
            row += [frac_str(above), repr(float(above))]
        above -= p
        w.writerow(row + values)
    return buf.getvalue()


@pytest.mark.parametrize("answer", answers()[:-2])
def test_to_csv_is_one_writer_on_whole_rows(answer: Answer) -> None:
    assert answer.to_csv() == reference_csv(answer)


def test_csv_quotes_awkward_cells_once() -> None:
    names = [w for w in AWKWARD if "\r" not in w]  # csv quotes a lone CR only with a CR line end
    answer = Answer(Dist.from_weights({Shot(w, i): i + 1 for i, w in enumerate(names)}), {},
                    {"v": "w\nz", "flag": True})
    rows = list(csv.reader(io.StringIO(answer.to_csv())))
    assert rows[0] == ["who", "hits", "p", "p_float", "v", "flag"]
    assert [r[0] for r in rows[1:]] == sorted(names)
    assert all(r[-2:] == ["w\nz", "true"] for r in rows[1:])


def test_tails_give_the_dists_figures() -> None:
    rng = random.Random(7)
    for _ in range(200):
        d = Dist.from_weights({rng.randint(-20, 20): rng.randint(1, 10**rng.randint(1, 30))
                               for _ in range(rng.randint(1, 12))})
        t = Tails.of(d)
        assert t is not None
        for x in range(-22, 23):
            assert t.at_least(x) == d.at_least(x) and t.at_most(x) == d.at_most(x)
        for q in [F(0), F(1), F(1, 2), F(1, 3), F(99, 100), F(1, 10**9)] + [F(rng.randint(1, 99), 100)]:
            assert t.ppf(q) == d.ppf(q)


def test_tails_only_for_plain_ints() -> None:
    assert Tails.of(Dist.from_weights({1: 1, True: 1})) is not None  # True and 1 are one outcome
    assert Tails.of(Dist.from_weights({1: 1, F(1, 2): 1})) is None
    assert Tails.of(Dist.from_weights({"a": 1})) is None


class Pair(NamedTuple):
    a: int
    b: int


class Renamed(Pair):
    def _asdict(self) -> dict:  # type: ignore[override]
        return {"total": self.a + self.b}


def test_an_outcome_with_its_own_asdict_is_written_by_it() -> None:
    answer = Answer(Dist.from_weights({Renamed(1, 2): 1, Renamed(2, 2): 1}))
    assert answer.to_json() == json.dumps(answer.to_json_obj(), indent=2)
    assert '"total": 3' in answer.to_json()
