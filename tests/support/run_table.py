"""A whole (small) run folder as one pandas table, for tests that compare tables row by row.

The tool itself never loads a run whole (``experiments.verdicts.analysis`` reads it chunk by chunk);
tests make runs of a few thousand games, where a table in memory is the plainest check.
"""
from __future__ import annotations

from pathlib import Path

from experiments.store.runs import finished_chunks


def load_run(path: str | Path, columns: list[str] | None = None, games: int | None = None):
    """Every finished game of a run folder as one table, in grid order (setting, then game),
    and a per-setting account ``{label: (games present, games asked)}``. Chunks whose footer
    does not match the manifest (left by an interrupted sweep) are not read. ``columns``: read
    only these (``setting`` and ``game`` always), which keeps a large run in memory;
    ``games``: only the first ``games`` games of each setting."""
    import pandas as pd
    import pyarrow.dataset as ds
    files, account = finished_chunks(path, games)
    labels = list(files)
    paths = [p for label in labels for p in files[label]]
    if not paths:
        return pd.DataFrame(), account
    dataset = ds.dataset(paths, format="parquet")
    if columns is not None:
        columns = ["setting", "game"] + [c for c in columns if c not in ("setting", "game")
                                         and c in dataset.schema.names]
    table = dataset.to_table(columns=columns)
    if games is not None:
        import pyarrow.compute as pc
        table = table.filter(pc.less(table["game"], games))
    df = table.to_pandas()
    df["setting"] = pd.Categorical(df["setting"].astype(str), categories=labels)
    df = df.sort_values(["setting", "game"], kind="stable").reset_index(drop=True)
    return df, account
