"""Random mixed traffic from one port: random destination (never itself), priority, size
(big frames rare), a few untagged frames; reproducible from env_cfg.rng (the printed seed)."""

from __future__ import annotations

from .frame_list_seq import FrameListSeq

SIZES = [64, 64, 65, 100, 128, 200, 256, 400, 512, 700, 1024, 1280, 1518, 1519, 1800, 2048,
         3000]
JUMBO = [4096, 9216]


def random_specs(rng, sport: int, ports: int, count: int, prios=range(8), jumbo_every: int = 60,
                 untagged_every: int = 25, dests=None) -> list[dict]:
    specs = []
    dests = [d for d in (dests or range(ports)) if d != sport]
    for n in range(count):
        size = rng.choice(JUMBO) if jumbo_every and rng.randrange(jumbo_every) == 0 \
            else rng.choice(SIZES)
        specs.append({"dest": rng.choice(dests), "prio": rng.choice(list(prios)),
                      "wire_len": size,
                      "tagged": not (untagged_every and rng.randrange(untagged_every) == 0)})
    return specs


class RandomTrafficSeq(FrameListSeq):
    def __init__(self, name: str = "random", sport: int = 0, count: int = 50, env_cfg=None,
                 **kw) -> None:
        specs = random_specs(env_cfg.rng, sport, env_cfg.port_count, count, **kw)
        super().__init__(name, sport, specs, env_cfg)
