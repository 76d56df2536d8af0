"""Shared helpers for the model tests; hypothesis kept small (whole suite < 60 s on 2 cores)."""

from hypothesis import HealthCheck, settings

settings.register_profile("models", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("models")
