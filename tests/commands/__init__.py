"""Tests of balance/commands."""
