"""Reports: summary statistics with intervals (``reports.summary``), tables and charts."""
