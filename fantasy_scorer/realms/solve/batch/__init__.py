"""Compiled batch scoring: the evaluator's effect objects as integer tables, run by Numba."""
