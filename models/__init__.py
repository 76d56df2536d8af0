"""pfcmmu golden model: plain Python, no cocotb (see docs/model.md)."""

from .config import (ConfigError, MmuConfig, PgConfig, PortConfig, QueueConfig,
                     example_config)
from .mmu import Decision, Mmu, PfcEvent

__all__ = ["ConfigError", "Decision", "MmuConfig", "Mmu", "PfcEvent", "PgConfig", "PortConfig",
           "QueueConfig", "example_config"]
