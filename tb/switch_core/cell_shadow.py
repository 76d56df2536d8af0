"""Cell ownership shadow map of the switch benches (plain Python: no cocotb), fed by
tb/switch_core/sc_tb.py from the free list's pop and push handshakes."""

from __future__ import annotations


class CellShadow:
    """Ownership of every cell of the shared buffer, from the free list's pop (allocated) and
    push (freed) handshakes: a cell is handed out only while free and returned only while
    allocated; at the end the only allocated cells are the ports' spares.  The first fault is
    kept and reported by check (a double allocation, a double free, a leak)."""

    def __init__(self, cells: int):
        self.owned = [False] * cells
        self.faults: list[str] = []
        self.allocs = 0
        self.frees = 0

    def allocate(self, cell: int | None) -> None:
        self.allocs += 1
        if cell is None:
            self.faults.append("a cell with unknown (X) bits allocated")
        elif cell >= len(self.owned):
            self.faults.append(f"cell {cell} allocated, beyond the buffer")
        elif self.owned[cell]:
            self.faults.append(f"cell {cell} allocated twice")
        else:
            self.owned[cell] = True

    def free(self, cell: int | None) -> None:
        self.frees += 1
        if cell is None:
            self.faults.append("a cell with unknown (X) bits freed")
        elif cell >= len(self.owned):
            self.faults.append(f"cell {cell} freed, beyond the buffer")
        elif not self.owned[cell]:
            self.faults.append(f"cell {cell} freed twice (or never allocated)")
        else:
            self.owned[cell] = False

    def check_drained(self, spares: set[int]) -> None:
        assert not self.faults, f"cell ownership: {self.faults[:5]}"
        held = {c for c, o in enumerate(self.owned) if o}
        assert held == spares, f"cells leaked: {sorted(held - spares)[:10]} " \
                               f"(spares {sorted(spares)})"
