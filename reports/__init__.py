"""Reports: what a run looks like -- charts (``reports.charts``) and the report page
(``reports.report``, ``reports.page``). Nothing here computes a statistic: the numbers come from
``experiments`` (``analysis``, ``stats``, ``verdicts``)."""
