"""Validating simulator outputs against the exact answer.

- :func:`validate` (``exactodds validate``): goodness of fit of a
  simulator's samples to a query's exact distribution, explained; for an
  engagement, each unit's marginal and headline figures too, Holm-corrected
  (:mod:`.family`);
- :func:`read_samples`, :class:`Samples`, :func:`write_samples`: sample
  files (CSV or JSON lines, streamed);
- :func:`total_variation`, :func:`ks_distance`, :func:`cramer_von_mises`:
  exact distances between two Dists, or a Dist and samples;
- :func:`detection_power`, :func:`samples_needed`, :func:`effect_size`: how
  many samples catch a given bug.

Interface layer: scipy is imported only inside the functions that use it.
"""

from .api import validate
from .distances import cramer_von_mises, distances, ks_distance, total_variation
from .power import binomial_test_power, detection_power, effect_size, samples_needed
from .result import OutcomeRow, ValidationResult
from .samples import ImpossibleOutcome, Samples, read_samples, samples_csv, write_samples

__all__ = [
    "validate", "ValidationResult", "OutcomeRow",
    "Samples", "ImpossibleOutcome", "read_samples", "write_samples", "samples_csv",
    "total_variation", "ks_distance", "cramer_von_mises", "distances",
    "detection_power", "samples_needed", "effect_size", "binomial_test_power",
]
