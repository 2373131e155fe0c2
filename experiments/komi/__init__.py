"""The komi screen and komi tables (RULES.md C1): ``screen`` (every score bonus of a grid read
from a run's stored scores and tie-break keys), ``tables`` (each seat's share against its own
bonus, and the fair bonus where it crosses 1/N)."""
