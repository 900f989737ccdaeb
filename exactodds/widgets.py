"""Jupyter forms for every question, generated from the parameter specs (ipywidgets).

``form("40k6", "shoot")`` shows the command's form (the same fields, labels,
help texts, choices and defaults as the calculator page and ``--help``,
from :func:`exactodds.webform.field_specs`), the exact table (the
:class:`~exactodds.answer.Answer`'s HTML) and a bar chart, both updated as
values change; a bad value shows the command line's message beside its
field. Needs the ``widgets`` extra (``pip install 'exactodds[widgets]'``).

Keyword values fill the form: ``form("pool", n=3, hit="4+")``. The form
keeps the latest answer (:attr:`Form.answer`) or refusal (:attr:`Form.error`);
:meth:`Form.set` changes values from code.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .answer import Answer
from .commands import InputError, Query, find
from .webform import answer_data, answer_query, field_specs, refusal

SVG_WIDTH, SVG_HEIGHT = 520, 180


def _ipywidgets() -> Any:
    try:
        import ipywidgets  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        raise ImportError("exactodds.widgets needs ipywidgets: pip install 'exactodds[widgets]'") from None
    return ipywidgets


def bar_chart_svg(data: dict[str, Any], at_least: bool = False) -> str:
    """A bar chart of :func:`~exactodds.webform.answer_data` as SVG text: the
    probability of each outcome, or with ``at_least`` P(X >= outcome) (numeric
    outcomes only). Above 60 outcomes, the table's most probable window."""
    rows = data["rows"]
    if len(rows) > 60:
        rows = [rows[i] for i in data["window"]]
    at_least = at_least and data["numeric"]
    values = [r["at_least_float"] if at_least else r["p_float"] for r in rows]
    top = 1.0 if at_least else max(values + [1e-12])
    pad, n = 28, max(len(rows), 1)
    bw = (SVG_WIDTH - pad) / n
    every = -(-n // 20)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SVG_WIDTH} {SVG_HEIGHT + 24}" '
             f'width="{SVG_WIDTH}" class="exactodds-chart">',
             f'<line x1="{pad}" y1="{SVG_HEIGHT}" x2="{SVG_WIDTH}" y2="{SVG_HEIGHT}" stroke="#333"/>',
             f'<text x="{pad - 4}" y="10" text-anchor="end" font-size="10">{top * 100:.2g}%</text>']
    colour = "#27ae60" if at_least else "#2980b9"
    for i, (row, v) in enumerate(zip(rows, values)):
        h = v / top * (SVG_HEIGHT - 14)
        x = pad + i * bw
        shown = (row["at_least"] if at_least else row["p"])
        parts.append(f'<rect x="{x + bw * 0.1:.2f}" y="{SVG_HEIGHT - h:.2f}" width="{max(bw * 0.8, 1):.2f}" '
                     f'height="{max(h, 0):.2f}" fill="{colour}"><title>{escape(row["label"])}: '
                     f'{escape(shown)}</title></rect>')
        if i % every == 0:
            label = row["label"] if len(row["label"]) <= 14 else row["label"][:13] + "…"
            parts.append(f'<text x="{x + bw / 2:.2f}" y="{SVG_HEIGHT + 14}" text-anchor="middle" '
                         f'font-size="10">{escape(label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def unit_charts_html(answer: Answer, at_least: bool = False) -> str:
    """A composite answer's charts: one :func:`bar_chart_svg` per unit, of its own
    answer (:meth:`~exactodds.answer.Answer.unit`: models left), headed by the unit
    and what it counts, as the command line's ``--unit NAME --plot``. O(units x outcomes)."""
    parts = []
    for name in answer.unit_names():
        alone = answer.unit(name)
        counts = next(iter(alone.units.fields.values())).counts if alone.units is not None else name
        parts.append(f'<div class="exactodds-unit-chart"><div><b>{escape(name)}</b>: {escape(counts)}</div>'
                     f"{bar_chart_svg(answer_data(alone), at_least)}</div>")
    return "".join(parts)


class Form:
    """One command's form in Jupyter (see the module docstring)."""

    def __init__(self, system: str, command: str | None = None, /, **values: Any) -> None:
        w = _ipywidgets()
        self.command = find(system, command)
        self.fields = field_specs(self.command.params)
        self._unknown(values)
        self.controls: dict[str, Any] = {}
        self.errors: dict[str, Any] = {}
        self._typed: dict[str, Any] = {}
        """Values set from code that no control can hold (a choice not offered, text Python
        cannot write): sent as they are, so the form shows the parameter's own refusal."""
        self._quiet = True
        rows = []
        for field in self.fields:
            control = self._control(w, field)
            error = w.HTML("", layout=w.Layout(margin="0 0 0 10px"))
            control.observe(self._changed, names="value")
            self.controls[field["name"]] = control
            self.errors[field["name"]] = error
            rows.append(w.HBox([control, error]))
        for name, value in values.items():
            self._put(name, value)
        self.at_least = w.Checkbox(False, description="at least: P(X ≥ x)", indent=False)
        self.at_least.observe(lambda _: self._draw(), names="value")
        self.message = w.HTML("")
        self.query_line = w.HTML("")
        self.table = w.HTML("")
        self.chart = w.HTML("")
        self.answer: Answer | None = None
        self.query: Query | None = None
        self.error: dict[str, Any] | None = None
        self._data: dict[str, Any] | None = None
        title = w.HTML(f"<b>{escape(self.command.title)}</b>: {escape(self.command.doc.strip().split(chr(10))[0])}")
        self.widget = w.VBox([title, *rows, self.message, self.query_line, self.at_least,
                              w.HBox([self.table, self.chart])])
        self._quiet = False
        self.update()

    def _unknown(self, values: dict[str, Any]) -> None:
        """Refuse names that are not parameters of the command (an :class:`InputError`)."""
        names = [f["name"] for f in self.fields]
        unknown = [name for name in values if name not in names]
        if unknown:
            raise InputError(f"{self.command.title} has no parameter {unknown[0]!r}; "
                             f"allowed are {', '.join(names)}")

    # ---------------------------------------------------------------- build
    @staticmethod
    def _control(w: Any, field: dict[str, Any]) -> Any:
        """An empty control for ``field`` (its default shown); :meth:`_put` fills it."""
        desc = field["label"] + (" *" if field["required"] else "")
        common = {"description": desc, "tooltip": f'{field["help"]} ({field["flag"]})',
                  "style": {"description_width": "9em"}}
        default = field["default"]
        if field["multiple"]:
            extra = {"allowed_tags": field["choices"]} if field["input"] == "select" else {}
            control = w.TagsInput(value=[], allow_duplicates=True, **extra)
            control.description = desc  # TagsInput takes no style
            return control
        if field["input"] == "checkbox":
            return w.Checkbox(False, indent=False, **common)
        if field["input"] == "select":
            options = ([] if field["required"] or default is not None else [""]) + list(field["choices"])
            chosen = default if default is not None else options[0]
            return w.Dropdown(options=options, value=str(chosen), **common)
        placeholder = f"{default} (default)" if default is not None else field.get("placeholder") or (
            "FILE.toml" if field["input"] == "file" else "")
        return w.Text(value="", placeholder=placeholder, **common)

    # ---------------------------------------------------------------- state
    def values(self) -> dict[str, Any]:
        """The values on the form, as :func:`exactodds.webform.run` takes them."""
        shown = {name: (list(c.value) if isinstance(c.value, tuple) else c.value) for name, c in self.controls.items()}
        return {**shown, **self._typed}

    def set(self, **values: Any) -> Form:
        """Change values (as typed: text, booleans, lists); the answer follows, once.

        A name that is not a parameter raises :class:`~exactodds.InputError` (changing
        nothing); a value the form does not accept shows its refusal on the form."""
        self._unknown(values)
        self._quiet = True
        try:
            for name, value in values.items():
                self._put(name, value)
        finally:
            self._quiet = False
        self.update()
        return self

    def _put(self, name: str, value: Any) -> None:
        """Show ``value`` in its control, or keep it aside when the control cannot hold it
        (:attr:`_typed`). O(1) per value."""
        control = self.controls[name]
        self._typed.pop(name, None)
        try:
            if isinstance(value, (list, tuple)) or isinstance(control.value, (list, tuple)):
                items = value if isinstance(value, (list, tuple)) else [] if value is None else [value]
                new: Any = [str(v) for v in items]
            elif isinstance(value, bool) or isinstance(control.value, bool):  # a checkbox takes it as it is
                new = value
            else:
                new = "" if value is None else str(value)
            control.value = new
        except Exception:  # a choice not offered, a flag that is not true or false, text past Python's limit
            self._typed[name] = value

    def _changed(self, change: Any) -> None:
        for name, control in self.controls.items():
            if control is change["owner"]:
                self._typed.pop(name, None)
        if not self._quiet:
            self.update()

    def update(self) -> None:
        """Answer the question on the form (called on every change)."""
        request = {"system": self.command.system, "command": self.command.name, "params": self.values()}
        for label in self.errors.values():
            label.value = ""
        try:
            self.query, self.answer, self._data = answer_query(request)
        except Exception as e:  # a refusal (or a bug) as one line, never a traceback
            self._refused(e)
            return
        self.error = None
        self.message.value = ""
        self.query_line.value = f"<code>{escape(self.query.command_line())}</code>"
        self._draw()

    def _refused(self, e: Exception) -> None:
        """Show a refusal: its message, and its reason beside each field it names."""
        self.answer, self.query, self._data = None, None, None
        self.error = refusal(e, self.command.params, self.values())
        self.message.value = f'<span style="color:#b00">{escape(self.error["message"])}</span>'
        for name in self.error["fields"]:
            if name in self.errors:
                text = self.error["reason"] if name == self.error["field"] and self.error["reason"] \
                    else self.error["message"]
                self.errors[name].value = f'<span style="color:#b00">{escape(text)}</span>'
        self.query_line.value = self.table.value = self.chart.value = ""

    def _draw(self) -> None:
        if self.answer is None or self._data is None:
            return
        try:
            self.table.value = self.answer._repr_html_()  # a composite answer: its unit blocks, as printed
            self.chart.value = (unit_charts_html(self.answer, self.at_least.value) if self.answer.composite
                                else bar_chart_svg(self._data, self.at_least.value))
        except Exception as e:  # never a traceback in a notebook's callback
            self._refused(e)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


def form(system: str, command: str | None = None, /, **values: Any) -> Form:
    """The form of ``exactodds SYSTEM [COMMAND]``, filled with ``values``:
    ``form("40k6", "shoot", shots=20, bs=4, strength=4, target="unit.toml")``."""
    return Form(system, command, **values)
