"""The percentile rule system's tests (balance/rules/percentile)."""
