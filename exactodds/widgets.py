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
from .commands import Query, find
from .webform import answer_data, build_query, field_specs, refusal

SVG_WIDTH, SVG_HEIGHT = 520, 180


def _ipywidgets() -> Any:
    try:
        import ipywidgets  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        raise ImportError("exactodds.widgets needs ipywidgets: pip install 'exactodds[widgets]'") from None
    return ipywidgets


def bar_chart_svg(data: dict[str, Any], cumulative: bool = False) -> str:
    """A bar chart of :func:`~exactodds.webform.answer_data` as SVG text: the
    probability of each outcome, or with ``cumulative`` P(>= outcome) (numeric
    outcomes only). Above 60 outcomes, the table's most probable window."""
    rows = data["rows"]
    if len(rows) > 60:
        rows = [rows[i] for i in data["window"]]
    cumulative = cumulative and data["numeric"]
    values = [r["at_least_float"] if cumulative else r["p_float"] for r in rows]
    top = 1.0 if cumulative else max(values + [1e-12])
    pad, n = 28, max(len(rows), 1)
    bw = (SVG_WIDTH - pad) / n
    every = -(-n // 20)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SVG_WIDTH} {SVG_HEIGHT + 24}" '
             f'width="{SVG_WIDTH}" class="exactodds-chart">',
             f'<line x1="{pad}" y1="{SVG_HEIGHT}" x2="{SVG_WIDTH}" y2="{SVG_HEIGHT}" stroke="#333"/>',
             f'<text x="{pad - 4}" y="10" text-anchor="end" font-size="10">{top * 100:.2g}%</text>']
    colour = "#27ae60" if cumulative else "#2980b9"
    for i, (row, v) in enumerate(zip(rows, values)):
        h = v / top * (SVG_HEIGHT - 14)
        x = pad + i * bw
        shown = (row["at_least"] if cumulative else row["p"])
        parts.append(f'<rect x="{x + bw * 0.1:.2f}" y="{SVG_HEIGHT - h:.2f}" width="{max(bw * 0.8, 1):.2f}" '
                     f'height="{max(h, 0):.2f}" fill="{colour}"><title>{escape(row["label"])}: '
                     f'{escape(shown)}</title></rect>')
        if i % every == 0:
            label = row["label"] if len(row["label"]) <= 14 else row["label"][:13] + "…"
            parts.append(f'<text x="{x + bw / 2:.2f}" y="{SVG_HEIGHT + 14}" text-anchor="middle" '
                         f'font-size="10">{escape(label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


class Form:
    """One command's form in Jupyter (see the module docstring)."""

    def __init__(self, system: str, command: str | None = None, /, **values: Any) -> None:
        w = _ipywidgets()
        self.command = find(system, command)
        self.fields = field_specs(self.command.params)
        unknown = set(values) - {f["name"] for f in self.fields}
        if unknown:
            raise TypeError(f"{self.command.title} has no parameter {sorted(unknown)[0]!r}")
        self.controls: dict[str, Any] = {}
        self.errors: dict[str, Any] = {}
        rows = []
        for field in self.fields:
            control = self._control(w, field, values.get(field["name"]))
            error = w.HTML("", layout=w.Layout(margin="0 0 0 10px"))
            control.observe(self._changed, names="value")
            self.controls[field["name"]] = control
            self.errors[field["name"]] = error
            rows.append(w.HBox([control, error]))
        self.cumulative = w.Checkbox(False, description="cumulative P(≥)", indent=False)
        self.cumulative.observe(lambda _: self._draw(), names="value")
        self.message = w.HTML("")
        self.query_line = w.HTML("")
        self.table = w.HTML("")
        self.chart = w.HTML("")
        self.answer: Answer | None = None
        self.query: Query | None = None
        self.error: dict[str, Any] | None = None
        self._data: dict[str, Any] | None = None
        title = w.HTML(f"<b>{escape(self.command.title)}</b>: {escape(self.command.doc.strip().split(chr(10))[0])}")
        self.widget = w.VBox([title, *rows, self.message, self.query_line, self.cumulative,
                              w.HBox([self.table, self.chart])])
        self.update()

    # ---------------------------------------------------------------- build
    @staticmethod
    def _control(w: Any, field: dict[str, Any], value: Any) -> Any:
        desc = field["label"] + (" *" if field["required"] else "")
        common = {"description": desc, "tooltip": f'{field["help"]} ({field["flag"]})',
                  "style": {"description_width": "9em"}}
        default = field["default"]
        if field["multiple"]:
            items = [] if value is None else [str(v) for v in (value if isinstance(value, (list, tuple)) else [value])]
            extra = {"allowed_tags": field["choices"]} if field["input"] == "select" else {}
            control = w.TagsInput(value=items, allow_duplicates=True, **extra)
            control.description = desc  # TagsInput takes no style
            return control
        if field["input"] == "checkbox":
            return w.Checkbox(bool(value), indent=False, **common)
        if field["input"] == "select":
            options = ([] if field["required"] or default is not None else [""]) + list(field["choices"])
            chosen = value if value is not None else (default if default is not None else options[0])
            return w.Dropdown(options=options, value=str(chosen), **common)
        placeholder = f"{default} (default)" if default is not None else field.get("placeholder") or (
            "FILE.toml" if field["input"] == "file" else "")
        return w.Text(value="" if value is None else str(value), placeholder=placeholder, **common)

    # ---------------------------------------------------------------- state
    def values(self) -> dict[str, Any]:
        """The values on the form, as :func:`exactodds.webform.run` takes them."""
        return {name: (list(c.value) if isinstance(c.value, tuple) else c.value) for name, c in self.controls.items()}

    def set(self, **values: Any) -> Form:
        """Change values (as typed: text, booleans, lists); the answer follows."""
        for name, value in values.items():
            control = self.controls[name]
            if isinstance(value, (list, tuple)):
                control.value = [str(v) for v in value]
            elif isinstance(value, bool):
                control.value = value
            else:
                control.value = "" if value is None else str(value)
        return self

    def _changed(self, change: Any) -> None:
        self.update()

    def update(self) -> None:
        """Answer the question on the form (called on every change)."""
        request = {"system": self.command.system, "command": self.command.name, "params": self.values()}
        for label in self.errors.values():
            label.value = ""
        try:
            query = build_query(request)
            answer = query.answer()
        except Exception as e:  # a refusal (or a bug) as one line, never a traceback
            self.answer, self.query, self._data = None, None, None
            self.error = refusal(e, self.command.params, self.values())
            self.message.value = f'<span style="color:#b00">{escape(self.error["message"])}</span>'
            for name in self.error["fields"]:
                if name in self.errors:
                    text = self.error["reason"] if name == self.error["field"] and self.error["reason"] \
                        else self.error["message"]
                    self.errors[name].value = f'<span style="color:#b00">{escape(text)}</span>'
            self.query_line.value = self.table.value = self.chart.value = ""
            return
        self.error, self.query, self.answer = None, query, answer
        self._data = answer_data(answer)
        self.message.value = ""
        self.query_line.value = f"<code>{escape(query.command_line())}</code>"
        self._draw()

    def _draw(self) -> None:
        if self.answer is None or self._data is None:
            return
        self.table.value = self.answer._repr_html_()
        self.chart.value = bar_chart_svg(self._data, self.cumulative.value)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


def form(system: str, command: str | None = None, /, **values: Any) -> Form:
    """The form of ``exactodds SYSTEM [COMMAND]``, filled with ``values``:
    ``form("40k6", "shoot", shots=20, bs=4, strength=4, target="unit.toml")``."""
    return Form(system, command, **values)
