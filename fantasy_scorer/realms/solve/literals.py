"""Boolean algebra over CP-SAT literals with constant folding and sharing.

Most facts about a card are known before solving (its printed name, a suit nobody can change
when Book of Changes is out of the game), so every helper accepts Python ``True``/``False``
as well as model literals and folds them away: the model only grows where a choice or a
blank can really change something. Identical conjunctions and disjunctions are built once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ortools.sat.python import cp_model

Lit = Any  # True, False or a CP-SAT boolean literal (Any: 3.10 cannot write bool | Any)


def key(lit: Any) -> int:
    return lit.index


class Logic:
    """Builds reified AND/OR literals in one model, sharing identical ones."""

    def __init__(self, model: cp_model.CpModel) -> None:
        self.m = model
        self._cache: dict[tuple, Any] = {}

    def new(self, name: str = "") -> Any:
        return self.m.new_bool_var(name)

    @staticmethod
    def neg(lit: Lit) -> Lit:
        if lit is True:
            return False
        if lit is False:
            return True
        return ~lit

    def and_(self, lits: Iterable[Lit]) -> Lit:
        out = []
        for lit in lits:
            if lit is False:
                return False
            if lit is not True:
                out.append(lit)
        return self._join("and", out, True)

    def or_(self, lits: Iterable[Lit]) -> Lit:
        out = []
        for lit in lits:
            if lit is True:
                return True
            if lit is not False:
                out.append(lit)
        return self._join("or", out, False)

    def _join(self, op: str, lits: list, empty: bool) -> Lit:
        uniq = {key(lit): lit for lit in lits}
        if not uniq:
            return empty
        if len(uniq) == 1:
            return next(iter(uniq.values()))
        if any(-k - 1 in uniq for k in uniq):  # x and not x
            return not empty
        k = (op, *sorted(uniq))
        hit = self._cache.get(k)
        if hit is not None:
            return hit
        lits = list(uniq.values())
        b = self.m.new_bool_var(op)
        if op == "and":
            self.m.add_bool_and(lits).only_enforce_if(b)
            self.m.add_bool_or([~lit for lit in lits] + [b])
        else:
            self.m.add_bool_or(lits).only_enforce_if(b)
            self.m.add_bool_and([~lit for lit in lits]).only_enforce_if(~b)
        self._cache[k] = b
        return b

    def implies(self, a: Lit, b: Lit) -> None:
        """Post ``a → b``."""
        if a is False or b is True:
            return
        if a is True:
            if b is False:
                self.m.add_bool_or([])  # infeasible
            else:
                self.m.add_bool_or([b])
            return
        if b is False:
            self.m.add_bool_or([~a])
        else:
            self.m.add_implication(a, b)

    def equal(self, a: Lit, b: Lit) -> None:
        self.implies(a, b)
        self.implies(b, a)

    def value(self, solver: cp_model.CpSolver, lit: Lit) -> bool:
        if isinstance(lit, bool):
            return lit
        return bool(solver.boolean_value(lit))
