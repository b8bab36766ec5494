"""The yags rule system's tests (balance/rules/yags)."""
