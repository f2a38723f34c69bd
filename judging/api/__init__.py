"""HTTP API for the judges and the head judge: one module per concept (clock, finishes,
counts, discipline, requests, tablets, objections), mounted by `judging/urls_api.py`.

The contract (docs/contracts.md "The HTTP API"): 400 with field errors for a request that could
never be right, 409 `{detail, code}` when the rules refuse it now, 422 for a request id reused with
a different body, and an idempotent replay answers 200 with `Idempotent-Replayed: true`.
Every write goes through the services; a refused request writes nothing.
"""
