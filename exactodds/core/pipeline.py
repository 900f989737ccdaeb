"""Rule steps as transforms, composed into pipelines with inspectable stages.

A :class:`Step` is a named transform of a distribution. Most steps are
Markov kernels (``state -> Dist`` of next states); :meth:`Step.map` makes a
deterministic one and :meth:`Step.whole` one that sees the whole
distribution. Steps compose with ``>>`` into a :class:`Pipeline`;
``pipeline.run(start)`` returns a :class:`Run` holding the final
distribution and every named stage::

    run = (roll >> wound >> save).run(Dist.constant(state))
    run.stages["wound"]      # the distribution after the wound step
    run.final                # the distribution after the last step

Equal states are merged after every step (``Dist.then`` does it), so a
pipeline's cost is governed by the number of *distinct* states at each
stage, not by the number of raw rolls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .dist import Dist, Kernel
from .errors import InputError
from .limits import work_meter
from .present import presenter, required
from .checks import is_whole


@dataclass(frozen=True)
class Step:
    """A named transform of a distribution.

    ``apply`` maps a :class:`Dist` to a :class:`Dist`. Build steps with
    :meth:`kernel`, :meth:`map` or :meth:`whole` rather than directly.
    """

    name: str
    apply: Callable[[Dist[Any]], Dist[Any]]
    doc: str = ""

    @classmethod
    def kernel(cls, name: str, kernel: Kernel, doc: str = "") -> Step:
        """A step from a Markov kernel ``state -> Dist``; O(sum of output sizes)."""
        return cls(name, lambda d: d.then(kernel), doc or (kernel.__doc__ or ""))

    @classmethod
    def map(cls, name: str, f: Callable[[Any], Any], doc: str = "") -> Step:
        """A deterministic step ``state -> state``."""
        return cls(name, lambda d: d.map(f), doc or (f.__doc__ or ""))

    @classmethod
    def whole(cls, name: str, f: Callable[[Dist[Any]], Dist[Any]], doc: str = "") -> Step:
        """A step that transforms the whole distribution at once."""
        return cls(name, f, doc or (f.__doc__ or ""))

    def __call__(self, dist: Dist[Any]) -> Dist[Any]:
        return self.apply(dist)

    def __rshift__(self, other: Step | Pipeline) -> Pipeline:
        return Pipeline((self,)) >> other


@dataclass(frozen=True)
class Pipeline:
    """An ordered sequence of steps; compose with ``>>``."""

    steps: tuple[Step, ...] = ()

    def __post_init__(self) -> None:
        names = [s.name for s in self.steps]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise InputError(f"step names in a pipeline must be unique; repeated: {sorted(dup)}")

    def __rshift__(self, other: Step | Pipeline) -> Pipeline:
        if isinstance(other, Step):
            return Pipeline(self.steps + (other,))
        if isinstance(other, Pipeline):
            return Pipeline(self.steps + other.steps)
        return NotImplemented

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def names(self) -> list[str]:
        """The step names, in order."""
        return [s.name for s in self.steps]

    def run(self, start: Dist[Any] | Any) -> Run:
        """Push ``start`` (a Dist, or one certain state) through every step."""
        dist = start if isinstance(start, Dist) else Dist.constant(start)
        stages: dict[str, Dist[Any]] = {"start": dist}
        # the whole run is bounded as it grows (see work_meter), inside the caller's meter if any
        with work_meter(f"the steps {', '.join(self.names[:3])}{', ...' if len(self) > 3 else ''}"):
            for step in self.steps:
                dist = step.apply(dist)
                stages[step.name] = dist
        return Run(dist, stages)

    def __call__(self, start: Dist[Any] | Any) -> Dist[Any]:
        return self.run(start).final


@dataclass(frozen=True)
class Run:
    """The result of :meth:`Pipeline.run`: the final Dist and every stage by name.

    ``stages`` starts with ``"start"`` (the input) and then holds one entry
    per step, in order.
    """

    final: Dist[Any]
    stages: dict[str, Dist[Any]] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Dist[Any]:
        try:
            return self.stages[name]
        except KeyError:
            raise InputError(f"no stage named {name!r}; stages are {list(self.stages)}") from None

    def stage_names(self) -> list[str]:
        """The stage names, ``"start"`` first."""
        return list(self.stages)

    def marginals(self, key: Callable[[Any], Any]) -> dict[str, Dist[Any]]:
        """Each stage's distribution of ``key(state)``."""
        return {n: d.map(key) for n, d in self.stages.items()}

    # Renderings are installed by exactodds.render (see core/present.py); core imports none.
    def __repr__(self) -> str:
        shown = presenter()
        return shown.run_repr(self) if shown else f"Run({' -> '.join(self.stages)})"

    def _repr_html_(self) -> str:
        return required("an HTML table").run_html(self)

    def to_pandas(self, key: Callable[[Any], Any] | None = None) -> Any:
        """Every stage in one long pandas DataFrame with a ``stage`` column (needs pandas)."""
        return required("a DataFrame").run_to_pandas(self, key=key)

    def plot(self, key: Callable[[Any], Any] | None = None, **kwargs: Any) -> Any:
        """Plot the stages side by side (needs matplotlib)."""
        return required("a plot").plot_run(self, key=key, **kwargs)


def chain(steps: Iterable[Step]) -> Pipeline:
    """A pipeline from an iterable of steps."""
    return Pipeline(tuple(steps))


def repeat(kernel: Kernel, times: int) -> Callable[[Any], Dist[Any]]:
    """A kernel applying ``kernel`` ``times`` times (states merged in between).

    O(times x distinct states x kernel output size).
    """

    def k(state: Any) -> Dist[Any]:
        d = Dist.constant(state)
        for _ in range(times):
            d = d.then(kernel)
        return d

    return k


def iterate(count: Dist[Any], kernel: Kernel, start: Dist[Any] | Any,
            chain: list[Dist[Any]] | None = None) -> Dist[Any]:
    """Apply ``kernel`` N times to ``start``, where N is random with distribution ``count``.

    The chain is built once, D_0 = start and D_(k+1) = D_k.then(kernel), and the
    answer is the mixture sum_n P(N = n) D_n. Cost O(max N x distinct states x
    kernel branching), equal states merged after every application; this is
    how "allocate each of the N unsaved wounds in turn" is computed. The kernel
    must be pure: it is called once per distinct state and its answer reused.

    ``chain``: a list holding D_0, D_1, ... of this kernel and start from an
    earlier call (empty the first time); the D_k it holds are reused and the
    ones computed are added to it, so a later count from the same start costs
    only the mixture, O(max N x distinct states), and the applications beyond
    the longest chain so far.
    """
    if not isinstance(count, Dist):
        raise InputError(f"a repeat count must be a Dist over whole numbers (e.g. Dist.constant(3)), not {count!r}")
    bad = [n for n in count.support() if not is_whole(n) or n < 0]
    if bad:
        raise InputError(f"a repeat count must be a whole number 0 or more, not {bad[0]!r}")
    memo: dict[Any, Dist[Any]] = {}

    def once(state: Any) -> Dist[Any]:  # a pure kernel is computed once per distinct state
        d = memo.get(state)
        if d is None:
            d = memo[state] = kernel(state)
        return d

    chain_dists = [] if chain is None else chain
    if not chain_dists:
        chain_dists.append(start if isinstance(start, Dist) else Dist.constant(start))
    for _ in range(len(chain_dists) - 1, max(count.support())):
        chain_dists.append(chain_dists[-1].then(once))
    return count.then(lambda n: chain_dists[n])
