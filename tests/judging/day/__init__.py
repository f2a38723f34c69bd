"""The championship day as a hypothesis state machine (issue 19): `model.Day`."""
