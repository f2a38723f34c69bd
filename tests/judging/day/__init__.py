"""The championship day as a hypothesis state machine: `model.Day`."""
