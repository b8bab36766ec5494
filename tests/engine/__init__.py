"""Tests of balance/engine."""
