"""The ymlad rule system's tests (balance/rules/ymlad)."""
