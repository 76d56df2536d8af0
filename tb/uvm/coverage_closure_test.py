"""Last test of the regression: asserts that the coverage grid (cov_db.required_bins) is
closed over every test that ran before it in this simulator process.  Runs no traffic."""

from __future__ import annotations

from pyuvm import uvm_test

from .cov_db import CovDb


class CoverageClosureTest(uvm_test):
    async def run_phase(self):
        self.raise_objection()
        self.drop_objection()

    def check_phase(self):
        self.logger.info("regression %s", CovDb.report())
        missing = CovDb.missing()
        assert not missing, f"coverage not closed, missing {missing}"
