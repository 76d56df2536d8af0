"""The register map's generated files (scripts/regs_gen.py, docs/regs.md): they match a fresh
generation from rtl/regs/pfcmmu.rdl, the Python map matches the compiled RDL register by
register and field by field, and its configuration fields, flags and drop counters are the
golden model's lists.  Each check has a negative: a hand-edited generated file, a moved
register, swapped fields."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace

from systemrdl import RDLCompiler
from systemrdl.node import RegfileNode, RegNode

from models import pfcmmu_regs
from models.mmu import REASON_NAMES
from models.mmu_pipe import CFG_FLAG_NAMES, GLOBAL_FIELDS, PG_FIELDS, QUEUE_FIELDS

ROOT = Path(__file__).resolve().parents[2]


def _regs_gen():
    spec = importlib.util.spec_from_file_location("regs_gen", ROOT / "scripts" / "regs_gen.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("regs_gen", mod)
    spec.loader.exec_module(mod)
    return mod


regs_gen = _regs_gen()


# ------------------------------------------------------------------------------ freshness

def test_generated_files_are_current():
    assert regs_gen.check() == []


def test_freshness_check_catches_a_hand_edited_file(tmp_path):
    for rel in regs_gen.GENERATED:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, tmp_path / rel)
    assert regs_gen.check(committed=tmp_path) == []
    py = tmp_path / regs_gen.PY_MAP
    text = py.read_text()
    edited = text.replace("PG_STRIDE = ", "PG_STRIDE = 2 * ", 1)
    assert edited != text
    py.write_text(edited)
    assert regs_gen.check(committed=tmp_path) == [regs_gen.PY_MAP]
    (tmp_path / regs_gen.C_HEADER).unlink()
    assert regs_gen.check(committed=tmp_path) == [regs_gen.C_HEADER, regs_gen.PY_MAP]
    assert regs_gen.main(["--check"]) == 0


# ------------------------------------------------------------------------------ against the RDL

def compiled_top():
    rdlc = RDLCompiler()
    rdlc.compile_file(str(ROOT / regs_gen.RDL))
    return rdlc.elaborate(top_def_name=regs_gen.MMU_TOP).top


def map_errors(regs, top) -> list[str]:
    """Differences between a Python map module ``regs`` and the compiled RDL ``top``: every
    register's word address (or word offset in its array entry), array base / stride / size,
    every field's bits, access and reset."""
    shift = regs.ADDR_SHIFT
    errors = []

    def compare(block: dict, block_name: str, node: RegNode, word: int) -> None:
        got = block.get(node.inst_name)
        if got is None:
            errors.append(f"{block_name}.{node.inst_name}: not in the map")
            return
        if got.offset != word:
            errors.append(f"{block_name}.{node.inst_name}: word {got.offset:#x}, RDL {word:#x}")
        want = [(f.inst_name, f.lsb, f.width, f.get_property("sw").name,
                 f.get_property("hw").name, f.get_property("reset"),
                 bool(f.get_property("twos_complement", default=False)))
                for f in sorted(node.fields(), key=lambda f: f.lsb)]
        have = [(f.name, f.lsb, f.width, f.sw, f.hw, f.reset, f.twos_complement)
                for f in got.fields]
        if have != want:
            errors.append(f"{block_name}.{node.inst_name}: fields {have}, RDL {want}")

    seen = {"GLOBALS": set()}
    for child in top.children(unroll=False):
        if isinstance(child, RegNode):
            compare(regs.GLOBALS, "GLOBALS", child, child.absolute_address >> shift)
            seen["GLOBALS"].add(child.inst_name)
        elif isinstance(child, RegfileNode):
            name = child.inst_name.upper()
            seen[name] = set()
            for attr, want in (("BASE", child.raw_absolute_address >> shift),
                               ("STRIDE", child.array_stride >> shift),
                               ("ENTRIES", child.array_dimensions[0])):
                if getattr(regs, f"{name}_{attr}", None) != want:
                    errors.append(f"{name}_{attr}: {getattr(regs, f'{name}_{attr}', None)}, "
                                  f"RDL {want}")
            for reg in child.children(unroll=False):
                compare(getattr(regs, name), name, reg, reg.address_offset >> shift)
                seen[name].add(reg.inst_name)
    for name, names in seen.items():
        extra = set(getattr(regs, name)) - names
        if extra:
            errors.append(f"{name}: {sorted(extra)} not in the RDL")
    return errors


def test_python_map_matches_the_rdl():
    top = compiled_top()
    assert map_errors(pfcmmu_regs, top) == []
    # and the parameters it says it was generated with are the RDL's defaults
    assert pfcmmu_regs.PARAMS == {p.name: p.get_value() for p in top.inst.parameters}


def _copy_map(**changes):
    regs = SimpleNamespace(**{k: v for k, v in vars(pfcmmu_regs).items()
                              if not k.startswith("__")})
    for name, value in changes.items():
        setattr(regs, name, value)
    return regs


def test_map_check_catches_a_moved_register_and_a_changed_field():
    top = compiled_top()
    moved = dict(pfcmmu_regs.GLOBALS)
    r = moved["admitted"]
    moved["admitted"] = r._replace(offset=r.offset + 1)
    assert any("admitted" in e for e in map_errors(_copy_map(GLOBALS=moved), top))
    pg = dict(pfcmmu_regs.PG)
    r = pg["alpha_shift"]
    pg["alpha_shift"] = r._replace(fields=(r.fields[0]._replace(twos_complement=False),))
    assert any("alpha_shift" in e for e in map_errors(_copy_map(PG=pg), top))
    assert any("QUEUE_STRIDE" in e for e in map_errors(_copy_map(QUEUE_STRIDE=8), top))
    extra = dict(pfcmmu_regs.QUEUE, spare=pfcmmu_regs.QUEUE["wm"])
    assert any("spare" in e for e in map_errors(_copy_map(QUEUE=extra), top))


# ------------------------------------------------------------------------------ against the model

def field_list_errors(regs) -> list[str]:
    """The map against the golden model's names: the configuration registers are
    GLOBAL_FIELDS / PG_FIELDS / QUEUE_FIELDS in that order on consecutive words (the order
    PipelinedMmu and the register image write them), per entry the configuration in the upper half
    of the entry (rtl/mmu_core_cfg.v decodes a PG or queue write by address bit 3) and the
    status in the lower; config_flags' bit k is CFG_FLAG_NAMES[k]; the drop counter of reason
    r (models.mmu.REASON_NAMES) at drop_none + r."""
    errors = []
    for block_name, block, names, stride in (
            ("GLOBALS", regs.GLOBALS, GLOBAL_FIELDS, None),
            ("PG", regs.PG, PG_FIELDS, regs.PG_STRIDE),
            ("QUEUE", regs.QUEUE, QUEUE_FIELDS, regs.QUEUE_STRIDE)):
        cfg = sorted((r for r in block.values() if r.writable), key=lambda r: r.offset)
        if [r.name for r in cfg] != list(names):
            errors.append(f"{block_name}: configuration {[r.name for r in cfg]}, model {names}")
        if [r.offset - cfg[0].offset for r in cfg] != list(range(len(cfg))):
            errors.append(f"{block_name}: configuration not on consecutive words")
        if stride is not None:
            half = stride // 2
            for r in block.values():
                if (r.offset >= half) != r.writable:
                    errors.append(f"{block_name}.{r.name}: offset {r.offset} in the "
                                  f"{'upper' if r.offset >= half else 'lower'} half")
    flags = sorted(regs.GLOBALS["config_flags"].fields, key=lambda f: f.lsb)
    if [(f.name, f.lsb, f.width) for f in flags] != [(n, k, 1) for k, n in
                                                     enumerate(CFG_FLAG_NAMES)]:
        errors.append(f"config_flags: {[(f.name, f.lsb) for f in flags]}, "
                      f"model {CFG_FLAG_NAMES}")
    base = regs.GLOBALS["drop_none"].offset
    for r, name in enumerate(REASON_NAMES):
        reg = regs.GLOBALS.get(f"drop_{name}")
        if reg is None or reg.offset != base + r:
            errors.append(f"drop_{name}: {reg and reg.offset}, want drop_none + {r}")
    return errors


def test_python_map_matches_the_model_lists():
    assert field_list_errors(pfcmmu_regs) == []


def test_model_list_check_catches_swapped_fields():
    pg = dict(pfcmmu_regs.PG)
    pg["xon"], pg["xon_offset"] = (pg["xon"]._replace(offset=pg["xon_offset"].offset),
                                   pg["xon_offset"]._replace(offset=pg["xon"].offset))
    assert any("PG: configuration" in e for e in field_list_errors(_copy_map(PG=pg)))
    g = dict(pfcmmu_regs.GLOBALS)
    r = g["config_flags"]
    swapped = tuple(f._replace(lsb=1 - f.lsb) if f.lsb < 2 else f for f in r.fields)
    g["config_flags"] = r._replace(fields=swapped)
    assert any("config_flags" in e for e in field_list_errors(_copy_map(GLOBALS=g)))
    g = dict(pfcmmu_regs.GLOBALS)
    g["drop_egress"] = g["drop_egress"]._replace(offset=g["arrivals"].offset)
    assert any("drop_egress" in e for e in field_list_errors(_copy_map(GLOBALS=g)))
    q = dict(pfcmmu_regs.QUEUE)
    q["occupancy"] = q["occupancy"]._replace(offset=pfcmmu_regs.QUEUE_STRIDE // 2 + 7)
    assert any("QUEUE.occupancy" in e for e in field_list_errors(_copy_map(QUEUE=q)))
